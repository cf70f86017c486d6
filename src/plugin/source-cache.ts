/**
 * Memoises the static reading of config and scorer files by size and modification time: in memory
 * while a watch build or dev server runs, so a rebuild or rescan only reads what changed, and on disk
 * between processes when a store is set (reading-store.ts), so the next build does the same.
 */
import fs from 'node:fs';
import { analysersFor, type Analysers } from '../core/plan.js';
import { listFolder, type FolderEntry } from '../core/scan.js';
import { fileStamp, isRacy, loadReadings, readingKey, saveReadings, type Reading, type ReadingKind } from './reading-store.js';

export function createSourceCache() {
  const known = new Set<string>();
  const cache = new Map<string, Reading>();
  /** Off in one-shot builds without a store: each file is read once anyway, and a stat per file costs ~5 µs. */
  let enabled = true;
  let store: { file: string; root: string } | null = null;
  /** The stored readings, loaded on first use; null until then. */
  let stored: Map<string, Reading> | null = null;
  /** The readings the current plan used: what the store holds next (deleted files drop out). */
  let used = new Map<string, Reading>();
  let changed = false;
  /** Something the current plan rests on cannot be proven unchanged by a stat later (racy, a link, no folder). */
  let untrusted = false;
  /** The readings the last plan rested on, when a stat can vouch for each of them later: see `inputs`. */
  let trusted: Map<string, Reading> | null = null;
  const storedReadings = (where: NonNullable<typeof store>) => (stored ??= loadReadings(where.file, where.root));

  function memo<T>(kind: ReadingKind, compute: (p: string) => T): (p: string) => T {
    return (p) => {
      if (!enabled && store === null) return compute(p);
      const readAt = Date.now();
      const stat = fs.statSync(p);
      const stamp = fileStamp(stat);
      const key = readingKey(kind, p);
      let reading = cache.get(key);
      if (reading === undefined && store !== null) reading = storedReadings(store).get(key);
      if (reading === undefined || reading.stamp !== stamp) {
        reading = { stamp, value: compute(p), racy: isRacy(stat, readAt) };
        changed = true;
      }
      if (reading.racy) untrusted = true;
      if (enabled) cache.set(key, reading);
      if (store !== null) used.set(key, reading);
      return reading.value as T;
    };
  }

  const raw = analysersFor((p) => fs.readFileSync(p, 'utf8'));
  /** The static reading of configs and scorer files, memoised while caching is on. */
  const analysers: Analysers = { config: memo('config', raw.config), scorer: memo('scorer', raw.scorer) };

  /**
   * A folder's listing, from the store while the folder's stamp holds (a stat instead of a readdir, which
   * costs ~20 µs a folder, 40 ms at 1,000 agents). Kept only when it can be trusted later: no entry is a
   * symlink (its target can change behind an unchanged folder) or an unreadable name, and the folder
   * was not read within seconds of its last modification. Only such listings are reused, in this
   * process too (a dev server's rescans), so a fresh folder is always listed afresh.
   */
  function list(dir: string): readonly FolderEntry[] | null {
    if (store === null) return listFolder(dir);
    const readAt = Date.now();
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) {
      untrusted = true;
      return listFolder(dir);
    }
    const stamp = fileStamp(stat);
    const key = readingKey('folder', dir);
    const kept = storedReadings(store).get(key);
    if (kept !== undefined && kept.stamp === stamp) {
      used.set(key, kept);
      return kept.value as FolderEntry[];
    }
    changed = true;
    const entries = listFolder(dir);
    if (entries !== null && !isRacy(stat, readAt) && !entries.some((e) => e.isLink || e.unreadable)) {
      used.set(key, { stamp, value: entries });
    } else {
      untrusted = true;
    }
    return entries;
  }

  return {
    /** Lists folders for the scan, from the store where it holds them. */
    list,
    /** In-memory caching pays only when files are read again: dev servers and watch mode. */
    setCaching(on: boolean): void {
      enabled = on;
      if (!on) cache.clear();
    },
    /** Keep readings in `file` between processes (paths in it relative to `root`); null keeps none. */
    setStore(file: string | null, root: string): void {
      store = file === null ? null : { file, root };
      stored = null;
      trusted = null;
      used = new Map();
      changed = false;
    },
    /** After a plan: writes the store when a reading changed or a file went away. */
    flush(): void {
      trusted = null;
      if (store === null) return;
      if (stored !== null && (changed || stored.size !== used.size)) saveReadings(store.file, store.root, used);
      if (!untrusted) trusted = used;
      stored = used;
      used = new Map();
      changed = false;
      untrusted = false;
    },
    /**
     * The folders listed and files read by the last plan, and the store itself, with their stamps:
     * while every stamp holds, that plan's outcome holds (outcome-store.ts). Null when any of them
     * could change unseen by a stat (read just after a modification, a symlink, a missing folder) or
     * nothing is stored.
     */
    inputs: (): ReadonlyArray<readonly [string, string]> | null => (trusted === null || store === null ? null : inputsOf(trusted, store.file)),
    analysers,
    /** Files our generated modules import: resolved by us without asking the host. */
    rememberFile(p: string): void {
      known.add(p);
    },
    isKnownFile: (p: string): boolean => known.has(p),
  };
}

/** Paths and stamps of `readings` (keys `kind\0path`), then of the store file, or null when it is missing. */
function inputsOf(readings: Map<string, Reading>, storeFile: string): Array<[string, string]> | null {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(storeFile, { throwIfNoEntry: false });
  } catch {
    return null; // unreadable (EACCES): nothing to vouch for the readings
  }
  if (!stat) return null;
  const inputs: Array<[string, string]> = [];
  for (const [key, reading] of readings) inputs.push([key.slice(key.indexOf('\0') + 1), reading.stamp]);
  inputs.push([storeFile, fileStamp(stat)]);
  return inputs;
}

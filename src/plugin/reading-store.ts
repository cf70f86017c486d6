/**
 * The static readings of configs and scorer files, kept on disk between processes (option `cache`).
 * A cold build spends most of its own time reading and reading into 10,000 small files, and V8 runs
 * that code before it has warmed up; a stat per file is a fraction of it (measured in bench/).
 *
 * A reading is reused only when the file's stamp (size, modification and change times, device and
 * inode: source-cache.ts) is what it was (a folder's listing when the folder's is: adding, deleting or
 * renaming an entry changes it), the
 * readers are the very same code (the stamps of this package's manifest, its reader modules and
 * oxc-parser's entry), and the file was not read within a few seconds of its last modification: a
 * file system stamps times in ticks (ext4 in jiffies, FAT in 2 s), so a second edit within one tick
 * that keeps the size would otherwise go unseen (git calls this "racily clean").
 *
 * Never in the way: a missing, unreadable, corrupt or foreign file is an empty store, and a failed
 * write is ignored (read-only checkouts, sandboxed CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigAnalysis } from '../core/analyze-config.js';
import { relativeTo, toPosix } from '../core/scan.js';

/** A config's or scorer file's static reading, or a folder's listing (scan.ts `listFolder`). */
export type ReadingKind = 'config' | 'scorer' | 'folder';
/** A reading and the file's stamp when it was read. */
export interface Reading {
  stamp: string;
  value: unknown;
  /** The file was modified within RACY_MS before it was read: used in this process, never stored. */
  racy?: boolean;
}

/**
 * What must hold for a reading to be reused: size and modification time, and the change time and
 * inode, which no tool sets back (`touch -r`, `cp -p`, `tar -x` and `mv` of another file keep or copy an
 * mtime, not these).
 */
export const fileStamp = (stat: fs.Stats): string => `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.dev}:${stat.ino}`;

/** Files read this soon (ms) after their last modification are read again next time. */
const RACY_MS = 3000;
/** Read within RACY_MS of its last modification: a second edit in the same tick could still follow unseen. */
export const isRacy = (stat: { mtimeMs: number }, readAt: number): boolean => stat.mtimeMs > readAt - RACY_MS;
const FORMAT = 1;
/** The modules whose code decides a reading or a kept outcome (outcome-store.ts), beside this package's version. */
const READERS = ['analyze-config.js', 'analyze-scorer.js', 'ast.js', 'light-parse.js', 'skeleton.js', 'codes.js', 'scan.js', 'plan.js', 'codegen.js', 'dts.js', 'manifest.js', 'options.js'];

let readersVersion: string | null = null;
/** Computed once per process, and only when a store is used: stamps of the code that reads. */
export function version(): string {
  if (readersVersion !== null) return readersVersion;
  const here = path.dirname(fileURLToPath(import.meta.url));
  // This very file too: the published Vite/Rollup/Rolldown entries carry the readers inlined.
  const files = [fileURLToPath(import.meta.url), path.join(here, '../../package.json'), ...READERS.map((name) => path.join(here, '../core', name))];
  // oxc-parser reads; picomatch decides `exclude`, so which files a kept outcome holds.
  for (const dependency of ['oxc-parser', 'picomatch']) {
    try {
      files.push(fileURLToPath(import.meta.resolve(dependency)));
    } catch {
      files.push(`(${dependency} not resolvable)`); // stamped as absent below
    }
  }
  const parts = [String(FORMAT)];
  for (const file of files) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    parts.push(stat ? `${stat.size}:${stat.mtimeMs}` : '-');
  }
  return (readersVersion = parts.join('|'));
}

/** `[kind, root-relative POSIX path, stamp, index into values]`: most files read alike, so values are shared. */
type Stored = [kind: ReadingKind, file: string, stamp: string, value: number];

const encode = (kind: ReadingKind, value: unknown): unknown =>
  kind === 'config' ? { ...(value as ConfigAnalysis), sampling: [...(value as ConfigAnalysis).sampling] } : value;
const decode = (kind: ReadingKind, value: unknown): unknown =>
  kind === 'config' ? { ...(value as object), sampling: new Map((value as { sampling: Array<[string, unknown]> }).sampling) } : value;

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
/** The shape each kind has, so a file that is JSON but not ours is refused rather than crashing a build later. */
const WELL_FORMED: Record<ReadingKind, (v: unknown) => boolean> = {
  scorer: (v) => isObject(v) && typeof v.hasDefault === 'boolean' && isObject(v.sampling) && typeof v.sampling.kind === 'string' && typeof v.shape === 'string' && (v.problem === null || isObject(v.problem)),
  config: (v) => isObject(v) && typeof v.kind === 'string' && Array.isArray(v.keys) && v.keys.every((k) => typeof k === 'string') && typeof v.open === 'boolean' && v.sampling instanceof Map && Array.isArray(v.problems),
  folder: (v) => Array.isArray(v) && v.every((e) => isObject(e) && typeof e.name === 'string' && typeof e.isDir === 'boolean' && typeof e.isFile === 'boolean'),
};

/** POSIX paths on every system: scan hands folders over in the system's form, files in POSIX form. */
export const readingKey = (kind: ReadingKind, file: string): string => `${kind}\0${toPosix(file)}`;
/** Root and a relative POSIX path, in POSIX form (a concatenation on POSIX systems). */
const under = (root: string, relative: string): string =>
  path.sep === '/' && !relative.startsWith('../') ? `${root === '/' ? '' : root}/${relative}` : path.posix.join(toPosix(root), relative);

/** The readings kept in `file` for files under `root`, by `readingKey`; empty when there are none to trust. */
export function loadReadings(file: string, root: string): Map<string, Reading> {
  const readings = new Map<string, Reading>();
  let data: { version?: unknown; values?: unknown; entries?: unknown };
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof data;
  } catch {
    return readings;
  }
  if (data.version !== version() || !Array.isArray(data.entries) || !Array.isArray(data.values)) return readings;
  const values = data.values as unknown[];
  const decoded = new Map<string, unknown>();
  try {
    for (const entry of data.entries as Stored[]) {
      const [kind, relative, stamp, index] = entry;
      if ((kind !== 'config' && kind !== 'scorer' && kind !== 'folder') || typeof relative !== 'string' || typeof stamp !== 'string') return new Map();
      if (!Number.isInteger(index) || index < 0 || index >= values.length || values[index] === null || typeof values[index] !== 'object') return new Map();
      // Shared by the files that read alike; readers never mutate a reading.
      const id = `${kind}${index}`;
      let value = decoded.get(id);
      if (value === undefined) {
        decoded.set(id, (value = decode(kind, values[index])));
        if (!WELL_FORMED[kind](value)) return new Map();
      }
      readings.set(readingKey(kind, under(root, relative)), { stamp, value });
    }
  } catch {
    return new Map(); // not what this version writes
  }
  return readings;
}

/** Writes the readings (atomically: a temp file renamed over the old one), leaving out racy ones. */
export function saveReadings(file: string, root: string, readings: Map<string, Reading>): void {
  const entries: Stored[] = [];
  const values: string[] = [];
  const indexOf = new Map<string, number>();
  for (const [key, reading] of readings) {
    if (reading.racy) continue;
    const cut = key.indexOf('\0');
    const kind = key.slice(0, cut) as ReadingKind;
    const json = JSON.stringify(encode(kind, reading.value));
    let index = indexOf.get(json);
    if (index === undefined) {
      indexOf.set(json, (index = values.length));
      values.push(json);
    }
    entries.push([kind, relativeTo(root, key.slice(cut + 1)), reading.stamp, index]);
  }
  // Nothing to keep (every file fresh, or none left): no file, rather than an empty one per tree.
  if (entries.length === 0) return void remove(file);
  entries.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : 1));
  writeAtomically(file, `{"version":${JSON.stringify(version())},"values":[${values.join(',')}],"entries":${JSON.stringify(entries)}}`);
}

/** A temp file renamed over `file`, so a reader sees the old text or the new, never half; failures ignored. */
export function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
  } catch {
    remove(temp);
  }
}

export function remove(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // read-only: nothing kept there anyway
  }
}

/**
 * Where `cache: true` keeps the readings without a Vite `cacheDir`: the nearest
 * `node_modules/.cache/agent-scorers/` above `root` (the folder build tools share), or nowhere.
 */
export function defaultReadingsFolder(root: string): string | null {
  for (let dir = root; ; ) {
    let found = false;
    try {
      found = fs.statSync(path.join(dir, 'node_modules'), { throwIfNoEntry: false })?.isDirectory() === true;
    } catch {
      // unreadable (EACCES, ELOOP): look further up
    }
    if (found) return path.join(dir, 'node_modules', '.cache', 'agent-scorers');
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

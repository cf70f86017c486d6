/**
 * A one-shot build's whole outcome, kept beside the readings (option `cache`): the registry module's
 * code, its diagnostics, the manifest and the declarations. The next build of an unchanged tree
 * checks a stamp per input and serves the code as it is: no scan, no plan, no codegen, and none
 * of the readings loaded (at 1,000 agents those cost ~70 ms of a build's CPU; the stats ~30 ms).
 *
 * The inputs are what the plan rested on (source-cache.ts `inputs`): every folder it listed, every
 * file it read, and the readings file itself, so a store edited or rewritten since is read instead.
 * The fingerprint holds everything else the code depends on (options, host form of the imports,
 * the helper's path); the readers' and generators' own version is in the file name (tree.ts).
 *
 * Like the readings: a missing, corrupt or foreign file is no outcome, a failed write is ignored.
 */
import fs from 'node:fs';
import type { Diagnostic } from '../core/codes.js';
import { fileStamp, isObject, writeAtomically } from './reading-store.js';

export { remove as removeOutcome } from './reading-store.js';

export interface Outcome {
  /** The registry module (inline form). */
  code: string;
  /** Warnings only: a plan with errors is never kept (the build stopped). */
  diagnostics: Diagnostic[];
  /** The manifest's JSON text, when option `manifest` asks for the asset. */
  manifest: string | null;
  /** The declaration file's text, when option `dts` names one. */
  dts: string | null;
  /** The files the code imports by absolute path (resolved by the plugin without asking the host). */
  imported: string[];
}

interface Stored extends Outcome {
  fingerprint: string;
  inputs: Array<[string, string]>;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The outcome kept in `file` for `fingerprint`, if every input's stamp still holds; else null. */
export function loadOutcome(file: string, fingerprint: string): Outcome | null {
  let data: Partial<Stored>;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Stored>;
  } catch {
    return null;
  }
  if (!isObject(data) || data.fingerprint !== fingerprint) return null;
  const { code, diagnostics, manifest, dts, imported, inputs } = data;
  const textOrNull = (v: unknown) => v === null || typeof v === 'string';
  if (typeof code !== 'string' || !textOrNull(manifest) || !textOrNull(dts) || !isStringArray(imported)) return null;
  if (!Array.isArray(diagnostics) || !diagnostics.every((d) => isObject(d) && typeof d.code === 'string' && typeof d.message === 'string')) return null;
  if (!Array.isArray(inputs) || inputs.length === 0) return null;
  for (const input of inputs) {
    if (!Array.isArray(input) || typeof input[0] !== 'string' || typeof input[1] !== 'string') return null;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(input[0], { throwIfNoEntry: false });
    } catch {
      return null; // unreadable now (EACCES, ELOOP)
    }
    if (stat === undefined || fileStamp(stat) !== input[1]) return null;
  }
  return { code, diagnostics: diagnostics as Diagnostic[], manifest: manifest ?? null, dts: dts ?? null, imported };
}

/** Keeps `outcome` for the next build. */
export function saveOutcome(file: string, fingerprint: string, inputs: ReadonlyArray<readonly [string, string]>, outcome: Outcome): void {
  writeAtomically(file, JSON.stringify({ fingerprint, ...outcome, inputs }));
}

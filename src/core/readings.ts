/**
 * What the static readings of scorer files and configs say (analyze-scorer.ts, analyze-config.ts,
 * quick-read.ts), and a `sampling` written as a literal in an entry object (`{ scorer, sampling: {
 * type: 'ratio', rate: 0.5 } }`), read the same way in a scorer file's default export and in a config's
 * `scorers` record.
 */
import type { ObjectExpression } from 'oxc-parser';
import { NOT_LITERAL, evalLiteral, lookupProperty, type ModuleScope } from './ast.js';
import { samplingProblem } from './codes.js';

export type Sampling = { type: 'none' } | { type: 'ratio'; rate: number };
/** A literal sampling value as written. */
export type StaticSampling =
  | { kind: 'absent' }
  | { kind: 'valid'; value: Sampling }
  | { kind: 'invalid'; detail: string }
  | { kind: 'unknown' };

/**
 * How a file is read: `quick` tries quick-read.ts first, then the general reader (light-parse.ts, or
 * oxc-parser over the skeleton), then the whole source; `skeleton` skips the quick reader; `full` reads
 * the whole source only. The tests compare the three readings.
 */
export type Reading = 'quick' | 'skeleton' | 'full';

export interface ScorerFileAnalysis {
  /** false only when the module evidently has no default export (ESM syntax present and no default export of any form). */
  hasDefault: boolean;
  /** A statically visible problem with the default export, else null. */
  problem: null | { code: 'SCORER_INVALID_EXPORT'; detail: string } | { code: 'SCORER_INVALID_SAMPLING'; detail: string };
  /** The literal sampling of an entry default export where statically known. */
  sampling: StaticSampling;
  /** What the default export evidently is. */
  shape: 'scorer' | 'entry' | 'unknown';
}

/**
 * The two readings most files get, shared and frozen (a build reads thousands of files, and each
 * reading is kept with its plan): a default export whose value is not evident, and a scorer object.
 */
export const UNKNOWN_EXPORT: ScorerFileAnalysis = Object.freeze({ hasDefault: true, problem: null, sampling: Object.freeze({ kind: 'unknown' }), shape: 'unknown' });
export const SCORER_EXPORT: ScorerFileAnalysis = Object.freeze({ hasDefault: true, problem: null, sampling: Object.freeze({ kind: 'absent' }), shape: 'scorer' });

/** A `config.scorers` value that can evidently never work (CONFIG_INVALID_SCORERS). */
export interface ConfigProblem {
  /** The record key whose value is wrong, or null when `config.scorers` itself is. */
  key: string | null;
  /** What the value evidently is, e.g. 'a number'. */
  detail: string;
}

export interface ConfigAnalysis {
  /**
   * How config.scorers is seen: none (evidently absent), record, function, unknown (not statically
   * evident); 'agent' when the default export is a `new Agent({...})`, used as it is (Mastra's rule).
   */
  kind: 'none' | 'record' | 'function' | 'unknown' | 'agent';
  /** For 'record': keys written literally, in JS own-key creation order (first position kept), deduplicated. */
  keys: string[];
  /** For 'record': spreads or non-literal computed keys may add keys at run time. */
  open: boolean;
  /** For 'record': per literal key, the statically known sampling of its entry. A Map, so any key is safe. */
  sampling: Map<string, StaticSampling>;
  /** Evidently invalid values: config.scorers itself (kind 'unknown') or record values (kind 'record'). */
  problems: ConfigProblem[];
}

// Shared and frozen: callers read these, they never own them.
const UNKNOWN: StaticSampling = Object.freeze({ kind: 'unknown' });
const ABSENT: StaticSampling = Object.freeze({ kind: 'absent' });

/**
 * null when `value` is an allowed sampling (or undefined, i.e. absent), else the problem in words.
 * Extra properties are tolerated, as at run time.
 */
export const describeSamplingProblem = (value: unknown): string | null => samplingProblem(value);

/** The sampling of an entry object literal: its `sampling` property as it will be at run time. */
export function readSampling(entry: ObjectExpression, scope: ModuleScope): StaticSampling {
  const lookup = lookupProperty(entry, 'sampling', scope);
  if (lookup.kind === 'missing') return ABSENT;
  if (lookup.kind === 'unknown') return UNKNOWN;
  const property = lookup.property;
  if (property.kind !== 'init' || property.method) return UNKNOWN;
  const value = evalLiteral(property.value, scope);
  if (value === NOT_LITERAL) return UNKNOWN;
  if (value === undefined) return ABSENT;
  const detail = describeSamplingProblem(value);
  if (detail !== null) return { kind: 'invalid', detail };
  const { type, rate } = value as { type: string; rate?: number };
  return { kind: 'valid', value: type === 'none' ? { type: 'none' } : { type: 'ratio', rate: rate as number } };
}


/**
 * A `sampling` written as a literal in an entry object (`{ scorer, sampling: { type: 'ratio', rate: 0.5 } }`),
 * read the same way in a scorer file's default export and in a config's `scorers` record.
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


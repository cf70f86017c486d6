import { samplingProblem, type Sampling } from './registry.js';
import { hashToUnitInterval } from './sha256.js';

export interface SamplingContext {
  /** The trace being scored; when present it decides, so every scorer of one trace agrees. */
  traceId?: string | null;
  /** Used when there is no trace id. */
  runId: string;
}

/**
 * Whether a scorer (or `{ scorer, sampling }` entry) should run for this trace/run.
 *
 * - no `sampling` or `{ type: 'none' }`: always runs;
 * - `{ type: 'ratio', rate }`: runs when `sha256(traceId ?? runId)`'s first 6 bytes / 2^48 < rate.
 *   The same id always gets the same decision, and the ids selected at a lower rate are a subset
 *   of those selected at a higher one. Same function as Mastra >= 1.63, so decisions agree.
 *
 * Invalid sampling throws instead of silently skipping (or silently running) the scorer.
 */
export function shouldSample(
  entry: { sampling?: Sampling | unknown } | Record<string, unknown> | null | undefined,
  context: SamplingContext,
): boolean {
  const sampling = entry && typeof entry === 'object' && 'sampling' in entry ? entry.sampling : undefined;
  const problem = samplingProblem(sampling);
  if (problem) throw new TypeError(`shouldSample: ${problem}`);
  if (sampling === undefined || (sampling as Sampling).type === 'none') return true;
  const { rate } = sampling as { type: 'ratio'; rate: number };
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const key = context?.traceId ?? context?.runId;
  // As Mastra: any string decides, the empty one included.
  if (typeof key !== 'string') throw new TypeError('shouldSample: ratio sampling needs a traceId or runId (a string) to decide on');
  return hashToUnitInterval(key) < rate;
}

/**
 * Thresholds as `@mastra/core` 1.71 defines them: a number is a minimum, `{ min?, max? }` a band, both
 * within [0, 1]. The messages are Mastra's own, word for word, so a configuration that Mastra refuses
 * is refused here with the same words (the differential test compares them).
 */

/** A number is a minimum (the mean passes at or above it); `{ min?, max? }` bounds the mean on either side. */
export type ThresholdConfig = number | { readonly min?: number; readonly max?: number };

/** Thrown for a threshold Mastra would refuse. `id` is Mastra's error id for the same case. */
export class InvalidThresholdError extends TypeError {
  readonly id = 'INVALID_SCORER_THRESHOLD';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidThresholdError';
  }
}

function checkBound(value: unknown, label: 'Minimum' | 'Maximum', scorerId: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidThresholdError(
      `${label} threshold for scorer "${scorerId}" must be a finite number between 0 and 1, got ${String(value)}`,
    );
  }
}

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/** Throws `InvalidThresholdError` where Mastra's `validateThresholdConfig` throws, in the same order. */
export function validateThreshold(threshold: unknown, scorerId: string): asserts threshold is ThresholdConfig {
  if (typeof threshold === 'number') return checkBound(threshold, 'Minimum', scorerId);
  if (typeof threshold !== 'object' || threshold === null || Array.isArray(threshold)) {
    throw new InvalidThresholdError(
      `Threshold for scorer "${scorerId}" must be a number or an object with min/max bounds, got ${kindOf(threshold)}`,
    );
  }
  const { min, max } = threshold as { min?: unknown; max?: unknown };
  if (min === undefined && max === undefined) {
    throw new InvalidThresholdError(`Threshold for scorer "${scorerId}" must specify at least one of min or max`);
  }
  if (min !== undefined) checkBound(min, 'Minimum', scorerId);
  if (max !== undefined) checkBound(max, 'Maximum', scorerId);
  if (min !== undefined && max !== undefined && (min as number) > (max as number)) {
    throw new InvalidThresholdError(`Threshold for scorer "${scorerId}" has min (${String(min)}) greater than max (${String(max)})`);
  }
}

/** Whether a mean meets a threshold. A mean that is not finite never does. */
export function meetsThreshold(score: number, threshold: ThresholdConfig): boolean {
  if (!Number.isFinite(score)) return false;
  if (typeof threshold === 'number') return score >= threshold;
  if (threshold.min !== undefined && score < threshold.min) return false;
  if (threshold.max !== undefined && score > threshold.max) return false;
  return true;
}

/**
 * A comparison is of whole runs: a shard holds a share of the items, so a shard compared with a whole
 * run (or with another shard) would leave most items out and could still pass. `checkComparable`
 * refuses those pairs before anything is compared; a shard compared with the same shard of a baseline
 * (same index and count) pairs the same items and is allowed, and the report says it is a shard.
 */
import type { ReportInput, ReportShard } from './result.js';

const shardName = (shard: ReportShard) => `shard ${shard.index} of ${shard.count}`;

/**
 * Throws a TypeError, asking to merge the shards first, when `result` and `baseline` are not both whole
 * runs or the same shard (index and count) of two runs.
 */
export function checkComparable(result: Pick<ReportInput, 'shard'>, baseline: Pick<ReportInput, 'shard'>): void {
  const now = result.shard;
  const before = baseline.shard;
  if (now === undefined && before === undefined) return;
  if (now !== undefined && before !== undefined && now.index === before.index && now.count === before.count) return;
  const what = (shard: ReportShard | undefined) => (shard === undefined ? 'a whole run' : shardName(shard));
  throw new TypeError(
    `the result is ${what(now)} and the baseline ${what(before)}, so most items would go uncompared: merge the shards of each run first (agent-scorers report merge), then compare the merged results`,
  );
}

/** `shard 1 of 3 (run 8123)`: what a page or summary says about a shard, or undefined for a whole run. */
export function shardLabel(shard: ReportShard | undefined): string | undefined {
  if (shard === undefined) return undefined;
  return `${shardName(shard)}${shard.run === undefined ? '' : ` (run ${shard.run})`}`;
}

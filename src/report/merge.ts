/**
 * `mergeShards`: the shards of one run (`runEvals({ shard })` on each CI machine) joined into the
 * result the whole run gives. The items are put back in data order and every aggregate is computed
 * again from them with the run's own rules, so the merge equals an unsharded run field by field.
 * A set that cannot be one run is refused, naming what is wrong: a result that is not a shard (or a
 * forged one, "shard 7 of 3"), shards of different runs (the run they record, configuration, dataset
 * or shard count), a shard given twice, a missing shard, an item in two shards or in the wrong one,
 * two items with one index, or items that together are not the dataset the shards ran.
 */
import { aggregate } from '../runtime/evals/eval-aggregate.js';
import { datasetHash, shardOf } from '../runtime/evals/eval-identity.js';
import type { EvalItemResult, RunEvalsResult } from '../runtime/evals/run-evals-types.js';
import { checkShard } from './result.js';

/** The shards cannot be merged; the message names the shards (by the names given) and the problem. */
export class ShardMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardMergeError';
  }
}

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Key order aside, the JSON of two values is equal. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => sameJson(a[k], b[k]));
}

/**
 * Joins the results of `runEvals({ shard: { index, count } })`, one per shard and in any order, into
 * the result the whole run gives: the same `scores`, `gateResults`, `thresholdResults`, `turnResults`,
 * `verdict`, `summary` and `items`, without `shard`. `names` label the shards in error messages (file
 * names, say); by default `result 1 of the list`, ... Throws a `ShardMergeError` naming the problem
 * when the results are not one whole run.
 *
 * @example
 * const files = ['shard-1.json', 'shard-2.json', 'shard-3.json'];
 * const merged = mergeShards(files.map((file) => JSON.parse(fs.readFileSync(file, 'utf8'))), files);
 */
export function mergeShards(results: ReadonlyArray<RunEvalsResult<any>>, names?: readonly string[]): RunEvalsResult<any> {
  const label = (i: number) => names?.[i] ?? `result ${i + 1} of the list`;
  if (results.length === 0) throw new ShardMergeError('no shard results to merge');
  results.forEach((result, i) => {
    if (!isObject(result)) throw new ShardMergeError(`${label(i)} is not a runEvals result`);
    if (!isObject(result.shard)) throw new ShardMergeError(`${label(i)} is not a shard's result (it has no "shard"; run it with runEvals({ shard: { index, count } }))`);
    try {
      checkShard(result.shard);
    } catch (error) {
      throw new ShardMergeError(`${label(i)} is not a shard of a run: ${(error as Error).message}`);
    }
    if (typeof result.shard.run !== 'string') {
      throw new ShardMergeError(`${label(i)} does not record which run it belongs to (it was saved by an earlier agent-scorers); run its shards again`);
    }
    if (!isObject(result.config) || !Array.isArray(result.items)) {
      throw new ShardMergeError(`${label(i)} has no "config" or "items"; it was saved by an older agent-scorers or edited`);
    }
  });
  const first = results[0]!;
  const { count, run, dataset } = first.shard!;
  results.forEach((result, i) => {
    const shard = result.shard!;
    if (shard.run !== run) {
      throw new ShardMergeError(`${label(0)} belongs to run ${JSON.stringify(run)}, but ${label(i)} to run ${JSON.stringify(shard.run)}: shards of different runs`);
    }
    if (shard.count !== count) throw new ShardMergeError(`${label(0)} is shard ${first.shard!.index} of ${count}, but ${label(i)} is shard ${shard.index} of ${shard.count}: shards of different runs`);
    if (shard.dataset !== dataset) {
      throw new ShardMergeError(`${label(0)} and ${label(i)} ran different datasets (their items differ): shards of different runs`);
    }
    if (!sameJson(result.config, first.config)) {
      throw new ShardMergeError(`${label(0)} and ${label(i)} ran different configurations (gates, scorers or thresholds differ): shards of different runs`);
    }
  });
  const byIndex = new Map<number, number>();
  results.forEach((result, i) => {
    const index = result.shard!.index;
    const seen = byIndex.get(index);
    if (seen !== undefined) throw new ShardMergeError(`shard ${index} of ${count} is given twice: ${label(seen)} and ${label(i)}`);
    byIndex.set(index, i);
  });
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    throw new ShardMergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} ${missing.length > 1 ? 'are' : 'is'} missing`);
  }
  const owner = new Map<string, number>();
  const atIndex = new Map<number, { id: string; from: number }>();
  const items: EvalItemResult[] = [];
  results.forEach((result, i) => {
    for (const item of result.items) {
      if (!isObject(item) || typeof item.id !== 'string' || !Number.isInteger(item.index) || item.index < 0) {
        throw new ShardMergeError(`${label(i)} holds an item without a string "id" and a whole "index"; it was saved by an older agent-scorers or edited`);
      }
      const seen = owner.get(item.id);
      if (seen !== undefined) throw new ShardMergeError(`item ${JSON.stringify(item.id)} is in both ${label(seen)} and ${label(i)}`);
      owner.set(item.id, i);
      // Two items at one position of the dataset: the merged items could not be put back in order.
      const other = atIndex.get(item.index);
      if (other !== undefined) {
        throw new ShardMergeError(`items ${JSON.stringify(other.id)} (${label(other.from)}) and ${JSON.stringify(item.id)} (${label(i)}) both have index ${item.index}: no run gives two items one index`);
      }
      atIndex.set(item.index, { id: item.id, from: i });
      items.push(item);
    }
  });
  // The items together must be the whole dataset the shards ran: not one more, not one less.
  if (datasetHash(items.map((item) => item.id)) !== dataset) {
    throw new ShardMergeError(`the shards hold ${items.length} items, which are not the dataset they ran: an item is missing or was added`);
  }
  const gap = items.length === 0 ? -1 : Array.from({ length: items.length }, (_, i) => i).find((i) => !atIndex.has(i)) ?? -1;
  if (gap !== -1) throw new ShardMergeError(`the shards hold ${items.length} items, but none has index ${gap}: the indices are not those of one dataset`);
  // Each item where the run deals it: an item moved to another shard's file was edited.
  const dealt = shardOf(items.map((item) => item.id), count);
  items.forEach((item, k) => {
    const holder = owner.get(item.id)!;
    const index = results[holder]!.shard!.index;
    if (dealt[k] !== index) throw new ShardMergeError(`item ${JSON.stringify(item.id)} belongs to shard ${dealt[k]} of ${count}, but ${label(holder)} (shard ${index}) holds it`);
  });
  items.sort((a, b) => a.index - b.index);
  // The Mastra dataset and experiment the shards recorded, where they all agree.
  const shared = (key: 'dataset' | 'experiment') => (first[key] !== undefined && results.every((r) => JSON.stringify(r[key]) === JSON.stringify(first[key])) ? { [key]: first[key] } : {});
  return { ...aggregate(items, first.config), items, config: first.config, ...shared('dataset'), ...shared('experiment') };
}

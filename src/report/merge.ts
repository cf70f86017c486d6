/**
 * `mergeShards`: the shards of one run (`runEvals({ shard })` on each CI machine) joined into the
 * result the whole run gives. The items are put back in data order and every aggregate is computed
 * again from them with the run's own rules, so the merge equals an unsharded run field by field.
 * A set that cannot be one run is refused, naming what is wrong: a result that is not a shard, shards
 * of different runs (configuration, dataset or shard count), a shard given twice, a missing shard, or
 * an item in two shards.
 */
import { aggregate } from '../runtime/eval-aggregate.js';
import type { EvalItemResult, RunEvalsResult } from '../runtime/run-evals-types.js';

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
    if (!isObject(result.config) || !Array.isArray(result.items)) {
      throw new ShardMergeError(`${label(i)} has no "config" or "items"; it was saved by an older agent-scorers or edited`);
    }
  });
  const first = results[0]!;
  const { count, total, dataset } = first.shard!;
  results.forEach((result, i) => {
    const shard = result.shard!;
    if (shard.count !== count) throw new ShardMergeError(`${label(0)} is shard ${first.shard!.index} of ${count}, but ${label(i)} is shard ${shard.index} of ${shard.count}: shards of different runs`);
    if (shard.total !== total || shard.dataset !== dataset) {
      throw new ShardMergeError(`${label(0)} and ${label(i)} ran different datasets (${total} and ${shard.total} items): shards of different runs`);
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
  const items: EvalItemResult[] = [];
  results.forEach((result, i) => {
    for (const item of result.items) {
      const seen = owner.get(item.id);
      if (seen !== undefined) throw new ShardMergeError(`item ${JSON.stringify(item.id)} is in both ${label(seen)} and ${label(i)}`);
      owner.set(item.id, i);
      items.push(item);
    }
  });
  if (items.length !== total) throw new ShardMergeError(`the shards hold ${items.length} items, but the run has ${total}`);
  items.sort((a, b) => a.index - b.index);
  // The Mastra dataset and experiment the shards recorded, where they all agree.
  const shared = (key: 'dataset' | 'experiment') => (first[key] !== undefined && results.every((r) => JSON.stringify(r[key]) === JSON.stringify(first[key])) ? { [key]: first[key] } : {});
  return { ...aggregate(items, first.config), items, config: first.config, ...shared('dataset'), ...shared('experiment') };
}

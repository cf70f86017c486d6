/**
 * Where two runs were made on different versions of their dataset, a comparison says so, as Mastra's
 * `compareExperiments` reports `versionMismatch`.
 */
import type { ReadResult } from './result.js';

/**
 * Warnings of a comparison across dataset versions (as Mastra's `versionMismatch`): where both runs
 * record their dataset's version (`runEvals` results), different versions; else (an
 * `ExperimentSummary` records only each item's version) the shared items whose versions differ, named.
 */
export function datasetVersionWarnings(result: ReadResult, baseline: ReadResult): string[] {
  const after = result.dataset?.version;
  const before = baseline.dataset?.version;
  if (after !== undefined && before !== undefined) {
    return after === before ? [] : [`The runs used different versions of the dataset: the baseline version ${before}, this run version ${after}.`];
  }
  const baselineItems = new Map((baseline.items ?? []).map((item) => [item.id, item]));
  const differ: string[] = [];
  for (const item of result.items ?? []) {
    const old = baselineItems.get(item.id);
    if (!old) continue;
    const a = item.datasetVersion;
    const b = old.datasetVersion;
    if (a !== undefined && b !== undefined && a !== b) differ.push(`${JSON.stringify(item.id)} (version ${b} in the baseline, ${a} in this run)`);
  }
  if (differ.length === 0) return [];
  const named = differ.slice(0, 5).join(', ') + (differ.length > 5 ? ` and ${differ.length - 5} more` : '');
  return [`${differ.length} ${differ.length === 1 ? 'item was' : 'items were'} run at different versions of the dataset: ${named}.`];
}

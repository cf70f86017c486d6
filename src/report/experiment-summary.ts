/**
 * Mastra's `ExperimentSummary` (what `dataset.startExperiment` resolves to, saved as JSON) read as a
 * result: each item known by its dataset item id, each scorer's score and reason, the means as
 * Mastra's own comparison computes them (over the items that got a number). So a team that runs
 * Mastra's experiments gets the page, the JUnit file, the summary, the intervals and `--fail-on`, and
 * can compare such a run with a `runEvals` run of the same dataset, either way round.
 *
 * Also where two runs were made on different versions of their dataset: a comparison says so.
 */
import type { ReadResult, ReportInput, ReportItem, ReportItemScore } from './result.js';

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An `ExperimentSummary` by its shape: an experiment id, a status, counts, and per-item `results`. */
export function isExperimentSummary(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.experimentId === 'string' &&
    typeof value.status === 'string' &&
    Number.isInteger(value.succeededCount) &&
    Array.isArray(value.results) &&
    !('items' in value) &&
    !('summary' in value)
  );
}

/** What a person reads as the answer: an Agent output's text, else the output as stored. */
const answer = (output: unknown) => (isObject(output) && typeof output.text === 'string' ? output.text : output);

function fail(field: string, what: string): never {
  throw new TypeError(`${field} must be ${what}`);
}

/** The summary as a result (`checkResult` then checks the rest, as for any result). */
export function fromExperimentSummary(summary: Record<string, any>): ReportInput {
  const ids: string[] = [];
  const sums = new Map<string, { total: number; count: number }>();
  const items: ReportItem[] = summary.results.map((result: unknown, index: number) => {
    const at = `results[${index}]`;
    if (!isObject(result)) fail(at, 'an object');
    if (typeof result.itemId !== 'string') fail(`${at}.itemId`, 'a string');
    if (result.scores !== undefined && !Array.isArray(result.scores)) fail(`${at}.scores`, 'an array');
    const scores: Record<string, ReportItemScore> = {};
    for (const [s, entry] of (result.scores ?? []).entries()) {
      if (!isObject(entry) || typeof entry.scorerId !== 'string') fail(`${at}.scores[${s}].scorerId`, 'a string');
      const id: string = entry.scorerId;
      if (!ids.includes(id)) ids.push(id);
      const score = entry.score ?? null;
      const reason = typeof entry.reason === 'string' ? entry.reason : typeof entry.error === 'string' ? `the scorer failed: ${entry.error}` : null;
      scores[id] = { score, reason, ...(entry.notScorable ? { notScorable: true } : {}) };
      if (typeof score === 'number' && Number.isFinite(score)) {
        const sum = sums.get(id) ?? { total: 0, count: 0 };
        sums.set(id, { total: sum.total + score, count: sum.count + 1 });
      }
    }
    const failed = isObject(result.error) && typeof result.error.message === 'string' ? result.error.message : undefined;
    return {
      index,
      id: result.itemId,
      input: result.input,
      output: failed !== undefined && (result.output === null || result.output === undefined) ? `Error: ${failed}` : answer(result.output),
      ...(result.groundTruth !== null && result.groundTruth !== undefined ? { groundTruth: result.groundTruth } : {}),
      scores,
      ...(Number.isInteger(result.itemVersion) ? { datasetVersion: result.itemVersion } : {}),
    };
  });
  const scores: Record<string, number> = {};
  for (const id of ids) {
    const sum = sums.get(id);
    if (sum) scores[id] = sum.total / sum.count;
  }
  return {
    scores,
    summary: { totalItems: items.length },
    items,
    // A summary names neither its dataset nor the dataset's version, only each item's version.
    config: { form: 'list', gates: [], scorers: ids, thresholds: [] },
  };
}

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

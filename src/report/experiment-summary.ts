/**
 * Mastra's `ExperimentSummary` (what `dataset.startExperiment` resolves to, saved as JSON) read as a
 * result: each item known by its dataset item id, each scorer's score and reason, the means as
 * Mastra's own comparison computes them (over the items that got a number). So a team that runs
 * Mastra's experiments gets the page, the JUnit file, the summary, the intervals and `--fail-on`, and
 * can compare such a run with a `runEvals` run of the same dataset, either way round.
 *
 */
// Loose shapes on purpose: `checkResult` checks what this returns, and result.ts imports this file.
type Item = Record<string, unknown>;
type ItemScore = { score: unknown; reason: string | null; notScorable?: true };

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
export function fromExperimentSummary(summary: Record<string, any>): Record<string, unknown> {
  const ids: string[] = [];
  const sums = new Map<string, { total: number; count: number }>();
  const items: Item[] = summary.results.map((result: unknown, index: number) => {
    const at = `results[${index}]`;
    if (!isObject(result)) fail(at, 'an object');
    if (typeof result.itemId !== 'string') fail(`${at}.itemId`, 'a string');
    if (result.scores !== undefined && !Array.isArray(result.scores)) fail(`${at}.scores`, 'an array');
    const scores: Record<string, ItemScore> = {};
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

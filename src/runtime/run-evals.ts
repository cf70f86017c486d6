/**
 * `runEvals`: run a target over a dataset, score every item, and say whether the run passed, with
 * `@mastra/core` 1.71's gates, thresholds and verdicts (its "Gates and verdicts" page), for any target.
 *
 * `scorers` takes any of:
 * - an array of scorers, `{ scorer, threshold }` entries (Mastra's form) and `{ scorer, sampling? }` entries;
 * - a record `key -> scorer | entry`, which is what the registry (`virtual:agent-scorers`) holds for an
 *   agent, so `runEvals({ scorers: registry.weather, thresholds: { relevance: 0.7 } })` works as it is;
 * - the registry's function form `({ requestContext }) => record`, called once per item.
 * Scorers are recognised by shape (string `id`, `run` function), so Mastra's scorers work too. Results
 * are keyed by `scorer.id` (two scorers or gates with one id is an error).
 *
 * What is Mastra's, to the letter (a differential test runs both on a Mastra Agent): gates run first
 * on each item and a gate that throws scores 0; a threshold is validated with Mastra's messages; a run
 * declared not scorable is counted in `summary.notScorable` and left out of every mean; a gate or
 * threshold with only not-scorable runs is left out of its results; the verdict is `failed` when a
 * gate averaged below 1, else `scored` when a threshold was missed, else `passed`, and absent when no
 * gate or threshold produced a number. What is added: `items` (per-item results a report reads),
 * records with per-key thresholds, any target, and errors that name the item's 0-based index.
 */
import { toScorerEntry, type ScorerEntry, type ScorerLike } from './registry.js';
import { shouldSample } from './sampling.js';
import { meetsThreshold, validateThreshold, type ThresholdConfig } from './thresholds.js';
import type {
  EvalItem,
  EvalItemResult,
  EvalItemScore,
  EvalScorers,
  EvalScorersFunction,
  GateResult,
  RunEvalsConfig,
  RunEvalsResult,
  ScorerWithThreshold,
  ThresholdResult,
} from './run-evals-types.js';

export type * from './run-evals-types.js';

/** An item failed; `index` is its 0-based position in `data`. */
export class RunEvalsError extends Error {
  constructor(
    message: string,
    readonly index: number,
    readonly stage: 'target' | 'scorer' | 'onItemComplete',
    readonly scorerId: string | undefined,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = 'RunEvalsError';
  }
}

const where = 'runEvals';

interface Normalised {
  key?: string;
  scorer: ScorerLike;
  sampling?: ScorerEntry['sampling'];
  threshold?: ThresholdConfig;
}

const isWithThreshold = (entry: unknown): entry is ScorerWithThreshold =>
  typeof entry === 'object' && entry !== null && 'scorer' in entry && 'threshold' in entry;

function normaliseScorers(value: unknown, thresholds: Readonly<Record<string, unknown>> | undefined): Normalised[] {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${where}: scorers must be an array or record of scorers / { scorer, threshold } / { scorer, sampling } entries, or a function returning a record`);
  }
  const isList = Array.isArray(value);
  if (isList && thresholds !== undefined) {
    throw new TypeError(`${where}: "thresholds" goes with a record of scorers; in an array, write { scorer, threshold } entries`);
  }
  const list: Array<[string, string | undefined, unknown]> = isList
    ? value.map((v, i) => [`scorers[${i}]`, undefined, v])
    : Object.keys(value).map((key) => [`scorers[${JSON.stringify(key)}]`, key, (value as Record<string, unknown>)[key]]);
  if (thresholds !== undefined) {
    const known = new Set(list.map(([, key]) => key));
    for (const key of Object.keys(thresholds)) {
      if (!known.has(key)) {
        throw new TypeError(`${where}: thresholds has ${JSON.stringify(key)}, which is not a key of the scorers record (keys: ${[...known].map((k) => JSON.stringify(k)).join(', ') || 'none'})`);
      }
    }
  }
  const out: Normalised[] = [];
  for (const [label, key, entry] of list) {
    const checked = toScorerEntry(
      entry,
      (problem) => {
        throw new TypeError(`${where}: ${label}: ${problem}`);
      },
      () => {
        throw new TypeError(`${where}: ${label} is not a scorer (an object with a string "id" and a "run" function) or a { scorer } entry`);
      },
    );
    // A snapshot: the user's entry object is not read again per item.
    const normalised: Normalised = { key, scorer: checked.scorer, sampling: checked.sampling };
    const threshold = isList ? (isWithThreshold(entry) ? entry.threshold : undefined) : key !== undefined && thresholds && Object.hasOwn(thresholds, key) ? thresholds[key] : undefined;
    if (threshold !== undefined || (isList && isWithThreshold(entry))) {
      validateThreshold(threshold, normalised.scorer.id);
      normalised.threshold = threshold;
    }
    out.push(normalised);
  }
  return out;
}

/**
 * Results are keyed by id, so two different scorers may not share one. The same scorer object may be
 * both a gate and a tracked scorer (`gates: [registry.weather.tone.scorer]` beside `scorers:
 * registry.weather`): it runs once per item and its result counts for both, as Mastra counts it.
 */
function checkUniqueIds(scorers: Normalised[], gates: ScorerLike[]): void {
  const gateIds = new Map<string, ScorerLike>();
  for (const gate of gates) {
    if (gateIds.has(gate.id)) throw new TypeError(`${where}: two gates have the id "${gate.id}"; results are keyed by id, so ids must be unique`);
    gateIds.set(gate.id, gate);
  }
  const ids = new Set<string>();
  for (const { scorer } of scorers) {
    const gate = gateIds.get(scorer.id);
    if (ids.has(scorer.id) || (gate !== undefined && gate !== scorer)) {
      throw new TypeError(`${where}: two scorers have the id "${scorer.id}"; results are keyed by id, so ids must be unique (gates included)`);
    }
    ids.add(scorer.id);
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a target returned, as the scorers' `input` and `output`. */
function scoringData(item: EvalItem, targetResult: any): { input: unknown; output: unknown } {
  if (targetResult !== null && typeof targetResult === 'object') {
    // A Mastra agent asked for `returnScorerData` hands back exactly what its own scorers see.
    if (targetResult.scoringData && 'output' in targetResult.scoringData) {
      return { input: targetResult.scoringData.input ?? item.input, output: targetResult.scoringData.output };
    }
    if (typeof targetResult.text === 'string') return { input: item.input, output: targetResult.text };
  }
  return { input: item.input, output: targetResult };
}

const isMastraAgent = (target: any) => typeof target?.generate === 'function' && typeof target?.getModel === 'function';

/** Whether a run's judge replies came from `cachedJudge` (see `EvalItemScore.cached`), from the judge calls it reports. */
function cachedOf(result: any): boolean | undefined {
  let calls = 0;
  let hits = 0;
  let misses = 0;
  for (const step of Object.values<any>(result?.judge ?? {})) {
    for (const execution of step?.executions ?? []) {
      calls += Number(execution?.modelCallCount ?? 0);
      hits += Number(execution?.cachedCallCount ?? 0);
      misses += Number(execution?.cacheMissCount ?? 0);
    }
  }
  return hits + misses === 0 ? undefined : hits === calls;
}

function reasonOf(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

function itemScore(result: any, gate: boolean): EvalItemScore {
  const cached = cachedOf(result);
  const flags = { ...(gate ? { gate: true as const } : {}), ...(cached !== undefined ? { cached } : {}) };
  if (result?.notScorable) {
    return { score: null, reason: reasonOf(result.notScorable.reason), notScorable: true, ...flags };
  }
  return { score: typeof result?.score === 'number' ? result.score : null, reason: reasonOf(result?.reason), ...flags };
}

const mean = (scores: number[]) => (scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : 0);

/**
 * Runs `target` on every item of `data`, then its gates and scorers, and resolves to Mastra 1.71's
 * result (`scores`, `summary`, `verdict`, `gateResults`, `thresholdResults`) plus per-item `items`.
 */
export async function runEvals<TInput = unknown, S extends EvalScorers | undefined = EvalScorers | undefined>(
  config: RunEvalsConfig<TInput, S>,
): Promise<RunEvalsResult> {
  if (config === null || typeof config !== 'object') throw new TypeError(`${where}: takes { data, scorers?, gates?, target }`);
  const { data, target, onItemComplete, applySampling = false } = config;
  const concurrency = config.concurrency ?? 1;
  const thresholds = config.thresholds as Readonly<Record<string, unknown>> | undefined;
  if (thresholds !== undefined && (thresholds === null || typeof thresholds !== 'object' || Array.isArray(thresholds))) {
    throw new TypeError(`${where}: thresholds must be a record of scorer key -> threshold`);
  }
  const scorerSource = config.scorers as unknown;
  // Thresholds are checked first, as Mastra does: a bad one is reported even when the data is empty too.
  const fixed = typeof scorerSource === 'function' ? undefined : scorerSource === undefined ? [] : normaliseScorers(scorerSource, thresholds);
  if (typeof scorerSource === 'function' && thresholds !== undefined) {
    for (const key of Object.keys(thresholds)) validateThreshold(thresholds[key], key);
  }
  if (!Array.isArray(data) || data.length === 0) throw new TypeError(`${where}: data must be a non-empty array of { input } items`);
  data.forEach((item, index) => {
    if (item === null || typeof item !== 'object' || !('input' in item)) {
      throw new TypeError(`${where}: data item ${index} must be an object with an "input" property`);
    }
  });
  if (typeof target !== 'function' && typeof (target as { generate?: unknown })?.generate !== 'function') {
    throw new TypeError(`${where}: target must be a function (input => output) or an object with generate(input)`);
  }
  if (config.gates !== undefined && !Array.isArray(config.gates)) throw new TypeError(`${where}: gates must be an array of scorers`);
  const gates: ScorerLike[] = [...(config.gates ?? [])];
  gates.forEach((gate, i) => {
    if (gate === null || typeof gate !== 'object' || typeof gate.id !== 'string' || typeof gate.run !== 'function') {
      throw new TypeError(`${where}: gates[${i}] is not a scorer (an object with a string "id" and a "run" function)`);
    }
  });
  if (fixed && fixed.length === 0 && gates.length === 0) {
    throw new TypeError(`${where}: at least one scorer or gate must be provided (scorers and gates are both empty)`);
  }
  if (fixed) checkUniqueIds(fixed, gates);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`${where}: concurrency must be a positive integer; got ${String(concurrency)}`);
  }

  // Accumulators, in Mastra's order of insertion: scores by the first item that produced one.
  const scoreSums = new Map<string, number[]>();
  const gateScores = new Map<string, number[]>(gates.map((gate) => [gate.id, []]));
  /** Threshold id -> its config and the scores it saw; filled in scorer order (record order for records). */
  const thresholdScores = new Map<string, { threshold: ThresholdConfig; scores: number[] }>();
  for (const entry of fixed ?? []) {
    if (entry.threshold !== undefined) thresholdScores.set(entry.scorer.id, { threshold: entry.threshold, scores: [] });
  }
  const notScorable: Record<string, number> = {};
  const countNotScorable = (id: string) => (notScorable[id] = (notScorable[id] ?? 0) + 1);
  const sampledOut: Record<string, number> = {};
  const items: EvalItemResult[] = new Array(data.length);

  const runItem = async (item: EvalItem<TInput>, index: number) => {
    let targetResult: any;
    try {
      if (typeof target === 'function') {
        targetResult = await target(item.input, { item, index });
      } else if (isMastraAgent(target)) {
        targetResult = await target.generate(item.input, { scorers: {}, returnScorerData: true, requestContext: item.requestContext });
      } else {
        targetResult = await target.generate(item.input);
      }
    } catch (error) {
      throw new RunEvalsError(`${where}: item ${index} failed in the target: ${message(error)}`, index, 'target', undefined, error);
    }

    let scorers = fixed;
    if (!scorers) {
      try {
        const record = await (scorerSource as EvalScorersFunction)({ requestContext: item.requestContext });
        scorers = normaliseScorers(record, thresholds);
        checkUniqueIds(scorers, gates);
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index}: resolving the scorers failed: ${message(error)}`, index, 'scorer', undefined, error);
      }
      for (const entry of scorers) {
        if (entry.threshold !== undefined && !thresholdScores.has(entry.scorer.id)) {
          thresholdScores.set(entry.scorer.id, { threshold: entry.threshold, scores: [] });
        }
      }
    }

    const { input, output } = scoringData(item as EvalItem, targetResult);
    const run = {
      input,
      output,
      ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
      ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
      ...(item.runId !== undefined ? { runId: item.runId } : {}),
    };
    const itemScores: Record<string, EvalItemScore> = {};

    // Gates first; one that throws scores 0 (Mastra's rule: a broken gate must not pass).
    const gateRuns = new Map<ScorerLike, { result: any } | { error: unknown }>();
    for (const gate of gates) {
      let result: any;
      try {
        result = await gate.run(run);
      } catch (error) {
        gateRuns.set(gate, { error });
        gateScores.get(gate.id)!.push(0);
        itemScores[gate.id] = { score: 0, reason: null, gate: true, error: message(error) };
        continue;
      }
      gateRuns.set(gate, { result });
      itemScores[gate.id] = itemScore(result, true);
      if (result?.notScorable) countNotScorable(gate.id);
      else gateScores.get(gate.id)!.push(result?.score);
    }

    const scorerResults: Record<string, any> = {};
    for (const { scorer, sampling } of scorers) {
      if (applySampling && sampling) {
        let sampled: boolean;
        try {
          sampled = shouldSample({ sampling }, { traceId: item.traceId, runId: item.runId ?? `${index}` });
        } catch (error) {
          throw new RunEvalsError(`${where}: item ${index}: sampling scorer "${scorer.id}" failed: ${message(error)}`, index, 'scorer', scorer.id, error);
        }
        if (!sampled) {
          sampledOut[scorer.id] = (sampledOut[scorer.id] ?? 0) + 1;
          continue;
        }
      }
      let result: any;
      const asGate = gateRuns.get(scorer);
      try {
        if (asGate && 'error' in asGate) throw asGate.error;
        result = asGate ? asGate.result : await scorer.run(run);
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index} failed in scorer "${scorer.id}": ${message(error)}`, index, 'scorer', scorer.id, error);
      }
      scorerResults[scorer.id] = result;
      if (!asGate) itemScores[scorer.id] = itemScore(result, false);
      // Mastra's accumulator: not scorable is counted, a numeric score averaged, anything else ignored.
      if (typeof result === 'object' && result !== null) {
        if (result.notScorable) countNotScorable(scorer.id);
        else if (typeof result.score === 'number') {
          const list = scoreSums.get(scorer.id) ?? [];
          list.push(result.score);
          scoreSums.set(scorer.id, list);
        }
        // Mastra's threshold bucket takes any result that has a `score` key.
        if ('score' in result) thresholdScores.get(scorer.id)?.scores.push(result.score);
      }
    }
    items[index] = {
      index,
      input: item.input,
      output: targetResult !== null && typeof targetResult === 'object' && typeof targetResult.text === 'string' ? targetResult.text : output,
      ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
      scores: itemScores,
    };
    if (onItemComplete) {
      try {
        await onItemComplete({ item, index, targetResult, scorerResults });
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index}: onItemComplete threw: ${message(error)}`, index, 'onItemComplete', undefined, error);
      }
    }
  };

  // A small worker pool: at most `concurrency` items in flight; after a failure no new item starts,
  // the ones in flight finish, and the first failure is thrown.
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < data.length) {
      const index = next++;
      try {
        await runItem(data[index], index);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, data.length) }, worker));
  if (failure !== undefined) throw failure;

  const scores: Record<string, number> = {};
  for (const [id, list] of scoreSums) scores[id] = mean(list);
  const result: Omit<RunEvalsResult, 'items'> = {
    scores,
    summary: {
      // Every item completed: the first failure is thrown above.
      totalItems: data.length,
      ...(Object.keys(notScorable).length > 0 ? { notScorable } : {}),
      ...(Object.keys(sampledOut).length > 0 ? { sampledOut } : {}),
    },
  };

  // A gate or threshold whose every run was not scorable has no evidence: it is left out, not failed.
  const gateResults: GateResult[] = [];
  for (const [id, list] of gateScores) {
    if (list.length === 0 && notScorable[id]) continue;
    const score = mean(list);
    gateResults.push({ id, passed: score >= 1, score });
  }
  const thresholdResults: ThresholdResult[] = [];
  for (const [id, { threshold, scores: list }] of thresholdScores) {
    if (list.length === 0 && notScorable[id]) continue;
    const averageScore = mean(list);
    thresholdResults.push({ id, passed: meetsThreshold(averageScore, threshold), averageScore, threshold });
  }
  if (gateResults.length > 0) result.gateResults = gateResults;
  if (thresholdResults.length > 0) result.thresholdResults = thresholdResults;
  if (gateResults.length > 0 || thresholdResults.length > 0) {
    result.verdict = gateResults.some((g) => !g.passed) ? 'failed' : thresholdResults.some((t) => !t.passed) ? 'scored' : 'passed';
  }
  return { ...result, items };
}

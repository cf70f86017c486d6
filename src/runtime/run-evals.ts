/**
 * `runEvals`: run a target over a dataset and score every item with every scorer.
 *
 * `scorers` takes any of:
 * - an array of scorers and/or `{ scorer, sampling? }` entries;
 * - a record `key -> scorer | entry`, which is what the registry (`virtual:agent-scorers`) holds
 *   for an agent, so `runEvals({ scorers: registry.weather, ... })` works;
 * - the registry's function form `({ requestContext }) => record`, called once per item.
 * Scorers are recognised by shape (string `id`, `run` function), so Mastra's scorers work too.
 * Results are keyed by `scorer.id` (two scorers with one id is an error). Entries' `sampling` is
 * validated; it is applied only with `applySampling: true` (an eval usually wants every scorer on
 * every item), deciding per item from `item.traceId ?? item.runId ?? '<index>'`.
 */
import { toScorerEntry, type ScorerEntry, type ScorerLike } from './registry.js';
import { shouldSample } from './sampling.js';

export interface EvalItem<TInput = unknown> {
  input: TInput;
  groundTruth?: unknown;
  requestContext?: unknown;
  /** Used as the scorer runs' `runId` (and for sampling). */
  runId?: string;
  traceId?: string;
  [extra: string]: unknown;
}

/**
 * The function form is declared with method syntax so that its parameter is checked bivariantly: a
 * config's own function, typed by Mastra as taking `{ requestContext: RequestContext }`, is accepted
 * (it gets the item's `requestContext` as given).
 */
type EvalScorersFunction = {
  call(context: { requestContext?: unknown }): Record<string, ScorerLike | ScorerEntry> | Promise<Record<string, ScorerLike | ScorerEntry>>;
}['call'];

export type EvalScorers =
  | ReadonlyArray<ScorerLike | ScorerEntry>
  | Readonly<Record<string, ScorerLike | ScorerEntry>>
  | EvalScorersFunction;

/** A function `(input) => output`, or an object with `generate(input)` (a Mastra agent, for example). */
export type EvalTarget<TInput = unknown> =
  | ((input: TInput, context: { item: EvalItem<TInput>; index: number }) => unknown)
  | { generate: (input: TInput, ...rest: any[]) => unknown };

export interface ItemCompleteEvent<TInput = unknown> {
  item: EvalItem<TInput>;
  index: number;
  targetResult: unknown;
  /** Each scorer's run result, keyed by `scorer.id`. Scorers skipped by sampling are absent. */
  scorerResults: Record<string, any>;
}

export interface RunEvalsConfig<TInput = unknown> {
  data: ReadonlyArray<EvalItem<TInput>>;
  scorers: EvalScorers;
  target: EvalTarget<TInput>;
  onItemComplete?: (event: ItemCompleteEvent<TInput>) => void | Promise<void>;
  /** Items processed at the same time. Default 1. */
  concurrency?: number;
  /** Apply entries' `sampling` per item. Default false: every scorer scores every item. */
  applySampling?: boolean;
}

export interface RunEvalsResult {
  /** Mean score per scorer id, over the items it scored. */
  scores: Record<string, number>;
  summary: {
    totalItems: number;
    /** Per scorer id, how many items it declared not scorable (present only when some did). */
    notScorable?: Record<string, number>;
    /** Per scorer id, how many items sampling skipped (present only with `applySampling` and skips). */
    sampledOut?: Record<string, number>;
  };
}

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

interface Normalised {
  scorer: ScorerLike;
  sampling?: ScorerEntry['sampling'];
}

function normaliseScorers(value: unknown, where: string): Normalised[] {
  const list: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [`scorers[${i}]`, v])
    : value !== null && typeof value === 'object'
      ? Object.keys(value).map((key) => [`scorers[${JSON.stringify(key)}]`, (value as Record<string, unknown>)[key]])
      : [];
  if (!Array.isArray(value) && (value === null || typeof value !== 'object')) {
    throw new TypeError(`${where}: scorers must be an array or record of scorers / { scorer, sampling } entries, or a function returning a record`);
  }
  const out: Normalised[] = [];
  const ids = new Set<string>();
  for (const [label, entry] of list) {
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
    const normalised: Normalised = { scorer: checked.scorer, sampling: checked.sampling };
    if (ids.has(normalised.scorer.id)) {
      throw new TypeError(`${where}: two scorers have the id "${normalised.scorer.id}"; results are keyed by id, so ids must be unique`);
    }
    ids.add(normalised.scorer.id);
    out.push(normalised);
  }
  return out;
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

export async function runEvals<TInput = unknown>(config: RunEvalsConfig<TInput>): Promise<RunEvalsResult> {
  const where = 'runEvals';
  if (config === null || typeof config !== 'object') throw new TypeError(`${where}: takes { data, scorers, target }`);
  const { data, target, onItemComplete, applySampling = false } = config;
  const concurrency = config.concurrency ?? 1;
  if (!Array.isArray(data) || data.length === 0) throw new TypeError(`${where}: data must be a non-empty array of { input } items`);
  data.forEach((item, index) => {
    if (item === null || typeof item !== 'object' || !('input' in item)) {
      throw new TypeError(`${where}: data item ${index} must be an object with an "input" property`);
    }
  });
  if (typeof target !== 'function' && typeof (target as { generate?: unknown })?.generate !== 'function') {
    throw new TypeError(`${where}: target must be a function (input => output) or an object with generate(input)`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`${where}: concurrency must be a positive integer; got ${String(concurrency)}`);
  }
  const scorerSource = config.scorers;
  const fixed = typeof scorerSource === 'function' ? undefined : normaliseScorers(scorerSource, where);
  if (fixed && fixed.length === 0) throw new TypeError(`${where}: at least one scorer is needed`);

  const sums = new Map<string, { total: number; count: number }>();
  const notScorable: Record<string, number> = {};
  const sampledOut: Record<string, number> = {};
  let totalItems = 0;

  const runItem = async (item: EvalItem<TInput>, index: number) => {
    let targetResult: unknown;
    try {
      if (typeof target === 'function') {
        targetResult = await target(item.input, { item, index });
      } else if (isMastraAgent(target)) {
        targetResult = await target.generate(item.input, {
          scorers: {},
          returnScorerData: true,
          ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
        });
      } else {
        targetResult = await target.generate(item.input);
      }
    } catch (error) {
      throw new RunEvalsError(`${where}: item ${index} failed in the target: ${message(error)}`, index, 'target', undefined, error);
    }

    let scorers = fixed;
    if (!scorers) {
      try {
        const record = await (scorerSource as Exclude<EvalScorers, ReadonlyArray<unknown> | Readonly<Record<string, unknown>>>)({
          requestContext: item.requestContext,
        });
        scorers = normaliseScorers(record, where);
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index}: resolving the scorers failed: ${message(error)}`, index, 'scorer', undefined, error);
      }
    }

    const { input, output } = scoringData(item as EvalItem, targetResult);
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
      try {
        result = await scorer.run({
          input,
          output,
          ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
          ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
          ...(item.runId !== undefined ? { runId: item.runId } : {}),
        });
      } catch (error) {
        throw new RunEvalsError(
          `${where}: item ${index} failed in scorer "${scorer.id}": ${message(error)}`,
          index,
          'scorer',
          scorer.id,
          error,
        );
      }
      scorerResults[scorer.id] = result;
      if (result?.notScorable) {
        notScorable[scorer.id] = (notScorable[scorer.id] ?? 0) + 1;
      } else if (typeof result?.score === 'number' && Number.isFinite(result.score)) {
        const sum = sums.get(scorer.id) ?? { total: 0, count: 0 };
        sum.total += result.score;
        sum.count += 1;
        sums.set(scorer.id, sum);
      }
    }
    if (onItemComplete) {
      try {
        await onItemComplete({ item, index, targetResult, scorerResults });
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index}: onItemComplete threw: ${message(error)}`, index, 'onItemComplete', undefined, error);
      }
    }
    totalItems++;
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
  for (const [id, { total, count }] of sums) scores[id] = total / count;
  return {
    scores,
    summary: {
      totalItems,
      ...(Object.keys(notScorable).length > 0 ? { notScorable } : {}),
      ...(Object.keys(sampledOut).length > 0 ? { sampledOut } : {}),
    },
  };
}

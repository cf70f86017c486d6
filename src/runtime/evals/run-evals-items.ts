/**
 * From what one item's run produced (the target's answer, each scorer's and gate's result, per turn
 * where there are turns) to its `EvalItemResult`: what a report shows and what the aggregates are
 * computed from. Whatever ran the item (Mastra's `runEvals` or this package's loop) hands over the
 * same `ItemRun`.
 */
import type { ThresholdConfig } from './thresholds.js';
import { judgeCacheTally } from '../judge/judge-cache-tracker.js';
import type { EvalItemResult, EvalItemScore, EvalScoreGroup, EvalStepResult, EvalTurnItemResult } from './run-evals-types.js';

/** A scorer's or gate's run: its result, or what it threw (a gate's throw scores 0). */
export interface Outcome {
  id: string;
  result?: any;
  error?: unknown;
  threshold?: ThresholdConfig;
}

export interface TurnRun {
  input: unknown;
  output: unknown;
  /** Present (maybe empty) for items with `turns`; absent for `inputs`, which have no per-turn assertions. */
  gates?: Outcome[];
  scorers?: Outcome[];
}

/** What running one item produced. */
export interface ItemRun {
  targetResult: unknown;
  /** Each tracked scorer's result, keyed by id; nested for the structured forms (Mastra's `scorerResults`). */
  scorerResults: Record<string, any>;
  gates: Outcome[];
  /** What a person reads as the answer. */
  output: unknown;
  /** An Agent's last reply as `generate` resolved it (what Mastra's experiments store as the output). */
  reply?: unknown;
  turns?: TurnRun[];
  /** A Workflow's steps: what each was given and returned. */
  stepResults?: Record<string, EvalStepResult>;
  /** Thresholds of the flat form's scorers, by id. */
  thresholds: Map<string, ThresholdConfig>;
  sampledOut: string[];
}

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An item's run failed: in the target or in a scorer (`scorerId`); `mastraId` is Mastra's error id where Mastra ran it. */
export class ItemFailure extends Error {
  constructor(
    readonly stage: 'target' | 'scorer',
    readonly scorerId: string | undefined,
    readonly mastraId: string | undefined,
    cause: unknown,
  ) {
    super(message(cause), { cause });
  }
}

/** Whether a run's judge replies came from `cachedJudge` (see `EvalItemScore.cached`), from the judge calls it reports, else from the tracker. */
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
  if (hits + misses > 0) return hits === calls;
  // A scorer that does not count its judge calls (Mastra's own): the replies the judge cache gave while it ran.
  const tally = judgeCacheTally(result);
  return tally ? tally.misses === 0 : undefined;
}

function reasonOf(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

/** A result as the item records it. A gate's throw scores 0, as in Mastra. */
export function itemScore(outcome: Outcome): EvalItemScore {
  if (outcome.error !== undefined) return { score: 0, reason: null, error: message(outcome.error) };
  const result = outcome.result;
  const cached = cachedOf(result);
  const extra = { ...(outcome.threshold !== undefined ? { threshold: outcome.threshold } : {}), ...(cached !== undefined ? { cached } : {}) };
  if (result?.notScorable) return { score: null, reason: reasonOf(result.notScorable.reason), notScorable: true, ...extra };
  return { score: typeof result?.score === 'number' ? result.score : null, reason: reasonOf(result?.reason), ...extra };
}

/**
 * A tracked scorer's result counts only as Mastra counts it: an object that has a `score` or was
 * declared not scorable. Anything else (a scorer whose `run` returned nothing) is not recorded.
 */
const counts = (result: unknown) => result !== null && typeof result === 'object' && ('score' in result || Boolean((result as any).notScorable));

function group(results: Record<string, any> | undefined, thresholds?: Map<string, ThresholdConfig>): EvalScoreGroup | undefined {
  if (results === undefined || results === null || typeof results !== 'object') return undefined;
  const out: EvalScoreGroup = {};
  for (const [id, result] of Object.entries(results)) {
    if (counts(result)) out[id] = itemScore({ id, result, threshold: thresholds?.get(id) });
  }
  return out;
}

/**
 * Gates and a turn's scorers keep every run, as Mastra counts them: a gate that threw scores 0, a
 * result that gave no number makes the mean NaN.
 */
function outcomes(list: readonly Outcome[] | undefined): EvalScoreGroup | undefined {
  if (list === undefined) return undefined;
  const out: EvalScoreGroup = {};
  for (const outcome of list) out[outcome.id] = itemScore(outcome);
  return out;
}

/** The text of a target's answer where it has one (an Agent's `text`), else the answer as it is. */
export const answerText = (result: unknown): unknown =>
  result !== null && typeof result === 'object' && typeof (result as { text?: unknown }).text === 'string' ? (result as { text: string }).text : result;

export function itemResult(
  run: ItemRun,
  item: Record<string, any>,
  index: number,
  id: string,
  form: 'list' | 'agent' | 'workflow',
): EvalItemResult {
  const results = run.scorerResults;
  const nested = form !== 'list';
  const scores = (nested ? group(results[form]) : group(results, run.thresholds)) ?? {};
  const out: EvalItemResult = {
    index,
    id,
    input: Array.isArray(item.turns) ? item.turns[0]?.input : Array.isArray(item.inputs) ? item.inputs[0] : item.input,
    output: run.output,
    ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
    ...(item.expectedTrajectory !== undefined ? { expectedTrajectory: item.expectedTrajectory } : {}),
    scores,
  };
  if (run.gates.length > 0) out.gates = outcomes(run.gates);
  if (nested && results.trajectory !== undefined) out.trajectory = group(results.trajectory);
  if (form === 'workflow' && results.steps !== undefined) {
    out.steps = {};
    for (const [stepId, stepResults] of Object.entries<Record<string, any>>(results.steps)) out.steps[stepId] = group(stepResults) ?? {};
  }
  if (run.stepResults) out.stepResults = run.stepResults;
  if (run.turns) {
    out.turns = run.turns.map((turn, t): EvalTurnItemResult => {
      const entry: EvalTurnItemResult = { index: t, input: turn.input, output: turn.output };
      if (turn.scorers !== undefined) entry.scores = outcomes(turn.scorers);
      if (turn.gates !== undefined) entry.gates = outcomes(turn.gates);
      return entry;
    });
  }
  if (run.sampledOut.length > 0) out.sampledOut = run.sampledOut;
  return out;
}

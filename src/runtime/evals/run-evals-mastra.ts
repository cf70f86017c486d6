/**
 * Mastra targets run through `@mastra/core`'s own `runEvals`, one item at a time, so that everything
 * Mastra does with an Agent or a Workflow is Mastra's, in this release and the next: how the target
 * is called (threads and memory for multi-turn items, `targetOptions`, `structuredOutput`, legacy
 * models, workflow `startOptions`), what each scorer and gate is given (trajectories from traces or
 * messages, step payloads, `expectedTrajectory`), and which scores it saves to the target's storage.
 *
 * What this file adds is only what a report needs and Mastra does not hand out: it watches the
 * Agent's replies (one per turn), records what each gate and each turn's scorers returned, and keeps
 * each item's results apart by giving Mastra one item per call. The aggregates are computed from the
 * items afterwards (eval-aggregate.ts), with Mastra's rules.
 */
import { isWithThreshold, type Plan, type Slot } from './run-evals-scorers.js';
import { answerText, ItemFailure, message, type ItemRun, type Outcome, type TurnRun } from './run-evals-items.js';
import type { ScorerLike } from '../registry.js';
import type { ThresholdConfig } from './thresholds.js';
import type { EvalStepResult } from './run-evals-types.js';
import { tracked } from '../judge/judge-cache-tracker.js';

export interface MastraEvals {
  runEvals: (config: any) => Promise<any>;
  Workflow: abstract new (...args: any[]) => unknown;
}

// A specifier in a variable: no bundler follows it into @mastra/core, so a bundle that never runs an
// eval on a Mastra target carries none of it, and an app without @mastra/core still builds.
const load = (specifier: string): Promise<any> => import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ specifier);
let mastraEvals: Promise<MastraEvals> | undefined;

/** `@mastra/core`'s `runEvals` and `Workflow` class, loaded once, from the app's own `@mastra/core`. */
export function loadMastraEvals(): Promise<MastraEvals> {
  mastraEvals ??= Promise.all([load('@mastra/core/evals'), load('@mastra/core/workflows')]).then(
    ([evals, workflows]) => ({ runEvals: evals.runEvals, Workflow: workflows.Workflow }),
    (error: unknown) => {
      mastraEvals = undefined;
      throw new Error(`runEvals: a Mastra Agent or Workflow target is run by @mastra/core's own runEvals, and @mastra/core/evals could not be loaded: ${message(error)}`, { cause: error });
    },
  );
  return mastraEvals;
}

/** A Mastra Agent, recognised by shape (ESM and CJS builds have different classes). */
export const isMastraAgent = (target: any) => typeof target?.generate === 'function' && typeof target?.getModel === 'function';
export const looksLikeWorkflow = (target: any) => target !== null && typeof target === 'object' && typeof target.createRun === 'function';

/**
 * `target` seen through a proxy: the same object to Mastra (its methods run on the real target, its
 * class is the same), with some properties intercepted.
 */
function through<T extends object>(target: T, intercept: (property: PropertyKey, value: unknown) => unknown): T {
  return new Proxy(target, {
    get(real, property) {
      const value = Reflect.get(real, property, real);
      const replaced = intercept(property, value);
      if (replaced !== value) return replaced;
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
}

/** A scorer whose runs are recorded: what it returned or threw, and the judge cache replies it was given. */
function recorded(scorer: ScorerLike, sink: Outcome[], threshold?: ThresholdConfig): ScorerLike {
  return through(scorer, (property, value) =>
    property === 'run'
      ? async (...args: unknown[]) => {
          try {
            const result = await tracked(() => (value as (...a: unknown[]) => unknown).apply(scorer, args));
            sink.push({ id: scorer.id, result, ...(threshold !== undefined ? { threshold } : {}) });
            return result;
          } catch (error) {
            sink.push({ id: scorer.id, error, ...(threshold !== undefined ? { threshold } : {}) });
            throw error;
          }
        }
      : value,
  );
}

const STOP = Symbol('agent-scorers: validated');

/**
 * Mastra's own checks of the whole configuration (data items, thresholds, scorer forms), with
 * Mastra's messages and the right item index, before any item runs. `runEvals` checks everything
 * before it first asks the target for its Mastra instance; the proxy stops it there, so nothing runs.
 */
export async function mastraValidates(evals: MastraEvals, config: Record<string, unknown>, target: object): Promise<void> {
  const execution = new Set<PropertyKey>(['getMastraInstance', 'mastra', 'generate', 'generateLegacy', 'createRun', 'getModel', 'getMemory']);
  const stopped = through(target, (property, value) => {
    if (execution.has(property)) throw STOP;
    return value;
  });
  try {
    await evals.runEvals({ ...config, target: stopped });
  } catch (error) {
    if (error === STOP) return;
    throw error;
  }
}

/** Stands in for a scorer that sampling skipped on this item: Mastra records nothing for it. */
const skipped = (id: string): ScorerLike => ({ id, name: id, description: '', run: async () => undefined });

export interface MastraItem {
  evals: MastraEvals;
  target: object;
  workflow: boolean;
  item: Record<string, any>;
  plan: Plan;
  /** The flat forms' scorers for this item. */
  slots: Slot[];
  sampledOut: Set<Slot>;
  gates: ScorerLike[] | undefined;
  targetOptions: unknown;
}

/** Runs one item through Mastra's `runEvals` and hands back what it produced. */
export async function runMastraItem(run: MastraItem): Promise<ItemRun> {
  const { evals, item, plan } = run;
  const replies: unknown[] = [];
  const gates: Outcome[] = [];
  const scorerRuns: Outcome[] = [];
  const turns: Array<{ gates: Outcome[]; scorers: Outcome[] }> | undefined = Array.isArray(item.turns)
    ? item.turns.map(() => ({ gates: [], scorers: [] }))
    : undefined;

  let scorers: unknown;
  const thresholds = new Map<string, ThresholdConfig>();
  if (plan.form === 'structured') {
    // The groups exactly as given: Mastra's behaviour depends on which keys are present.
    const groups: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(plan.groups)) {
      groups[key] = Array.isArray(value)
        ? value.map((s) => recorded(s, scorerRuns))
        : value && Object.fromEntries(Object.entries(value as Record<string, ScorerLike[]>).map(([stepId, list]) => [stepId, list.map((s) => recorded(s, scorerRuns))]));
    }
    scorers = groups;
  } else {
    scorers = run.slots.map((slot) => {
      if (run.sampledOut.has(slot)) return skipped(slot.scorer.id);
      const scorer = recorded(slot.scorer, scorerRuns);
      if (slot.threshold === undefined) return scorer;
      thresholds.set(slot.scorer.id, slot.threshold);
      return { scorer, threshold: slot.threshold };
    });
  }

  const mastraItem = turns
    ? {
        ...item,
        turns: item.turns.map((turn: any, t: number) => ({
          ...turn,
          ...(Array.isArray(turn.gates) ? { gates: turn.gates.map((g: ScorerLike) => recorded(g, turns[t]!.gates)) } : {}),
          ...(Array.isArray(turn.scorers)
            ? {
                scorers: turn.scorers.map((entry: any) =>
                  isWithThreshold(entry) ? { ...entry, scorer: recorded(entry.scorer, turns[t]!.scorers, entry.threshold as ThresholdConfig) } : recorded(entry, turns[t]!.scorers),
                ),
              }
            : {}),
        })),
      }
    : item;

  // Each reply of an Agent, in order: one per turn. For a Workflow, what each step was given: the run's
  // result keeps only the steps' outputs, and its watch events carry each step's input as it starts.
  const stepInputs = new Map<string, unknown>();
  const target = run.workflow
    ? through(run.target, (property, value) =>
        property === 'createRun'
          ? async (...args: unknown[]) => {
              const created: any = await (value as (...a: unknown[]) => unknown).apply(run.target, args);
              created?.watch?.((event: any) => {
                if (event?.type === 'workflow-step-start' && typeof event.payload?.id === 'string') stepInputs.set(event.payload.id, event.payload.payload);
              });
              return created;
            }
          : value,
      )
    : through(run.target, (property, value) =>
        property === 'generate' || property === 'generateLegacy'
          ? async (...args: unknown[]) => {
              const reply = await (value as (...a: unknown[]) => unknown).apply(run.target, args);
              replies.push(reply);
              return reply;
            }
          : value,
      );

  let captured: { targetResult: any; scorerResults: Record<string, any> } | undefined;
  try {
    await evals.runEvals({
      data: [mastraItem],
      target,
      scorers,
      ...(run.gates !== undefined ? { gates: run.gates.map((g) => recorded(g, gates)) } : {}),
      ...(run.targetOptions !== undefined ? { targetOptions: run.targetOptions } : {}),
      onItemComplete: ({ targetResult, scorerResults }: { targetResult: any; scorerResults: Record<string, any> }) => {
        captured = { targetResult, scorerResults };
      },
      concurrency: 1,
    });
  } catch (error) {
    throw failure(error, [...scorerRuns, ...(turns ?? []).flatMap((t) => t.scorers)]);
  }
  const { targetResult, scorerResults } = captured!;
  for (const slot of run.sampledOut) delete scorerResults[slot.scorer.id];

  let turnRuns: TurnRun[] | undefined;
  const inputs: unknown[] | undefined = turns ? item.turns.map((t: any) => t.input) : Array.isArray(item.inputs) && item.inputs.length > 0 ? item.inputs : undefined;
  if (inputs) {
    turnRuns = inputs.map((input, t) => ({
      input,
      output: answerText(replies[t]),
      ...(turns ? { gates: turns[t]!.gates, scorers: turns[t]!.scorers } : {}),
    }));
  }
  const output = run.workflow ? targetResult?.scoringData?.output : turnRuns ? turnRuns.map((t) => t.output) : answerText(replies[0] ?? targetResult);
  const stepResults = run.workflow ? stepsOf(targetResult?.scoringData?.stepResults, stepInputs) : undefined;
  return {
    targetResult,
    scorerResults,
    gates,
    output,
    ...(replies.length > 0 ? { reply: replies.at(-1) } : {}),
    ...(turnRuns ? { turns: turnRuns } : {}),
    ...(stepResults ? { stepResults } : {}),
    thresholds,
    sampledOut: [...run.sampledOut].map((slot) => slot.scorer.id),
  };
}

/**
 * Each step's input and output from a Workflow run's `steps` (its `input` entry is the workflow's
 * input, not a step), the input as the step received it, so a report shows them beside the step's
 * scores.
 */
function stepsOf(steps: unknown, inputs: ReadonlyMap<string, unknown>): Record<string, EvalStepResult> | undefined {
  if (steps === null || typeof steps !== 'object') return undefined;
  const out: Record<string, EvalStepResult> = {};
  for (const [stepId, step] of Object.entries(steps as Record<string, any>)) {
    if (step === null || typeof step !== 'object' || typeof step.status !== 'string') continue;
    const entry: EvalStepResult = { status: step.status };
    const input = inputs.has(stepId) ? inputs.get(stepId) : step.payload;
    if (input !== undefined) entry.input = input;
    if (step.output !== undefined) entry.output = step.output;
    // Mastra keeps a step's error as an Error or, once serialised, as { name, message }.
    if (step.error !== undefined) entry.error = typeof step.error?.message === 'string' ? step.error.message : message(step.error);
    // Built as an entry, never by assignment: a step may be called "__proto__".
    Object.defineProperty(out, stepId, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Where Mastra's run of an item failed, from Mastra's error (its id and details) or a scorer that threw. */
function failure(error: any, scorerRuns: readonly Outcome[]): Error {
  const id: string | undefined = typeof error?.id === 'string' ? error.id : undefined;
  if (id === 'RUN_EXPERIMENT_TARGET_FAILED_TO_GENERATE_RESULT') return new ItemFailure('target', undefined, id, error.cause ?? error);
  const thrower = scorerRuns.find((o) => o.error !== undefined);
  if (id?.startsWith('RUN_EXPERIMENT_SCORER_FAILED')) {
    return new ItemFailure('scorer', error.details?.scorerId ?? thrower?.id, id, error.cause ?? error);
  }
  if (thrower) return new ItemFailure('scorer', thrower.id, id, thrower.error);
  return error instanceof Error ? error : new Error(message(error));
}

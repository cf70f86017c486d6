/**
 * Targets that are not Mastra's own (a function, or any object with `generate`) run here, with the
 * same rules as Mastra's `runEvals` so that a function target and an Agent read alike: multi-turn
 * items call the target once per turn on one thread and score the accumulated replies; gates run
 * first and a gate that throws scores 0; each turn's assertions see only that turn.
 *
 * What differs, because no Mastra is involved: a trajectory scorer is given the target's answer as
 * the trajectory (a function target returns what it wants judged), `{ workflow, steps }` needs a
 * Workflow, nothing is saved to storage, and a scorer given both as a gate and as a tracked scorer
 * runs once per item (its result counts for both), so a judge is not paid twice.
 */
import { shouldSample } from '../sampling.js';
import { answerText, ItemFailure, type ItemRun, type Outcome, type TurnRun } from './run-evals-items.js';
import { isWithThreshold, type Plan, type Slot } from './run-evals-scorers.js';
import type { ScorerLike } from '../registry.js';
import type { ThresholdConfig } from './thresholds.js';
import type { EvalTarget } from './run-evals-types.js';
import { tracked } from '../judge/judge-cache-tracker.js';

export interface OwnItem {
  target: EvalTarget<any>;
  item: Record<string, any>;
  index: number;
  plan: Plan;
  slots: Slot[];
  sampledOut: Set<Slot>;
  gates: ScorerLike[];
  targetOptions: Readonly<Record<string, unknown>> | undefined;
}

/** What the scorers judge of one answer: a Mastra-shaped `scoringData` where there is one, else its text, else the answer. */
function judged(result: any): { input?: unknown; output: unknown } {
  if (result !== null && typeof result === 'object') {
    if (result.scoringData && 'output' in result.scoringData) return { input: result.scoringData.input, output: result.scoringData.output };
    if (typeof result.text === 'string') return { output: result.text };
  }
  return { output: result };
}

const isTrajectory = (scorer: ScorerLike) => scorer.type === 'trajectory';

/** Runs the target on one item: once, or once per turn on one thread. */
async function answer(run: OwnItem) {
  const { target, item, index, targetOptions } = run;
  const call = async (input: unknown, turn?: { index: number; threadId: string; history: Array<{ input: unknown; output: unknown }> }) => {
    try {
      if (typeof target === 'function') {
        return await target(input, {
          item: item as any,
          index,
          ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
          ...(targetOptions !== undefined ? { options: targetOptions } : {}),
          ...(turn ? { turn } : {}),
        });
      }
      const generate = (target as { generate: (...args: unknown[]) => unknown }).generate.bind(target);
      if (targetOptions === undefined && item.requestContext === undefined && !turn) return await generate(input);
      const memory = targetOptions?.memory as Record<string, unknown> | undefined;
      return await generate(input, {
        ...targetOptions,
        ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
        // Mastra's rule for a multi-turn item: one thread per item, the resource the caller gave or the thread.
        ...(turn ? { memory: { ...memory, thread: turn.threadId, resource: memory?.resource ?? turn.threadId } } : {}),
      });
    } catch (error) {
      throw new ItemFailure('target', undefined, 'RUN_EXPERIMENT_TARGET_FAILED_TO_GENERATE_RESULT', error);
    }
  };
  const inputs: unknown[] | undefined = Array.isArray(item.turns) ? item.turns.map((t: any) => t.input) : Array.isArray(item.inputs) ? item.inputs : undefined;
  if (!inputs) {
    const targetResult = await call(item.input);
    const seen = judged(targetResult);
    return { targetResult, input: seen.input ?? item.input, output: seen.output, shown: answerText(targetResult), turns: undefined };
  }
  const threadId = globalThis.crypto.randomUUID();
  const history: Array<{ input: unknown; output: unknown }> = [];
  const replies: unknown[] = [];
  const all: unknown[] = [];
  const turns: Array<{ input: unknown; output: unknown; shown: unknown }> = [];
  for (const [t, input] of inputs.entries()) {
    const reply = await call(input, { index: t, threadId, history: [...history] });
    replies.push(reply);
    const { output } = judged(reply);
    // As Mastra accumulates the reply messages of every turn.
    if (output !== undefined && output !== null && output !== '') all.push(...(Array.isArray(output) ? output : [output]));
    turns.push({ input, output, shown: answerText(reply) });
    history.push({ input, output: answerText(reply) });
  }
  return { targetResult: replies, input: inputs[0], output: all, shown: turns.map((t) => t.shown), turns };
}

export async function runOwnItem(run: OwnItem): Promise<ItemRun> {
  const { item, plan } = run;
  const answered = await answer(run);
  const base = {
    ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
    ...(item.requestContext !== undefined ? { requestContext: item.requestContext } : {}),
    ...(item.runId !== undefined ? { runId: item.runId } : {}),
  };
  const runOf = (scorer: ScorerLike, input: unknown, output: unknown) => ({
    input,
    output,
    ...base,
    ...(isTrajectory(scorer) ? { expectedTrajectory: item.expectedTrajectory } : {}),
  });

  // Gates first; one that throws scores 0 (Mastra's rule: a broken gate must not pass).
  const gates: Outcome[] = [];
  const gateRuns = new Map<ScorerLike, Outcome>();
  for (const gate of run.gates) {
    let outcome: Outcome;
    try {
      outcome = { id: gate.id, result: await tracked(() => gate.run(runOf(gate, answered.input, answered.output))) };
    } catch (error) {
      outcome = { id: gate.id, error };
    }
    gates.push(outcome);
    gateRuns.set(gate, outcome);
  }

  const score = async (scorer: ScorerLike, input: unknown, output: unknown) => {
    const asGate = gateRuns.get(scorer);
    try {
      if (asGate?.error !== undefined) throw asGate.error;
      return asGate ? asGate.result : await tracked(() => scorer.run(runOf(scorer, input, output)));
    } catch (error) {
      throw new ItemFailure('scorer', scorer.id, 'RUN_EXPERIMENT_SCORER_FAILED_TO_SCORE_RESULT', error);
    }
  };
  const scorerResults: Record<string, any> = {};
  const thresholds = new Map<string, ThresholdConfig>();
  const sampledOut: string[] = [];
  if (plan.form === 'structured') {
    const { agent, trajectory } = plan.groups;
    if (agent) {
      const results: Record<string, any> = {};
      for (const scorer of agent) results[scorer.id] = await score(scorer, answered.input, answered.output);
      if (Object.keys(results).length > 0) scorerResults.agent = results;
    }
    if (trajectory) {
      const results: Record<string, any> = {};
      for (const scorer of trajectory) results[scorer.id] = await score(scorer, answered.input, answered.output);
      if (Object.keys(results).length > 0) scorerResults.trajectory = results;
    }
  } else {
    for (const slot of run.slots) {
      if (run.sampledOut.has(slot)) {
        sampledOut.push(slot.scorer.id);
        continue;
      }
      if (slot.threshold !== undefined) thresholds.set(slot.scorer.id, slot.threshold);
      scorerResults[slot.scorer.id] = await score(slot.scorer, answered.input, answered.output);
    }
  }

  let turns: TurnRun[] | undefined;
  if (answered.turns) {
    turns = [];
    for (const [t, turn] of answered.turns.entries()) {
      const spec = Array.isArray(item.turns) ? item.turns[t] : undefined;
      const entry: TurnRun = { input: turn.input, output: turn.shown };
      if (spec) {
        entry.gates = [];
        for (const gate of spec.gates ?? []) {
          try {
            entry.gates.push({ id: gate.id, result: await tracked(() => gate.run(runOf(gate, turn.input, turn.output))) });
          } catch (error) {
            entry.gates.push({ id: gate.id, error });
          }
        }
        entry.scorers = [];
        for (const given of spec.scorers ?? []) {
          const scorer: ScorerLike = isWithThreshold(given) ? given.scorer : given;
          let result: unknown;
          try {
            result = await tracked(() => scorer.run(runOf(scorer, turn.input, turn.output)));
          } catch (error) {
            throw new ItemFailure('scorer', scorer.id, undefined, error);
          }
          entry.scorers.push({ id: scorer.id, result, ...(isWithThreshold(given) ? { threshold: given.threshold as ThresholdConfig } : {}) });
        }
      }
      turns.push(entry);
    }
  }
  return { targetResult: answered.targetResult, scorerResults, gates, output: answered.shown, ...(turns ? { turns } : {}), thresholds, sampledOut };
}

/** Whether sampling skips `slot` on an item: decided by its `traceId`, else `runId`, else its identity. */
export function sampledOutSlots(slots: readonly Slot[], item: Record<string, any>, identity: string, apply: boolean): Set<Slot> {
  const out = new Set<Slot>();
  if (!apply) return out;
  for (const slot of slots) {
    if (!slot.sampling) continue;
    let sampled: boolean;
    try {
      sampled = shouldSample({ sampling: slot.sampling }, { traceId: item.traceId, runId: item.runId ?? identity });
    } catch (error) {
      throw new ItemFailure('scorer', slot.scorer.id, undefined, new Error(`sampling: ${(error as Error).message}`, { cause: error }));
    }
    if (!sampled) out.add(slot);
  }
  return out;
}

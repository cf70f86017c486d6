/**
 * `runEvals`: run a target over a dataset, score every item, and say whether the run passed: all of
 * `@mastra/core` 1.71's `runEvals`, plus what a CI run needs beyond it.
 *
 * - A Mastra Agent or Workflow is run by the app's own `@mastra/core` `runEvals` (run-evals-mastra.ts),
 *   so Mastra's inputs give Mastra's results and side effects (scores saved to storage included).
 * - A function or any object with `generate` is run here (run-evals-own.ts) by the same rules.
 * - Beyond Mastra: the registry's record (and function form) with per-key `thresholds`,
 *   `applySampling`, per-item `items` a report reads, errors that name the item's 0-based index, and
 *   shards (`shard: { index, count, run? }`) that `agent-scorers report merge` joins into the whole run.
 *
 * The aggregates are computed from the items with Mastra's rules (eval-aggregate.ts), in data order,
 * so a result does not depend on `concurrency` and merged shards equal the unsharded run.
 */
import { aggregate } from './eval-aggregate.js';
import { datasetHash, itemIdentities, shardOf } from './eval-identity.js';
import { resolveShardRun } from './eval-run-id.js';
import { itemResult, ItemFailure, message, type ItemRun } from './run-evals-items.js';
import { datasetRun } from './mastra-datasets.js';
import { scorerNames } from './mastra-experiment.js';
import { isMastraAgent, loadMastraEvals, looksLikeWorkflow, mastraValidates, runMastraItem, type MastraEvals } from './run-evals-mastra.js';
import { runOwnItem, sampledOutSlots } from './run-evals-own.js';
import { checkScorer, formOf, isWithThreshold, planScorers, slotNames, type Plan, type Slot } from './run-evals-scorers.js';
import { validateThreshold } from './thresholds.js';
import type { ScorerLike } from '../registry.js';
import type { EvalItemResult, EvalRunConfig, EvalScorers, RunEvalsConfig, RunEvalsResult, ScoresOf } from './run-evals-types.js';

export type * from './run-evals-types.js';

/** An item failed; `index` is its 0-based position in `data`. `id` is Mastra's error id for the same failure, where there is one. */
export class RunEvalsError extends Error {
  constructor(
    message: string,
    readonly index: number,
    readonly stage: 'target' | 'scorer' | 'onItemComplete',
    readonly scorerId: string | undefined,
    cause: unknown,
    readonly id?: string,
  ) {
    super(message, { cause });
    this.name = 'RunEvalsError';
  }
}

const where = 'runEvals';

/** Mastra's own checks of data items, with its messages, for targets that Mastra does not run. */
function checkItems(data: ReadonlyArray<any>): boolean {
  let turnAssertions = false;
  data.forEach((item, i) => {
    const bad = (text: string): never => {
      throw new TypeError(`Invalid data item at index ${i}: ${text}`);
    };
    if (!item || typeof item !== 'object' || (!('input' in item) && !('inputs' in item) && !('turns' in item))) bad(`must have 'input', 'inputs', or 'turns' property`);
    if ('inputs' in item && (!Array.isArray(item.inputs) || item.inputs.length === 0)) bad(`'inputs' must be a non-empty array`);
    if ('turns' in item) {
      if ('input' in item || 'inputs' in item) bad(`'turns' cannot be combined with 'input' or 'inputs'`);
      if (!Array.isArray(item.turns) || item.turns.length === 0) bad(`'turns' must be a non-empty array`);
      item.turns.forEach((turn: any, t: number) => {
        if (!turn || typeof turn !== 'object' || !('input' in turn)) bad(`turn ${t} must be an object with an 'input' property`);
        if (Array.isArray(turn.gates) && turn.gates.length > 0) turnAssertions = true;
        if (Array.isArray(turn.scorers) && turn.scorers.length > 0) {
          turnAssertions = true;
          for (const entry of turn.scorers) if (isWithThreshold(entry)) validateThreshold(entry.threshold, entry.scorer.id);
        }
      });
    }
  });
  return turnAssertions;
}

/** Checks the turns' own scorers and gates (Mastra calls them as they are and fails on the first that is not a scorer). */
function checkTurnScorers(data: ReadonlyArray<any>): void {
  data.forEach((item, i) => {
    if (!Array.isArray(item?.turns)) return;
    item.turns.forEach((turn: any, t: number) => {
      const label = `data item ${i}, turn ${t}`;
      if (turn.gates !== undefined) {
        if (!Array.isArray(turn.gates)) throw new TypeError(`${where}: ${label}: gates must be an array of scorers`);
        turn.gates.forEach((g: unknown, k: number) => checkScorer(g, `${label}: gates[${k}]`));
      }
      if (turn.scorers !== undefined) {
        if (!Array.isArray(turn.scorers)) throw new TypeError(`${where}: ${label}: scorers must be an array of scorers or { scorer, threshold } entries`);
        turn.scorers.forEach((s: unknown, k: number) => checkScorer(isWithThreshold(s) ? s.scorer : s, `${label}: scorers[${k}]`));
      }
    });
  });
}

/** The scorers as Mastra's `runEvals` takes them, for its checks of the whole run. */
function asMastraScorers(plan: Plan): unknown {
  if (plan.form === 'structured') return plan.groups;
  if (plan.form === 'function') return [{ id: 'agent-scorers:per-item', run: async () => undefined }];
  return plan.slots.map((slot) => (slot.threshold !== undefined ? { scorer: slot.scorer, threshold: slot.threshold } : slot.scorer));
}

function toRunEvalsError(error: unknown, index: number): RunEvalsError {
  if (error instanceof RunEvalsError) return error;
  if (error instanceof ItemFailure) {
    const cause = error.cause;
    return error.stage === 'target'
      ? new RunEvalsError(`${where}: item ${index} failed in the target: ${message(cause)}`, index, 'target', undefined, cause, error.mastraId)
      : new RunEvalsError(`${where}: item ${index} failed in scorer "${error.scorerId}": ${message(cause)}`, index, 'scorer', error.scorerId, cause, error.mastraId);
  }
  return new RunEvalsError(`${where}: item ${index} failed: ${message(error)}`, index, 'target', undefined, error, (error as { id?: string })?.id);
}

/** The config once validated: everything the later stages read, so none of them reads `config` again. */
interface Checked {
  target: unknown;
  data: ReadonlyArray<any>;
  plan: Plan;
  gates: ScorerLike[] | undefined;
  form: 'list' | 'agent' | 'workflow';
  evals: MastraEvals | undefined;
  workflow: boolean;
  concurrency: number;
  applySampling: boolean;
  targetOptions: RunEvalsConfig['targetOptions'];
  onItemComplete: RunEvalsConfig<any>['onItemComplete'];
  shard: { index: number; count: number; run: string } | undefined;
  fromDataset: Awaited<ReturnType<typeof datasetRun>>;
}

/**
 * Every check of the config, in Mastra's order, before any item runs: thresholds first (a bad one is
 * reported even when the data is bad too), then gates and options, the shard's run, the data (a Mastra
 * Dataset is read here), and the target with Mastra's own checks or ours. Only a scorers function's
 * result is checked later, per item, since it exists only then.
 */
async function validate<TInput, S extends EvalScorers | undefined>(config: RunEvalsConfig<TInput, S>): Promise<Checked> {
  if (config === null || typeof config !== 'object') throw new TypeError(`${where}: takes { data, target, scorers?, gates?, ... }`);
  const { target, onItemComplete, applySampling = false, targetOptions } = config;
  const concurrency = config.concurrency ?? 1;
  const { plan, gates } = planScorers(config.scorers, config.thresholds, config.gates);
  if (targetOptions !== undefined && (targetOptions === null || typeof targetOptions !== 'object' || Array.isArray(targetOptions))) {
    throw new TypeError(`${where}: targetOptions must be an object (the target's run options)`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`${where}: concurrency must be a positive integer; got ${String(concurrency)}`);
  const shard = config.shard;
  if (shard !== undefined) {
    const { index, count } = shard ?? ({} as { index?: unknown; count?: unknown });
    if (!Number.isInteger(count) || (count as number) < 1 || !Number.isInteger(index) || (index as number) < 1 || (index as number) > (count as number)) {
      throw new TypeError(`${where}: shard must be { index, count } with whole numbers and 1 <= index <= count; got ${JSON.stringify(shard)}`);
    }
  }

  // Before any item runs: a shard that cannot name its run fails at once, not after its items.
  const shardRun = shard === undefined ? undefined : await resolveShardRun(shard.run);
  // A Mastra Dataset as data: its items at one version, each known by its dataset item id; a shard's
  // run names the experiment that every shard of it records into.
  const fromDataset = await datasetRun(shard === undefined ? config : { ...config, shard: { ...shard, run: shardRun } });
  const data = fromDataset ? fromDataset.items : config.data;
  if (!Array.isArray(data)) throw new TypeError(`${where}: data must be an array of items ({ input }, { inputs } or { turns })`);
  const mastraAgent = isMastraAgent(target);
  const workflow = !mastraAgent && looksLikeWorkflow(target);
  const form = formOf(plan, workflow);
  let evals: MastraEvals | undefined;
  if (mastraAgent || workflow) {
    evals = await loadMastraEvals();
    if (workflow && !(target instanceof evals.Workflow)) {
      throw new TypeError(`${where}: target looks like a Mastra Workflow, but not one of the @mastra/core that agent-scorers loads (two copies of @mastra/core are installed); dedupe @mastra/core`);
    }
    await mastraValidates(
      evals,
      { data, scorers: asMastraScorers(plan), ...(config.gates !== undefined ? { gates: config.gates } : {}), ...(targetOptions !== undefined ? { targetOptions } : {}) },
      target as object,
    );
  } else {
    if (typeof target !== 'function' && typeof (target as { generate?: unknown })?.generate !== 'function') {
      throw new TypeError(`${where}: target must be a Mastra Agent or Workflow, a function (input => output), or an object with generate(input)`);
    }
    if (data.length === 0) throw new TypeError('Failed to run experiment: Data array is empty');
    const turnAssertions = checkItems(data);
    // Neither an Agent nor a Workflow: the form is what the scorers say, read with no Workflow target.
    if (plan.form === 'structured' && form === 'workflow') {
      throw new TypeError(`${where}: scorers { ${Object.keys(plan.groups).join(', ')} } is a Workflow's form; it needs a Mastra Workflow target`);
    }
    if (plan.form === 'structured' && !plan.groups.agent?.length && !plan.groups.trajectory?.length) {
      throw new TypeError('At least one agent or trajectory scorer must be provided');
    }
    if (plan.form === 'list' && plan.slots.length === 0 && !gates?.length && !turnAssertions) throw new TypeError('At least one scorer or gate must be provided');
  }
  checkTurnScorers(data);
  return {
    target,
    data,
    plan,
    gates,
    form,
    evals,
    workflow,
    concurrency,
    applySampling,
    targetOptions,
    onItemComplete,
    shard: shard === undefined ? undefined : { index: shard.index, count: shard.count, run: shardRun! },
    fromDataset,
  };
}

/** What the run does, decided once from the checked config: the items it runs, their identities, and the result's config. */
function planRun(checked: Checked) {
  const { data, plan, gates, form, shard } = checked;
  const identities = itemIdentities(data as ReadonlyArray<Record<string, unknown>>);
  const shards = shard ? shardOf(identities, shard.count) : undefined;
  const chosen = data.map((_, index) => index).filter((index) => !shards || shards[index] === shard!.index);
  const runConfig: EvalRunConfig = {
    form,
    gates: (gates ?? []).map((gate: ScorerLike) => gate.id),
    scorers: slotNames(plan),
    thresholds: plan.form === 'list' ? plan.slots.flatMap((slot) => (slot.threshold !== undefined ? [{ id: slot.scorer.id, threshold: slot.threshold }] : [])) : [],
  };
  return { identities, chosen, runConfig, experimentNames: scorerNames(plan, gates) };
}

type Planned = ReturnType<typeof planRun>;
type Recorder = Awaited<ReturnType<NonNullable<Checked['fromDataset']>['open']>> | undefined;

/** Runs the chosen items, at most `concurrency` at a time; resolves to their results in data order. */
async function runItems(checked: Checked, planned: Planned, recorder: Recorder): Promise<EvalItemResult[]> {
  const { data, plan, gates, form, evals, workflow, target, targetOptions, applySampling, onItemComplete } = checked;
  const { identities, chosen } = planned;
  const items: EvalItemResult[] = [];

  const runItem = async (index: number) => {
    const item = data[index] as Record<string, any>;
    let slots: Slot[] = plan.form === 'list' ? plan.slots : [];
    if (plan.form === 'function') {
      try {
        slots = await plan.resolve(item.requestContext);
      } catch (error) {
        throw new RunEvalsError(`${where}: item ${index}: resolving the scorers failed: ${message(error)}`, index, 'scorer', undefined, error);
      }
      const turnAssertions = Array.isArray(item.turns) && item.turns.some((t: any) => t.gates?.length || t.scorers?.length);
      if (slots.length === 0 && !gates?.length && !turnAssertions) {
        throw new RunEvalsError(`${where}: item ${index}: the scorers function returned no scorers, and there is no gate`, index, 'scorer', undefined, undefined);
      }
    }
    let run: ItemRun;
    try {
      const sampledOut = sampledOutSlots(slots, item, identities[index]!, applySampling);
      run = evals
        ? await runMastraItem({ evals, target: target as object, workflow, item, plan, slots, sampledOut, gates, targetOptions })
        : await runOwnItem({ target: target as any, item, index, plan, slots, sampledOut, gates: gates ?? [], targetOptions });
    } catch (error) {
      await recorder?.failed(item, error);
      throw toRunEvalsError(error, index);
    }
    const result = itemResult(run, item, index, identities[index]!, form);
    items.push(result);
    await recorder?.record(item, run, result);
    if (onItemComplete) {
      try {
        await onItemComplete({ item: item as any, index, targetResult: run.targetResult, scorerResults: run.scorerResults });
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
    while (failure === undefined && next < chosen.length) {
      const index = chosen[next++]!;
      try {
        await runItem(index);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(checked.concurrency, chosen.length) }, worker));
  if (failure !== undefined) throw failure;
  return items.sort((a, b) => a.index - b.index);
}

/**
 * Runs `target` on every item of `data` (or of one shard), then its gates and scorers, and resolves to
 * Mastra 1.71's result (`scores`, `summary`, `verdict`, `gateResults`, `thresholdResults`,
 * `turnResults`) plus `items`, `config` and, for a shard, `shard`. The config passes four stages once
 * each: validate, plan, run, aggregate.
 */
export async function runEvals<TInput = unknown, S extends EvalScorers | undefined = EvalScorers | undefined>(
  config: RunEvalsConfig<TInput, S>,
): Promise<RunEvalsResult<ScoresOf<S>>> {
  const checked = await validate(config);
  const planned = planRun(checked);
  const { fromDataset, shard } = checked;
  const recorder = await fromDataset?.open(planned.chosen.length > 0, planned.experimentNames);
  const items = await runItems(checked, planned, recorder);
  await recorder?.finish();

  fromDataset?.annotate(items);
  return {
    ...(aggregate(items, planned.runConfig) as Omit<RunEvalsResult<ScoresOf<S>>, 'items' | 'config'>),
    items,
    config: planned.runConfig,
    ...(shard ? { shard: { ...shard, dataset: datasetHash(planned.identities) } } : {}),
    ...(fromDataset ? { dataset: fromDataset.dataset } : {}),
    ...(recorder ? { experiment: { id: recorder.id } } : {}),
  };
}

/**
 * The types of `runEvals`: its configuration (data items in Mastra's three forms, scorers in Mastra's
 * forms plus the registry's record, targets, shards) and its result (Mastra 1.71's fields plus the
 * per-item `items`, the run's `config` and, for a shard, `shard`). The result is plain JSON, so a saved
 * run can be reported, compared with another, or merged with the other shards of its run.
 */
import type { ScorerEntry, ScorerLike } from '../registry.js';
import type { ThresholdConfig } from './thresholds.js';

export type { ThresholdConfig } from './thresholds.js';

/** Mastra's `{ scorer, threshold }`: the scorer's mean over the items must meet `threshold`. */
export interface ScorerWithThreshold<S extends ScorerLike = ScorerLike> {
  scorer: S;
  threshold: ThresholdConfig;
}

/** One turn of a conversation, with assertions that judge only this turn's input and output. */
export interface EvalTurn<TInput = unknown> {
  input: TInput;
  /** Scorers that must score 1.0 on this turn (averaged over the items), or the verdict is `failed`. */
  gates?: ReadonlyArray<ScorerLike>;
  /** Scorers tracked on this turn, each optionally with a threshold. */
  scorers?: ReadonlyArray<ScorerLike | ScorerWithThreshold>;
}

interface EvalItemFields {
  /**
   * A stable identity for comparing runs and choosing shards. Without it, an item is identified by
   * a hash of its `input`, `inputs` or turn inputs.
   */
  id?: string | number;
  groundTruth?: unknown;
  /** What a trajectory scorer or gate compares the run's trajectory with. */
  expectedTrajectory?: unknown;
  /** Passed to the target and to every scorer (a Mastra `RequestContext` for Mastra targets). */
  requestContext?: any;
  /** A Workflow target's run options for this item (merged over `targetOptions`). */
  startOptions?: Readonly<Record<string, unknown>>;
  /** Used as the scorer runs' `runId` by function targets, and for sampling. */
  runId?: string;
  /** Decides sampling (with `applySampling`) before `runId`. */
  traceId?: string;
  [extra: string]: unknown;
}

/**
 * One item of `data`, in one of Mastra's three forms: a single `input`; `inputs`, sent one after
 * another on one conversation thread, with scorers judging all of the replies; or `turns`, each with
 * its own assertions.
 */
export type EvalItem<TInput = unknown> =
  | (EvalItemFields & { input: TInput; inputs?: never; turns?: never })
  | (EvalItemFields & { inputs: ReadonlyArray<TInput>; /** Accepted beside `inputs`, and not sent (as in Mastra). */ input?: unknown; turns?: never })
  | (EvalItemFields & { turns: ReadonlyArray<EvalTurn<TInput>>; input?: never; inputs?: never });

/**
 * The registry's function form. Declared with method syntax so that its parameter is checked
 * bivariantly: a config's own function, typed by Mastra as taking `{ requestContext: RequestContext }`,
 * is accepted (it gets the item's `requestContext` as given).
 */
export type EvalScorersFunction = {
  call(context: { requestContext?: unknown }): Record<string, ScorerLike | ScorerEntry> | Promise<Record<string, ScorerLike | ScorerEntry>>;
}['call'];

export type EvalScorerList = ReadonlyArray<ScorerLike | ScorerEntry | ScorerWithThreshold>;
export type EvalScorerRecord = Readonly<Record<string, ScorerLike | ScorerEntry>>;

/** Mastra's structured form for an Agent: scorers of the replies, and of the tool-call trajectory. */
export interface AgentScorerConfig {
  agent?: ReadonlyArray<ScorerLike>;
  trajectory?: ReadonlyArray<ScorerLike>;
}

/** Mastra's structured form for a Workflow: of its result, of each step's output by step id, of its trajectory. */
export interface WorkflowScorerConfig {
  workflow?: ReadonlyArray<ScorerLike>;
  steps?: Readonly<Record<string, ReadonlyArray<ScorerLike>>>;
  trajectory?: ReadonlyArray<ScorerLike>;
}

export type EvalScorers = EvalScorerList | EvalScorerRecord | EvalScorersFunction | AgentScorerConfig | WorkflowScorerConfig;

type StructuredKey = 'agent' | 'trajectory' | 'workflow' | 'steps';
type IsStructured<S> = S extends (...args: any[]) => any
  ? false
  : [keyof S] extends [never]
    ? false
    : [keyof S] extends [StructuredKey]
  ? S[keyof S] extends ReadonlyArray<unknown> | Readonly<Record<string, ReadonlyArray<unknown>>> | undefined
      ? true
      : false
    : false;
type KeysOf<S> = S extends (...args: any[]) => infer R ? keyof Awaited<R> : keyof S;

/**
 * Per-key thresholds for a record (or the function form) of scorers: only the record's own keys, so a
 * misspelt key is a type error. An array takes its thresholds inline (`{ scorer, threshold }`), and
 * the structured forms take none.
 */
export type ThresholdsFor<S> = 0 extends 1 & S
  ? { readonly [key: string]: ThresholdConfig }
  : [S] extends [ReadonlyArray<unknown> | undefined]
    ? never
    : IsStructured<S> extends true
      ? never
      : { readonly [K in KeysOf<S> & string]?: ThresholdConfig };

/** What a function target receives besides the input. */
export interface EvalTargetContext<TInput = unknown> {
  item: EvalItem<TInput>;
  /** 0-based position of the item in `data`. */
  index: number;
  requestContext?: unknown;
  /** `targetOptions`, as given. */
  options?: Readonly<Record<string, unknown>>;
  /** In a multi-turn item: the 0-based turn, the conversation's thread id, and the turns before this one. */
  turn?: { index: number; threadId: string; history: ReadonlyArray<{ input: TInput; output: unknown }> };
}

/**
 * A Mastra `Agent` or `Workflow` (run through your `@mastra/core`'s own `runEvals`, so every Mastra
 * behaviour is kept), a function `(input, context) => output`, or any object with `generate(input)`.
 */
// `Exclude<TInput, undefined>`: a dataset declared apart that mixes `{ input }` and `{ inputs }`
// items has its missing `input` typed `undefined` by TypeScript, which would otherwise reach the
// function's parameter; a function is only ever called with an item's input or turn input.
export type EvalTarget<TInput = unknown> =
  | ((input: Exclude<TInput, undefined>, context: EvalTargetContext<TInput>) => unknown)
  | { generate: (input: TInput, ...rest: any[]) => unknown }
  | { createRun: (...args: any[]) => unknown };

export interface ItemCompleteEvent<TInput = unknown> {
  item: EvalItem<TInput>;
  index: number;
  targetResult: any;
  /**
   * Each scorer's run result, keyed by `scorer.id`; nested (`{ agent, trajectory }`, `{ workflow,
   * steps, trajectory }`) for the structured forms. Gates and per-turn assertions are not included,
   * as in Mastra. Scorers skipped by sampling are absent.
   */
  scorerResults: Record<string, any>;
}

/** Run one share of the items: the `index`-th (1-based) of `count`, as `vitest --shard=index/count`. */
export interface EvalShard {
  index: number;
  count: number;
  /**
   * The run the shard belongs to, the same on every shard of it: `report merge` refuses shards of
   * different runs. Default: the CI's run id (`GITHUB_RUN_ID`, `CI_PIPELINE_ID`,
   * `BUILDKITE_BUILD_ID`), else the commit (`GITHUB_SHA`, else `git rev-parse HEAD`).
   */
  run?: string;
}

/**
 * A Mastra `Dataset` (`mastra.datasets.get(...)`), recognised by shape: its items at a version are the
 * run's items, each keeping its dataset item id as its identity.
 */
export interface MastraDatasetLike {
  readonly id: string;
  getDetails(): Promise<unknown>;
  listItems(args?: any): Promise<unknown>;
  createExperiment(args?: any): Promise<unknown>;
}

/** `data`: the items, a Mastra `Dataset` (its latest version), or `{ dataset, version }` to pin one. */
export type EvalData<TInput = unknown> = ReadonlyArray<EvalItem<TInput>> | MastraDatasetLike | { dataset: MastraDatasetLike; version?: number };

/**
 * Record the run as a Mastra experiment of the dataset given as `data`, so Studio lists it and compares
 * it with any other run. `id` defaults to one derived from the shard's `run` (every shard of a run
 * records into one experiment), else a new one.
 */
export interface EvalExperiment {
  id?: string;
  name?: string;
  metadata?: Record<string, unknown>;
}

/**
 * `runEvals`' configuration. As in Mastra, `scorers` or `gates` must be given (`scorers: []` for a run
 * whose only assertions are per turn).
 */
export type RunEvalsConfig<TInput = unknown, S extends EvalScorers | undefined = EvalScorers | undefined> = RunEvalsOptions<TInput, S> &
  ({ scorers: S } | { gates: ReadonlyArray<ScorerLike> });

export interface RunEvalsOptions<TInput = unknown, S extends EvalScorers | undefined = EvalScorers | undefined> {
  data: EvalData<TInput>;
  /** Record the run as a Mastra experiment (with a Mastra `Dataset` as `data`). */
  experiment?: EvalExperiment;
  /** Tracked scorers. Optional when there are gates. */
  scorers?: S;
  /** Per-key thresholds beside a record of scorers (the registry's form): `{ relevance: 0.7 }`. */
  thresholds?: ThresholdsFor<S>;
  /** Scorers that must average 1.0 over the items, or the verdict is `failed`. */
  gates?: ReadonlyArray<ScorerLike>;
  target: EvalTarget<TInput>;
  /**
   * The target's run options: an Agent's `generate` options (model settings, memory, ...), a
   * Workflow's start options, the second argument of a `generate` object, `context.options` of a
   * function.
   */
  targetOptions?: Readonly<Record<string, unknown>>;
  onItemComplete?: (event: ItemCompleteEvent<TInput>) => void | Promise<void>;
  /** Items processed at the same time. Default 1. */
  concurrency?: number;
  /** Apply entries' `sampling` per item. Default false: every scorer scores every item, as in Mastra. */
  applySampling?: boolean;
  /** Run only this shard's items; `agent-scorers report merge` joins the shards' results. */
  shard?: EvalShard;
}

export type EvalVerdict = 'passed' | 'scored' | 'failed';

export interface GateResult {
  id: string;
  /** True when the gate averaged 1.0 (or more). */
  passed: boolean;
  /** The gate's mean over the items it scored. */
  score: number;
}

export interface ThresholdResult {
  id: string;
  passed: boolean;
  averageScore: number;
  threshold: ThresholdConfig;
}

/** Per-turn assertion results, aggregated by turn index over the items (Mastra's `turnResults`). */
export interface TurnResult {
  index: number;
  gateResults?: GateResult[];
  thresholdResults?: ThresholdResult[];
  /** Mean per scorer id of the turn's scorers. */
  scores?: Record<string, number>;
}

/** One scorer's (or gate's) outcome on one item or turn. */
export interface EvalItemScore {
  /** `null` when the run was declared not scorable or gave no number. */
  score: number | null;
  reason: string | null;
  /** The scorer declared this run not scorable (Mastra's `notScorable()`); `reason` is its reason. */
  notScorable?: true;
  /** The threshold this scorer is held to, where it has one. */
  threshold?: ThresholdConfig;
  /**
   * True when every judge reply of this run came from `cachedJudge`'s file; false when any was live;
   * absent when no `cachedJudge` answered this run (no judge, or a judge without a cache, or a scorer
   * that does not report its judge calls, as Mastra's own do not).
   */
  cached?: boolean;
  /** A gate that threw scores 0, as in Mastra; this is what it threw. */
  error?: string;
}

export type EvalScoreGroup = Record<string, EvalItemScore>;

/** One turn of a multi-turn item. */
export interface EvalTurnItemResult {
  index: number;
  input: unknown;
  output: unknown;
  /** The turn's own scorers (items with `turns` only). */
  scores?: EvalScoreGroup;
  /** The turn's own gates (items with `turns` only). */
  gates?: EvalScoreGroup;
}

/** One step of a Workflow's run of an item: what the step scorers of that step judge. */
export interface EvalStepResult {
  /** Mastra's step status: `success`, `failed`, `suspended`, ... */
  status: string;
  /** What the step was given (the previous step's output, or the workflow's input); absent when unknown. */
  input?: unknown;
  /** What the step returned; absent when it returned nothing (a failed step). */
  output?: unknown;
  /** A failed step's error, as text. */
  error?: string;
}

/** One item of `data` and what every scorer and gate made of it. */
export interface EvalItemResult {
  /** 0-based position in `data`. */
  index: number;
  /** The item's identity: its `id`, else a hash of its inputs (see `EvalItem.id`). */
  id: string;
  /** The item's `input` (a multi-turn item: its first input). */
  input: unknown;
  /** What the target answered: for an Agent, the reply text (multi-turn: one text per reply). */
  output: unknown;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  /** Tracked scorers, keyed by scorer id (the `agent` or `workflow` group of the structured forms). */
  scores: EvalScoreGroup;
  /** Gates, keyed by scorer id. */
  gates?: EvalScoreGroup;
  /** The structured forms' `trajectory` scorers. */
  trajectory?: EvalScoreGroup;
  /** A Workflow's step scorers, by step id. */
  steps?: Record<string, EvalScoreGroup>;
  /** A Workflow target: what each step that ran was given and returned, by step id, in the order they ran. */
  stepResults?: Record<string, EvalStepResult>;
  /** Multi-turn items: one entry per turn. */
  turns?: EvalTurnItemResult[];
  /** Scorer ids that sampling skipped on this item (with `applySampling`). */
  sampledOut?: string[];
  /** With a Mastra `Dataset` as data: the dataset version the item's content dates from (Mastra's `itemVersion`). */
  datasetVersion?: number;
}

/** What a run was asked to check: enough to aggregate its items again (merging shards, comparing runs). */
export interface EvalRunConfig {
  /** The shape of `scores`: flat by scorer id, `{ agent?, trajectory? }`, or `{ workflow?, steps?, trajectory? }`. */
  form: 'list' | 'agent' | 'workflow';
  /** Gate ids, in the order given. */
  gates: string[];
  /** Tracked scorer slots known before the run (`trajectory/<id>`, `steps/<step>/<id>` in structured forms); empty for the function form. */
  scorers: string[];
  /** Thresholds known before the run, in the order given; the function form's come from its items. */
  thresholds: Array<{ id: string; threshold: ThresholdConfig }>;
}

/** A shard's place in its run, recorded so that `report merge` can check the set of shards. */
export interface EvalShardInfo {
  /** This shard, 1-based. */
  index: number;
  /** Shards in the run. */
  count: number;
  /** The run the shard belongs to: `shard.run` as given, else the CI's run id, else the commit. */
  run: string;
  /** A fingerprint of the whole dataset: a hash of every item identity, order aside. */
  dataset: string;
}

export type NestedScores = {
  agent?: Record<string, number>;
  workflow?: Record<string, number>;
  steps?: Record<string, Record<string, number>>;
  trajectory?: Record<string, number>;
};

/** `scores` as the scorer form shapes it: flat for a list, a record or a function, nested for the structured forms. */
export type ScoresOf<S> = [S] extends [AgentScorerConfig | WorkflowScorerConfig]
  ? IsStructured<S> extends true
    ? NestedScores
    : Record<string, number>
  : Record<string, number>;

/**
 * What `runEvals` resolves to: Mastra 1.71's fields plus `items`, `config` and, for a shard, `shard`.
 * JSON-serialisable when the inputs, outputs and reasons are, so `JSON.stringify(result)` can be saved
 * and reported, compared or merged later.
 */
export interface RunEvalsResult<Scores = Record<string, number>> {
  /** Mean score per scorer id, over the items it scored (gates are not included). */
  scores: Scores;
  summary: {
    totalItems: number;
    /** Per scorer or gate id, how many runs it declared not scorable (present only when some did). */
    notScorable?: Record<string, number>;
    /** Per scorer id, how many items sampling skipped (present only with `applySampling` and skips). */
    sampledOut?: Record<string, number>;
  };
  /** Absent when no gate or threshold (top-level or per turn) produced a number. */
  verdict?: EvalVerdict;
  gateResults?: GateResult[];
  thresholdResults?: ThresholdResult[];
  /** Present when any item uses `turns`. */
  turnResults?: TurnResult[];
  /** Per item, in `data` order. */
  items: EvalItemResult[];
  config: EvalRunConfig;
  /** Present on a shard's result. */
  shard?: EvalShardInfo;
  /** Present when `data` was a Mastra `Dataset`: which one, at which version. */
  dataset?: { id: string; version: number };
  /** Present when the run was recorded as a Mastra experiment. */
  experiment?: { id: string };
}

/**
 * The types of `runEvals`: its configuration (scorers, per-key thresholds typed from a registry
 * record, gates, targets) and its result (Mastra 1.71's fields plus per-item `items`, which the report
 * reads). Kept apart from the run itself so the shape a report depends on is readable in one place.
 */
import type { ScorerEntry, ScorerLike } from './registry.js';
import type { ThresholdConfig } from './thresholds.js';

export type { ThresholdConfig } from './thresholds.js';

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
export type EvalScorersFunction = {
  call(context: { requestContext?: unknown }): Record<string, ScorerLike | ScorerEntry> | Promise<Record<string, ScorerLike | ScorerEntry>>;
}['call'];

/** Mastra's `{ scorer, threshold }`: the scorer's mean over the items must meet `threshold`. */
export interface ScorerWithThreshold<S extends ScorerLike = ScorerLike> {
  scorer: S;
  threshold: ThresholdConfig;
}

export type EvalScorerList = ReadonlyArray<ScorerLike | ScorerEntry | ScorerWithThreshold>;
export type EvalScorerRecord = Readonly<Record<string, ScorerLike | ScorerEntry>>;
export type EvalScorers = EvalScorerList | EvalScorerRecord | EvalScorersFunction;

type KeysOf<S> = S extends (...args: any[]) => infer R ? keyof Awaited<R> : keyof S;

/**
 * Per-key thresholds for a record (or the function form) of scorers: only the record's own keys, so a
 * misspelt key is a type error. An array takes its thresholds inline (`{ scorer, threshold }`) instead.
 */
export type ThresholdsFor<S> = 0 extends 1 & S
  ? { readonly [key: string]: ThresholdConfig }
  : [S] extends [ReadonlyArray<unknown> | undefined]
    ? never
    : { readonly [K in KeysOf<S> & string]?: ThresholdConfig };

/** A function `(input) => output`, or an object with `generate(input)` (a Mastra agent, for example). */
export type EvalTarget<TInput = unknown> =
  | ((input: TInput, context: { item: EvalItem<TInput>; index: number }) => unknown)
  | { generate: (input: TInput, ...rest: any[]) => unknown };

export interface ItemCompleteEvent<TInput = unknown> {
  item: EvalItem<TInput>;
  index: number;
  targetResult: unknown;
  /** Each scorer's run result, keyed by `scorer.id` (gates are not included, as in Mastra). Scorers skipped by sampling are absent. */
  scorerResults: Record<string, any>;
}

export interface RunEvalsConfig<TInput = unknown, S extends EvalScorers | undefined = EvalScorers | undefined> {
  data: ReadonlyArray<EvalItem<TInput>>;
  /** Tracked scorers. Optional when `gates` has at least one gate. */
  scorers?: S;
  /** Per-key thresholds beside a record of scorers (the registry's form): `{ relevance: 0.7 }`. */
  thresholds?: ThresholdsFor<S>;
  /** Scorers that must average 1.0 over the items, or the verdict is `failed`. */
  gates?: ReadonlyArray<ScorerLike>;
  target: EvalTarget<TInput>;
  onItemComplete?: (event: ItemCompleteEvent<TInput>) => void | Promise<void>;
  /** Items processed at the same time. Default 1. */
  concurrency?: number;
  /** Apply entries' `sampling` per item. Default false: every scorer scores every item. */
  applySampling?: boolean;
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

/** One scorer's (or gate's) outcome on one item. */
export interface EvalItemScore {
  /** `null` when the run was declared not scorable. */
  score: number | null;
  reason: string | null;
  /** The scorer declared this run not scorable (Mastra's `notScorable()`); `reason` is its reason. */
  notScorable?: true;
  /** The scorer was given in `gates`. */
  gate?: true;
  /**
   * True when every judge reply of this run came from `cachedJudge`'s file; false when any was live;
   * absent when no `cachedJudge` answered this run (no judge, or a judge without a cache, or a scorer
   * that does not report its judge calls, as Mastra's own do not).
   */
  cached?: boolean;
  /** A gate that threw scores 0, as in Mastra; this is what it threw. */
  error?: string;
}

/** One item of `data` and what every scorer and gate made of it. */
export interface EvalItemResult {
  /** 0-based position in `data`. */
  index: number;
  input: unknown;
  /** What the target returned (for an Agent, or any result with a string `text`: that text). */
  output: unknown;
  groundTruth?: unknown;
  /** Keyed by scorer id. A scorer skipped by sampling has no entry. */
  scores: Record<string, EvalItemScore>;
}

/**
 * What `runEvals` resolves to: Mastra 1.71's fields plus `items`. JSON-serialisable when the inputs,
 * outputs and reasons are, so `JSON.stringify(result)` can be saved and turned into a report later.
 */
export interface RunEvalsResult {
  /** Mean score per scorer id, over the items it scored (gates are not included). */
  scores: Record<string, number>;
  summary: {
    totalItems: number;
    /** Per scorer or gate id, how many runs it declared not scorable (present only when some did). */
    notScorable?: Record<string, number>;
    /** Per scorer id, how many items sampling skipped (present only with `applySampling` and skips). */
    sampledOut?: Record<string, number>;
  };
  /** Absent when no gate or threshold produced a number. */
  verdict?: EvalVerdict;
  gateResults?: GateResult[];
  thresholdResults?: ThresholdResult[];
  /** Per item, in `data` order. */
  items: EvalItemResult[];
}

/**
 * The shape `evalReport` reads: what `runEvals` resolves to, declared here structurally so that a
 * result read back from JSON (`JSON.parse` of a saved run) is accepted as well as the live object.
 * `checkResult` validates an unknown value against it with messages that name the offending field.
 *
 * Results saved by the first release kept gates among an item's `scores`, flagged `gate: true`, and
 * had no item `id`; they are still read: `readResult` moves such gates to `gates` and gives each item
 * the identity `runEvals` gives it now, so an old baseline compares with a new run.
 */
import { itemIdentities } from '../runtime/evals/eval-identity.js';
import { fromExperimentSummary, isExperimentSummary } from './experiment-summary.js';

/** A threshold as `runEvals` takes it: a number is a minimum; `{ min?, max? }` bounds the mean. */
export type ReportThreshold = number | { readonly min?: number; readonly max?: number };

/** One scorer's (or gate's) run on one item or turn. */
export interface ReportItemScore {
  /** `null` when the scorer declared the run not scorable or gave no number. */
  score: number | null;
  reason?: string | null;
  notScorable?: boolean;
  /** Results saved by the first release: the scorer was given in `gates` (now under the item's `gates`). */
  gate?: boolean;
  /** The threshold this scorer is held to, where it has one. */
  threshold?: ReportThreshold;
  /** `true`: every judge reply came from a `cachedJudge` file; `false`: some were live; absent: no cache involved. */
  cached?: boolean;
  /** A gate that threw scores 0; this is what it threw. */
  error?: string;
}

/** Runs keyed by scorer id. */
export type ReportScoreGroup = Record<string, ReportItemScore>;

/** One turn of a multi-turn item. */
export interface ReportTurn {
  /** 0-based turn. */
  index: number;
  input?: unknown;
  output?: unknown;
  /** The turn's own scorers (items with `turns`). */
  scores?: ReportScoreGroup;
  /** The turn's own gates (items with `turns`). */
  gates?: ReportScoreGroup;
}

/** One step of a Workflow's run of an item. */
export interface ReportStepResult {
  status: string;
  input?: unknown;
  output?: unknown;
  error?: string;
}

/** A shard's place in its run (`runEvals({ shard })`). */
export interface ReportShard {
  /** This shard, from 1 to `count`. */
  index: number;
  count: number;
  /** The run its shards share; results saved by earlier releases have none. */
  run?: string;
  /** A fingerprint of the whole dataset's item identities. */
  dataset: string;
}

export interface ReportItem {
  /** 0-based position in the eval's `data`. */
  index: number;
  /** The item's identity across runs: its `id`, else a hash of its inputs. Computed when absent. */
  id?: string;
  input?: unknown;
  output?: unknown;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  /** Tracked scorers, keyed by scorer id (the `agent` or `workflow` group of the structured forms). */
  scores: ReportScoreGroup;
  /** Gates, keyed by scorer id. */
  gates?: ReportScoreGroup;
  /** The structured forms' trajectory scorers. */
  trajectory?: ReportScoreGroup;
  /** A Workflow's step scorers, by step id. */
  steps?: Record<string, ReportScoreGroup>;
  /** A Workflow target: what each step was given and returned, by step id. */
  stepResults?: Record<string, ReportStepResult>;
  /** Multi-turn items: one entry per turn. */
  turns?: ReadonlyArray<ReportTurn>;
  /** Scorer ids that sampling skipped on this item. */
  sampledOut?: ReadonlyArray<string>;
  /** The version of its Mastra dataset the item ran at (read from an `ExperimentSummary`). */
  datasetVersion?: number;
}

export interface ReportGateResult {
  id: string;
  passed: boolean;
  score: number;
}

export interface ReportThresholdResult {
  id: string;
  passed: boolean;
  averageScore: number;
  threshold: ReportThreshold;
}

/** Means of the structured forms: `{ agent, trajectory }` or `{ workflow, steps, trajectory }`. */
export interface ReportNestedScores {
  agent?: Record<string, number>;
  workflow?: Record<string, number>;
  steps?: Record<string, Record<string, number>>;
  trajectory?: Record<string, number>;
}

/** A `runEvals` result, or the same parsed back from JSON. */
export interface ReportInput {
  /** Mean per scorer id over the runs that were scorable; nested for the structured forms. */
  scores: Record<string, number> | ReportNestedScores;
  summary: { totalItems: number; notScorable?: Record<string, number>; sampledOut?: Record<string, number> };
  verdict?: 'passed' | 'scored' | 'failed';
  gateResults?: ReadonlyArray<ReportGateResult>;
  thresholdResults?: ReadonlyArray<ReportThresholdResult>;
  /** Per-turn assertions aggregated by turn index (items with `turns`). */
  turnResults?: ReadonlyArray<{
    index: number;
    gateResults?: ReadonlyArray<ReportGateResult>;
    thresholdResults?: ReadonlyArray<ReportThresholdResult>;
    scores?: Record<string, number>;
  }>;
  /** Per-item results. Without them the report shows the aggregates only, and nothing can be compared. */
  items?: ReadonlyArray<ReportItem>;
  /** What the run was asked to check. */
  config?: {
    form: 'list' | 'agent' | 'workflow';
    gates: ReadonlyArray<string>;
    scorers: ReadonlyArray<string>;
    thresholds: ReadonlyArray<{ id: string; threshold: ReportThreshold }>;
  };
  /** Present on one shard's result. */
  shard?: ReportShard;
  /** The Mastra dataset the run's items came from, and its version. */
  dataset?: { id?: string; version?: number };
}

/** A checked result with every item's `id` set and gates under `gates`: what the renderers read. */
export interface ReadResult extends ReportInput {
  items?: ReadonlyArray<ReportItem & { id: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A finite number: NaN and ±Infinity (JSON's `1e999`) cannot be averaged or compared into a verdict. */
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const key = (id: string) => `[${JSON.stringify(id)}]`;

const NESTED_KEYS = ['agent', 'workflow', 'steps', 'trajectory'];

/** Whether `scores` is the structured forms' nested record (its values are records, not numbers). */
export const isNested = (scores: ReportInput['scores']): scores is ReportNestedScores =>
  Object.values(scores).some((value) => isObject(value));

/**
 * How deep a result may nest, counting every array and object from the result itself down. A run's
 * inputs and outputs (message lists, tool calls, structured answers) nest a few dozen levels; the
 * walks that render and identify items recurse, so a deeper value is refused up front, naming where,
 * instead of overflowing the stack halfway through a report.
 */
export const MAX_NESTING = 1000;

/**
 * Where `value` nests deeper than `limit` levels (`items[3].input`, the first three steps of the
 * path), or undefined. Iterative, so any depth is measured without recursion; each object is entered
 * once, so a live value that refers to itself ends the walk instead of looping.
 */
export function tooDeep(value: unknown, limit = MAX_NESTING): string | undefined {
  interface Step { value: unknown; depth: number; parent?: Step; key?: string | number }
  const seen = new Set<object>();
  const stack: Step[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const current = step.value;
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (step.depth > limit) {
      const keys: Array<string | number> = [];
      for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent) keys.unshift(at.key!);
      const field = keys.slice(0, 3).map((k, i) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${i === 0 ? '' : '.'}${k}` : key(k))).join('');
      return field || 'the result';
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth: step.depth + 1, parent: step, key: i });
    } else {
      for (const k of Object.keys(current)) stack.push({ value: (current as Record<string, unknown>)[k], depth: step.depth + 1, parent: step, key: k });
    }
  }
  return undefined;
}

function fail(field: string, what: string): never {
  throw new TypeError(`${field} must be ${what}`);
}

class Checker {
  means(value: unknown, field: string, nullable = false): void {
    if (!isObject(value)) fail(field, 'an object of mean scores keyed by scorer id');
    for (const [id, mean] of Object.entries(value)) if (!isNumber(mean) && !(nullable && mean === null)) fail(`${field}${key(id)}`, typeof mean === 'number' && !Number.isNaN(mean) ? `a number, and finite: got ${mean}` : 'a number');
  }

  list(value: unknown, name: string, each: (entry: Record<string, unknown>, at: string) => void): void {
    if (value === undefined) return;
    if (!Array.isArray(value)) fail(name, 'an array');
    value.forEach((entry, i) => {
      if (!isObject(entry)) fail(`${name}[${i}]`, 'an object');
      each(entry, `${name}[${i}]`);
    });
  }

  threshold(value: unknown, field: string): void {
    const bound = (b: unknown) => b === undefined || isNumber(b);
    if (!isNumber(value) && !(isObject(value) && bound(value.min) && bound(value.max))) fail(field, 'a number or { min?, max? }');
  }

  gateResults(value: unknown, name: string): void {
    this.list(value, name, (entry, at) => {
      if (typeof entry.id !== 'string') fail(`${at}.id`, 'a string');
      if (typeof entry.passed !== 'boolean') fail(`${at}.passed`, 'a boolean');
      // A gate whose runs gave no number averages NaN, which JSON saves as null: a failed gate.
      if (!isNumber(entry.score) && entry.score !== null) fail(`${at}.score`, 'a number');
    });
  }

  thresholdResults(value: unknown, name: string): void {
    this.list(value, name, (entry, at) => {
      if (typeof entry.id !== 'string') fail(`${at}.id`, 'a string');
      if (typeof entry.passed !== 'boolean') fail(`${at}.passed`, 'a boolean');
      // A mean of runs that gave no number is NaN, which JSON saves as null: a missed threshold.
      if (!isNumber(entry.averageScore) && entry.averageScore !== null) fail(`${at}.averageScore`, 'a number');
      this.threshold(entry.threshold, `${at}.threshold`);
    });
  }

  group(value: unknown, field: string): void {
    if (!isObject(value)) fail(field, 'an object keyed by scorer id');
    // Tens of thousands of runs in a large result: the field name is built only for a failure.
    for (const id in value) {
      if (!Object.hasOwn(value, id)) continue;
      const run = value[id];
      const at = () => `${field}${key(id)}`;
      if (!isObject(run)) fail(at(), 'an object');
      if (run.score !== null && !isNumber(run.score)) fail(`${at()}.score`, typeof run.score === 'number' && !Number.isNaN(run.score) ? `a number or null, and finite: got ${run.score}` : 'a number or null');
      if (run.reason !== undefined && run.reason !== null && typeof run.reason !== 'string') fail(`${at()}.reason`, 'a string or null');
      if (run.error !== undefined && typeof run.error !== 'string') fail(`${at()}.error`, 'a string');
      if (run.notScorable !== undefined && typeof run.notScorable !== 'boolean') fail(`${at()}.notScorable`, 'a boolean');
      if (run.gate !== undefined && typeof run.gate !== 'boolean') fail(`${at()}.gate`, 'a boolean');
      if (run.cached !== undefined && typeof run.cached !== 'boolean') fail(`${at()}.cached`, 'a boolean');
      if (run.threshold !== undefined) this.threshold(run.threshold, `${at()}.threshold`);
    }
  }

  stringList(value: unknown, field: string): void {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(field, 'an array of strings');
  }
}

/**
 * Checks that `value` has the shape of a `runEvals` result; throws a `TypeError` whose message names
 * the first field that does not fit (`items[3].scores["relevance"].score must be a number or null`).
 * Results saved by earlier releases (gates flagged `gate: true` among an item's scores) pass too.
 */
export function checkResult(value: unknown): ReportInput {
  // Mastra's ExperimentSummary (startExperiment's result) is read as the result it describes.
  if (isExperimentSummary(value)) value = fromExperimentSummary(value as Record<string, unknown>);
  const c = new Checker();
  if (!isObject(value)) fail('the result', 'an object (what runEvals resolves to)');
  const deep = tooDeep(value);
  if (deep !== undefined) throw new TypeError(`${deep} is too deeply nested: more than ${MAX_NESTING.toLocaleString('en-US')} levels of arrays and objects`);
  const result = value;
  if (!isObject(result.scores)) fail('scores', 'an object of mean scores keyed by scorer id');
  if (isNested(result.scores as ReportInput['scores'])) {
    for (const [group, means] of Object.entries(result.scores)) {
      if (!NESTED_KEYS.includes(group)) fail(`scores${key(group)}`, 'a number (or scores must be the structured form { agent?, workflow?, steps?, trajectory? })');
      if (group !== 'steps') c.means(means, `scores.${group}`);
      else {
        if (!isObject(means)) fail('scores.steps', 'an object keyed by step id');
        for (const [step, stepMeans] of Object.entries(means)) c.means(stepMeans, `scores.steps${key(step)}`);
      }
    }
  } else {
    c.means(result.scores, 'scores');
  }
  if (!isObject(result.summary)) fail('summary', 'an object');
  const summary = result.summary;
  if (!Number.isInteger(summary.totalItems) || (summary.totalItems as number) < 0) fail('summary.totalItems', 'a whole number');
  for (const field of ['notScorable', 'sampledOut'] as const) {
    if (summary[field] === undefined) continue;
    if (!isObject(summary[field])) fail(`summary.${field}`, 'an object of counts keyed by scorer id');
    for (const [id, count] of Object.entries(summary[field])) {
      if (!Number.isInteger(count)) fail(`summary.${field}${key(id)}`, 'a whole number');
    }
  }
  if (result.verdict !== undefined && result.verdict !== 'passed' && result.verdict !== 'scored' && result.verdict !== 'failed') {
    fail('verdict', `'passed', 'scored' or 'failed'`);
  }
  c.gateResults(result.gateResults, 'gateResults');
  c.thresholdResults(result.thresholdResults, 'thresholdResults');
  c.list(result.turnResults, 'turnResults', (turn, at) => {
    if (!Number.isInteger(turn.index) || (turn.index as number) < 0) fail(`${at}.index`, 'a whole number');
    c.gateResults(turn.gateResults, `${at}.gateResults`);
    c.thresholdResults(turn.thresholdResults, `${at}.thresholdResults`);
    // A turn's means count every run that gave a score, as its thresholds do: NaN (JSON null) when one gave no number.
    if (turn.scores !== undefined) c.means(turn.scores, `${at}.scores`, true);
  });
  const ids = new Map<string, number>();
  c.list(result.items, 'items', (item, at) => {
    if (!Number.isInteger(item.index) || (item.index as number) < 0) fail(`${at}.index`, 'a whole number');
    if (item.id !== undefined) {
      if (typeof item.id !== 'string') fail(`${at}.id`, 'a string');
      const first = ids.get(item.id as string);
      if (first !== undefined) fail(`${at}.id`, `unique, but ${JSON.stringify(item.id)} is also the id of items[${first}]`);
      ids.set(item.id as string, Number(at.slice(6, -1)));
    }
    c.group(item.scores, `${at}.scores`);
    for (const group of ['gates', 'trajectory'] as const) if (item[group] !== undefined) c.group(item[group], `${at}.${group}`);
    if (item.steps !== undefined) {
      if (!isObject(item.steps)) fail(`${at}.steps`, 'an object keyed by step id');
      for (const [step, group] of Object.entries(item.steps)) c.group(group, `${at}.steps${key(step)}`);
    }
    if (item.stepResults !== undefined) {
      if (!isObject(item.stepResults)) fail(`${at}.stepResults`, 'an object keyed by step id');
      for (const [step, run] of Object.entries(item.stepResults)) {
        if (!isObject(run)) fail(`${at}.stepResults${key(step)}`, 'an object');
        if (typeof run.status !== 'string') fail(`${at}.stepResults${key(step)}.status`, 'a string');
        if (run.error !== undefined && typeof run.error !== 'string') fail(`${at}.stepResults${key(step)}.error`, 'a string');
      }
    }
    c.list(item.turns, `${at}.turns`, (turn, turnAt) => {
      if (!Number.isInteger(turn.index) || (turn.index as number) < 0) fail(`${turnAt}.index`, 'a whole number');
      if (turn.scores !== undefined) c.group(turn.scores, `${turnAt}.scores`);
      if (turn.gates !== undefined) c.group(turn.gates, `${turnAt}.gates`);
    });
    if (item.sampledOut !== undefined) c.stringList(item.sampledOut, `${at}.sampledOut`);
  });
  if (result.config !== undefined) {
    if (!isObject(result.config)) fail('config', 'an object');
    const config = result.config;
    if (config.form !== 'list' && config.form !== 'agent' && config.form !== 'workflow') fail('config.form', `'list', 'agent' or 'workflow'`);
    c.stringList(config.gates, 'config.gates');
    c.stringList(config.scorers, 'config.scorers');
    c.list(config.thresholds, 'config.thresholds', (entry, at) => {
      if (typeof entry.id !== 'string') fail(`${at}.id`, 'a string');
      c.threshold(entry.threshold, `${at}.threshold`);
    });
    if (!Array.isArray(config.thresholds)) fail('config.thresholds', 'an array');
  }
  if (result.shard !== undefined) checkShard(result.shard);
  return value as unknown as ReportInput;
}

/**
 * A shard record's shape: `index` from 1 to `count` (a "shard 7 of 3" is forged or broken), a `run`
 * that is a string where there is one (results of earlier releases have none, and a `total`, which is
 * no longer read), and the dataset's fingerprint.
 */
export function checkShard(shard: unknown): asserts shard is ReportShard {
  if (!isObject(shard)) fail('shard', 'an object');
  if (!Number.isInteger(shard.count) || (shard.count as number) < 1) fail('shard.count', 'a whole number of 1 or more');
  if (!Number.isInteger(shard.index) || (shard.index as number) < 1 || (shard.index as number) > (shard.count as number)) {
    fail('shard.index', `a whole number from 1 to shard.count (${shard.count as number}); got ${JSON.stringify(shard.index) ?? String(shard.index)}`);
  }
  if (shard.run !== undefined && (typeof shard.run !== 'string' || shard.run === '')) fail('shard.run', 'a non-empty string');
  if (typeof shard.dataset !== 'string') fail('shard.dataset', 'a string');
}

/** Mastra's three item forms, as far as a result tells them apart: what an identity hashes. */
function askedOf(item: ReportItem): Record<string, unknown> {
  const turns = item.turns;
  if (turns && turns.length > 0) {
    // Items with `turns` record each turn's assertions (maybe empty); `inputs` items record none.
    const withAssertions = turns.some((turn) => turn.scores !== undefined || turn.gates !== undefined);
    return withAssertions ? { turns: turns.map((turn) => ({ input: turn.input })) } : { inputs: turns.map((turn) => turn.input) };
  }
  return { input: item.input };
}

/**
 * `checkResult`, then the first release's shape brought to today's: gates flagged among an item's
 * scores moved to its `gates` (and out of the means), and every item given an identity.
 */
export function readResult(value: unknown): ReadResult {
  const result = checkResult(value);
  const items = result.items;
  if (items === undefined) return result as ReadResult;
  const oldGates = new Set<string>();
  for (const item of items) {
    for (const id in item.scores) if (Object.hasOwn(item.scores, id) && item.scores[id].gate === true) oldGates.add(id);
  }
  const needIds = items.some((item) => item.id === undefined);
  if (oldGates.size === 0 && !needIds) return result as ReadResult;

  let identities: string[] | undefined;
  if (needIds) {
    try {
      identities = itemIdentities(items.map((item) => (item.id !== undefined ? { id: item.id } : askedOf(item))), 'the result');
    } catch (error) {
      throw new TypeError(`items must each have a distinct identity: ${(error as Error).message.replace(/^the result: /, '')}`);
    }
  }
  const moved = items.map((item, i) => {
    let { scores, gates } = item;
    if (oldGates.size > 0) {
      // Built with fromEntries, never by assignment: a scorer may be called "__proto__".
      const entries = Object.entries(item.scores);
      scores = Object.fromEntries(entries.filter(([, run]) => run.gate !== true));
      const moved = entries.filter(([, run]) => run.gate === true).map(([id, { gate: _, ...rest }]) => [id, rest] as const);
      gates = moved.length > 0 || item.gates !== undefined ? { ...item.gates, ...Object.fromEntries(moved) } : undefined;
    }
    return { ...item, id: item.id ?? identities![i], scores, ...(gates !== undefined ? { gates } : {}) };
  });
  let scores = result.scores;
  if (oldGates.size > 0 && !isNested(scores)) {
    // The first release listed a gate's mean among `scores` too; today it is the gate result's score.
    const gateIds = new Set([...oldGates, ...(result.gateResults ?? []).map((g) => g.id)]);
    scores = Object.fromEntries(Object.entries(scores).filter(([id]) => !gateIds.has(id) || items.some((item) => Object.hasOwn(item.scores, id) && item.scores[id].gate !== true)));
  }
  return { ...result, scores, items: moved };
}

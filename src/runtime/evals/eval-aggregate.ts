/**
 * A run's aggregates (`scores`, `summary`, `gateResults`, `thresholdResults`, `turnResults`,
 * `verdict`) computed from its items alone, with `@mastra/core` 1.71's rules:
 *
 * - a mean counts numeric scores only; a run declared not scorable is counted in
 *   `summary.notScorable` (keyed by scorer id, across gates, scorers, groups and turns) and left out;
 * - a gate that threw scores 0; a gate or threshold whose runs were all not scorable is left out;
 * - a threshold averages every run that gave a `score`, numeric or not (a non-number makes the mean
 *   NaN, which passes no threshold);
 * - `turnResults` has one entry per turn index of the items that use `turns`, its gates, thresholds
 *   and scores averaged over those items; a failing turn gate fails the run, a missed turn threshold
 *   makes it `scored`;
 * - the verdict exists when a gate or threshold (top-level or per turn) gave a result.
 *
 * Because the aggregates depend on the items and the run's `config` only, the shards of a run merged
 * give exactly what the whole run gives. Order is data order throughout, so the result does not
 * depend on `concurrency`.
 */
import { meetsThreshold, type ThresholdConfig } from './thresholds.js';
import type {
  EvalItemResult,
  EvalItemScore,
  EvalRunConfig,
  EvalScoreGroup,
  GateResult,
  RunEvalsResult,
  ThresholdResult,
  TurnResult,
} from './run-evals-types.js';

export type Aggregates = Omit<RunEvalsResult<any>, 'items' | 'config' | 'shard'>;

const mean = (scores: number[]) => (scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : 0);
const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

/** Means of the numeric scores, keyed in the order the items first name them. */
function means(groups: Array<EvalScoreGroup | undefined>): Record<string, number> {
  const lists = new Map<string, number[]>();
  for (const group of groups) {
    for (const [id, run] of Object.entries(group ?? {})) {
      if (run.notScorable || typeof run.score !== 'number') continue;
      let list = lists.get(id);
      if (!list) lists.set(id, (list = []));
      list.push(run.score);
    }
  }
  const out: Record<string, number> = {};
  for (const [id, list] of lists) out[id] = mean(list);
  return out;
}

/** A gate's score on one item as Mastra counts it: 0 when it threw, NaN when it gave no number. */
const gateValue = (run: EvalItemScore) => (run.error !== undefined ? 0 : typeof run.score === 'number' ? run.score : Number.NaN);
/** A threshold scorer's score as Mastra counts it: whatever the result's `score` was. */
const thresholdValue = (run: EvalItemScore) => (typeof run.score === 'number' ? run.score : Number.NaN);

function countNotScorable(items: readonly EvalItemResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (group: EvalScoreGroup | undefined) => {
    for (const [id, run] of Object.entries(group ?? {})) if (run.notScorable) counts[id] = (counts[id] ?? 0) + 1;
  };
  for (const item of items) {
    add(item.gates);
    add(item.scores);
    add(item.trajectory);
    for (const step of Object.values(item.steps ?? {})) add(step);
    for (const turn of item.turns ?? []) {
      add(turn.gates);
      add(turn.scores);
    }
  }
  return counts;
}

function nestedScores(items: readonly EvalItemResult[], form: EvalRunConfig['form']): RunEvalsResult<any>['scores'] {
  if (form === 'list') return means(items.map((item) => item.scores));
  const scores: Record<string, unknown> = {};
  const main = means(items.map((item) => item.scores));
  if (Object.keys(main).length > 0) scores[form] = main;
  if (form === 'workflow') {
    const stepIds: string[] = [];
    for (const item of items) for (const stepId of Object.keys(item.steps ?? {})) if (!stepIds.includes(stepId)) stepIds.push(stepId);
    const steps: Record<string, Record<string, number>> = {};
    for (const stepId of stepIds) {
      const stepMeans = means(items.map((item) => own(item.steps, stepId)));
      if (Object.keys(stepMeans).length > 0) steps[stepId] = stepMeans;
    }
    if (Object.keys(steps).length > 0) scores.steps = steps;
  }
  const trajectory = means(items.map((item) => item.trajectory));
  if (Object.keys(trajectory).length > 0) scores.trajectory = trajectory;
  return scores;
}

/** Threshold ids and configs: the run's own, in order, then any that only items name (the function form). */
function thresholdsOf(items: readonly EvalItemResult[], config: EvalRunConfig): Map<string, ThresholdConfig> {
  const thresholds = new Map<string, ThresholdConfig>(config.thresholds.map(({ id, threshold }) => [id, threshold]));
  for (const item of items) {
    for (const [id, run] of Object.entries(item.scores)) {
      if (run.threshold !== undefined && !thresholds.has(id)) thresholds.set(id, run.threshold);
    }
  }
  return thresholds;
}

interface TurnBucket {
  gates: Map<string, number[]>;
  thresholds: Map<string, { scores: number[]; threshold: ThresholdConfig }>;
  scores: Map<string, number[]>;
}

function push<K>(map: Map<K, number[]>, key: K, value: number) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function turnAggregates(items: readonly EvalItemResult[]) {
  const buckets = new Map<number, TurnBucket>();
  for (const item of items) {
    for (const turn of item.turns ?? []) {
      // A multi-turn item without per-turn assertions (`inputs`) takes no part, as in Mastra.
      if (turn.scores === undefined && turn.gates === undefined) continue;
      let bucket = buckets.get(turn.index);
      if (!bucket) buckets.set(turn.index, (bucket = { gates: new Map(), thresholds: new Map(), scores: new Map() }));
      for (const [id, run] of Object.entries(turn.gates ?? {})) if (!run.notScorable) push(bucket.gates, id, gateValue(run));
      for (const [id, run] of Object.entries(turn.scores ?? {})) {
        if (run.notScorable) continue;
        const value = thresholdValue(run);
        push(bucket.scores, id, value);
        if (run.threshold !== undefined) {
          const existing = bucket.thresholds.get(id);
          if (existing) existing.scores.push(value);
          else bucket.thresholds.set(id, { scores: [value], threshold: run.threshold });
        }
      }
    }
  }
  const turnResults: TurnResult[] = [];
  let gatesPassed = true;
  let thresholdsPassed = true;
  let hasGates = false;
  let hasThresholds = false;
  for (const index of [...buckets.keys()].sort((a, b) => a - b)) {
    const bucket = buckets.get(index)!;
    const result: TurnResult = { index };
    if (bucket.gates.size > 0) {
      hasGates = true;
      result.gateResults = [...bucket.gates].map(([id, list]) => {
        const score = mean(list);
        if (!(score >= 1)) gatesPassed = false;
        return { id, passed: score >= 1, score };
      });
    }
    if (bucket.thresholds.size > 0) {
      hasThresholds = true;
      result.thresholdResults = [...bucket.thresholds].map(([id, { scores, threshold }]) => {
        const averageScore = mean(scores);
        const passed = meetsThreshold(averageScore, threshold);
        if (!passed) thresholdsPassed = false;
        return { id, passed, averageScore, threshold };
      });
    }
    if (bucket.scores.size > 0) {
      result.scores = {};
      for (const [id, list] of bucket.scores) result.scores[id] = mean(list);
    }
    turnResults.push(result);
  }
  return { turnResults, gatesPassed, thresholdsPassed, hasGates, hasThresholds };
}

/** The aggregates of `items` (in any order; they are read in `index` order) under `config`. */
export function aggregate(items: readonly EvalItemResult[], config: EvalRunConfig): Aggregates {
  const sorted = [...items].sort((a, b) => a.index - b.index);
  const notScorable = countNotScorable(sorted);
  const sampledOut: Record<string, number> = {};
  for (const item of sorted) for (const id of item.sampledOut ?? []) sampledOut[id] = (sampledOut[id] ?? 0) + 1;
  const result: Aggregates = {
    scores: nestedScores(sorted, config.form),
    summary: {
      totalItems: sorted.length,
      ...(Object.keys(notScorable).length > 0 ? { notScorable } : {}),
      ...(Object.keys(sampledOut).length > 0 ? { sampledOut } : {}),
    },
  };
  const turns = sorted.some((item) => item.turns?.some((turn) => turn.scores !== undefined || turn.gates !== undefined))
    ? turnAggregates(sorted)
    : undefined;
  if (turns && turns.turnResults.length > 0) result.turnResults = turns.turnResults;

  // Without evidence (every run not scorable, or skipped by sampling) a gate or threshold is left out, not failed.
  const noEvidence = (id: string, list: number[]) => list.length === 0 && (own(notScorable, id) !== undefined || own(sampledOut, id) !== undefined);
  const gateResults: GateResult[] = [];
  for (const id of config.gates) {
    const list: number[] = [];
    for (const item of sorted) {
      const run = own(item.gates, id);
      if (run && !run.notScorable) list.push(gateValue(run));
    }
    if (noEvidence(id, list)) continue;
    const score = mean(list);
    gateResults.push({ id, passed: score >= 1, score });
  }
  const thresholdResults: ThresholdResult[] = [];
  for (const [id, threshold] of thresholdsOf(sorted, config)) {
    const list: number[] = [];
    for (const item of sorted) {
      const run = own(item.scores, id);
      if (run && !run.notScorable) list.push(thresholdValue(run));
    }
    if (noEvidence(id, list)) continue;
    const averageScore = mean(list);
    thresholdResults.push({ id, passed: meetsThreshold(averageScore, threshold), averageScore, threshold });
  }
  if (gateResults.length > 0) result.gateResults = gateResults;
  if (thresholdResults.length > 0) result.thresholdResults = thresholdResults;

  const gatesPassed = gateResults.every((g) => g.passed) && (!turns?.hasGates || turns.gatesPassed);
  const thresholdsPassed = thresholdResults.every((t) => t.passed) && (!turns?.hasThresholds || turns.thresholdsPassed);
  if (gateResults.length > 0 || thresholdResults.length > 0 || turns?.hasGates || turns?.hasThresholds) {
    result.verdict = !gatesPassed ? 'failed' : !thresholdsPassed ? 'scored' : 'passed';
  }
  return result;
}

/**
 * A run compared with a baseline run of the same dataset: per scorer slot the means before and after
 * over the items both runs scored, the mean per-item difference with a paired 95% t-interval, and a
 * status; the items that got worse, worst first; and how many items only one run has. Items are
 * matched by identity (`items[i].id`), never by position, so a reordered or grown dataset still pairs.
 *
 * Pairing rules: an item counts for a scorer when both runs gave it a number there. A run declared
 * not scorable, a run with no number, or a scorer that sampling skipped leaves the item out of that
 * scorer's pairs; a gate that threw counts 0, as the run's own aggregates count it.
 */
import { datasetVersionWarnings } from './experiment-summary.js';
import { scorerViews, runOf, valueOf, type ScorerView } from './model.js';
import type { ReadResult, ReportItem } from './result.js';
import { pairedInterval } from './stats.js';

export type ComparisonStatus = 'regressed' | 'improved' | 'unchanged';

/** One scorer slot compared. */
export interface ScorerComparison {
  /**
   * The slot: the scorer id for a tracked scorer, `gates/<id>` for a gate, `trajectory/<id>`,
   * `steps/<step>/<id>`, `turns/<n>/<id>` and `turns/<n>/gates/<id>` (turns counted from 0).
   */
  id: string;
  /** Mean in the baseline over the items both runs scored (with none: the baseline's own mean, or null). */
  before: number | null;
  /** Mean in this run over the same items (with none: this run's own mean, or null). */
  after: number | null;
  /** Mean per-item difference, after − before; null when no item was scored by both runs. */
  difference: number | null;
  /** The paired 95% t-interval of `difference`; null with fewer than two items scored by both. */
  interval: [number, number] | null;
  /**
   * `regressed` when the interval lies wholly below −tolerance, `improved` when wholly above
   * +tolerance, else `unchanged`.
   */
  status: ComparisonStatus;
}

/** One item that scored lower than in the baseline on one scorer slot. */
export interface WorseItem {
  /** The item's identity (`items[i].id`). */
  item: string;
  /** The scorer slot, as in `ScorerComparison.id`. */
  scorer: string;
  before: number;
  after: number;
}

export interface Comparison {
  /** One entry per scorer slot of either run, gates included, in this run's order. */
  scorers: ScorerComparison[];
  /** Every item and slot that scored lower than in the baseline, the largest drop first. */
  worse: WorseItem[];
  /** Items only the baseline has. */
  onlyInBaseline: number;
  /** Items only this run has. */
  onlyInResult: number;
  /** What makes the comparison less sure than it looks (runs of different dataset versions). */
  warnings: string[];
}

export interface CompareOptions {
  /**
   * How far below (or above) zero the whole interval must lie before a scorer counts as regressed
   * (or improved), in score units.
   * @default 0.02
   */
  tolerance?: number;
}

/** The tolerance when none is given: a scorer regressed when its whole 95% interval lies below −0.02. */
export const DEFAULT_TOLERANCE = 0.02;

/** What the renderers read besides the public comparison. */
export interface ComparisonDetail {
  comparison: Comparison;
  /** Per slot key: its label, the pairs counted, and each run's view. */
  slots: Map<string, { label: string; gate: boolean; pairs: number; after?: ScorerView; before?: ScorerView }>;
  /** Items both runs have. */
  shared: number;
  /** Per item identity, the baseline's item. */
  baselineItems: Map<string, ReportItem & { id: string }>;
  tolerance: number;
}

export function checkTolerance(tolerance: unknown): number {
  if (tolerance === undefined) return DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError(`tolerance must be a number of 0 or more (in score units); got ${JSON.stringify(tolerance) ?? String(tolerance)}`);
  }
  return tolerance;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The comparison of two checked results. Throws a TypeError when either has no items. */
export function compareDetailed(result: ReadResult, baseline: ReadResult, options: CompareOptions = {}): ComparisonDetail {
  const tolerance = checkTolerance(options.tolerance);
  if (result.items === undefined) throw new TypeError('the result has no "items", so it cannot be compared item by item');
  if (baseline.items === undefined) throw new TypeError('baseline: the result has no "items", so it cannot be compared item by item');
  const afterViews = scorerViews(result);
  const beforeViews = scorerViews(baseline);
  const before = new Map(beforeViews.map((v) => [v.key, v]));
  const after = new Map(afterViews.map((v) => [v.key, v]));
  const keys = [...afterViews.map((v) => v.key), ...beforeViews.map((v) => v.key).filter((k) => !after.has(k))];

  const baselineItems = new Map(baseline.items.map((item) => [item.id, item]));
  const resultIds = new Set(result.items.map((item) => item.id));
  // Pairs in this run's data order.
  const pairs = [...result.items]
    .sort((a, b) => a.index - b.index)
    .flatMap((item) => {
      const old = baselineItems.get(item.id);
      return old ? [[item, old] as const] : [];
    });
  const onlyInBaseline = baseline.items.filter((item) => !resultIds.has(item.id)).length;

  const scorers: ScorerComparison[] = [];
  const worse: Array<WorseItem & { order: number; position: number }> = [];
  const slots: ComparisonDetail['slots'] = new Map();
  keys.forEach((key, order) => {
    const a = after.get(key);
    const b = before.get(key);
    const afters: number[] = [];
    const befores: number[] = [];
    const differences: number[] = [];
    if (a && b) {
      pairs.forEach(([item, old], position) => {
        const x = valueOf(runOf(item, a));
        const y = valueOf(runOf(old, b));
        if (x === undefined || y === undefined) return;
        afters.push(x);
        befores.push(y);
        differences.push(x - y);
        // A drop smaller than rounding noise (0.1 + 0.2 against 0.3) is not a drop.
        if (x < y - 1e-9 * Math.max(1, Math.abs(y))) worse.push({ item: item.id, scorer: key, before: y, after: x, order, position });
      });
    }
    const { n, mean: difference, interval } = pairedInterval(differences);
    let status: ComparisonStatus = 'unchanged';
    if (interval !== null && interval[1] < -tolerance) status = 'regressed';
    else if (interval !== null && interval[0] > tolerance) status = 'improved';
    scorers.push({
      id: key,
      before: n > 0 ? mean(befores) : (b?.mean ?? null),
      after: n > 0 ? mean(afters) : (a?.mean ?? null),
      difference: n > 0 ? difference : null,
      interval,
      status,
    });
    const view = (a ?? b)!;
    // A gate's label is its bare id (as on its card and in the JUnit file); beside tracked scorers it needs saying.
    slots.set(key, { label: view.label, gate: view.gate && view.turn === null, pairs: n, after: a, before: b });
  });
  worse.sort((x, y) => x.after - x.before - (y.after - y.before) || x.order - y.order || x.position - y.position);
  return {
    comparison: {
      scorers,
      worse: worse.map(({ item, scorer, before: was, after: now }) => ({ item, scorer, before: was, after: now })),
      onlyInBaseline,
      onlyInResult: result.items.length - pairs.length,
      warnings: datasetVersionWarnings(result, baseline),
    },
    slots,
    shared: pairs.length,
    baselineItems,
    tolerance,
  };
}

/**
 * A run compared with a baseline run of the same dataset: per scorer slot the means before and after
 * over the items both runs scored, the mean per-item difference with a paired 95% t-interval, the
 * direction its scores are read in, and a status; the items that got worse, worst first; how many
 * items only one run has; and warnings when the two runs share too little to be compared as a whole.
 * Items are matched by identity (`items[i].id`), never by position, so a reordered or grown dataset
 * still pairs.
 *
 * Pairing rules: an item counts for a scorer when both runs gave it a number there. A run declared
 * not scorable, a run with no number, or a scorer that sampling skipped leaves the item out of that
 * scorer's pairs; a gate that threw counts 0, as the run's own aggregates count it.
 *
 * Honesty rules: what cannot carry a verdict never reads as one. Fewer than two pairs give no
 * interval and the status `inconclusive`, never `unchanged`; a scorer only one run has is `added` or
 * `removed`; an interval that reaches past the tolerance on the worse side without lying wholly there
 * is `inconclusive`.
 */
import { datasetVersionWarnings } from './dataset-versions.js';
import { asText, scorerViews, runOf, valueOf, type ScorerView } from './model.js';
import type { ReadResult, ReportItem, ReportThreshold } from './result.js';
import { pairedInterval } from './stats.js';

/**
 * `regressed` / `improved`: the whole interval lies beyond the tolerance on the worse / better side;
 * `inconclusive`: it reaches beyond the tolerance on the worse side without lying wholly there (or
 * there are fewer than two pairs); `unchanged`: neither; `added` / `removed`: only this run / only the
 * baseline has the scorer.
 */
export type ComparisonStatus = 'regressed' | 'improved' | 'unchanged' | 'inconclusive' | 'added' | 'removed';

/** Which way a scorer's scores get better (Mastra's own words, from its `compareExperiments`). */
export type ScoreDirection = 'higher-is-better' | 'lower-is-better';

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
  /** Which way is better for this scorer: every status and the `worse` list read scores this way. */
  direction: ScoreDirection;
  /**
   * Read in `direction`: `regressed` when the whole interval lies beyond the tolerance on the worse
   * side, `improved` on the better side, `inconclusive` when it reaches beyond the tolerance on the
   * worse side without lying wholly there (or fewer than two items were scored by both runs), else
   * `unchanged`; `added` / `removed` for a scorer only this run / only the baseline has.
   */
  status: ComparisonStatus;
}

/** One item that scored worse than in the baseline on one scorer slot (lower, or higher where lower is better). */
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
  /** Every item and slot that scored worse than in the baseline, the largest change first. */
  worse: WorseItem[];
  /** Items only the baseline has. */
  onlyInBaseline: number;
  /** Items only this run has. */
  onlyInResult: number;
  /**
   * What limits the comparison as a whole, in sentences: fewer than two items in both runs (and why,
   * as far as the runs tell), fewer than half of either run's items in both, two runs' thresholds
   * that disagree on which way is better, runs over different dataset versions. Empty when there is nothing to say.
   */
  warnings: string[];
}

/** How one scorer slot is compared. */
export interface ScorerCompareOptions {
  /** Which way is better; overrides what the runs' thresholds and the scorer's id say. */
  direction?: ScoreDirection;
  /** This slot's tolerance, in score units; overrides the comparison's `tolerance`. */
  tolerance?: number;
}

export interface CompareOptions {
  /**
   * How far beyond zero, on the worse (or better) side, the whole interval must lie before a scorer
   * counts as regressed (or improved), in score units.
   * @default 0.02
   */
  tolerance?: number;
  /**
   * Per scorer, keyed by slot (`relevance`, `gates/calls-tool`, `steps/plan/accuracy`) or by the bare
   * scorer id (then for each slot of that scorer): its `direction` and `tolerance`. A key that names
   * no scorer of either run is an error, so a typo cannot pass unnoticed.
   */
  scorers?: Readonly<Record<string, ScorerCompareOptions>>;
}

/** The tolerance when none is given: a scorer regressed when its whole 95% interval lies beyond 0.02 on the worse side. */
export const DEFAULT_TOLERANCE = 0.02;

/** `@mastra/evals`' prebuilt scorers whose higher score is worse, by id. */
export const LOWER_IS_BETTER_IDS: ReadonlySet<string> = new Set(['hallucination-scorer', 'toxicity-scorer', 'bias-scorer']);

/** Where a slot's direction came from, for the people reading the report. */
export type DirectionSource = 'option' | 'threshold' | 'prebuilt' | 'default';

/** One slot as the renderers read it. */
export interface SlotDetail {
  label: string;
  gate: boolean;
  /** Items both runs scored on this slot. */
  pairs: number;
  direction: ScoreDirection;
  directionSource: DirectionSource;
  tolerance: number;
  after?: ScorerView;
  before?: ScorerView;
}

/** What the renderers read besides the public comparison. */
export interface ComparisonDetail {
  comparison: Comparison;
  /** Per slot key: its label, the pairs counted, direction, tolerance and each run's view. */
  slots: Map<string, SlotDetail>;
  /** Items both runs have. */
  shared: number;
  /** Per item identity, the baseline's item. */
  baselineItems: Map<string, ReportItem & { id: string }>;
  /** The comparison's own tolerance (a slot may have its own: `slots`). */
  tolerance: number;
}

export function checkTolerance(tolerance: unknown, name = 'tolerance'): number {
  if (tolerance === undefined) return DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError(`${name} must be a number of 0 or more (in score units); got ${JSON.stringify(tolerance) ?? String(tolerance)}`);
  }
  return tolerance;
}

/** Checks `scorers` of the options: each entry an object with a known direction and a valid tolerance. */
export function checkScorerOptions(scorers: unknown): Readonly<Record<string, ScorerCompareOptions>> {
  if (scorers === undefined) return {};
  if (scorers === null || typeof scorers !== 'object' || Array.isArray(scorers)) throw new TypeError('scorers must be an object keyed by scorer id');
  for (const [id, entry] of Object.entries(scorers)) {
    const at = `scorers[${JSON.stringify(id)}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new TypeError(`${at} must be { direction?, tolerance? }`);
    const { direction, tolerance, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new TypeError(`${at} takes direction and tolerance; got ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
    if (direction !== undefined && direction !== 'higher-is-better' && direction !== 'lower-is-better') {
      throw new TypeError(`${at}.direction must be 'higher-is-better' or 'lower-is-better'; got ${JSON.stringify(direction) ?? String(direction)}`);
    }
    if (tolerance !== undefined) checkTolerance(tolerance, `${at}.tolerance`);
  }
  return scorers as Record<string, ScorerCompareOptions>;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** `{ max }` alone says lower is better; any other threshold says nothing about the direction. */
const maxAlone = (threshold: ReportThreshold | null | undefined): boolean =>
  threshold !== null && typeof threshold === 'object' && threshold.max !== undefined && threshold.min === undefined;

const describeThreshold = (threshold: ReportThreshold | null | undefined): string =>
  threshold === null || threshold === undefined ? 'none'
    : typeof threshold === 'number' ? `min ${threshold}`
    : [threshold.min !== undefined ? `min ${threshold.min}` : '', threshold.max !== undefined ? `max ${threshold.max}` : ''].filter(Boolean).join(', ') || 'none';

/** A slot's direction, first match wins: the options, the runs' `{ max }` threshold, the prebuilt ids, higher. */
function directionOf(
  key: string,
  view: ScorerView,
  after: ScorerView | undefined,
  before: ScorerView | undefined,
  settings: ScorerCompareOptions | undefined,
  warnings: string[],
): { direction: ScoreDirection; source: DirectionSource } {
  if (settings?.direction !== undefined) return { direction: settings.direction, source: 'option' };
  // A gate must average 1: higher is better, whatever its id.
  if (view.gate) return { direction: 'higher-is-better', source: 'default' };
  const now = after?.threshold ?? null;
  const was = before?.threshold ?? null;
  if (now !== null && was !== null && maxAlone(now) !== maxAlone(was)) {
    // The newer run's threshold is what the team holds the scorer to today.
    warnings.push(
      `"${key}": this run's threshold (${describeThreshold(now)}) and the baseline's (${describeThreshold(was)}) disagree on which way is better; this run's decides.`,
    );
    if (maxAlone(now)) return { direction: 'lower-is-better', source: 'threshold' };
  } else if (maxAlone(now ?? was)) {
    return { direction: 'lower-is-better', source: 'threshold' };
  }
  if (LOWER_IS_BETTER_IDS.has(view.id)) return { direction: 'lower-is-better', source: 'prebuilt' };
  return { direction: 'higher-is-better', source: 'default' };
}

/** What an item asks, as text: two items that ask the same thing under different ids were renamed. */
const askedText = (item: ReportItem): string =>
  item.turns && item.turns.length > 0 ? asText(item.turns.map((turn) => turn.input)) : asText(item.input);

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Warnings about what the two runs share: too few items to compare, or less than half of either run. */
function sharingWarnings(result: ReadResult, baseline: ReadResult, shared: number): string[] {
  const mine = result.items!.length;
  const theirs = baseline.items!.length;
  if (shared < 2) {
    const baselineIds = new Set(baseline.items!.map((old) => old.id));
    const sharedIds = new Set(result.items!.map((item) => item.id).filter((id) => baselineIds.has(id)));
    const asked = new Map<string, string>();
    for (const old of baseline.items!) if (!sharedIds.has(old.id)) asked.set(askedText(old), old.id);
    const renamed = result.items!.filter((item) => !sharedIds.has(item.id) && asked.has(askedText(item))).length;
    const why = mine === 0 || theirs === 0 ? `${mine === 0 ? 'this run' : 'the baseline'} has no items`
      : renamed > 0 ? `${count(renamed, 'item')} of this run ask${renamed === 1 ? 's' : ''} what a baseline item asks under another id: were the ids renamed?`
      : 'no item of this run asks what a baseline item asks: is the baseline a run of a different dataset?';
    return [`${shared === 0 ? 'No item is' : 'Only 1 item is'} in both runs (${count(mine, 'item')} in this run, ${count(theirs, 'item')} in the baseline), so nothing can be compared and every scorer is inconclusive: ${why}`];
  }
  const few: string[] = [];
  if (shared * 2 < mine) few.push(`${shared.toLocaleString('en-US')} of this run's ${count(mine, 'item')}`);
  if (shared * 2 < theirs) few.push(`${shared.toLocaleString('en-US')} of the baseline's ${count(theirs, 'item')}`);
  if (few.length === 0) return [];
  return [`Only ${few.join(' and ')} are in both runs: the comparison covers those alone. Is one run a part of the other (a shard), or a different dataset?`];
}

/** The comparison of two checked results. Throws a TypeError when either has no items or an option is wrong. */
export function compareDetailed(result: ReadResult, baseline: ReadResult, options: CompareOptions = {}): ComparisonDetail {
  const tolerance = checkTolerance(options.tolerance);
  const settings = checkScorerOptions(options.scorers);
  if (result.items === undefined) throw new TypeError('the result has no "items", so it cannot be compared item by item');
  if (baseline.items === undefined) throw new TypeError('baseline: the result has no "items", so it cannot be compared item by item');
  const afterViews = scorerViews(result);
  const beforeViews = scorerViews(baseline);
  const before = new Map(beforeViews.map((v) => [v.key, v]));
  const after = new Map(afterViews.map((v) => [v.key, v]));
  const keys = [...afterViews.map((v) => v.key), ...beforeViews.map((v) => v.key).filter((k) => !after.has(k))];

  // A setting that names no scorer is a typo that would silently leave a direction or tolerance unapplied.
  const ids = new Set([...afterViews, ...beforeViews].map((v) => v.id));
  for (const name of Object.keys(settings)) {
    if (!after.has(name) && !before.has(name) && !ids.has(name)) {
      throw new TypeError(`scorers[${JSON.stringify(name)}] names no scorer of either run; the scorers are ${keys.map((k) => JSON.stringify(k)).join(', ') || 'none'}`);
    }
  }

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
  const warnings = sharingWarnings(result, baseline, pairs.length);

  const scorers: ScorerComparison[] = [];
  const worse: Array<WorseItem & { change: number; order: number; position: number }> = [];
  const slots: ComparisonDetail['slots'] = new Map();
  keys.forEach((key, order) => {
    const a = after.get(key);
    const b = before.get(key);
    const view = (a ?? b)!;
    const own = Object.hasOwn(settings, key) ? settings[key] : Object.hasOwn(settings, view.id) ? settings[view.id] : undefined;
    const { direction, source } = directionOf(key, view, a, b, own, warnings);
    const slotTolerance = own?.tolerance ?? tolerance;
    // +1 where higher is better, −1 where lower is: `sign * (after − before)` is the gain.
    const sign = direction === 'higher-is-better' ? 1 : -1;
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
        // A change smaller than rounding noise (0.1 + 0.2 against 0.3) is no change.
        const change = sign * (x - y);
        if (change < -1e-9 * Math.max(1, Math.abs(y))) worse.push({ item: item.id, scorer: key, before: y, after: x, change, order, position });
      });
    }
    const { n, mean: difference, interval } = pairedInterval(differences);
    let status: ComparisonStatus;
    if (!a) status = 'removed';
    else if (!b) status = 'added';
    else if (interval === null || pairs.length < 2) status = 'inconclusive';
    else {
      // The interval of the gain, low to high.
      const low = Math.min(sign * interval[0], sign * interval[1]);
      const high = Math.max(sign * interval[0], sign * interval[1]);
      status = high < -slotTolerance ? 'regressed' : low > slotTolerance ? 'improved' : low < -slotTolerance ? 'inconclusive' : 'unchanged';
    }
    scorers.push({
      id: key,
      before: n > 0 ? mean(befores) : (b?.mean ?? null),
      after: n > 0 ? mean(afters) : (a?.mean ?? null),
      difference: n > 0 ? difference : null,
      interval,
      direction,
      status,
    });
    // A gate's label is its bare id (as on its card and in the JUnit file); beside tracked scorers it needs saying.
    slots.set(key, { label: view.label, gate: view.gate && view.turn === null, pairs: n, direction, directionSource: source, tolerance: slotTolerance, after: a, before: b });
  });
  worse.sort((x, y) => x.change - y.change || x.order - y.order || x.position - y.position);
  return {
    comparison: {
      scorers,
      worse: worse.map(({ item, scorer, before: was, after: now }) => ({ item, scorer, before: was, after: now })),
      onlyInBaseline,
      onlyInResult: result.items.length - pairs.length,
      warnings: [...warnings, ...datasetVersionWarnings(result, baseline)],
    },
    slots,
    shared: pairs.length,
    baselineItems,
    tolerance,
  };
}

/**
 * The comparison's statistics are right, not decorative: Student's t quantiles match published
 * tables; runs drawn from known distributions (a seeded generator, so every run of this file draws
 * the same numbers) give intervals that contain the true difference about 95% of the time; noise
 * within the tolerance is not called a regression; a real drop is. All of it holds the same where
 * lower is better, whichever way the comparison learns that (its options, a `{ max }` threshold, a
 * prebuilt scorer's id): the same runs mirrored (1 − score) get the same statuses.
 */
import { describe, expect, test } from 'vitest';
import { compareRuns, type CompareOptions, type ComparisonStatus, type ReportInput, type ReportThreshold } from '../../src/report/index.js';
import { pairedInterval, studentTCdf, studentTQuantile } from '../../src/report/stats.js';
import { random } from './results.js';

/** A standard normal draw (Box-Muller). */
const normal = (next: () => number) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

/**
 * Which way is better, and how the comparison learns it. Where lower is better the runs' scores are
 * mirrored (1 − score), so a drop of `delta` in quality is a rise of `delta` in the score.
 */
interface Way {
  id: string;
  mirror: boolean;
  threshold?: ReportThreshold;
  options?: CompareOptions['scorers'];
}
const WAYS: Record<string, Way> = {
  'higher is better': { id: 'judge', mirror: false },
  'lower is better, by option': { id: 'judge', mirror: true, options: { judge: { direction: 'lower-is-better' } } },
  'lower is better, by a { max } threshold': { id: 'judge', mirror: true, threshold: { max: 0.6 } },
  'lower is better, by a prebuilt id': { id: 'hallucination-scorer', mirror: true },
};
const HIGHER = WAYS['higher is better'];

/** A saved-result-shaped run of one scorer over items `0..n-1`, in a shuffled order (pairing is by id, not position). */
function run(qualities: readonly number[], next: () => number, way: Way = HIGHER): ReportInput {
  const scores = way.mirror ? qualities.map((q) => 1 - q) : qualities;
  const extra = way.threshold === undefined ? {} : { threshold: way.threshold };
  const items = scores.map((score, i) => ({ index: i, id: `q${i}`, input: `question ${i}`, output: '', scores: { [way.id]: { score, reason: null, ...extra } } }));
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  return { scores: { [way.id]: mean }, summary: { totalItems: scores.length }, items };
}

const COARSE = [0, 0.3, 0.7, 1];
const COARSE_P = [0.1, 0.15, 0.3, 0.45];
/** The expected difference the coarse scale's moves make by themselves (clamping makes it nonzero). */
const COARSE_DRIFT = COARSE_P.reduce((sum, p, k) => {
  const moved = (to: number) => COARSE[Math.min(3, Math.max(0, to))] - COARSE[k];
  return sum + p * (0.15 * moved(k - 1) + 0.15 * moved(k + 1));
}, 0);

/** Per item: its difficulty, then the two runs' scores given a true mean difference `delta`. */
type Model = (next: () => number, delta: number, n: number) => { before: number[]; after: number[] };

const MODELS: Record<string, Model> = {
  // A continuous judge score: item difficulty plus independent judge noise in each run.
  'normal judge noise': (next, delta, n) => {
    const before: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < n; i++) {
      const difficulty = 0.3 + 0.5 * next();
      before.push(difficulty + 0.1 * normal(next));
      after.push(difficulty + delta + 0.1 * normal(next));
    }
    return { before, after };
  },
  // A pass/fail scorer: each item passes with its own probability, shifted by delta in the new run.
  'pass/fail (0 or 1)': (next, delta, n) => {
    const before: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = 0.25 + 0.5 * next();
      before.push(next() < p ? 1 : 0);
      after.push(next() < p + delta ? 1 : 0);
    }
    return { before, after };
  },
  // An LLM judge's coarse scale (0, 0.3, 0.7, 1), skewed towards high scores. In the new run an
  // item moves one step down or up with 15% chance each (clamped at the ends), plus a constant
  // shift chosen so that the expected difference is exactly delta.
  'coarse skewed scale': (next, delta, n) => {
    const before: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = next();
      const k = r < COARSE_P[0] ? 0 : r < COARSE_P[0] + COARSE_P[1] ? 1 : r < 1 - COARSE_P[3] ? 2 : 3;
      const m = next();
      const j = Math.min(3, Math.max(0, k + (m < 0.15 ? -1 : m < 0.3 ? 1 : 0)));
      before.push(COARSE[k]);
      after.push(COARSE[j] + delta - COARSE_DRIFT);
    }
    return { before, after };
  },
};

describe("Student's t quantiles", () => {
  test.each([
    [1, 12.7062],
    [2, 4.3027],
    [5, 2.5706],
    [10, 2.2281],
    [29, 2.0452],
    [100, 1.984],
    [10_000, 1.9602],
  ])('t(0.975, %i) = %f', (df, expected) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 3);
    expect(studentTCdf(expected, df)).toBeCloseTo(0.975, 4);
  });

  test('a paired interval: fewer than two pairs give none; equal differences give that one value', () => {
    expect(pairedInterval([])).toEqual({ n: 0, mean: 0, interval: null });
    expect(pairedInterval([-0.5])).toEqual({ n: 1, mean: -0.5, interval: null });
    expect(pairedInterval([-0.5, -0.5, -0.5])).toEqual({ n: 3, mean: -0.5, interval: [-0.5, -0.5] });
    // 0.1 - 0.3 and 0.2 - 0.4 differ only by rounding: no spread.
    expect(pairedInterval([0.1 - 0.3, 0.2 - 0.4]).interval).toEqual([0.1 - 0.3, 0.1 - 0.3].map(() => expect.closeTo(-0.2, 12)));
    // By hand: mean -0.2, sd 0.1, n 4: half-width t(0.975, 3) * 0.05 = 3.1824 * 0.05.
    const { mean, interval } = pairedInterval([-0.1, -0.2, -0.3, -0.2]);
    expect(mean).toBeCloseTo(-0.2, 12);
    const half = 3.182446 * (Math.sqrt(0.02 / 3) / 2);
    expect(interval![0]).toBeCloseTo(-0.2 - half, 5);
    expect(interval![1]).toBeCloseTo(-0.2 + half, 5);
  });
});

describe('intervals over runs drawn from known distributions', () => {
  const TRIALS = 1500;
  const N = 80;

  /**
   * Compares TRIALS pairs of runs whose true difference in quality is `delta` (in the score:
   * `-delta` where lower is better); counts coverage of the true difference and statuses.
   */
  function trials(model: Model, delta: number, seed: number, tolerance = 0.02, n = N, way: Way = HIGHER) {
    const next = random(seed);
    let covered = 0;
    const statuses: Record<ComparisonStatus, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0, added: 0, removed: 0 };
    const truth = way.mirror ? -delta : delta;
    for (let t = 0; t < TRIALS; t++) {
      const { before, after } = model(next, delta, n);
      const [scorer] = compareRuns(run(after, next, way), run(before, next, way), { tolerance, scorers: way.options }).scorers;
      expect(scorer.id).toBe(way.id);
      expect(scorer.direction).toBe(way.mirror ? 'lower-is-better' : 'higher-is-better');
      const [low, high] = scorer.interval!;
      if (low <= truth && truth <= high) covered++;
      statuses[scorer.status]++;
    }
    return { coverage: covered / TRIALS, ...statuses };
  }

  // Each model is also run the other way round, each by one of the three ways of saying lower is better.
  const LOWER = Object.keys(WAYS).filter((way) => way !== 'higher is better');
  /** The higher-is-better runs of the coverage test, kept for their mirrored twins (vitest runs a file's tests in order). */
  const straightRuns = new Map<string, ReturnType<typeof trials>>();
  const CASES = Object.keys(MODELS).flatMap((name, k) => [[name, 'higher is better'], [name, LOWER[k % LOWER.length]]]);

  test.each(CASES)('%s, %s: the 95-percent interval holds the true difference in 93 to 97 percent of trials', (name, wayName) => {
    const model = MODELS[name];
    const way = WAYS[wayName];
    const seen: string[] = [];
    for (const [delta, seed] of [[0, 1], [-0.05, 2], [0.08, 3]] as const) {
      const { coverage, ...statuses } = trials(model, delta, seed, 0.02, N, way);
      if (!way.mirror) straightRuns.set(`${name} ${delta} ${seed}`, { coverage, ...statuses });
      seen.push(`delta ${delta}: ${(coverage * 100).toFixed(1)}%`);
      expect(coverage, `${name}, delta ${delta}`).toBeGreaterThanOrEqual(0.93);
      expect(coverage, `${name}, delta ${delta}`).toBeLessThanOrEqual(0.97);
      if (way.mirror) {
        // The same draws read the other way round: the same verdicts, give or take a rounding at a boundary.
        const straight = straightRuns.get(`${name} ${delta} ${seed}`) ?? trials(model, delta, seed);
        for (const status of ['regressed', 'improved', 'unchanged', 'inconclusive'] as const) {
          expect(Math.abs(statuses[status] - straight[status]), `${status} at delta ${delta}`).toBeLessThanOrEqual(2);
        }
      }
    }
    console.log(`coverage over ${TRIALS} trials of ${N} items, ${name}, ${wayName}: ${seen.join(', ')}`);
  });

  test.each(CASES)('%s, %s: noise within the tolerance is called a regression no more often than a 95-percent interval allows; a real drop is found', (name, wayName) => {
    const model = MODELS[name];
    const way = WAYS[wayName];
    const draw = (delta: number, seed: number, tolerance = 0.02, n = N) => trials(model, delta, seed, tolerance, n, way);
    // A one-sided miss of a 95% interval: at most 2.5% of trials, and only when the noise is wide
    // against the tolerance (80 pass/fail items); less the further inside the tolerance the truth is.
    const none = draw(0, 11);
    expect(none.regressed / TRIALS).toBeLessThanOrEqual(0.025);
    expect(none.improved / TRIALS).toBeLessThanOrEqual(0.025);
    const small = draw(-0.01, 12);
    expect(small.regressed / TRIALS).toBeLessThanOrEqual(0.025);
    // At the tolerance's edge the rate is 2.5% exactly, give or take the trials' own spread (0.4%).
    const edge = draw(-0.02, 13);
    expect(edge.regressed / TRIALS).toBeLessThanOrEqual(0.035);
    // A drop of 0.25 at 200 items is found nearly always, and never called an improvement.
    const drop = draw(-0.25, 14, 0.02, 200);
    expect(drop.regressed / TRIALS).toBeGreaterThanOrEqual(0.95);
    expect(drop.improved).toBe(0);
    console.log(`${name}, ${wayName}: regressed in ${none.regressed}, ${small.regressed}, ${edge.regressed} and ${drop.regressed} of ${TRIALS} trials at true differences 0, -0.01, -0.02 (80 items) and -0.25 (200 items)`);
  });

  test('judge noise that is small against the tolerance is never called a regression or an improvement', () => {
    // 80 items, judge noise sd 0.1 per run: the interval's half-width (~0.03) is near the tolerance,
    // so a change of 0 or -0.01 never gets its whole interval below -0.02 in these 1,500 trials.
    for (const [delta, seed] of [[0, 21], [-0.01, 22], [0.01, 23]] as const) {
      const { regressed, improved } = trials(MODELS['normal judge noise'], delta, seed, 0.05);
      expect([delta, regressed, improved]).toEqual([delta, 0, 0]);
    }
  });
});

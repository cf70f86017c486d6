/**
 * Verdicts a team can trust, on hand-built results: which way is better for each scorer (the
 * comparison's own settings, then a `{ max }` threshold, then `@mastra/evals`' prebuilt ids, then
 * higher), how sure the comparison is (`inconclusive` where a drop beyond the tolerance can be
 * neither shown nor ruled out), and input that cannot carry a verdict never reading as a pass:
 * too few shared items, renamed items or scorers, scores that are not finite numbers.
 */
import { describe, expect, test } from 'vitest';
import { compareRuns, evalReport, type ReportInput, type ReportItem, type ReportThreshold } from '../../src/report/index.js';

const s = (score: number | null, extra: object = {}) => ({ score, reason: null, ...extra });
/** A run of one scorer `id` over items `q0..`, each with the given score (and threshold, where the run has one). */
function run(id: string, scores: ReadonlyArray<number | null>, { threshold, ids = (i: number) => `q${i}`, input = (i: number) => `question ${i}` }: { threshold?: ReportThreshold; ids?: (i: number) => string; input?: (i: number) => string } = {}): ReportInput {
  const items: ReportItem[] = scores.map((score, i) => ({
    index: i,
    id: ids(i),
    input: input(i),
    output: `answer ${i}`,
    scores: { [id]: score === null ? s(null, { notScorable: true }) : s(score, threshold === undefined ? {} : { threshold }) },
  }));
  const numbers = scores.filter((x): x is number => x !== null);
  return {
    scores: numbers.length > 0 ? { [id]: numbers.reduce((a, b) => a + b, 0) / numbers.length } : {},
    summary: { totalItems: items.length },
    items,
    config: { form: 'list', gates: [], scorers: [id], thresholds: threshold === undefined ? [] : [{ id, threshold }] },
  };
}
/** 30 items at `low`, a third of them (every third) at `high` in the second list. */
const third = (low: number, high: number) => Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? high : low));
const flat = (value: number, n = 30) => Array.from({ length: n }, () => value);

describe('which way is better', () => {
  test('hallucination-scorer rising from 0.1 to 0.6 on a third of the items regressed; falling back improved', () => {
    const base = run('hallucination-scorer', flat(0.1));
    const pr = run('hallucination-scorer', third(0.1, 0.6));
    const worse = compareRuns(pr, base);
    expect(worse.scorers).toEqual([
      expect.objectContaining({ id: 'hallucination-scorer', direction: 'lower-is-better', status: 'regressed' }),
    ]);
    expect(worse.scorers[0].before).toBeCloseTo(0.1, 12);
    expect(worse.scorers[0].difference).toBeCloseTo(0.5 / 3, 12);
    // The items that got worse are the ones whose score rose, in data order (equal changes).
    expect(worse.worse.map((w) => [w.item, w.before, w.after])).toEqual(Array.from({ length: 10 }, (_, k) => [`q${k * 3}`, 0.1, 0.6]));
    const back = compareRuns(base, pr);
    expect(back.scorers[0]).toMatchObject({ direction: 'lower-is-better', status: 'improved' });
    expect(back.worse).toEqual([]);

    const { summary, html } = evalReport(pr, { baseline: base, generatedAt: null });
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 regressed');
    expect(summary).toContain('**1 scorer regressed** against the baseline: `hallucination-scorer` (lower is better) (+0.167).');
    expect(summary).toContain('| `hallucination-scorer` (lower is better) | 0.1 | 0.267 | +0.167 |');
    expect(summary).not.toContain('No scorer regressed');
    expect(html).toContain('<title>1 regressed, No verdict: Eval report</title>');
    // The page marks the rise as what got worse.
    expect(html).toContain('"lower":true');
    const mirror = evalReport(base, { baseline: pr, generatedAt: null }).summary;
    expect(mirror).toContain('No scorer regressed against the baseline; 1 improved: `hallucination-scorer` (lower is better) (−0.167).');
  });

  test.each(['toxicity-scorer', 'bias-scorer'])('%s is lower-is-better too; any other id is higher-is-better', (id) => {
    expect(compareRuns(run(id, third(0.1, 0.6)), run(id, flat(0.1))).scorers[0]).toMatchObject({ direction: 'lower-is-better', status: 'regressed' });
    expect(compareRuns(run('answer-relevancy-scorer', third(0.1, 0.6)), run('answer-relevancy-scorer', flat(0.1))).scorers[0]).toMatchObject({ direction: 'higher-is-better', status: 'improved' });
  });

  test('a { max } threshold alone says lower is better, from the items or from the config alone; { min }, a number or a band say nothing', () => {
    const max = { max: 0.3 };
    expect(compareRuns(run('made-up', third(0.1, 0.6), { threshold: max }), run('made-up', flat(0.1), { threshold: max })).scorers[0]).toMatchObject({ direction: 'lower-is-better', status: 'regressed' });
    // Only the config records it (no item carries a threshold, no threshold result).
    const bare = (r: ReportInput): ReportInput => ({ ...r, items: r.items!.map((item) => ({ ...item, scores: { 'made-up': s(item.scores['made-up'].score) } })) });
    const configOnly = compareRuns(bare(run('made-up', third(0.1, 0.6), { threshold: max })), bare(run('made-up', flat(0.1), { threshold: max })));
    expect(configOnly.scorers[0]).toMatchObject({ direction: 'lower-is-better', status: 'regressed' });
    for (const threshold of [0.05, { min: 0.05 }, { min: 0.05, max: 0.9 }]) {
      expect(compareRuns(run('made-up', third(0.1, 0.6), { threshold }), run('made-up', flat(0.1), { threshold })).scorers[0], JSON.stringify(threshold)).toMatchObject({ direction: 'higher-is-better', status: 'improved' });
    }
  });

  test("the comparison's own settings win, by slot or by scorer id; a per-scorer tolerance beats the global one", () => {
    const base = run('hallucination-scorer', flat(0.1));
    const pr = run('hallucination-scorer', third(0.1, 0.6));
    expect(compareRuns(pr, base, { scorers: { 'hallucination-scorer': { direction: 'higher-is-better' } } }).scorers[0]).toMatchObject({ direction: 'higher-is-better', status: 'improved' });
    const max = { max: 0.3 };
    expect(compareRuns(run('x', third(0.1, 0.6), { threshold: max }), run('x', flat(0.1), { threshold: max }), { scorers: { x: { direction: 'higher-is-better' } } }).scorers[0].status).toBe('improved');
    // Every item 0.1 worse: a zero-spread interval at exactly 0.1 on the worse side.
    const down = run('x', flat(0.8, 10));
    const up = run('x', flat(0.9, 10));
    expect(compareRuns(down, up, { tolerance: 0.2 }).scorers[0].status).toBe('unchanged');
    expect(compareRuns(down, up, { tolerance: 0.2, scorers: { x: { tolerance: 0.05 } } }).scorers[0].status).toBe('regressed');
    expect(compareRuns(down, up, { scorers: { x: { tolerance: 0.2 } } }).scorers[0].status).toBe('unchanged');
    // The summary names the scorer's own tolerance beside the global one.
    expect(evalReport(down, { baseline: up, generatedAt: null, scorers: { x: { tolerance: 0.05 } } }).summary).toContain('more than 0.02 (`x` 0.05) on the worse side');
  });

  test('a gate must average 1: higher is better whatever its id, unless the settings say otherwise', () => {
    const gated = (scores: number[]): ReportInput => {
      const r = run('hallucination-scorer', scores);
      return { ...r, scores: {}, items: r.items!.map((item) => ({ ...item, scores: {}, gates: item.scores })), config: { form: 'list', gates: ['hallucination-scorer'], scorers: [], thresholds: [] } };
    };
    expect(compareRuns(gated(third(1, 0)), gated(flat(1))).scorers[0]).toMatchObject({ id: 'gates/hallucination-scorer', direction: 'higher-is-better', status: 'regressed' });
  });

  test("two runs' thresholds that disagree: this run's decides, and the summary and the page say so", () => {
    const pr = run('x', third(0.1, 0.6), { threshold: { max: 0.3 } });
    const base = run('x', flat(0.1), { threshold: { min: 0.05 } });
    const comparison = compareRuns(pr, base);
    expect(comparison.scorers[0]).toMatchObject({ direction: 'lower-is-better', status: 'regressed' });
    const warning = `"x": this run's threshold (max 0.3) and the baseline's (min 0.05) disagree on which way is better; this run's decides.`;
    expect(comparison.warnings).toEqual([warning]);
    const { summary, html } = evalReport(pr, { baseline: base, generatedAt: null });
    expect(summary.split('\n')[0]).toBe(`> **Warning:** "x": this run's threshold (max 0.3) and the baseline's (min 0.05) disagree on which way is better; this run's decides.`);
    expect(html).toContain('<strong>Warning:</strong> &quot;x&quot;: this run&#39;s threshold');
    // The other way round, the newer run's { min } decides: higher is better, and a rise improved.
    expect(compareRuns(run('x', third(0.1, 0.6), { threshold: { min: 0.05 } }), run('x', flat(0.1), { threshold: { max: 0.3 } })).scorers[0]).toMatchObject({ direction: 'higher-is-better', status: 'improved' });
  });

  test('settings are checked: a scorer no run has, a direction or tolerance that is not one', () => {
    const base = run('x', flat(0.5));
    expect(() => compareRuns(base, base, { scorers: { y: { direction: 'lower-is-better' } } })).toThrow(new TypeError('scorers["y"] names no scorer of either run; the scorers are "x"'));
    expect(() => compareRuns(base, base, { scorers: { x: { direction: 'lower' as 'lower-is-better' } } })).toThrow(/^scorers\["x"\]\.direction must be 'higher-is-better' or 'lower-is-better'; got "lower"$/);
    expect(() => compareRuns(base, base, { scorers: { x: { tolerance: -1 } } })).toThrow(/^scorers\["x"\]\.tolerance must be a number of 0 or more/);
    expect(() => evalReport(base, { scorers: { x: { direction: 'up' as 'lower-is-better' } } })).toThrow(/direction must be/);
  });
});

describe('how sure', () => {
  test('12 items, 3 dropped from 1 to 0: inconclusive, said in words with the number of shared items', () => {
    const base = run('correct', flat(1, 12));
    const pr = run('correct', Array.from({ length: 12 }, (_, i) => (i < 3 ? 0 : 1)));
    const [c] = compareRuns(pr, base).scorers;
    expect(c.status).toBe('inconclusive');
    expect(c.difference).toBe(-0.25);
    expect(c.interval![0]).toBeCloseTo(-0.54, 2);
    expect(c.interval![1]).toBeCloseTo(0.04, 2);
    const { summary, html } = evalReport(pr, { baseline: base, generatedAt: null });
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 inconclusive');
    expect(summary).toContain('**1 scorer inconclusive** over 12 items in both runs: `correct` (−0.25, 95% interval −0.537 to +0.037).');
    expect(summary).toContain('| `correct` | 1 | 0.75 | −0.25 | −0.537 to +0.037 | 12 | ? inconclusive |');
    expect(summary).not.toContain('No scorer regressed');
    expect(html).toContain('<title>1 inconclusive, No verdict: Eval report</title>');
    expect(html).toContain('1 scorer inconclusive over 12 items in both runs: correct;');
    // Ten times the items, the same share dropped: the drop is shown.
    const many = (n: number, drop: number) => run('correct', Array.from({ length: n }, (_, i) => (i < drop ? 0 : 1)));
    expect(compareRuns(many(120, 30), many(120, 0)).scorers[0].status).toBe('regressed');
    // An interval within the tolerance on the worse side, reaching past it on the better side only, is unchanged.
    const [rise] = compareRuns(run('correct', Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 0.5 : 0.6))), run('correct', flat(0.5, 12))).scorers;
    expect(rise.interval![0]).toBeGreaterThan(-0.02);
    expect(rise.interval![0]).toBeLessThan(0.02);
    expect(rise.status).toBe('unchanged');
    // One item of twelve better by 1 is not enough to rule out a drop: its interval reaches below −0.02.
    expect(compareRuns(many(12, 0), many(12, 1)).scorers[0].status).toBe('inconclusive');
  });
});

describe('input that cannot carry a verdict', () => {
  const summaryOf = (pr: ReportInput, base: ReportInput) => evalReport(pr, { baseline: base, generatedAt: null });

  test('item ids renamed: nothing shared, every scorer inconclusive, and the warning says the ids were renamed', () => {
    const base = run('x', flat(1));
    const pr = run('x', flat(0), { ids: (i) => `renamed-${i}` });
    const { comparison, summary } = summaryOf(pr, base);
    expect(comparison!.scorers.map((c) => c.status)).toEqual(['inconclusive']);
    expect(comparison!.warnings).toEqual(['No item is in both runs (30 items in this run, 30 items in the baseline), so nothing can be compared and every scorer is inconclusive: 30 items of this run ask what a baseline item asks under another id: were the ids renamed?']);
    expect(summary.split('\n')[0]).toBe(`> **Warning:** ${comparison!.warnings[0]}`);
    expect(summary).not.toContain('No scorer regressed');
  });

  test('a different dataset: the warning says so; one shared item is inconclusive too', () => {
    const base = run('x', flat(1));
    const other = run('x', flat(1), { ids: (i) => `other-${i}`, input: (i) => `another question ${i}` });
    expect(compareRuns(other, base).warnings[0]).toMatch(/no item of this run asks what a baseline item asks: is the baseline a run of a different dataset\?$/);
    const one = run('x', flat(0), { ids: (i) => (i === 0 ? 'q0' : `other-${i}`), input: (i) => (i === 0 ? 'question 0' : `another question ${i}`) });
    const { comparison, summary } = summaryOf(one, base);
    expect(comparison!.scorers[0]).toMatchObject({ status: 'inconclusive', difference: -1, interval: null });
    expect(comparison!.warnings[0]).toMatch(/^Only 1 item is in both runs \(30 items in this run, 30 items in the baseline\)/);
    expect(summary).toContain('`x` (only 1 item scored by both runs)');
    expect(summary).not.toContain('No scorer regressed');
  });

  test('fewer than half of either run shared: a warning on the first line of the summary', () => {
    const base = run('x', flat(1));
    const part = run('x', flat(1, 10));
    const { comparison, summary } = summaryOf(part, base);
    expect(comparison!.warnings).toEqual(["Only 10 of the baseline's 30 items are in both runs: the comparison covers those alone. Is one run a part of the other (a shard), or a different dataset?"]);
    expect(summary.split('\n')[0]).toBe(`> **Warning:** Only 10 of the baseline's 30 items are in both runs: the comparison covers those alone. Is one run a part of the other (a shard), or a different dataset?`);
    expect(compareRuns(base, part).warnings[0]).toMatch(/^Only 10 of this run's 30 items are in both runs/);
    expect(compareRuns(base, base).warnings).toEqual([]);
  });

  test('a scorer renamed: the old one removed, the new one added, and the summary leads with the removed one', () => {
    const { comparison, summary } = summaryOf(run('relevance-v2', flat(0)), run('relevance', flat(1)));
    expect(comparison!.scorers.map((c) => [c.id, c.status])).toEqual([['relevance-v2', 'added'], ['relevance', 'removed']]);
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 removed');
    expect(summary).toContain('**1 scorer removed**, in the baseline only, so it is no longer checked: `relevance`.');
    expect(summary).toContain('New in this run, so not compared: `relevance-v2`.');
    expect(summary).not.toContain('No scorer regressed');
  });

  test('a scorer not scorable on every shared item is inconclusive', () => {
    const { comparison, summary } = summaryOf(run('x', flat(1).map(() => null)), run('x', flat(1)));
    expect(comparison!.scorers[0]).toMatchObject({ status: 'inconclusive', before: 1, after: null, interval: null });
    expect(summary).toContain('`x` (no item scored by both runs)');
    expect(summary).not.toContain('No scorer regressed');
  });

  test.each([
    ['-Infinity (JSON -1e999)', -Infinity],
    ['Infinity', Infinity],
  ])('a score of %s is unusable input, named by item and scorer', (_, bad) => {
    const pr = run('x', flat(1));
    (pr.items![4].scores.x as { score: number }).score = bad;
    expect(() => evalReport(pr, { baseline: run('x', flat(1)) })).toThrow(new TypeError(`items[4].scores["x"].score must be a number or null, and finite: got ${bad}`));
    expect(() => evalReport(run('x', flat(1)), { baseline: pr })).toThrow(new TypeError(`baseline: items[4].scores["x"].score must be a number or null, and finite: got ${bad}`));
    expect(() => compareRuns(pr, run('x', flat(1)))).toThrow(TypeError);
  });
});

/**
 * The comparison's rules on hand-built results: items paired by identity whatever their order, items
 * only in one run counted, not-scorable and sampled-out runs left out of the pairs, a gate that threw
 * counted 0, fewer than two pairs giving no interval, the tolerance; the worse items worst first; the
 * Markdown summary within its limit, cut from the least important end and saying so, with hostile
 * strings inert; the first release's results compared with today's.
 */
import { describe, expect, test } from 'vitest';
import { compareRuns, evalReport, SUMMARY_MAX_LENGTH, type ReportInput, type ReportItem } from '../../src/report/index.js';
import { code, renderSummary } from '../../src/report/summary.js';
import { readResult } from '../../src/report/result.js';
import { compareDetailed } from '../../src/report/compare.js';
import { itemIdentities } from '../../src/runtime/evals/eval-identity.js';
import { hostileResult, hostileResultV1, largeResult } from './results.js';

const item = (index: number, id: string, scores: ReportItem['scores'], extra: Partial<ReportItem> = {}): ReportItem => ({ index, id, input: `question ${id}`, output: '', scores, ...extra });
const s = (score: number | null, extra: object = {}) => ({ score, reason: null, ...extra });
const result = (items: ReportItem[]): ReportInput => ({ scores: {}, summary: { totalItems: items.length }, items });

describe('compareRuns', () => {
  test('pairs items by identity, whatever their order, and counts the items only one run has', () => {
    const base = result([item(0, 'a', { x: s(1) }), item(1, 'b', { x: s(0.5) }), item(2, 'gone', { x: s(1) }), item(3, 'c', { x: s(0.8) })]);
    const next = result([item(0, 'c', { x: s(0.8) }), item(1, 'new', { x: s(0) }), item(2, 'b', { x: s(0.5) }), item(3, 'a', { x: s(0.9) })]);
    const comparison = compareRuns(next, base);
    expect(comparison.onlyInBaseline).toBe(1);
    expect(comparison.onlyInResult).toBe(1);
    const [x] = comparison.scorers;
    // Over a, b, c: before 1, 0.5, 0.8; after 0.9, 0.5, 0.8.
    expect(x.id).toBe('x');
    expect(x.before).toBeCloseTo(2.3 / 3, 12);
    expect(x.after).toBeCloseTo(2.2 / 3, 12);
    expect(x.difference).toBeCloseTo(-0.1 / 3, 12);
    expect(comparison.worse).toEqual([{ item: 'a', scorer: 'x', before: 1, after: 0.9 }]);
  });

  test('not scorable, sampled out, missing and non-numeric runs leave the item out of that scorer; a gate that threw counts 0', () => {
    const base = result([
      item(0, 'a', { x: s(1), y: s(1) }, { gates: { g: s(1) } }),
      item(1, 'b', { x: s(1), y: s(null, { notScorable: true }) }, { gates: { g: s(1) } }),
      item(2, 'c', { x: s(1), y: s(1) }, { gates: { g: s(1) } }),
      item(3, 'd', { x: s(1) }, { gates: { g: s(1) } }),
    ]);
    const next = result([
      item(0, 'a', { x: s(null, { notScorable: true }), y: s(0) }, { gates: { g: s(0, { error: 'tool missing' }) } }),
      item(1, 'b', { x: s(1), y: s(0) }, { gates: { g: s(1) } }),
      item(2, 'c', { x: s(1) }, { gates: { g: s(1) }, sampledOut: ['y'] }),
      item(3, 'd', { x: s(null), y: s(1) }, { gates: { g: s(1) } }),
    ]);
    const { scorers, worse } = compareRuns(next, base);
    const byId = Object.fromEntries(scorers.map((c) => [c.id, c]));
    expect(Object.keys(byId)).toEqual(['x', 'y', 'gates/g']);
    // x: pairs b and c only (a not scorable now, d no number now).
    expect(byId.x).toMatchObject({ before: 1, after: 1, difference: 0, interval: [0, 0], status: 'unchanged' });
    // y: only a pairs (b was not scorable, c sampled out, d absent before): one pair, no interval, so no verdict.
    expect(byId.y).toEqual({ id: 'y', before: 1, after: 0, difference: -1, interval: null, direction: 'higher-is-better', status: 'inconclusive' });
    // The gate that threw counts 0 on a.
    expect(byId['gates/g'].after).toBeCloseTo(0.75, 12);
    expect(byId['gates/g'].before).toBe(1);
    expect(worse).toEqual([
      { item: 'a', scorer: 'y', before: 1, after: 0 },
      { item: 'a', scorer: 'gates/g', before: 1, after: 0 },
    ]);
  });

  test('a scorer in one run only keeps that run mean, with no difference, and is added or removed', () => {
    const base: ReportInput = { ...result([item(0, 'a', { old: s(0.4) }), item(1, 'b', { old: s(0.6) })]), scores: { old: 0.5 } };
    const next: ReportInput = { ...result([item(0, 'a', { fresh: s(1) }), item(1, 'b', { fresh: s(0) })]), scores: { fresh: 0.5 } };
    expect(compareRuns(next, base).scorers).toEqual([
      { id: 'fresh', before: null, after: 0.5, difference: null, interval: null, direction: 'higher-is-better', status: 'added' },
      { id: 'old', before: 0.5, after: null, difference: null, interval: null, direction: 'higher-is-better', status: 'removed' },
    ]);
  });

  test('the tolerance decides how far below zero the whole interval must lie', () => {
    // Ten items, each 0.1 lower: a zero-spread interval at exactly -0.1.
    const base = result(Array.from({ length: 10 }, (_, i) => item(i, `q${i}`, { x: s(0.9) })));
    const next = result(Array.from({ length: 10 }, (_, i) => item(i, `q${i}`, { x: s(0.8) })));
    expect(compareRuns(next, base).scorers[0].status).toBe('regressed');
    expect(compareRuns(next, base, { tolerance: 0.099 }).scorers[0].status).toBe('regressed');
    expect(compareRuns(next, base, { tolerance: 0.11 }).scorers[0].status).toBe('unchanged');
    expect(compareRuns(base, next).scorers[0].status).toBe('improved');
    for (const bad of [-0.1, Number.NaN, Infinity, '0.1']) {
      expect(() => compareRuns(next, base, { tolerance: bad as number })).toThrow(/^tolerance must be a number of 0 or more/);
    }
    expect(() => evalReport(next, { tolerance: -1 })).toThrow(/^tolerance must be a number of 0 or more/);
  });

  test('worse items come largest drop first, then in scorer and data order; tiny float noise is no drop', () => {
    const base = result([item(0, 'a', { x: s(0.3), y: s(1) }), item(1, 'b', { x: s(1), y: s(1) }), item(2, 'c', { x: s(0.1 + 0.2), y: s(0.5) })]);
    const next = result([item(0, 'a', { x: s(0.1 + 0.2), y: s(0.5) }), item(1, 'b', { x: s(0.5), y: s(0) }), item(2, 'c', { x: s(0.3), y: s(1) })]);
    expect(compareRuns(next, base).worse).toEqual([
      { item: 'b', scorer: 'y', before: 1, after: 0 },
      { item: 'b', scorer: 'x', before: 1, after: 0.5 },
      { item: 'a', scorer: 'y', before: 1, after: 0.5 },
    ]);
  });

  test('a result or baseline without items cannot be compared; a bad baseline is named as the baseline', () => {
    const { items: _, ...aggregates } = hostileResult();
    expect(() => compareRuns(aggregates, hostileResult())).toThrow(new TypeError('the result has no "items", so it cannot be compared item by item'));
    expect(() => compareRuns(hostileResult(), aggregates)).toThrow(new TypeError('baseline: the result has no "items", so it cannot be compared item by item'));
    expect(() => evalReport(hostileResult(), { baseline: { ...hostileResult(), summary: {} } as unknown as ReportInput })).toThrow(new TypeError('baseline: summary.totalItems must be a whole number'));
  });

  test("a result saved by the first release compares with today's run of the same data: identities and gates line up", () => {
    const old = hostileResultV1();
    // The first release saved no ids: each item gets the identity runEvals gives it now.
    const expected = itemIdentities(old.items!.map((i) => ({ input: i.input })));
    expect(readResult(old).items!.map((i) => i.id)).toEqual(expected);
    const today: ReportInput = { ...hostileResult(), items: hostileResult().items!.map((i, k) => ({ ...i, id: expected[k] })) };
    const comparison = compareRuns(today, old);
    expect(comparison.onlyInBaseline + comparison.onlyInResult).toBe(0);
    expect(comparison.scorers.map((c) => [c.id, c.difference])).toEqual([
      [hostileResult().config!.scorers[0], 0],
      ['__proto__', 0],
      ['gates/correct', 0],
    ]);
  });
});

describe('the Markdown summary', () => {
  test('hostile ids and inputs are inert code spans: no markup, HTML, table break or mention', () => {
    const base = hostileResult();
    const next: ReportInput = { ...base, items: base.items!.map((i) => ({ ...i, scores: { ...i.scores, ['tone"<b>${id}</b>']: { ...i.scores['tone"<b>${id}</b>'], score: 0 } } })) };
    const summary = evalReport(next, { baseline: base, generatedAt: null, title: 'Weather | <agent>' }).summary;
    // Every line of every table has the same number of unescaped pipes as its header.
    for (const table of summary.split('\n\n').filter((block) => block.startsWith('| '))) {
      const counts = table.trimEnd().split('\n').map((line) => line.replace(/\\\|/g, '').split('|').length);
      expect(new Set(counts).size, table).toBe(1);
    }
    expect(summary).toContain('`tone"<b>${id}</b>`');
    // Outside code spans, no markup character of theirs is left.
    const outside = summary.replace(/(`+)[^`]*?(?:`(?!`)[^`]*?)*\1/g, '');
    expect(outside).not.toMatch(/[<>]/);
    // A multi-line input is one line; a backtick in it lengthens the fence.
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`start')).toBe('`` `start ``');
    expect(code('x|y\nz')).toBe('`x\\|y z`');
    // Controls dropped, a lone surrogate replaced: the file is valid UTF-8 and postable.
    expect(summary).toContain('`bell nul lone\uFFFD end`');
    // Two items only, one of them scored by both runs on `__proto__`: both tracked scorers are inconclusive.
    expect(summary.split('\n')[0]).toBe('## Weather \\| &lt;agent&gt;: Failed, 2 inconclusive');
  });

  test('within 60,000 characters at 10,000 items: the smallest drops are cut first, and the summary says how many', () => {
    const base = largeResult(10_000);
    // Every item drops on answer-relevancy by a varying amount.
    const next = { ...base, items: base.items.map((i) => ({ ...i, scores: { ...i.scores, 'answer-relevancy': { ...i.scores['answer-relevancy'], score: i.scores['answer-relevancy'].score === null ? null : Math.max(0, i.scores['answer-relevancy'].score - 0.01 - (i.index % 97) / 200) } } })) };
    const { summary, comparison } = evalReport(next, { baseline: base, generatedAt: null });
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_LENGTH);
    expect(summary.length).toBeGreaterThan(SUMMARY_MAX_LENGTH - 500);
    const worse = comparison!.worse.length;
    expect(worse).toBeGreaterThan(9_000);
    const rows = summary.slice(summary.indexOf('### Items that got worse')).split('\n').filter((line) => line.startsWith('| `day-'));
    expect(rows.length).toBeGreaterThan(100);
    expect(summary).toContain(`_${(worse - rows.length).toLocaleString('en-US')} of ${worse.toLocaleString('en-US')} items that got worse are left out to keep this summary within 60,000 characters (the smallest drops); the HTML report and the JSON comparison list them all._`);
    // The rows kept are the worst ones, in order.
    const kept = comparison!.worse.slice(0, rows.length).map((w) => w.item);
    expect(rows.map((line) => /^\| `([^`]+)`/.exec(line)![1])).toEqual(kept);
    // Everything above the items is whole.
    expect(summary).toContain('| `answer-relevancy` |');
    expect(summary).toContain('### This run');
  });

  test('when even the scorer tables do not fit, their rows are cut too, last table first, each cut said', () => {
    const views = readResult(largeResult(20));
    const detail = compareDetailed(views, readResult(largeResult(20)));
    const full = renderSummary(views, { title: 'x', comparison: detail });
    const cut = renderSummary(views, { title: 'x', comparison: detail, maxLength: full.indexOf('### This run') + 200 });
    expect(cut.length).toBeLessThanOrEqual(full.indexOf('### This run') + 200);
    expect(cut).toMatch(/_\d of 5 scorers are left out to keep this summary within/);
    // The comparison table, higher in importance, is whole.
    expect(cut).toContain('| `verbosity` |');
  });
});

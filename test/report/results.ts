/**
 * Results in the shape `runEvals` resolves to, built by hand so these tests do not depend on the
 * runner: a small one full of hostile strings (today's shape, and the first release's, where gates
 * sat among an item's scores flagged `gate: true` and items had no `id`), and a large seeded one
 * (1,000 items x 5 scorers).
 */
import type { ReportInput, ReportItem } from '../../src/report/index.js';

export const HOSTILE = {
  script: '</script><script>window.__pwned = 1</script>',
  comment: '<!-- <script>window.__pwned = 2</script>',
  markup: '<img src=x onerror="window.__pwned=3"> & <b>bold</b>',
  quotes: `"double" 'single' \`back\` \${template} \\backslash`,
  lines: 'line one\nline two\r\n\tindented',
  unicode: 'naïve café 天気 🌦️ \u2028sep\u2029 \u202Eright-to-left',
  controls: 'bell\u0007 nul\u0000 lone\uD800 end',
};

export const HOSTILE_ID = 'tone"<b>${id}</b>';

/** The first release's shape: gates among the item's scores with `gate: true`, gate means in `scores`, no item ids. */
export function hostileResultV1(): ReportInput {
  const items: ReportItem[] = [
    {
      index: 0,
      input: HOSTILE.script,
      output: HOSTILE.markup,
      groundTruth: HOSTILE.comment,
      scores: {
        [HOSTILE_ID]: { score: 0.25, reason: HOSTILE.quotes, cached: true },
        correct: { score: 0, reason: HOSTILE.lines, gate: true, cached: false },
        ['__proto__']: { score: null, reason: HOSTILE.unicode, notScorable: true },
      },
    },
    {
      index: 1,
      input: [{ role: 'user', content: HOSTILE.controls }],
      output: { text: HOSTILE.comment },
      scores: {
        [HOSTILE_ID]: { score: 0.9, reason: null },
        correct: { score: 1, reason: 'ok', gate: true },
        ['__proto__']: { score: 0.5, reason: 'half' },
      },
    },
  ];
  return {
    scores: { [HOSTILE_ID]: 0.575, correct: 0.5, ['__proto__']: 0.5 },
    summary: { totalItems: 2, notScorable: { ['__proto__']: 1 } },
    verdict: 'failed',
    gateResults: [{ id: 'correct', passed: false, score: 0.5 }],
    thresholdResults: [
      { id: HOSTILE_ID, passed: false, averageScore: 0.575, threshold: 0.7 },
      { id: '__proto__', passed: true, averageScore: 0.5, threshold: { min: 0.2, max: 0.8 } },
    ],
    items,
  };
}

/** Today's shape: gates under each item's `gates`, item identities, the run's `config`. */
export function hostileResult(): ReportInput {
  const items: ReportItem[] = [
    {
      index: 0,
      id: HOSTILE.markup,
      input: HOSTILE.script,
      output: HOSTILE.markup,
      groundTruth: HOSTILE.comment,
      scores: {
        [HOSTILE_ID]: { score: 0.25, reason: HOSTILE.quotes, cached: true, threshold: 0.7 },
        ['__proto__']: { score: null, reason: HOSTILE.unicode, notScorable: true, threshold: { min: 0.2, max: 0.8 } },
      },
      gates: { correct: { score: 0, reason: HOSTILE.lines, cached: false } },
    },
    {
      index: 1,
      id: 'b2c1f0e5d4a39687',
      input: [{ role: 'user', content: HOSTILE.controls }],
      output: { text: HOSTILE.comment },
      scores: {
        [HOSTILE_ID]: { score: 0.9, reason: null, threshold: 0.7 },
        ['__proto__']: { score: 0.5, reason: 'half', threshold: { min: 0.2, max: 0.8 } },
      },
      gates: { correct: { score: 1, reason: 'ok' } },
    },
  ];
  return {
    scores: { [HOSTILE_ID]: 0.575, ['__proto__']: 0.5 },
    summary: { totalItems: 2, notScorable: { ['__proto__']: 1 } },
    verdict: 'failed',
    gateResults: [{ id: 'correct', passed: false, score: 0.5 }],
    thresholdResults: [
      { id: HOSTILE_ID, passed: false, averageScore: 0.575, threshold: 0.7 },
      { id: '__proto__', passed: true, averageScore: 0.5, threshold: { min: 0.2, max: 0.8 } },
    ],
    items,
    config: {
      form: 'list',
      gates: ['correct'],
      scorers: [HOSTILE_ID, '__proto__'],
      thresholds: [
        { id: HOSTILE_ID, threshold: 0.7 },
        { id: '__proto__', threshold: { min: 0.2, max: 0.8 } },
      ],
    },
  };
}

/** mulberry32: a small seeded generator, uniform on [0, 1), so generated results are the same on every run. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CITIES = ['Paris', 'Lagos', 'Osaka', 'Lima', 'Oslo', 'Quito', 'Perth', 'Cairo'];

/**
 * `n` items x 5 scorers: a gate that fails on a few items, three thresholds (min, max, range), one
 * tracked scorer; some runs not scorable, judge replies cached or live. Means and verdicts are
 * computed from the items as runEvals computes them.
 */
export function largeResult(n = 1000): ReportInput & { items: ReportItem[]; scores: Record<string, number> } {
  const next = random(42);
  const ids = ['tool-call', 'answer-relevancy', 'hallucination', 'verbosity', 'politeness'] as const;
  const items: ReportItem[] = [];
  for (let index = 0; index < n; index++) {
    const city = CITIES[index % CITIES.length];
    const question = `What will the weather be in ${city} on day ${index}? Please include the temperature and whether I need an umbrella.`;
    const answer = `In ${city} on day ${index} expect ${Math.round(next() * 30)} °C with ${next() < 0.3 ? 'rain, so take an umbrella' : 'clear skies'}. ${'Have a nice day. '.repeat(1 + (index % 3))}`;
    const scores: ReportItem['scores'] = {};
    const gates: ReportItem['scores'] = {};
    for (const id of ids) {
      const r = next();
      if (id !== 'tool-call' && r < 0.02) {
        scores[id] = { score: null, reason: `The answer does not address ${id}.`, notScorable: true };
        continue;
      }
      const score = id === 'tool-call' ? (r < 0.01 ? 0 : 1) : Math.round((id === 'hallucination' ? r * r * 0.6 : 0.35 + 0.65 * Math.sqrt(r)) * 100) / 100;
      const reason = `${id} judged ${score} because the answer about ${city} ${score > 0.5 ? 'covers' : 'misses'} what was asked.`;
      if (id === 'tool-call') gates[id] = { score, reason };
      else scores[id] = { score, reason, cached: next() < 0.8 };
    }
    items.push({ index, id: `day-${index}`, input: question, output: answer, groundTruth: { city }, scores, gates });
  }
  const run = (item: ReportItem, id: string) => (id === 'tool-call' ? item.gates![id] : item.scores[id]);
  const mean = (id: string) => {
    const values = items.map((item) => run(item, id)?.score).filter((s): s is number => typeof s === 'number');
    return values.reduce((a, b) => a + b, 0) / values.length;
  };
  const notScorable = Object.fromEntries(ids.map((id) => [id, items.filter((item) => run(item, id).score === null).length]).filter(([, c]) => c !== 0));
  const thresholds = [
    { id: 'answer-relevancy', threshold: 0.7 as const },
    { id: 'hallucination', threshold: { max: 0.3 } },
    { id: 'verbosity', threshold: { min: 0.4, max: 0.8 } },
  ];
  const thresholdResults = thresholds.map(({ id, threshold }) => {
    const averageScore = mean(id);
    const { min, max } = typeof threshold === 'number' ? { min: threshold, max: undefined } : { min: undefined, ...threshold };
    return { id, threshold, averageScore, passed: (min === undefined || averageScore >= min) && (max === undefined || averageScore <= max) };
  });
  const gateResults = [{ id: 'tool-call', score: mean('tool-call'), passed: mean('tool-call') >= 1 }];
  const verdict = gateResults.some((g) => !g.passed) ? 'failed' : thresholdResults.some((t) => !t.passed) ? 'scored' : 'passed';
  return {
    scores: Object.fromEntries(ids.filter((id) => id !== 'tool-call').map((id) => [id, mean(id)])),
    summary: { totalItems: n, notScorable },
    verdict,
    gateResults,
    thresholdResults,
    items,
    config: { form: 'list', gates: ['tool-call'], scorers: ids.filter((id) => id !== 'tool-call'), thresholds },
  };
}

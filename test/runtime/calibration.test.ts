/**
 * The offline judge against a hand-labelled answer-relevancy set (`calibration/relevancy-set.json`:
 * where its labels come from and the rubric are in the file). Prints the mean absolute error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnswerRelevancyScorer, offlineJudge } from '../../src/runtime/index.js';

/** In the order they were written; the set's `labels` field says which ones shaped the rules. */
const SPLITS = ['dev', 'holdout-1', 'holdout-2', 'holdout-3', 'holdout-4', 'holdout-5'] as const;
interface Case {
  id: string;
  type: string;
  split: (typeof SPLITS)[number];
  question: string;
  answer: string;
  verdicts: Array<'yes' | 'unsure' | 'no'>;
  score: number;
  note: string;
}
const set: { rubric: Record<string, string>; labels: string; cases: Case[] } = JSON.parse(
  readFileSync(new URL('./calibration/relevancy-set.json', import.meta.url), 'utf8'),
);
const scorer = createAnswerRelevancyScorer({ model: offlineJudge() });
const WEIGHT = { yes: 1, unsure: 0.3, no: 0 };
const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

describe('offlineJudge calibration', () => {
  it('the set is what it claims: at least 40 cases, every question type, labels consistent with the rubric', () => {
    expect(set.cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(set.cases.map((c) => c.id)).size).toBe(set.cases.length);
    const types = new Set(set.cases.map((c) => c.type));
    for (const type of ['what', 'who', 'when', 'where', 'how-many', 'how-to', 'yes-no', 'off-topic', 'error', 'empty']) expect(types).toContain(type);
    for (const c of set.cases) {
      const expected = c.verdicts.length === 0 ? 0 : round2(c.verdicts.reduce((sum, v) => sum + WEIGHT[v], 0) / c.verdicts.length);
      expect(c.score, c.id).toBe(expected);
    }
    expect(set.labels).toMatch(/labelled by hand/);
    expect(new Set(set.cases.map((c) => c.split))).toEqual(new Set(SPLITS));
  });

  it('mean absolute error of createAnswerRelevancyScorer({ model: offlineJudge() }) is at most 0.15', async () => {
    const rows: Array<{ c: Case; got: number; error: number }> = [];
    for (const c of set.cases) {
      const result = await scorer.run({ input: c.question, output: c.answer });
      rows.push({ c, got: result.score!, error: Math.abs(result.score! - c.score) });
    }
    const mae = (list: typeof rows) => list.reduce((sum, r) => sum + r.error, 0) / list.length;
    const bySplit = (split: Case['split']) => rows.filter((r) => r.c.split === split);
    const splits = SPLITS.map((split) => `${split} ${mae(bySplit(split)).toFixed(3)} over ${bySplit(split).length}`);
    const report = [
      `offlineJudge answer-relevancy MAE: ${mae(rows).toFixed(3)} over ${rows.length} cases (${splits.join(', ')})`,
      ...rows
        .filter((r) => r.error > 0)
        .sort((a, b) => b.error - a.error)
        .map((r) => `  ${r.c.id.padEnd(14)} expected ${r.c.score.toFixed(2)} got ${r.got.toFixed(2)}  ${JSON.stringify(r.c.answer)}`),
    ];
    console.log(report.join('\n'));
    expect(mae(rows)).toBeLessThanOrEqual(0.15);
    // ARCHITECTURE.md reports this very line: a change of the heuristics or of the set must update it.
    expect(readFileSync(new URL('../../ARCHITECTURE.md', import.meta.url), 'utf8')).toContain(`\n${report[0]}\n`);
  });

  it('the two known failures of the first heuristic are fixed (SPEC 9)', async () => {
    const question = 'What is the capital of Japan?';
    expect((await scorer.run({ input: question, output: 'Tokyo' })).score).toBe(1);
    const topicOnly = await scorer.run({ input: question, output: 'Japan is an island nation with great food.' });
    expect(topicOnly.score).toBeLessThanOrEqual(0.3);
    expect(topicOnly.analyzeStepResult.results[0]).toEqual({ result: 'unsure', reason: expect.stringMatching(/^\[offline heuristic\] mentions "japan"/) });
  });

  it('a short sentence is not a short answer: off-topic sentences with a verb are `no` (holdout-3)', async () => {
    for (const [question, output] of [
      ['What is the capital of Japan?', 'Trains run on time.'],
      ['Is the store open on Sunday?', 'Cats sleep a lot.'],
      ['Who painted the Mona Lisa?', 'Dogs bark loudly.'],
      ['Where is the Eiffel Tower?', 'Pizza tastes good.'],
    ]) {
      const result = await scorer.run({ input: question, output });
      expect(result.score, output).toBe(0);
      expect(result.analyzeStepResult.results[0].reason, output).toMatch(/^\[offline heuristic\] shares no key term/);
    }
    // Noun phrases, names, numbers and acronyms still are.
    for (const [question, output] of [
      ['What is the largest planet?', 'Jupiter.'],
      ['What is the longest river?', 'The Nile.'],
      ['What does HTTP stand for?', 'Hypertext Transfer Protocol.'],
      ['What is the tallest animal?', 'The giraffe.'],
    ]) {
      expect((await scorer.run({ input: question, output })).analyzeStepResult.results[0].reason, output).toBe('[offline heuristic] is a direct short answer');
    }
  });

  it('a "who" answer in a sentence names someone; a yes-no question is answered by what is allowed (holdout-3)', async () => {
    expect((await scorer.run({ input: 'Who wrote Hamlet?', output: 'Shakespeare wrote it around 1600.' })).score).toBe(1);
    // A capitalised first word alone is no name: every sentence has one.
    expect((await scorer.run({ input: 'Who wrote Hamlet?', output: 'Critics praise it widely.' })).score).toBeLessThan(1);
    // Names in a place phrase or days of the week are not who-answers.
    expect((await scorer.run({ input: 'Who founded Microsoft?', output: 'Microsoft is headquartered in Redmond, Washington.' })).score).toBe(0.3);
    expect((await scorer.run({ input: 'Who runs the club?', output: 'The club meets on Tuesdays.' })).score).toBe(0.3);
    const pets = await scorer.run({ input: 'Can I bring my dog to the hotel?', output: 'Pets are welcome for a small fee.' });
    expect(pets.analyzeStepResult.results[0]).toEqual({ result: 'yes', reason: '[offline heuristic] says what is allowed, available or safe, which the yes-no question asks' });
    expect((await scorer.run({ input: 'Can I bring my dog to the hotel?', output: 'Music is fun.' })).score).toBe(0);
  });

  it('hostile text is judged, not executed or choked on', async () => {
    for (const output of ['__proto__', '${process.exit(1)}', 'C:\\path\\to\\file', 'line one\nline two', '東京', '\u0000', 'null', '[object Object]']) {
      const result = await scorer.run({ input: 'What is the capital of Japan? ${x} __proto__', output });
      expect(result.score, output).toBeGreaterThanOrEqual(0);
      expect(result.score, output).toBeLessThanOrEqual(1);
      for (const verdict of result.analyzeStepResult.results) expect(verdict.reason).toMatch(/^\[offline heuristic\] /);
    }
    expect((await scorer.run({ input: 'What is the status of my order?', output: 'null' })).score).toBe(0);
  });
});

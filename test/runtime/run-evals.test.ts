import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer, runEvals as mastraRunEvals } from '@mastra/core/evals';
import { createAnswerRelevancyScorer as createMastraRelevancyScorer } from '@mastra/evals/scorers/prebuilt';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAnswerRelevancyScorer,
  createScorer,
  runEvals,
  RunEvalsError,
  notScorable,
  cachedJudge,
} from '../../src/runtime/index.js';
import { answeringModel, scriptedModel, statements, verdicts } from './helpers.js';

const lengthScorer = createScorer({ id: 'length', description: 'longer is better' }).generateScore(({ run }) =>
  Math.min(1, String(run.output).length / 10),
);
const echoScorer = createScorer({ id: 'echo', description: 'output repeats input' }).generateScore(({ run }) =>
  String(run.output).includes(String(run.input)) ? 1 : 0,
);

describe('runEvals', () => {
  it('runs every scorer on every item, keys results by scorer id and averages scores', async () => {
    const events: any[] = [];
    const result = await runEvals({
      data: [{ input: 'ab' }, { input: 'abcdefghij' }, { input: 'x', groundTruth: 'gt' }],
      scorers: [lengthScorer, { scorer: echoScorer, sampling: { type: 'ratio', rate: 0.5 } }],
      target: (input: string) => `${input}!`,
      onItemComplete: (event) => {
        events.push(event);
      },
    });
    expect(result.summary).toEqual({ totalItems: 3 });
    expect(result.scores.length).toBeCloseTo((0.3 + 1 + 0.2) / 3, 10);
    expect(result.scores.echo).toBe(1);
    expect(events.map((e) => e.index).sort()).toEqual([0, 1, 2]);
    const third = events.find((e) => e.index === 2);
    expect(third.targetResult).toBe('x!');
    expect(Object.keys(third.scorerResults).sort()).toEqual(['echo', 'length']);
    expect(third.scorerResults.length).toMatchObject({ score: 0.2, input: 'x', output: 'x!', groundTruth: 'gt' });
  });

  it('accepts a record of scorers and entries (the registry shape) and a function form', async () => {
    const record = Object.freeze(Object.assign(Object.create(null), { relevance: { scorer: echoScorer }, size: lengthScorer }));
    const fromRecord = await runEvals({ data: [{ input: 'a' }], scorers: record, target: (i: string) => i });
    expect(fromRecord.scores).toEqual({ echo: 1, length: 0.1 });
    const seenContexts: unknown[] = [];
    const fromFunction = await runEvals({
      data: [{ input: 'a', requestContext: { tier: 'pro' } }],
      scorers: ({ requestContext }) => (seenContexts.push(requestContext), { e: echoScorer }),
      target: (i: string) => i,
    });
    expect(fromFunction.scores).toEqual({ echo: 1 });
    expect(seenContexts).toEqual([{ tier: 'pro' }]);
  });

  it('uses an object target’s generate() and reads { text } results', async () => {
    const target = { generate: async (input: string) => ({ text: input.toUpperCase() }) };
    const upper = createScorer({ id: 'upper', description: 'd' }).generateScore(({ run }) => (run.output === 'HI' ? 1 : 0));
    const result = await runEvals({ data: [{ input: 'hi' }], scorers: [upper], target });
    expect(result.scores.upper).toBe(1);
  });

  it('keeps at most `concurrency` items in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const target = async (input: number) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return input;
    };
    const scorer = createScorer({ id: 'n', description: 'd' }).generateScore(() => 1);
    const data = Array.from({ length: 7 }, (_, i) => ({ input: i }));
    await runEvals({ data, scorers: [scorer], target, concurrency: 3 });
    expect(maxInFlight).toBe(3);
    maxInFlight = 0;
    await runEvals({ data, scorers: [scorer], target });
    expect(maxInFlight).toBe(1);
  });

  it('reports a failing target with the item’s 0-based index', async () => {
    const error = await runEvals({
      data: [{ input: 'ok' }, { input: 'ok' }, { input: 'bad' }],
      scorers: [lengthScorer],
      target: (input: string) => {
        if (input === 'bad') throw new Error('target exploded');
        return input;
      },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(RunEvalsError);
    expect(error.message).toBe('runEvals: item 2 failed in the target: target exploded');
    expect(error.index).toBe(2);
  });

  it('reports a failing scorer with the index, scorer id and step', async () => {
    const failing = createScorer({ id: 'picky', description: 'd' }).generateScore(({ run }) => {
      if (run.output === 'b') throw new Error('cannot score b');
      return 1;
    });
    const error = await runEvals({ data: [{ input: 'a' }, { input: 'b' }], scorers: [failing], target: (i: string) => i }).catch(
      (e) => e,
    );
    expect(error.message).toBe('runEvals: item 1 failed in scorer "picky": Scorer "picky" failed in step "generateScore": cannot score b');
    expect(error.scorerId).toBe('picky');
  });

  it('validates its inputs', async () => {
    const target = (i: unknown) => i;
    // Mastra's own words, whatever the target.
    await expect(runEvals({ data: [], scorers: [lengthScorer], target })).rejects.toThrow('Failed to run experiment: Data array is empty');
    await expect(runEvals({ data: [{ input: 1 }, { nope: 1 } as any], scorers: [lengthScorer], target })).rejects.toThrow(
      "Invalid data item at index 1: must have 'input', 'inputs', or 'turns' property",
    );
    await expect(runEvals({ data: [{ inputs: [] }], scorers: [lengthScorer], target })).rejects.toThrow("Invalid data item at index 0: 'inputs' must be a non-empty array");
    await expect(runEvals({ data: [{ input: 1, turns: [{ input: 2 }] } as any], scorers: [lengthScorer], target })).rejects.toThrow(
      "Invalid data item at index 0: 'turns' cannot be combined with 'input' or 'inputs'",
    );
    await expect(runEvals({ data: [{ turns: [{ nope: 2 }] } as any], scorers: [lengthScorer], target })).rejects.toThrow(
      "Invalid data item at index 0: turn 0 must be an object with an 'input' property",
    );
    await expect(runEvals({ data: [{ input: 1, id: 'a' }, { input: 2, id: 'a' }], scorers: [lengthScorer], target })).rejects.toThrow(
      'runEvals: data items 0 and 1 have the same id "a"; ids must be unique',
    );
    await expect(runEvals({ data: [{ input: 1 }], scorers: [lengthScorer, lengthScorer], target })).rejects.toThrow(/two scorers have the id "length"/);
    await expect(runEvals({ data: [{ input: 1 }], scorers: [{ not: 'a scorer' } as any], target })).rejects.toThrow(/scorers\[0\] is not a scorer/);
    await expect(
      runEvals({ data: [{ input: 1 }], scorers: [{ scorer: lengthScorer, sampling: { type: 'ratio', rate: 2 } }], target }),
    ).rejects.toThrow(/sampling must be/);
    await expect(runEvals({ data: [{ input: 1 }], scorers: [lengthScorer], target, concurrency: 0 })).rejects.toThrow(/concurrency/);
  });

  it('applies sampling only when asked, deterministically per run id', async () => {
    const data = Array.from({ length: 200 }, (_, i) => ({ input: i, runId: `item-${i}` }));
    const scorers = [{ scorer: lengthScorer, sampling: { type: 'ratio' as const, rate: 0.5 } }];
    const all = await runEvals({ data, scorers, target: (i: number) => i });
    expect(all.summary.sampledOut).toBeUndefined();
    const sampled = await runEvals({ data, scorers, target: (i: number) => i, applySampling: true });
    const again = await runEvals({ data, scorers, target: (i: number) => i, applySampling: true });
    expect(sampled.summary.sampledOut?.length).toBeGreaterThan(50);
    expect(sampled.summary.sampledOut?.length).toBeLessThan(150);
    expect(again.summary.sampledOut).toEqual(sampled.summary.sampledOut);
  });
});

/** A mock answering both generate and stream calls (Mastra's agents and judges stream). */
function dualModel(answer: (promptText: string) => string) {
  const textOf = (options: any) =>
    options.prompt
      .filter((m: any) => m.role === 'user')
      .map((m: any) => (typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join('')))
      .join('\n');
  return answeringModel((options) => answer(textOf(options)));
}

describe('compatibility with @mastra/core', () => {
  it('a scorer from this package runs inside Mastra’s own runEvals with a mock-model agent', async () => {
    const agent = new Agent({
      id: 'geo',
      name: 'geo',
      instructions: 'Answer geography questions.',
      model: dualModel(() => 'Paris is the capital of France.'),
    });
    const judge = scriptedModel([statements('Paris is the capital of France.'), verdicts(['yes']), 'The score is 1 because it answers.']);
    const seen: any[] = [];
    const mentionsParis = createScorer({ id: 'mentions-paris', description: 'd', type: 'agent' }).generateScore(({ run }) => {
      seen.push(run);
      return JSON.stringify(run.output).includes('Paris') ? 1 : 0;
    });
    const result = await mastraRunEvals({
      data: [{ input: 'What is the capital of France?' }],
      scorers: [mentionsParis as any, createAnswerRelevancyScorer({ model: judge }) as any],
      target: agent,
    });
    expect(result.scores).toEqual({ 'mentions-paris': 1, 'answer-relevancy-scorer': 1 });
    expect(result.summary.totalItems).toBe(1);
    // Mastra handed over its agent shapes, which the relevancy scorer read.
    expect(seen[0].input.inputMessages[0].role).toBe('user');
    expect(judge.doGenerateCalls).toHaveLength(3);
    expect(JSON.stringify(judge.doGenerateCalls[1].prompt)).toContain('What is the capital of France?');
  });

  it('Mastra’s scorers run inside this package’s runEvals, with a Mastra agent as target', async () => {
    const agent = new Agent({
      id: 'geo2',
      name: 'geo2',
      instructions: 'Answer geography questions.',
      model: dualModel(() => 'Paris is the capital of France.'),
    });
    const mastraScorer = createMastraScorer({ id: 'mastra-len', description: 'd', type: 'agent' }).generateScore(({ run }) =>
      Array.isArray(run.output) && run.output.length > 0 ? 1 : 0,
    );
    const mastraJudge = dualModel((text) => {
      if (text.includes('meaningful statements')) return JSON.stringify({ statements: ['Paris is the capital of France.'] });
      if (text.includes("Evaluate each statement's relevance")) return JSON.stringify({ results: [{ result: 'yes', reason: 'direct' }] });
      return 'The score is 1 because it answers the question.';
    });
    const mastraRelevancy = createMastraRelevancyScorer({ model: mastraJudge });
    const items: any[] = [];
    const result = await runEvals({
      data: [{ input: 'What is the capital of France?' }],
      scorers: [mastraScorer, mastraRelevancy],
      target: agent,
      onItemComplete: (event) => {
        items.push(event);
      },
    });
    expect(result.scores).toEqual({ 'mastra-len': 1, 'answer-relevancy-scorer': 1 });
    expect(items[0].scorerResults['answer-relevancy-scorer'].reason).toMatch(/The score is 1/);
    expect(items[0].targetResult.text).toBe('Paris is the capital of France.');
  });
});

describe('runEvals: gates, thresholds, verdicts and items on any target', () => {
  const exact = createScorer({ id: 'exact', description: 'd' }).generateScore(({ run }) => (run.output === run.groundTruth ? 1 : 0));
  const nonEmpty = createScorer({ id: 'non-empty', description: 'd' }).generateScore(({ run }) => (String(run.output).length > 0 ? 1 : 0));
  const polite = createScorer({ id: 'polite', description: 'd' })
    .preprocess(({ run }) => (String(run.input).startsWith('?') ? notScorable('a bare question needs no courtesy') : {}))
    .generateScore(({ run }) => (String(run.output).includes('please') ? 1 : 0))
    .generateReason(({ score }) => `politeness ${score}`);
  const data = [
    { input: 'say please', groundTruth: 'say please!' },
    { input: 'shout', groundTruth: 'nope' },
    { input: '?', groundTruth: '?!' },
  ];
  const target = (input: string) => `${input}!`;

  it('a registry record with per-key thresholds: thresholds keyed by record key, results by scorer id', async () => {
    const record = Object.freeze(
      Object.assign(Object.create(null), { accuracy: { scorer: exact }, ['__proto__']: { scorer: polite, sampling: { type: 'none' } } }),
    );
    const result = await runEvals({ data, scorers: record, thresholds: { accuracy: 0.6, ['__proto__']: { max: 0.4 } }, target });
    expect(result.scores).toEqual({ exact: 2 / 3, polite: 0.5 });
    expect(result.summary).toEqual({ totalItems: 3, notScorable: { polite: 1 } });
    expect(result.thresholdResults).toEqual([
      { id: 'exact', passed: true, averageScore: 2 / 3, threshold: 0.6 },
      { id: 'polite', passed: false, averageScore: 0.5, threshold: { max: 0.4 } },
    ]);
    expect(result.verdict).toBe('scored');
  });

  it('per-item results: identity, input, output, ground truth, each score and reason, gates apart, not-scorable runs null', async () => {
    const result = await runEvals({ data, gates: [nonEmpty], scorers: [{ scorer: polite, threshold: 0.5 }, exact], target });
    expect(result.verdict).toBe('passed');
    expect(result.gateResults).toEqual([{ id: 'non-empty', passed: true, score: 1 }]);
    // An item without an id is known by a hash of its input (checked against node:crypto, not our own SHA-256).
    const hashOf = (input: string) => createHash('sha256').update(JSON.stringify({ input })).digest('hex').slice(0, 16);
    const gate = { 'non-empty': { score: 1, reason: null } };
    expect(result.items).toEqual([
      {
        index: 0,
        id: hashOf('say please'),
        input: 'say please',
        output: 'say please!',
        groundTruth: 'say please!',
        gates: gate,
        scores: { polite: { score: 1, reason: 'politeness 1', threshold: 0.5 }, exact: { score: 1, reason: null } },
      },
      {
        index: 1,
        id: hashOf('shout'),
        input: 'shout',
        output: 'shout!',
        groundTruth: 'nope',
        gates: gate,
        scores: { polite: { score: 0, reason: 'politeness 0', threshold: 0.5 }, exact: { score: 0, reason: null } },
      },
      {
        index: 2,
        id: hashOf('?'),
        input: '?',
        output: '?!',
        groundTruth: '?!',
        gates: gate,
        scores: {
          polite: { score: null, reason: 'a bare question needs no courtesy', notScorable: true, threshold: 0.5 },
          exact: { score: 1, reason: null },
        },
      },
    ]);
    expect(result.config).toEqual({ form: 'list', gates: ['non-empty'], scorers: ['polite', 'exact'], thresholds: [{ id: 'polite', threshold: 0.5 }] });
    // What a report reads back from a saved file.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a gate that throws scores 0 and fails the run; the item says what it threw', async () => {
    const broken = createScorer({ id: 'broken', description: 'd' }).generateScore(() => {
      throw new Error('no tool log');
    });
    const result = await runEvals({ data: data.slice(0, 1), gates: [broken], target });
    expect(result.verdict).toBe('failed');
    expect(result.gateResults).toEqual([{ id: 'broken', passed: false, score: 0 }]);
    expect(result.items[0].gates!.broken).toEqual({
      score: 0,
      reason: null,
      error: 'Scorer "broken" failed in step "generateScore": no tool log',
    });
  });

  it('an object with generate() and the function form take thresholds too', async () => {
    const generator = { generate: async (input: string) => ({ text: `${input}!` }) };
    const fromObject = await runEvals({ data, scorers: [{ scorer: exact, threshold: { min: 0.9 } }], target: generator });
    expect(fromObject.verdict).toBe('scored');
    expect(fromObject.items.map((i) => i.output)).toEqual(['say please!', 'shout!', '?!']);
    const fromFunction = await runEvals({
      data,
      scorers: () => ({ accuracy: exact }),
      thresholds: { accuracy: 0.5 },
      target,
    });
    expect(fromFunction.thresholdResults).toEqual([{ id: 'exact', passed: true, averageScore: 2 / 3, threshold: 0.5 }]);
  });

  it('refuses thresholds it cannot place, and ids that would collide', async () => {
    const record = { accuracy: { scorer: exact } };
    await expect(runEvals({ data, scorers: record, thresholds: { accuracy: 0.5, relevence: 0.7 } as any, target })).rejects.toThrow(
      'runEvals: thresholds has "relevence", which is not a key of the scorers record (keys: "accuracy")',
    );
    await expect(runEvals({ data, scorers: [exact], thresholds: { exact: 0.5 } as any, target })).rejects.toThrow(
      'runEvals: "thresholds" goes with a record of scorers; in an array, write { scorer, threshold } entries',
    );
    // A record's threshold is named by the key the user wrote, not by the scorer's id.
    await expect(runEvals({ data, scorers: record, thresholds: { accuracy: 7 }, target })).rejects.toThrow(
      'Minimum threshold for scorer "accuracy" must be a finite number between 0 and 1, got 7',
    );
    const exactTwin = createScorer({ id: 'exact', description: 'another scorer with the same id' }).generateScore(() => 1);
    await expect(runEvals({ data, scorers: [exact, exactTwin], target })).rejects.toThrow(/two scorers have the id "exact"/);
    await expect(runEvals({ data, gates: [exact, exactTwin], target })).rejects.toThrow(/two gates have the id "exact"/);
    await expect(runEvals({ data, gates: [{ id: 'x' } as any], target })).rejects.toThrow('runEvals: gates[0] is not a scorer');
    // A type error too, as in Mastra.
    await expect(runEvals({ data, target } as any)).rejects.toThrow('At least one scorer or gate must be provided');
    // Gates and tracked scorers are kept apart, so a gate may share its id with a tracked scorer.
    const apart = await runEvals({ data, gates: [exactTwin], scorers: [exact], target });
    expect(apart.gateResults).toEqual([{ id: 'exact', passed: true, score: 1 }]);
    expect(apart.scores).toEqual({ exact: 2 / 3 });
  });

  it('one scorer object as a gate and a tracked scorer runs once per item and counts for both', async () => {
    let runs = 0;
    const counted = createScorer({ id: 'counted', description: 'd' }).generateScore(() => (runs++, 1));
    const result = await runEvals({ data, gates: [counted], scorers: { counted, accuracy: exact }, thresholds: { counted: 1 }, target });
    expect(runs).toBe(3);
    expect(result.gateResults).toEqual([{ id: 'counted', passed: true, score: 1 }]);
    expect(result.thresholdResults).toEqual([{ id: 'counted', passed: true, averageScore: 1, threshold: 1 }]);
    expect(result.scores).toEqual({ counted: 1, exact: 2 / 3 });
    expect(result.items[0].scores.counted).toEqual({ score: 1, reason: null, threshold: 1 });
    expect(result.items[0].gates!.counted).toEqual({ score: 1, reason: null });
  });

  it('cached: true when a cachedJudge file answered every judge call, false when any was live, absent without a cache', async () => {
    const file = path.join(os.tmpdir(), `run-evals-cached-${process.pid}-${Date.now()}.jsonl`);
    const replies = () => [statements('Paris is the capital.'), verdicts(['yes']), 'The score is 1.'];
    const one = [{ input: 'What is the capital of France?' }];
    const answer = () => 'Paris is the capital.';
    const cachedOf = (r: Awaited<ReturnType<typeof runEvals>>) => r.items[0].scores['answer-relevancy-scorer'];
    try {
      const plain = scriptedModel(replies());
      const uncached = await runEvals({ data: one, scorers: [createAnswerRelevancyScorer({ model: plain })], target: answer });
      expect(plain.doGenerateCalls).toHaveLength(3);
      expect(cachedOf(uncached)).toEqual({ score: 1, reason: 'The score is 1.' });

      const live = scriptedModel(replies());
      const first = await runEvals({ data: one, scorers: [createAnswerRelevancyScorer({ model: cachedJudge(live, { file }) })], target: answer });
      expect(cachedOf(first).cached).toBe(false);
      const second = await runEvals({ data: one, scorers: [createAnswerRelevancyScorer({ model: cachedJudge(live, { file }) })], target: answer });
      expect(live.doGenerateCalls).toHaveLength(3);
      expect(cachedOf(second)).toEqual({ score: 1, reason: 'The score is 1.', cached: true });
    } finally {
      await fs.rm(file, { force: true });
    }
  });

  it('onItemComplete gets the index and the scorer results keyed by id (gates apart, as in Mastra)', async () => {
    const seen: Array<[number, string[]]> = [];
    await runEvals({
      data,
      gates: [nonEmpty],
      scorers: [polite],
      target,
      concurrency: 2,
      onItemComplete: ({ index, scorerResults }) => void seen.push([index, Object.keys(scorerResults)]),
    });
    expect(seen.sort((a, b) => a[0] - b[0])).toEqual([
      [0, ['polite']],
      [1, ['polite']],
      [2, ['polite']],
    ]);
  });
});

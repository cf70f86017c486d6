/**
 * Multi-turn items and the structured forms on targets Mastra does not run (a function, an object with
 * `generate`): one call per turn on one thread, scorers on the accumulated replies, per-turn assertions
 * aggregated into `turnResults`, and the same aggregates as the same configuration on a Mastra Agent
 * that answers the same replies. Sampling on a Mastra Agent: skipped scorers leave no score and no row.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { afterAll, describe, expect, it } from 'vitest';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { answeringModel, userText } from './helpers.js';
import { savedScores, tmpStorage } from './mastra-suite/helpers.js';

const storages = tmpStorage('run-evals-turns');
afterAll(() => storages.cleanup());

const REPLIES: Record<string, string> = {
  'Weather?': 'Sunny, thanks for asking.',
  'Rain?': 'No rain today.',
  'Wind?': 'Calm, please stay warm.',
  'Hello': 'Hello there.',
};
const reply = (input: string) => REPLIES[input] ?? `no reply for ${input}`;

const polite = createScorer({ id: 'polite', description: 'd' }).generateScore(({ run }) => (/please|thanks/i.test(JSON.stringify(run.output)) ? 1 : 0));
const count = createScorer({ id: 'count', description: 'replies judged' }).generateScore(({ run }) => (Array.isArray(run.output) ? run.output.length / 4 : 0.25));
const nonEmpty = createScorer({ id: 'non-empty', description: 'd' }).generateScore(({ run }) => (JSON.stringify(run.output).length > 4 ? 1 : 0));

const DATA = [
  { inputs: ['Weather?', 'Rain?'] },
  { turns: [{ input: 'Hello', gates: [nonEmpty] }, { input: 'Wind?', scorers: [{ scorer: polite, threshold: 0.5 }] }] },
  { turns: [{ input: 'Rain?', gates: [nonEmpty] }, { input: 'Rain?', scorers: [{ scorer: polite, threshold: 0.5 }] }, { input: 'Wind?' }] },
  { input: 'Rain?' },
];

describe('multi-turn items on a function target', () => {
  it('calls the target once per turn on one thread, with the turns before it', async () => {
    const seen: Array<{ input: string; turn?: { index: number; threadId: string; history: readonly unknown[] } }> = [];
    const result = await runEvals({
      data: DATA,
      scorers: [count, { scorer: polite, threshold: 0.5 }],
      gates: [nonEmpty],
      target: (input: string, { turn }) => {
        seen.push({ input, turn });
        return reply(input);
      },
    });
    // 2 + 2 + 3 + 1 calls; each multi-turn item on its own thread, turns in order, history growing.
    expect(seen).toHaveLength(8);
    const threads = new Set(seen.filter((s) => s.turn).map((s) => s.turn!.threadId));
    expect(threads.size).toBe(3);
    expect(seen[1]!.turn).toEqual({ index: 1, threadId: seen[0]!.turn!.threadId, history: [{ input: 'Weather?', output: 'Sunny, thanks for asking.' }] });
    expect(seen[7]!.turn).toBeUndefined();
    // Scorers saw every reply of the item.
    expect(result.items[2]!.scores.count).toEqual({ score: 3 / 4, reason: null });
    expect(result.items[0]!.output).toEqual(['Sunny, thanks for asking.', 'No rain today.']);
    expect(result.turnResults).toEqual([
      { index: 0, gateResults: [{ id: 'non-empty', passed: true, score: 1 }] },
      { index: 1, thresholdResults: [{ id: 'polite', passed: true, averageScore: 0.5, threshold: 0.5 }], scores: { polite: 0.5 } },
      { index: 2 },
    ]);
    expect(result.verdict).toBe('passed');
  });

  it('gives the same aggregates as a Mastra Agent answering the same replies', async () => {
    const fromFunction = await runEvals({ data: DATA, scorers: [{ scorer: polite, threshold: 0.8 }], gates: [nonEmpty], target: reply });
    const agent = new Agent({ id: 'same', name: 'same', instructions: 'i', model: answeringModel((call) => reply(userText(call))) });
    const fromAgent = await runEvals({ data: DATA, scorers: [{ scorer: polite, threshold: 0.8 }], gates: [nonEmpty], target: agent });
    const aggregates = ({ items: _i, config: _c, ...rest }: Awaited<ReturnType<typeof runEvals>>) => rest;
    expect(aggregates(fromFunction)).toEqual(aggregates(fromAgent));
    expect(fromFunction.verdict).toBe('scored');
  });

  it('an object with generate() gets Mastra’s memory options: one thread per item, the given resource', async () => {
    const calls: Array<[string, any]> = [];
    const target = {
      generate: async (input: string, options?: any) => {
        calls.push([input, options]);
        return { text: reply(input) };
      },
    };
    await runEvals({ data: [{ inputs: ['Weather?', 'Rain?'] }], scorers: [polite], target, targetOptions: { memory: { resource: 'user-7' }, maxSteps: 2 } });
    expect(calls.map(([input]) => input)).toEqual(['Weather?', 'Rain?']);
    const [[, first], [, second]] = calls;
    expect(first.memory.resource).toBe('user-7');
    expect(first.maxSteps).toBe(2);
    expect(second.memory.thread).toBe(first.memory.thread);
  });

  it('refuses a Workflow’s scorer form, and a turn whose gate is not a scorer', async () => {
    await expect(runEvals({ data: [{ input: 'x' }], scorers: { workflow: [polite] }, target: reply })).rejects.toThrow(
      "runEvals: scorers { workflow } is a Workflow's form; it needs a Mastra Workflow target",
    );
    await expect(runEvals({ data: [{ turns: [{ input: 'x', gates: [{ id: 'nope' } as any] }] }], scorers: [], target: reply })).rejects.toThrow(
      'runEvals: data item 0, turn 0: gates[0] is not a scorer',
    );
  });

  it('the { agent, trajectory } form: a trajectory scorer judges what the function returned, beside expectedTrajectory', async () => {
    const calledTools = createScorer({ id: 'called-tools', description: 'd', type: 'trajectory' }).generateScore(({ run }) => {
      const expected = (run as any).expectedTrajectory as string[];
      return expected.every((tool) => (run.output as string[]).includes(tool)) ? 1 : 0;
    });
    const result = await runEvals({
      data: [{ input: 'a', expectedTrajectory: ['search'] }, { input: 'b', expectedTrajectory: ['search', 'email'] }],
      scorers: { agent: [nonEmpty], trajectory: [calledTools] },
      target: () => ['search'],
    });
    expect(result.scores).toEqual({ agent: { 'non-empty': 1 }, trajectory: { 'called-tools': 0.5 } });
    expect(result.items[1]!.trajectory).toEqual({ 'called-tools': { score: 0, reason: null } });
  });
});

describe('applySampling on a Mastra Agent', () => {
  it('a skipped scorer is not run, not averaged and not saved', async () => {
    let runs = 0;
    const sampled = createMastraScorer({ id: 'sampled', description: 'd' }).generateScore(() => (runs++, 1));
    const polite = createMastraScorer({ id: 'polite', description: 'd' }).generateScore(() => 1);
    const storage = storages.store();
    const agent = new Agent({ id: 'sampler', name: 'sampler', instructions: 'i', model: answeringModel(() => 'ok') });
    new Mastra({ agents: { agent }, scorers: { sampled, polite }, storage, logger: false });
    const data = Array.from({ length: 40 }, (_, i) => ({ input: `question ${i}` }));
    const handed = new Map<number, string[]>();
    const result = await runEvals({
      data,
      scorers: { sampled: { scorer: sampled, sampling: { type: 'ratio', rate: 0.5 } }, polite },
      target: agent,
      applySampling: true,
      onItemComplete: ({ scorerResults, index }) => void handed.set(index, Object.keys(scorerResults).sort()),
    });
    const skipped = result.summary.sampledOut?.sampled ?? 0;
    expect(skipped).toBeGreaterThan(5);
    expect(skipped).toBeLessThan(35);
    expect(runs).toBe(40 - skipped);
    expect(result.items.filter((item) => item.sampledOut?.includes('sampled'))).toHaveLength(skipped);
    expect(result.items.filter((item) => 'sampled' in item.scores)).toHaveLength(40 - skipped);
    for (const item of result.items) expect(handed.get(item.index)).toEqual(item.sampledOut ? ['polite'] : ['polite', 'sampled']);
    expect(await savedScores(storage, 'sampled')).toHaveLength(40 - skipped);
    expect(await savedScores(storage, 'polite')).toHaveLength(40);
    // The same items are skipped again: the decision follows each item's identity.
    const again = await runEvals({ data, scorers: { sampled: { scorer: sampled, sampling: { type: 'ratio', rate: 0.5 } } }, target: agent, applySampling: true });
    expect(again.items.map((item) => Boolean(item.sampledOut))).toEqual(result.items.map((item) => Boolean(item.sampledOut)));
  });
});

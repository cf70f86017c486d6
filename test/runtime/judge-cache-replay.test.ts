/**
 * Why a replay missed (`JudgeCacheMiss.nearest`), and `cached` on the scores of every scorer a cached
 * judge answered: this package's, Mastra's `createScorer` and `@mastra/evals`' prebuilt scorers, on a
 * real Mastra Agent (run by Mastra's own `runEvals` underneath) and on a function target.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { createAnswerRelevancyScorer as createMastraRelevancy, createToxicityScorer } from '@mastra/evals/scorers/prebuilt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachedJudge, createScorer, getAssistantMessageFromRunOutput, JudgeCacheMiss, runEvals } from '../../src/runtime/index.js';
import { judgeCacheKey } from '../../src/runtime/judge/judge-cache.js';
import { answeringModel, userText } from './helpers.js';

const STORES = Symbol.for('agent-scorers.judge-cache.stores');
/** A store lives per file per process: forget it, so the next run starts as a new process would. */
const newProcessState = () => (globalThis as any)[STORES].clear();

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'judge-cache-replay-'));
  file = path.join(dir, 'judge-cache.jsonl');
  newProcessState();
});
afterEach(async () => {
  delete process.env.AGENT_SCORERS_JUDGE_CACHE;
  await fs.rm(dir, { recursive: true, force: true });
});

/** Runs `fn` as CI does: AGENT_SCORERS_JUDGE_CACHE=replay, in a new process. */
async function inReplay<T>(fn: () => Promise<T>): Promise<T> {
  newProcessState();
  process.env.AGENT_SCORERS_JUDGE_CACHE = 'replay';
  try {
    return await fn();
  } finally {
    delete process.env.AGENT_SCORERS_JUDGE_CACHE;
  }
}

const calls = (model: { doGenerateCalls: unknown[]; doStreamCalls: unknown[] }) => model.doGenerateCalls.length + model.doStreamCalls.length;
const records = async () => (await fs.readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
const newAgent = () => new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model: answeringModel(() => 'Paris is the capital of France.') });

/**
 * The JudgeCacheMiss an error was caused by, however deep it was wrapped. Mastra's scorers pass a
 * failed judge call on as a plain copy of the error (its fields, not its class), so either counts.
 */
function missOf(error: unknown): JudgeCacheMiss {
  for (let e: any = error; e; e = e.cause) if (e instanceof JudgeCacheMiss || (e.name === 'JudgeCacheMiss' && 'key' in e)) return e;
  throw new Error(`not caused by a JudgeCacheMiss: ${String(error)}`);
}

/** A judge that answers the prompts of the scorers below by what they ask. */
function judgeModel() {
  return answeringModel((call) => {
    const ask = userText(call).trim();
    if (/standalone statements|^Given the text/.test(ask)) return JSON.stringify({ statements: ['Paris is the capital of France.'] });
    if (/^Evaluate each statement|Statements taken from/.test(ask)) return JSON.stringify({ results: [{ index: 1, result: 'yes', reason: 'It answers.' }] });
    if (ask.startsWith('Based on the given opinions')) return JSON.stringify({ verdicts: [{ verdict: 'no', reason: 'Neutral.' }] });
    if (ask.startsWith('Is this answer polite?')) return JSON.stringify({ polite: true });
    return 'The answer is fine.';
  });
}

describe('a replay miss says why: the nearest recorded request and where the prompts first differ', () => {
  it("names the message id of an Agent's output when a prompt quotes run.output whole", async () => {
    const judge = judgeModel();
    const ids: string[] = [];
    const polite = () =>
      createMastraScorer({ id: 'polite', description: 'd', judge: { model: cachedJudge(judge, { file }), instructions: 'You judge the tone of support answers.' } })
        .analyze({
          description: 'Judge the tone',
          outputSchema: z.object({ polite: z.boolean() }),
          createPrompt: ({ run }) => {
            ids.push(run.output[0].id);
            return `Is this answer polite? ${JSON.stringify(run.output)}`;
          },
        })
        .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
    const data = [{ input: 'What is the capital of France?' }];
    await runEvals({ data, target: newAgent(), scorers: [polite()] });
    const [record] = await records();
    expect(calls(judge)).toBe(1);

    const error = await inReplay(() => runEvals({ data, target: newAgent(), scorers: [polite()] })).catch((e) => e);
    const miss = missOf(error);
    expect(calls(judge)).toBe(1);
    expect(ids).toHaveLength(2);
    expect(ids[1]).not.toBe(ids[0]);
    const nearest = miss.nearest!;
    expect(nearest).toMatchObject({ key: record.key, preview: record.prompt, comparedBy: 'prompt', section: 'user' });
    // The first difference is the id: the recorded prompt up to `at` ends where the id starts.
    expect(record.fullPrompt.slice(0, nearest.at)).toMatch(/Is this answer polite\? \[\{"id":"[0-9a-f]*$/);
    expect(ids[0]!.startsWith(record.fullPrompt.slice(0, nearest.at).split('"id":"')[1]!)).toBe(true);
    expect(nearest.recorded).toBe(record.fullPrompt.slice(nearest.at - 24, nearest.at + 48));
    expect(nearest.recorded).toContain(ids[0]!.slice(0, 30));
    expect(nearest.requested).toContain(ids[1]!.slice(0, 30));
    expect(nearest.requested.slice(0, 24)).toBe(nearest.recorded.slice(0, 24));
    expect(nearest.requested[24]).not.toBe(nearest.recorded[24]);
    expect(miss.message).toContain(`The nearest recorded request is ${record.key.slice(0, 12)}: the prompts first differ at character ${nearest.at} (in the user message), recorded ${JSON.stringify(nearest.recorded)}, requested ${JSON.stringify(nearest.requested)}.`);
    expect(error.message).toContain('first differ at character');
  });

  it("this package's scorer: runEvals' error is caused by the JudgeCacheMiss itself", async () => {
    const judge = judgeModel();
    const polite = () =>
      createScorer({ id: 'ours', description: 'd', judge: { model: cachedJudge(judge, { file }), instructions: 'You judge the tone of support answers.' } })
        .analyze({
          description: 'Judge the tone',
          outputSchema: z.object({ polite: z.boolean() }),
          createPrompt: ({ run }) => `Is this answer polite? ${JSON.stringify(run.output)}`,
        })
        .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
    const data = [{ input: 'What is the capital of France?' }];
    await runEvals({ data, target: newAgent(), scorers: [polite()] });
    const error = await inReplay(() => runEvals({ data, target: newAgent(), scorers: [polite()] })).catch((e) => e);
    const miss = missOf(error);
    expect(miss).toBeInstanceOf(JudgeCacheMiss);
    expect(miss.nearest).toMatchObject({ section: 'user', comparedBy: 'prompt' });
    expect((await records())[0].fullPrompt.slice(0, miss.nearest!.at)).toMatch(/\[\{"id":"[0-9a-f-]*$/);
  });

  it('names the timestamp when only the time differs', async () => {
    const judge = judgeModel();
    const times: string[] = [];
    const stamped = () =>
      createMastraScorer({ id: 'stamped', description: 'd', judge: { model: cachedJudge(judge, { file }), instructions: 'You judge the tone of support answers.' } })
        .analyze({
          description: 'Judge the tone',
          outputSchema: z.object({ polite: z.boolean() }),
          createPrompt: ({ run }) => {
            times.push(new Date(run.output[0].createdAt).toISOString());
            return `Is this answer polite? ${getAssistantMessageFromRunOutput(run.output)} (written ${times.at(-1)})`;
          },
        })
        .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
    const data = [{ input: 'What is the capital of France?' }];
    await runEvals({ data, target: newAgent(), scorers: [stamped()] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const miss = missOf(await inReplay(() => runEvals({ data, target: newAgent(), scorers: [stamped()] })).catch((e) => e));
    const nearest = miss.nearest!;
    const [record] = await records();
    expect(times[1]).not.toBe(times[0]);
    expect(record.fullPrompt.slice(0, nearest.at)).toContain(`Paris is the capital of France. (written ${commonStart(times[0]!, times[1]!)}`);
    expect(nearest.recorded).toContain(times[0]!.slice(-8));
    expect(nearest.requested).toContain(times[1]!.slice(-8));
  });

  const ask = (model: any, system: string, user: string, settings: Record<string, unknown> = {}) =>
    model.doGenerate({ prompt: [{ role: 'system', content: system }, { role: 'user', content: [{ type: 'text', text: user }] }], ...settings });

  it("prefers a record of the same scorer step (same instructions), then the most text in common at both ends, then the smaller key", async () => {
    const model = judgeModel();
    const judge = cachedJudge(model, { file });
    const tail = ' and here is a long answer that both scorers quote word for word, so their prompts end alike.';
    await ask(judge, 'You judge tone.', `Item 1 id=aaaa${tail}`);
    await ask(judge, 'You judge tone.', `Item 2 id=bbbb, another question entirely.`);
    await ask(judge, 'You judge facts.', `Item 1 id=zzzz${tail}`);
    newProcessState();
    const replay = cachedJudge(model, { file, mode: 'replay' });
    const miss: JudgeCacheMiss = await ask(replay, 'You judge tone.', `Item 1 id=cccc${tail}`).catch((e: unknown) => e);
    const byPrompt = new Map((await records()).map((r) => [r.fullPrompt, r]));
    const tone1 = byPrompt.get(`[system]\nYou judge tone.\n\n[user]\nItem 1 id=aaaa${tail}`);
    // The facts record shares more text (the whole user message but the id), but is another scorer's.
    expect(miss.nearest).toMatchObject({ key: tone1.key, at: '[system]\nYou judge tone.\n\n[user]\nItem 1 id='.length, section: 'user' });
    expect(miss.nearest!.recorded).toBe(tone1.fullPrompt.slice(miss.nearest!.at - 24, miss.nearest!.at + 48));
    expect(miss.nearest!.requested).toBe(`[system]\nYou judge tone.\n\n[user]\nItem 1 id=cccc${tail}`.slice(miss.nearest!.at - 24, miss.nearest!.at + 48));

    // Instructions nobody recorded: every record of the model competes; the facts one shares the most.
    const other: JudgeCacheMiss = await ask(replay, 'You judge grammar.', `Item 1 id=dddd${tail}`).catch((e: unknown) => e);
    const facts = byPrompt.get(`[system]\nYou judge facts.\n\n[user]\nItem 1 id=zzzz${tail}`);
    expect(other.nearest!.key).toBe(facts.key);

    // Two records equally near: the smaller key.
    await fs.writeFile(file, '');
    newProcessState();
    const fresh = cachedJudge(model, { file });
    await ask(fresh, 'S', 'x1');
    await ask(fresh, 'S', 'x2');
    newProcessState();
    const tie: JudgeCacheMiss = await ask(cachedJudge(model, { file, mode: 'replay' }), 'S', 'x3').catch((e: unknown) => e);
    expect(tie.nearest!.key).toBe((await records()).map((r) => r.key).sort()[0]);
  });

  it('a difference in the call settings only is named as such', async () => {
    const model = judgeModel();
    await ask(cachedJudge(model, { file }), 'S', 'Is this answer polite? Yes.', { temperature: 0 });
    newProcessState();
    const miss: JudgeCacheMiss = await ask(cachedJudge(model, { file, mode: 'replay' }), 'S', 'Is this answer polite? Yes.', { temperature: 0.7 }).catch((e: unknown) => e);
    expect(miss.nearest).toMatchObject({ section: 'settings' });
    expect(miss.nearest!.recorded).toContain('temperature: 0');
    expect(miss.nearest!.requested).toContain('temperature: 0.7');
    expect(miss.message).toContain('(in the call settings)');
  });

  it('no record of the model: no nearest, and the message is as before', async () => {
    const model = judgeModel();
    await ask(cachedJudge(model, { file }), 'S', 'one');
    newProcessState();
    const other = answeringModel(() => 'x');
    Object.defineProperty(other, 'modelId', { value: 'another-model' });
    const miss: JudgeCacheMiss = await ask(cachedJudge(other, { file, mode: 'replay' }), 'S', 'one').catch((e: unknown) => e);
    expect(miss).toBeInstanceOf(JudgeCacheMiss);
    expect(miss.nearest).toBeUndefined();
    expect(miss.message).not.toContain('nearest');
  });

  it('a file written before records kept the whole prompt still loads and replays; a miss compares previews then', async () => {
    const model = judgeModel();
    const params = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Is this answer polite? Old.' }] }] };
    const key = judgeCacheKey({ provider: 'mock-provider', modelId: 'mock-model-id' }, params);
    const old = { key, provider: 'mock-provider', modelId: 'mock-model-id', prompt: 'Is this answer polite? Old.', text: '{"polite":true}', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } };
    await fs.writeFile(file, `${JSON.stringify(old)}\n`);
    const replay = cachedJudge(model, { file, mode: 'replay' });
    const replied = await replay.doGenerate(params);
    expect(replied.content).toEqual([{ type: 'text', text: '{"polite":true}' }]);
    expect(calls(model)).toBe(0);
    const miss: JudgeCacheMiss = await replay.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Is this answer polite? New.' }] }] }).catch((e: unknown) => e);
    expect(miss.nearest).toMatchObject({ key, comparedBy: 'preview', at: 'Is this answer polite? '.length, recorded: 'Is this answer polite? Old.', requested: 'Is this answer polite? New.' });
    expect(miss.message).toContain('kept only a preview');

    await fs.writeFile(file, `${JSON.stringify({ ...old, fullPrompt: 42 })}\n`);
    newProcessState();
    await expect(cachedJudge(model, { file }).doGenerate(params)).rejects.toThrow(`line 1 is not a whole judge cache record: "fullPrompt" must be a string, got 42`);
    expect(calls(model)).toBe(0);
  });
});

/** The longest common start of two strings. */
function commonStart(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

describe('cached: true on the scores of every scorer a cached judge answered', () => {
  const scorersOf = (judge: ReturnType<typeof cachedJudge>) => [
    createMastraScorer({ id: 'polite', description: 'd', judge: { model: judge, instructions: 'You judge the tone of support answers.' } })
      .analyze({
        description: 'Judge the tone',
        outputSchema: z.object({ polite: z.boolean() }),
        createPrompt: ({ run }) => `Is this answer polite? ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
      })
      .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0)),
    createMastraRelevancy({ model: judge }),
    createToxicityScorer({ model: judge }),
    createScorer({ id: 'ours', description: 'd', judge: { model: judge, instructions: 'You judge the tone of support answers.' } })
      .analyze({
        description: 'Judge the tone',
        outputSchema: z.object({ polite: z.boolean() }),
        createPrompt: ({ run }) => `Is this answer polite? ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
      })
      .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0)),
  ];
  const IDS = ['polite', 'answer-relevancy-scorer', 'toxicity-scorer', 'ours'];
  const data = [{ input: 'What is the capital of France?' }, { input: 'Which city is the capital of France?' }];
  const cachedFlags = (result: any) => result.items.map((item: any) => IDS.map((id) => item.scores[id]?.cached));

  it.each([
    ['a Mastra Agent (run by Mastra\'s runEvals)', newAgent],
    ['a function target', () => async () => 'Paris is the capital of France.'],
  ])('on %s: false when recorded, true when replayed with zero calls, absent without a cache', async (_name, target) => {
    const model = judgeModel();
    const first = await runEvals({ data, target: target() as any, scorers: scorersOf(cachedJudge(model, { file })), concurrency: 2 });
    expect(first.items.map((item: any) => Object.keys(item.scores).sort())).toEqual([[...IDS].sort(), [...IDS].sort()]);
    // The first item paid for every reply. The second gives the same answer to another question: the
    // prompts that quote only the answer replay, relevancy's verdicts and toxicity's analysis quote the question too.
    expect(cachedFlags(first)[0]).toEqual([false, false, false, false]);
    expect(cachedFlags(first)[1]).toEqual([true, false, false, true]);
    const paid = calls(model);

    const second = await inReplay(() => runEvals({ data, target: target() as any, scorers: scorersOf(cachedJudge(model, { file })), concurrency: 2 }));
    expect(calls(model)).toBe(paid);
    expect(cachedFlags(second)).toEqual([[true, true, true, true], [true, true, true, true]]);
    expect(second.items.map((item: any) => IDS.map((id) => item.scores[id].score))).toEqual(first.items.map((item: any) => IDS.map((id) => item.scores[id].score)));

    // record mode asks again: live.
    newProcessState();
    process.env.AGENT_SCORERS_JUDGE_CACHE = 'record';
    const recorded = await runEvals({ data: data.slice(0, 1), target: target() as any, scorers: scorersOf(cachedJudge(model, { file })) });
    delete process.env.AGENT_SCORERS_JUDGE_CACHE;
    expect(cachedFlags(recorded)).toEqual([[false, false, false, false]]);

    // A judge with no cache: nothing to say.
    const plain = await runEvals({ data: data.slice(0, 1), target: target() as any, scorers: scorersOf(judgeModel() as any) });
    expect(cachedFlags(plain)).toEqual([[undefined, undefined, undefined, undefined]]);
  });
});

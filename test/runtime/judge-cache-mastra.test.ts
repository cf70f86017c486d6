import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createScorer } from '@mastra/core/evals';
import { createAnswerRelevancyScorer } from '@mastra/evals/scorers/prebuilt';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachedJudge } from '../../src/runtime/index.js';
import { usage, userText } from './helpers.js';

const STORES = Symbol.for('agent-scorers.judge-cache.stores');
/** A store lives per file per process: forget it, so the second run starts as a new process would. */
const newProcessState = () => (globalThis as any)[STORES].clear();

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'judge-cache-mastra-'));
  newProcessState();
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

/** A mock judge answering each of the prompts below by what it asks for. Mastra streams, so `doStream` must never be reached: cachedJudge answers streams through `doGenerate`. */
function judgeModel() {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      const ask = userText(call).trim();
      const text = ask.startsWith('Given the text')
        ? JSON.stringify({ statements: ['Paris is the capital of France.', 'It has many museums.'] })
        : ask.startsWith('Evaluate each statement')
          ? JSON.stringify({ results: [{ result: 'yes', reason: 'It answers.' }, { result: 'unsure', reason: 'Related.' }] })
          : ask.startsWith('Explain the relevancy score')
            ? 'The answer names the capital, and adds a related fact.'
            : ask.startsWith('Label')
              ? JSON.stringify({ label: ask.includes('Paris') ? 'correct' : 'wrong' })
              : ask.startsWith('Why')
                ? `Because it is ${ask.includes('1') ? 'right' : 'wrong'}.`
                : `unexpected prompt: ${ask.slice(0, 60)}`;
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(12, 7), warnings: [] };
    },
  });
}

const RUN = {
  input: { inputMessages: [{ role: 'user', content: 'What is the capital of France?' }] },
  output: [{ role: 'assistant', content: 'Paris is the capital of France. It has many museums.' }],
};

async function twoRuns(makeScorer: (judge: ReturnType<typeof cachedJudge>) => { run(input: any): Promise<any> }) {
  const file = path.join(dir, 'judge-cache.jsonl');
  const model = judgeModel();
  const first = await makeScorer(cachedJudge(model, { file })).run(RUN);
  const paid = model.doGenerateCalls.length;
  const records = (await fs.readFile(file, 'utf8')).trim().split('\n');
  newProcessState();
  const second = await makeScorer(cachedJudge(model, { file })).run(RUN);
  return { first, second, paid, replayCalls: model.doGenerateCalls.length - paid, records, streamCalls: model.doStreamCalls.length, model };
}

describe("cachedJudge as the judge of Mastra's own scorers", () => {
  it("@mastra/evals' prebuilt answer relevancy scorer: a second identical run makes zero model calls and gives the same score", async () => {
    const { first, second, paid, replayCalls, records, streamCalls, model } = await twoRuns((judge) => createAnswerRelevancyScorer({ model: judge }));
    expect(paid).toBe(3); // statements, verdicts, reason
    expect(records).toHaveLength(3);
    // Each record's preview is its own prompt, not the output-format instructions Mastra appends to each.
    expect(records.map((line) => JSON.parse(line).prompt.slice(0, 24)).sort()).toEqual(['Evaluate each statement\'', 'Explain the relevancy sc', 'Given the text, break it']);
    // Mastra stamps each prompt part with the time; the key leaves that out, so the second run matches.
    expect(model.doGenerateCalls[0].prompt.at(-1)!.content[0]).toMatchObject({ providerOptions: { mastra: { createdAt: expect.any(Number) } } });
    expect(replayCalls).toBe(0);
    expect(streamCalls).toBe(0);
    expect(first.score).toBe(0.65); // (1 yes + 0.3 x 1 unsure) / 2 statements, rounded by Mastra
    expect(second.score).toBe(first.score);
    expect(second.reason).toBe(first.reason);
    expect(second.analyzeStepResult).toEqual(first.analyzeStepResult);
  });

  it("@mastra/core's createScorer with a judge, a structured analyze step and a reason: the second run makes zero model calls", async () => {
    const { first, second, paid, replayCalls } = await twoRuns((judge) =>
      createScorer({ id: 'capital', description: 'names the capital', judge: { model: judge, instructions: 'You check answers.' } })
        .analyze({
          description: 'label the answer',
          outputSchema: z.object({ label: z.enum(['correct', 'wrong']) }),
          createPrompt: ({ run }) => `Label this answer: ${JSON.stringify(run.output)}`,
        })
        .generateScore(({ results }) => (results.analyzeStepResult.label === 'correct' ? 1 : 0))
        .generateReason({ description: 'why', createPrompt: ({ score }) => `Why is the score ${score}?` }),
    );
    expect(paid).toBe(2);
    expect(replayCalls).toBe(0);
    expect(first.score).toBe(1);
    expect(first.reason).toBe('Because it is right.');
    expect(second.score).toBe(first.score);
    expect(second.reason).toBe(first.reason);
  });

  it('in replay mode (as in CI) the recorded run needs no model at all', async () => {
    const file = path.join(dir, 'judge-cache.jsonl');
    await createAnswerRelevancyScorer({ model: cachedJudge(judgeModel(), { file }) }).run(RUN);
    newProcessState();
    const unused = judgeModel();
    const replayed = await createAnswerRelevancyScorer({ model: cachedJudge(unused, { file, mode: 'replay' }) }).run(RUN);
    expect(unused.doGenerateCalls).toHaveLength(0);
    expect(replayed.score).toBe(0.65);
  });
});

/**
 * Interop at run time: an agent's registry record (built by `mergeScorers`, the registry's own merge)
 * holding this package's scorers and Mastra's, run unchanged by `@mastra/core`'s `runEvals` and by
 * `@mastra/evals/vitest` (`expectEvals(...).toPass()`, its matchers), and this package's `runEvals`
 * result read by those same matchers. A `cachedJudge` behind this package's relevancy scorer replays
 * inside Mastra's `runEvals`: the second run makes no judge call.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer, runEvals as mastraRunEvals } from '@mastra/core/evals';
import { EvalPassRateError, expectEvals, registerEvalMatchers } from '@mastra/evals/vitest';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedJudge, createAnswerRelevancyScorer, createScorer, mergeScorers, runEvals } from '../../src/runtime/index.js';
import { statements, usage, userText, verdicts } from './helpers.js';

registerEvalMatchers();

const ANSWER = 'Paris is the capital of France.';
const QUESTION = 'What is the capital of France?';

function agentModel() {
  return new MockLanguageModelV3({
    doGenerate: async () => ({ content: [{ type: 'text', text: ANSWER }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(), warnings: [] }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: ANSWER },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage() },
        ] as any[],
      }),
    }),
  });
}

/** The relevancy judge: statements, verdicts, reason, for any number of runs; records every call. */
function relevancyJudge() {
  const replies = [statements(ANSWER), verdicts(['yes', 'answers it']), 'The score is 1 because the answer names the capital.'];
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: replies[call++ % replies.length] }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(),
      warnings: [],
    }),
  });
}

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-evals-interop-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** What `virtual:agent-scorers` holds for an agent with three scorer files, one of them Mastra's. */
function registryRecord(judge: unknown) {
  const mentionsParis = createScorer({ id: 'mentions-paris', description: 'd', type: 'agent' }).generateScore(({ run }) =>
    JSON.stringify(run.output).includes('Paris') ? 1 : 0,
  );
  const brevity = createMastraScorer({ id: 'brevity', description: 'd', type: 'agent' }).generateScore(({ run }) =>
    JSON.stringify(run.output).length < 2000 ? 1 : 0,
  );
  return mergeScorers(
    'geo',
    {
      'mentions-paris': mentionsParis,
      brevity: { scorer: brevity, sampling: { type: 'ratio', rate: 0.5 } },
      relevancy: createAnswerRelevancyScorer({ model: judge as any }),
    },
    undefined,
  ) as Record<string, { scorer: any }>;
}

const newAgent = () => new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model: agentModel() });

describe('the registry’s scorers in Mastra’s eval tooling', () => {
  it('Mastra’s runEvals runs them as gates and with thresholds, unchanged', async () => {
    const judge = relevancyJudge();
    const record = registryRecord(judge);
    const result = await mastraRunEvals({
      data: [{ input: QUESTION }],
      target: newAgent(),
      gates: [record['mentions-paris'].scorer, record.brevity.scorer],
      scorers: [{ scorer: record.relevancy.scorer, threshold: 0.8 }],
    });
    expect(result.verdict).toBe('passed');
    expect(result.gateResults).toEqual([
      { id: 'mentions-paris', passed: true, score: 1 },
      { id: 'brevity', passed: true, score: 1 },
    ]);
    expect(result.thresholdResults).toEqual([{ id: 'answer-relevancy-scorer', passed: true, averageScore: 1, threshold: 0.8 }]);
    expect(judge.doGenerateCalls).toHaveLength(3);
    expect(userText(judge.doGenerateCalls[1])).toContain(QUESTION);
  });

  it('expectEvals(...).toPass() passes them, and fails a gate that is missed', async () => {
    const record = registryRecord(relevancyJudge());
    const passed = await expectEvals({
      data: [{ input: QUESTION }],
      target: newAgent(),
      gates: [record['mentions-paris'].scorer],
      scorers: [{ scorer: record.relevancy.scorer, threshold: 0.5 }, record.brevity.scorer],
    }).toPass();
    expect(passed).toHaveVerdict('passed');
    expect(passed).toPassGates();
    expect(passed).toHaveScoreAbove('answer-relevancy-scorer', 0.9);

    const neverShort = createScorer({ id: 'never-short', description: 'd', type: 'agent' }).generateScore(() => 0);
    const error = await expectEvals({ data: [{ input: QUESTION }], target: newAgent(), gates: [neverShort as any] })
      .toPass()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvalPassRateError);
    expect((error as Error).message).toContain('gate never-short: pass rate');
  });

  it('a function target: this package’s runEvals takes it; Mastra’s runEvals and expectEvals do not (the docs say which)', async () => {
    const record = registryRecord(relevancyJudge());
    const target = (input: string) => (input === QUESTION ? ANSWER : '');
    const ours = await runEvals({ data: [{ input: QUESTION }], target, scorers: [record['mentions-paris'].scorer] });
    expect(ours.scores).toEqual({ 'mentions-paris': 1 });
    // Mastra's type says Agent | Workflow; a user without types (or with a cast) meets this at run time.
    const theirs = await mastraRunEvals({ data: [{ input: QUESTION }], target: target as any, scorers: [record['mentions-paris'].scorer] }).catch((e: unknown) => e);
    expect(String(theirs)).toContain('getModel is not a function');
    const helper = await expectEvals({ data: [{ input: QUESTION }], target: target as any, gates: [record['mentions-paris'].scorer] }).toPass().catch((e: unknown) => e);
    expect(String(helper)).toContain('getModel is not a function');
  });

  it('Mastra’s matchers read this package’s runEvals result as they read Mastra’s', async () => {
    const record = registryRecord(relevancyJudge());
    const result = await runEvals({
      data: [{ input: QUESTION }],
      target: newAgent(),
      scorers: record,
      thresholds: { relevancy: 0.9, brevity: { max: 0.5 } },
      gates: [record['mentions-paris'].scorer],
    });
    expect(result).toHaveVerdict('scored');
    expect(result).toPassGates();
    expect(result).not.toPassThresholds();
    expect(result).toHaveScoreAbove('answer-relevancy-scorer', 0.9);
  });

  it('cachedJudge behind this package’s relevancy scorer replays in Mastra’s runEvals: no judge call the second time', async () => {
    const file = path.join(dir, 'mastra-run.jsonl');
    const live = relevancyJudge();
    const run = (judge: unknown) =>
      mastraRunEvals({
        data: [{ input: QUESTION }],
        target: newAgent(),
        scorers: [{ scorer: registryRecord(judge).relevancy.scorer, threshold: 0.5 }],
      });
    const first = await run(cachedJudge(live, { file }));
    expect(live.doGenerateCalls).toHaveLength(3);
    const replayed = await run(cachedJudge(live, { file, mode: 'replay' }));
    expect(live.doGenerateCalls).toHaveLength(3);
    expect(replayed).toEqual(first);
    expect(replayed.verdict).toBe('passed');
  });
});

import { describe, expect, it } from 'vitest';
import { createAnswerRelevancyScorer, createScorer, offlineJudge } from '../../src/runtime/index.js';

const scorer = createAnswerRelevancyScorer({ model: offlineJudge() });

describe('offlineJudge', () => {
  it('scores an obviously relevant answer high', async () => {
    const result = await scorer.run({
      input: 'What is the capital of France?',
      output: 'The capital of France is Paris. Paris has been the capital of France since the 10th century.',
    });
    expect(result.score).toBeGreaterThanOrEqual(0.8);
  });

  it('scores a weather answer to a weather question high, with answer-type cues', async () => {
    const result = await scorer.run({
      input: [{ role: 'user', content: 'What is the weather like in Berlin today?' }],
      output: [{ role: 'assistant', content: 'Berlin is sunny today. Expect 22°C and a light wind.' }],
    });
    expect(result.score).toBeGreaterThanOrEqual(0.7);
  });

  it('scores an unrelated answer low', async () => {
    const result = await scorer.run({
      input: 'What is the capital of France?',
      output: 'Bananas are rich in potassium. Cats sleep sixteen hours a day.',
    });
    expect(result.score).toBeLessThanOrEqual(0.2);
  });

  it('says its results are heuristic, and is deterministic', async () => {
    const run = { input: 'How many legs does a spider have?', output: 'A spider has eight legs. Spiders are arachnids.' };
    const first = await scorer.run(run);
    const second = await scorer.run(run);
    expect(first.reason).toMatch(/heuristic/);
    for (const verdict of first.analyzeStepResult.results) expect(verdict.reason).toMatch(/^\[offline heuristic\]/);
    expect(second.score).toBe(first.score);
    expect(second.analyzeStepResult).toEqual(first.analyzeStepResult);
    expect(first.judge?.preprocess?.executions[0].judgeModelId).toBe('offline-heuristic-judge');
  });

  it('acts as a generic judge with schema-shaped placeholders for other prompt steps', async () => {
    const generic = createScorer({ id: 'generic', description: 'd', judge: { model: offlineJudge(), instructions: 'i' } })
      .analyze({
        description: 'a',
        outputSchema: { type: 'object', properties: { label: { type: 'string' }, ok: { type: 'boolean' } }, required: ['label', 'ok'] },
        createPrompt: () => 'classify',
      })
      .generateScore({ description: 's', createPrompt: () => 'score' })
      .generateReason({ description: 'r', createPrompt: () => 'why' });
    const result = await generic.run({ output: 'x' });
    expect(result.analyzeStepResult).toEqual({ label: expect.stringMatching(/heuristic/), ok: false });
    expect(result.score).toBe(0);
    expect(result.reason).toMatch(/No language model was used/);
  });
});

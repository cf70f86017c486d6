import { MockLanguageModelV3 } from 'ai/test';
import { createAnswerRelevancyScorer, createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A mock judge answering successive calls with these texts, in order. */
function mockJudge(...replies: string[]) {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: replies[next++] ?? 'unexpected call' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

const userText = (call: { prompt: any[] }) =>
  call.prompt.filter((m) => m.role === 'user').flatMap((m) => m.content.map((part: any) => part.text)).join('');

describe('answer relevancy against a mock judge', () => {
  it('makes three calls: statements, verdicts, reason', async () => {
    const model = mockJudge(
      JSON.stringify({ statements: ['Paris is the capital of France.', 'Bananas are yellow.'] }),
      JSON.stringify({
        results: [
          { index: 1, result: 'yes', reason: 'It answers the question.' },
          { index: 2, result: 'no', reason: 'It is unrelated.' },
        ],
      }),
      'The score is 0.5 because one of the two statements answers the question.',
    );
    const scorer = createAnswerRelevancyScorer({ model });

    const result = await scorer.run({
      input: 'What is the capital of France?',
      output: 'Paris is the capital of France. Bananas are yellow.',
    });

    expect(result.score).toBe(0.5); // (1 yes + 0.3 × 0 unsure) / 2 statements
    expect(result.reason).toBe('The score is 0.5 because one of the two statements answers the question.');
    expect(result.analyzeStepResult.results.map((r: { result: string }) => r.result)).toEqual(['yes', 'no']);
    expect(model.doGenerateCalls).toHaveLength(3);
    const [split, verdicts, reason] = model.doGenerateCalls;
    expect(split.responseFormat).toMatchObject({ type: 'json' });
    expect(verdicts.responseFormat).toMatchObject({ type: 'json' });
    expect(reason.responseFormat).toBeUndefined(); // plain text
    expect(userText(verdicts)).toContain('1. Paris is the capital of France.');
    for (const call of model.doGenerateCalls) expect(call.temperature).toBe(0);
  });

  it('makes no call for an empty answer', async () => {
    const model = mockJudge();
    const result = await createAnswerRelevancyScorer({ model }).run({ input: 'Hi?', output: '' });
    expect(result.score).toBe(0);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('a scorer of your own, with prompt steps', () => {
  const scorer = (model: MockLanguageModelV3) =>
    createScorer({
      id: 'politeness',
      description: 'Is the answer polite?',
      judge: { model, instructions: 'You rate the tone of customer-support answers.' },
    })
      .analyze({
        description: 'Find impolite phrases',
        outputSchema: z.object({ impolite: z.array(z.string()) }),
        createPrompt: ({ run }) => `List the impolite phrases in: ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
      })
      .generateScore({
        description: 'Score the tone',
        createPrompt: ({ results }) => `Impolite phrases: ${JSON.stringify(results.analyzeStepResult.impolite)}. Score politeness from 0 to 1.`,
      })
      .generateReason({
        description: 'Explain',
        createPrompt: ({ score }) => `Explain a politeness score of ${score} in one sentence.`,
      });

  it('sends one call per prompt step: JSON for analyze, {"score"} for generateScore, text for generateReason', async () => {
    const model = mockJudge('{"impolite": ["whatever"]}', '{"score": 0.4}', 'One dismissive word.');
    const result = await scorer(model).run({ input: 'Where is my order?', output: 'Whatever, it ships soon.' });
    expect(result.analyzeStepResult).toEqual({ impolite: ['whatever'] });
    expect(result.score).toBe(0.4);
    expect(result.reason).toBe('One dismissive word.');
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(model.doGenerateCalls[0].prompt[0]).toEqual({ role: 'system', content: 'You rate the tone of customer-support answers.' });
  });

  it('reads a fenced reply, and asks once more when a reply is not usable JSON', async () => {
    const model = mockJudge('```json\n{"impolite": []}\n```', 'I would say it is fine.', '{"score": 1}', 'Polite throughout.');
    const result = await scorer(model).run({ input: 'Where is my order?', output: 'It ships tomorrow. Thank you!' });
    expect(result.score).toBe(1);
    expect(model.doGenerateCalls).toHaveLength(4); // generateScore was asked twice
    expect(userText(model.doGenerateCalls[2])).toContain('Your previous reply could not be used');
  });
});

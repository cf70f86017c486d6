import { describe, expect, it } from 'vitest';
import { createAnswerRelevancyScorer, ScorerRunError } from '../../src/runtime/index.js';
import { scriptedModel, statements, systemText, userText, verdicts } from './helpers.js';

const QUESTION = 'What is the capital of France?';
const ANSWER = 'Paris is the capital of France. It has many museums. Bananas are yellow.';
const run = (output: unknown = ANSWER, input: unknown = QUESTION) => ({ input, output });

describe('createAnswerRelevancyScorer: calls, prompts, response format', () => {
  it('makes 3 judge calls for a normal answer, at temperature 0, with JSON response formats for the first two', async () => {
    const model = scriptedModel([
      statements('Paris is the capital of France.', 'It has many museums.', 'Bananas are yellow.'),
      verdicts(['yes', 'answers it'], ['unsure', 'related'], ['no', 'unrelated']),
      'The score is 0.43 because one statement answers the question.',
    ]);
    const scorer = createAnswerRelevancyScorer({ model });
    const result = await scorer.run(run());

    expect(model.doGenerateCalls).toHaveLength(3);
    const [split, judge, explain] = model.doGenerateCalls;
    for (const call of model.doGenerateCalls) {
      expect(call.temperature).toBe(0);
      expect(systemText(call)).toMatch(/relevant/);
    }
    // 1: statements from the answer, structured output with a `statements` array
    expect(userText(split)).toContain(ANSWER);
    expect(split.responseFormat?.type).toBe('json');
    expect((split.responseFormat as any).schema.properties.statements.type).toBe('array');
    // 2: each statement against the question, numbered, structured `results`
    expect(userText(judge)).toContain(QUESTION);
    expect(userText(judge)).toContain('1. Paris is the capital of France.');
    expect(userText(judge)).toContain('3. Bananas are yellow.');
    expect(userText(judge)).toContain('exactly 3 verdicts');
    expect(judge.responseFormat?.type).toBe('json');
    expect((judge.responseFormat as any).schema.properties.results.type).toBe('array');
    // 3: the explanation is plain text and is given the computed score
    expect(explain.responseFormat?.type ?? 'text').toBe('text');
    expect(userText(explain)).toContain('0.43');
    expect(userText(explain)).toContain(QUESTION);

    expect(result.score).toBe(0.43);
    expect(result.reason).toBe('The score is 0.43 because one statement answers the question.');
    expect(result.preprocessStepResult).toEqual({
      statements: ['Paris is the capital of France.', 'It has many museums.', 'Bananas are yellow.'],
    });
    expect(result.analyzeStepResult).toEqual({
      results: [
        { result: 'yes', reason: 'answers it' },
        { result: 'unsure', reason: 'related' },
        { result: 'no', reason: 'unrelated' },
      ],
    });
    expect(result.preprocessPrompt).toBe(userText(split));
    expect(result.analyzePrompt).toBe(userText(judge));
    expect(result.generateReasonPrompt).toBe(userText(explain));
    expect(result.generateScorePrompt).toBeUndefined();
    expect(result.runId).toEqual(expect.any(String));
    expect(result.input).toBe(QUESTION);
    expect(result.output).toBe(ANSWER);
  });

  it('reports each step’s usage and model calls', async () => {
    const model = scriptedModel([statements('a'), verdicts(['yes']), 'The score is 1 because.']);
    const result = await createAnswerRelevancyScorer({ model }).run(run('a'));
    expect(result.usage).toEqual({
      preprocess: { inputTokens: 10, outputTokens: 5, totalTokens: 15, modelCalls: 1, cachedCalls: 0 },
      analyze: { inputTokens: 10, outputTokens: 5, totalTokens: 15, modelCalls: 1, cachedCalls: 0 },
      generateReason: { inputTokens: 10, outputTokens: 5, totalTokens: 15, modelCalls: 1, cachedCalls: 0 },
      total: { inputTokens: 30, outputTokens: 15, totalTokens: 45, modelCalls: 3, cachedCalls: 0 },
    });
    expect(result.judge?.analyze?.executions[0]).toMatchObject({
      status: 'success',
      judgeModelId: 'mock-model-id',
      modelCallCount: 1,
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
  });

  it('makes 2 calls with reason: false (no explaining call, no reason)', async () => {
    const model = scriptedModel([statements('a', 'b'), verdicts(['yes'], ['no'])]);
    const scorer = createAnswerRelevancyScorer({ model, options: { reason: false } });
    const result = await scorer.run(run('a. b.'));
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.score).toBe(0.5);
    expect(result.reason).toBeUndefined();
    expect(result.generateReasonPrompt).toBeUndefined();
    expect(scorer.getSteps().map((s) => s.name)).toEqual(['preprocess', 'analyze', 'generateScore']);
  });

  it.each([
    ['an empty string', ''],
    ['whitespace', '  \n\t '],
    ['an assistant message with empty content', [{ role: 'assistant', content: '' }]],
    ['an assistant message with whitespace parts', [{ role: 'assistant', content: [{ type: 'text', text: '   ' }] }]],
  ])('scores %s as 0 without any model call', async (_label, output) => {
    const model = scriptedModel([]);
    const result = await createAnswerRelevancyScorer({ model }).run(run(output));
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(result.score).toBe(0);
    expect(result.preprocessStepResult).toEqual({ statements: [] });
    expect(result.analyzeStepResult).toEqual({ results: [] });
    expect(result.reason).toMatch(/empty/);
  });

  it('passes model settings through and lets them override temperature', async () => {
    const model = scriptedModel([statements('a'), verdicts(['yes']), 'ok']);
    await createAnswerRelevancyScorer({ model, modelSettings: { temperature: 0.5, maxOutputTokens: 123, seed: 7 } }).run(run('a'));
    for (const call of model.doGenerateCalls) {
      expect(call.temperature).toBe(0.5);
      expect(call.maxOutputTokens).toBe(123);
      expect(call.seed).toBe(7);
    }
  });

  it('reads Mastra agent-shaped input and output (first user message, last assistant message)', async () => {
    const model = scriptedModel([statements('Paris.'), verdicts(['yes']), 'ok']);
    const mastraMessage = (role: string, text: string) => ({
      id: `${role}-${text.length}`,
      role,
      createdAt: new Date(0),
      content: { format: 2, parts: [{ type: 'text', text }], content: text },
    });
    const result = await createAnswerRelevancyScorer({ model }).run({
      input: {
        inputMessages: [mastraMessage('user', QUESTION), mastraMessage('user', 'second question')],
        rememberedMessages: [],
        systemMessages: [],
        taggedSystemMessages: {},
      },
      output: [mastraMessage('assistant', 'old draft'), mastraMessage('assistant', 'Paris.')],
    });
    expect(userText(model.doGenerateCalls[0])).toContain('Paris.');
    expect(userText(model.doGenerateCalls[0])).not.toContain('old draft');
    expect(userText(model.doGenerateCalls[1])).toContain(QUESTION);
    expect(userText(model.doGenerateCalls[1])).not.toContain('second question');
    expect(result.score).toBe(1);
  });
});

describe('createAnswerRelevancyScorer: formula and options', () => {
  const scoreWith = async (replies: string[], config: Record<string, unknown> = {}) => {
    const model = scriptedModel([...replies]);
    const result = await createAnswerRelevancyScorer({ model, reason: false, ...config } as any).run(run('x'));
    return result.score;
  };
  const three = statements('s1', 's2', 's3');
  const mixed = verdicts(['yes'], ['unsure'], ['no']);

  it('all yes scores 1', async () => {
    expect(await scoreWith([three, verdicts(['yes'], ['yes'], ['yes'])])).toBe(1);
  });
  it('yes / unsure / no scores 0.43', async () => {
    expect(await scoreWith([three, mixed])).toBe(0.43);
  });
  it('scale 10 multiplies', async () => {
    expect(await scoreWith([three, mixed], { options: { scale: 10 } })).toBe(4.33);
  });
  it('all no scores 0', async () => {
    expect(await scoreWith([three, verdicts(['no'], ['no'], ['no'])])).toBe(0);
  });
  it('uncertaintyWeight is read at top level', async () => {
    expect(await scoreWith([three, mixed], { uncertaintyWeight: 0.5 })).toBe(0.5);
  });
  it('uncertaintyWeight is read in options, and options win over top level', async () => {
    expect(await scoreWith([three, mixed], { options: { uncertaintyWeight: 0 } })).toBe(0.33);
    expect(await scoreWith([three, mixed], { uncertaintyWeight: 1, options: { uncertaintyWeight: 0 } })).toBe(0.33);
  });
  it('partial options keep the other defaults (no NaN)', async () => {
    const score = await scoreWith([three, mixed], { options: { scale: 10 } });
    expect(Number.isNaN(score)).toBe(false);
    expect(score).toBe(4.33);
    expect(await scoreWith([three, mixed], { options: { uncertaintyWeight: 1 } })).toBe(0.67);
    expect(await scoreWith([three, mixed], { options: { scale: undefined } })).toBe(0.43);
  });
  it.each([
    [{ uncertaintyWeight: 1.5 }, /uncertaintyWeight/],
    [{ uncertaintyWeight: -0.1 }, /uncertaintyWeight/],
    [{ uncertaintyWeight: Number.NaN }, /uncertaintyWeight/],
    [{ uncertaintyWeight: '0.3' }, /uncertaintyWeight/],
    [{ scale: 0 }, /scale/],
    [{ scale: -1 }, /scale/],
    [{ scale: Number.POSITIVE_INFINITY }, /scale/],
    [{ reason: 'no' }, /reason/],
    [{ maxStatementsPerCall: 0 }, /maxStatementsPerCall/],
    [{ uncertaintyWieght: 0.2 }, /unknown option "options.uncertaintyWieght"/],
  ])('rejects options %j', (options, message) => {
    expect(() => createAnswerRelevancyScorer({ model: scriptedModel([]), options: options as any })).toThrow(message);
  });
  it('rejects out-of-range top-level numbers and unknown top-level keys', () => {
    expect(() => createAnswerRelevancyScorer({ model: scriptedModel([]), scale: -2 })).toThrow(/scale/);
    expect(() => createAnswerRelevancyScorer({ model: scriptedModel([]), temperature: 1 } as any)).toThrow(/unknown option "temperature"/);
    expect(() => createAnswerRelevancyScorer({} as any)).toThrow(/model/);
  });

  it('normalises verdict strings once: trimmed and lower-cased; anything else is no', async () => {
    const model = scriptedModel([
      statements('a', 'b', 'c', 'd', 'e'),
      verdicts([' YES '], ['\tUnsure\n'], ['maybe'], ['Yes.'], ['']),
    ]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('x'));
    expect(result.analyzeStepResult.results.map((r: any) => r.result)).toEqual(['yes', 'unsure', 'no', 'no', 'no']);
    expect(result.score).toBe(round2((1 + 0.3) / 5));
  });
});

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

describe('createAnswerRelevancyScorer: verdict count repair', () => {
  it('fewer numbered verdicts than statements: asks again for the missing ones only', async () => {
    const model = scriptedModel([
      statements('alpha', 'beta', 'gamma'),
      verdicts({ index: 1, result: 'yes' }, { index: 2, result: 'no' }),
      verdicts({ index: 1, result: 'yes', reason: 'late' }),
    ]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('x'));
    expect(model.doGenerateCalls).toHaveLength(3);
    const reask = userText(model.doGenerateCalls[2]);
    expect(reask).toContain('1. gamma');
    expect(reask).not.toContain('alpha');
    expect(reask).toContain('exactly 1 verdict');
    expect(result.analyzeStepResult.results.map((r: any) => r.result)).toEqual(['yes', 'no', 'yes']);
    expect(result.score).toBe(0.67);
    expect(result.usage?.analyze?.modelCalls).toBe(2);
  });

  it('fewer unnumbered verdicts: re-asks for all statements rather than guessing which is missing', async () => {
    const model = scriptedModel([statements('alpha', 'beta'), verdicts(['yes']), verdicts(['no'], ['no'])]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('x'));
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(userText(model.doGenerateCalls[2])).toContain('1. alpha');
    expect(userText(model.doGenerateCalls[2])).toContain('2. beta');
    expect(result.score).toBe(0);
  });

  it('more numbered verdicts than statements: extra and duplicate numbers are dropped, no re-ask', async () => {
    const model = scriptedModel([
      statements('alpha', 'beta'),
      verdicts(
        { index: 1, result: 'yes' },
        { index: 1, result: 'no' },
        { index: 2, result: 'no' },
        { index: 3, result: 'yes' },
      ),
    ]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('x'));
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.analyzeStepResult.results.map((r: any) => r.result)).toEqual(['yes', 'no']);
    expect(result.score).toBe(0.5);
  });

  it('more unnumbered verdicts: re-asks; still wrong is a clear error naming the step', async () => {
    const model = scriptedModel([
      statements('alpha', 'beta'),
      verdicts(['yes'], ['yes'], ['yes']),
      verdicts(['yes'], ['yes'], ['yes']),
    ]);
    const error = await createAnswerRelevancyScorer({ model, reason: false })
      .run(run('x'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ScorerRunError);
    expect(error.failedStep).toBe('analyze');
    expect(error.message).toMatch(/answer-relevancy-scorer/);
    expect(error.message).toMatch(/"analyze"/);
    expect(error.message).toMatch(/did not match the 2 statements/);
    expect(model.doGenerateCalls).toHaveLength(3);
  });
});

describe('createAnswerRelevancyScorer: judge replies', () => {
  it('reads fenced JSON and JSON inside prose without re-asking', async () => {
    const model = scriptedModel([
      'Here you go:\n```json\n{"statements": ["a", "b"]}\n```',
      'Sure! {"results": [{"result": "yes", "reason": "x"}, {"result": "no", "reason": "y"},]} Hope that helps.',
    ]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('a b'));
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.score).toBe(0.5);
  });

  it('re-asks once, with the JSON Schema in the prompt, after malformed JSON', async () => {
    const model = scriptedModel(['{"statements": ["a", ', statements('a'), verdicts(['yes'])]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('a'));
    expect(model.doGenerateCalls).toHaveLength(3);
    const reask = userText(model.doGenerateCalls[1]);
    expect(reask).toContain(userText(model.doGenerateCalls[0]));
    expect(reask).toMatch(/JSON Schema/);
    expect(reask).toContain('"statements"');
    expect(result.score).toBe(1);
    expect(result.usage?.preprocess?.modelCalls).toBe(2);
  });

  it('re-asks when the JSON does not fit the schema', async () => {
    const model = scriptedModel(['{"statement": "a"}', statements('a'), verdicts(['no'])]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('a'));
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(userText(model.doGenerateCalls[1])).toMatch(/statements is missing/);
    expect(result.score).toBe(0);
  });

  it('malformed twice is a clear error naming the scorer and the step', async () => {
    const model = scriptedModel(['not json at all', 'still {not json']);
    const error = await createAnswerRelevancyScorer({ model }).run(run('a')).catch((e) => e);
    expect(error).toBeInstanceOf(ScorerRunError);
    expect(error.scorerId).toBe('answer-relevancy-scorer');
    expect(error.failedStep).toBe('preprocess');
    expect(error.message).toMatch(/did not return usable JSON after 2 attempts/);
    expect(error.message).toContain('still {not json');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('a judge that throws fails the run with the step and the cause', async () => {
    const boom = new Error('provider is down');
    const model = scriptedModel([statements('a'), boom]);
    const error = await createAnswerRelevancyScorer({ model, modelSettings: { maxRetries: 0 } }).run(run('a')).catch((e) => e);
    expect(error).toBeInstanceOf(ScorerRunError);
    expect(error.failedStep).toBe('analyze');
    expect(error.completedSteps).toEqual(['preprocess']);
    expect(error.message).toContain('provider is down');
    expect(error.result.preprocessStepResult).toEqual({ statements: ['a'] });
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('falls back to the whole answer as one statement when the judge finds none in a non-empty answer', async () => {
    const model = scriptedModel([statements(), verdicts(['yes'])]);
    const result = await createAnswerRelevancyScorer({ model, reason: false }).run(run('Paris'));
    expect(result.preprocessStepResult).toEqual({ statements: ['Paris'] });
    expect(result.score).toBe(1);
  });
});

describe('createAnswerRelevancyScorer: batching', () => {
  it('judges long statement lists in batches', async () => {
    const model = scriptedModel([
      statements('s1', 's2', 's3', 's4', 's5'),
      verdicts({ index: 1, result: 'yes' }, { index: 2, result: 'yes' }),
      verdicts({ index: 1, result: 'no' }, { index: 2, result: 'no' }),
      verdicts({ index: 1, result: 'unsure' }),
    ]);
    const result = await createAnswerRelevancyScorer({ model, reason: false, options: { maxStatementsPerCall: 2 } }).run(run('x'));
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(userText(model.doGenerateCalls[2])).toContain('1. s3');
    expect(userText(model.doGenerateCalls[2])).toContain('2. s4');
    expect(userText(model.doGenerateCalls[3])).toContain('1. s5');
    expect(result.score).toBe(round2((2 + 0.3) / 5));
  });

  it('splits very long answers into chunks for statement extraction', async () => {
    const paragraph = (word: string) => `${word} `.repeat(40).trim() + '.';
    const output = [paragraph('alpha'), paragraph('beta'), paragraph('gamma')].join('\n\n');
    const model = scriptedModel([statements('A'), statements('B'), statements('C'), verdicts(['yes'], ['no'], ['no'])]);
    const result = await createAnswerRelevancyScorer({ model, reason: false, maxOutputChars: 300 }).run(run(output));
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(userText(model.doGenerateCalls[0])).toContain('alpha');
    expect(userText(model.doGenerateCalls[0])).not.toContain('beta');
    expect(userText(model.doGenerateCalls[2])).toContain('gamma');
    expect(result.preprocessStepResult.statements).toEqual(['A', 'B', 'C']);
    expect(result.score).toBe(0.33);
  });
});

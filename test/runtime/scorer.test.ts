import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createScorer,
  getAssistantMessageFromRunOutput,
  getUserMessageFromRunInput,
  isScorer,
  notScorable,
  ScorerRunError,
} from '../../src/runtime/index.js';
import { scriptedModel, systemText, userText } from './helpers.js';

describe('createScorer', () => {
  it('requires an id', () => {
    expect(() => createScorer({ description: 'x' } as any)).toThrow(/"id" is required/);
    expect(() => createScorer({ id: '  ', description: 'x' })).toThrow(/"id" is required/);
  });

  it('refuses to run without generateScore, naming the scorer and the steps it has', async () => {
    const scorer = createScorer({ id: 'no-score', description: 'x' }).preprocess(() => 1);
    await expect(scorer.run({ input: 'a', output: 'b' })).rejects.toThrow(
      /Scorer "no-score" has no generateScore step \(steps: preprocess\)/,
    );
  });

  it('is an immutable builder: each step returns a new scorer and leaves the original alone', async () => {
    const base = createScorer({ id: 'imm', description: 'd' });
    const withScore = base.generateScore(() => 0.5);
    const withReason = withScore.generateReason(() => 'because');
    expect(withScore).not.toBe(base);
    expect(base.getSteps()).toEqual([]);
    expect(withScore.getSteps().map((s) => s.name)).toEqual(['generateScore']);
    expect(withReason.getSteps().map((s) => s.name)).toEqual(['generateScore', 'generateReason']);
    expect((await withScore.run({ output: 'x' })).reason).toBeUndefined();
    expect((await withReason.run({ output: 'x' })).reason).toBe('because');
    expect(Object.isFrozen(base.config)).toBe(true);
  });

  it('passes run and accumulated results to function steps, and score to generateReason', async () => {
    const seen: any[] = [];
    const scorer = createScorer({ id: 'fn', description: 'function steps', type: 'agent' })
      .preprocess(({ run }) => {
        seen.push(['preprocess', run.input, run.output, run.groundTruth]);
        return { words: String(run.output).split(' ') };
      })
      .analyze(({ results }) => {
        seen.push(['analyze', results.preprocessStepResult]);
        return { count: results.preprocessStepResult.words.length };
      })
      .generateScore(({ results }) => {
        seen.push(['score', results.analyzeStepResult]);
        return results.analyzeStepResult.count / 10;
      })
      .generateReason(({ results, score }) => `score ${score} from ${results.analyzeStepResult.count} words`);

    const result = await scorer.run({ input: 'q', output: 'one two three', groundTruth: 'gt', runId: 'run-1' });
    expect(seen).toEqual([
      ['preprocess', 'q', 'one two three', 'gt'],
      ['analyze', { words: ['one', 'two', 'three'] }],
      ['score', { count: 3 }],
    ]);
    expect(result).toMatchObject({
      runId: 'run-1',
      input: 'q',
      output: 'one two three',
      groundTruth: 'gt',
      score: 0.3,
      reason: 'score 0.3 from 3 words',
      preprocessStepResult: { words: ['one', 'two', 'three'] },
      analyzeStepResult: { count: 3 },
    });
    // Mastra's result has these keys even when a step made no prompt.
    for (const key of ['preprocessPrompt', 'analyzePrompt', 'generateScorePrompt', 'generateReasonPrompt']) {
      expect(key in result).toBe(true);
    }
    expect(result.usage).toBeUndefined();
  });

  it('runs steps in pipeline order whatever order they were added in', async () => {
    const order: string[] = [];
    const scorer = createScorer({ id: 'order', description: 'd' })
      .generateScore(() => (order.push('score'), 1))
      .preprocess(() => (order.push('pre'), 1));
    await scorer.run({ output: 'x' });
    expect(order).toEqual(['pre', 'score']);
  });

  it('exposes what Mastra code inspects', () => {
    const model = scriptedModel([]);
    const scorer = createScorer({ id: 'shape', description: 'desc', judge: { model, instructions: 'be fair' } })
      .preprocess({ description: 'extract', outputSchema: z.object({ a: z.string() }), createPrompt: () => 'p' })
      .generateScore(() => 1);
    expect(isScorer(scorer)).toBe(true);
    expect(scorer.id).toBe('shape');
    expect(scorer.name).toBe('shape');
    expect(scorer.description).toBe('desc');
    expect(scorer.config.judge?.instructions).toBe('be fair');
    expect(scorer.getSteps()).toEqual([
      { name: 'preprocess', type: 'prompt', description: 'extract' },
      { name: 'generateScore', type: 'function', description: undefined },
    ]);
    expect(typeof scorer.__registerMastra).toBe('function');
  });

  it('answers prompt-object steps with the judge: structured output, score object, text reason', async () => {
    const model = scriptedModel(['{"topic": "weather", "mood": "calm"}', '{"score": 0.8}', 'Because it is on topic.']);
    const scorer = createScorer({ id: 'prompted', description: 'd', judge: { model, instructions: 'You grade answers.' } })
      .analyze({
        description: 'find the topic',
        outputSchema: z.object({ topic: z.string(), mood: z.enum(['calm', 'angry']) }),
        createPrompt: ({ run }) => `Topic of: ${run.output}`,
      })
      .generateScore({
        description: 'score it',
        createPrompt: ({ results }) => `Score the topic ${results.analyzeStepResult.topic}`,
      })
      .generateReason({
        description: 'explain',
        createPrompt: ({ score }) => `Explain ${score}`,
      });
    const result = await scorer.run({ input: 'hi', output: 'It is sunny' });

    expect(model.doGenerateCalls).toHaveLength(3);
    const [analyze, score, reason] = model.doGenerateCalls;
    expect(systemText(analyze)).toBe('You grade answers.');
    expect(userText(analyze)).toBe('Topic of: It is sunny');
    expect(analyze.temperature).toBe(0);
    expect(analyze.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', required: ['topic', 'mood'] } });
    expect(score.responseFormat).toMatchObject({ type: 'json', schema: { properties: { score: { type: 'number' } } } });
    expect(reason.responseFormat?.type ?? 'text').toBe('text');
    expect(userText(reason)).toBe('Explain 0.8');

    expect(result.analyzeStepResult).toEqual({ topic: 'weather', mood: 'calm' });
    expect(result.score).toBe(0.8);
    expect(result.reason).toBe('Because it is on topic.');
    expect(result.analyzePrompt).toBe('Topic of: It is sunny');
    expect(result.generateScorePrompt).toBe('Score the topic weather');
    expect(result.generateReasonPrompt).toBe('Explain 0.8');
    expect(result.usage?.total.modelCalls).toBe(3);
  });

  it('validates structured output against a zod schema and re-asks once', async () => {
    const model = scriptedModel(['{"topic": "x", "mood": "happy"}', '```json\n{"topic": "x", "mood": "angry"}\n```']);
    const scorer = createScorer({ id: 'zod', description: 'd', judge: { model, instructions: 'i' } })
      .analyze({
        description: 'a',
        outputSchema: z.object({ topic: z.string(), mood: z.enum(['calm', 'angry']) }),
        createPrompt: () => 'classify',
      })
      .generateScore(({ results }) => (results.analyzeStepResult.mood === 'angry' ? 0 : 1));
    const result = await scorer.run({ output: 'grr' });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(userText(model.doGenerateCalls[1])).toMatch(/mood/);
    expect(result.score).toBe(0);
  });

  it('uses a step-level judge over the scorer-level one, and passes model settings', async () => {
    const scorerModel = scriptedModel([]);
    const stepModel = scriptedModel(['{"score": 1}']);
    const scorer = createScorer({ id: 'judges', description: 'd', judge: { model: scorerModel, instructions: 'outer' } }).generateScore({
      description: 's',
      createPrompt: () => 'rate',
      judge: { model: stepModel, instructions: 'inner', modelSettings: { temperature: 0.2, topP: 0.9 } },
    });
    const result = await scorer.run({ output: 'x' });
    expect(result.score).toBe(1);
    expect(scorerModel.doGenerateCalls).toHaveLength(0);
    expect(systemText(stepModel.doGenerateCalls[0])).toBe('inner');
    expect(stepModel.doGenerateCalls[0].temperature).toBe(0.2);
    expect(stepModel.doGenerateCalls[0].topP).toBe(0.9);
  });

  it('a failing step names the step and the scorer', async () => {
    const scorer = createScorer({ id: 'fails', description: 'd' })
      .preprocess(() => ({ ok: true }))
      .analyze(() => {
        throw new Error('kaboom');
      })
      .generateScore(() => 1);
    const error = await scorer.run({ output: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ScorerRunError);
    expect(error.message).toBe('Scorer "fails" failed in step "analyze": kaboom');
    expect(error.failedStep).toBe('analyze');
    expect(error.completedSteps).toEqual(['preprocess']);
    expect(error.result.preprocessStepResult).toEqual({ ok: true });
    expect(error.cause.message).toBe('kaboom');
  });

  it('a prompt step without any judge model is a clear error', async () => {
    const scorer = createScorer({ id: 'nojudge', description: 'd' }).generateScore({ description: 's', createPrompt: () => 'p' });
    await expect(scorer.run({ output: 'x' })).rejects.toThrow(/"nojudge" failed in step "generateScore": .*no judge model/);
  });

  it('generateScore must produce a finite number', async () => {
    const scorer = createScorer({ id: 'nan', description: 'd' }).generateScore(() => Number.NaN);
    await expect(scorer.run({ output: 'x' })).rejects.toThrow(/step "generateScore": generateScore must return a finite number; got NaN/);
  });

  it('rejects step values that are neither functions nor prompt objects', () => {
    expect(() => createScorer({ id: 'bad', description: 'd' }).analyze({ description: 'no prompt' } as any)).toThrow(
      /\.analyze\(\) takes a function or a prompt object/,
    );
  });

  it('notScorable() stops the pipeline and leaves the score out', async () => {
    let scored = false;
    const scorer = createScorer({ id: 'ns', description: 'd' })
      .preprocess(() => notScorable('no answer'))
      .generateScore(() => ((scored = true), 1));
    const result = await scorer.run({ output: '' });
    expect(scored).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'no answer' });
    expect('score' in result).toBe(false);
  });

  it('applies prepareRun before the steps', async () => {
    const scorer = createScorer({
      id: 'prep',
      description: 'd',
      prepareRun: (run) => ({ ...run, output: String(run.output).toUpperCase() }),
    }).generateScore(({ run }) => (run.output === 'LOUD' ? 1 : 0));
    expect((await scorer.run({ output: 'loud' })).score).toBe(1);
  });
});

describe('message shapes', () => {
  it('reads the user input from strings, message arrays, content parts, agent input and { text }', () => {
    expect(getUserMessageFromRunInput('hello')).toBe('hello');
    expect(getUserMessageFromRunInput([{ role: 'system', content: 's' }, { role: 'user', content: 'q1' }, { role: 'user', content: 'q2' }])).toBe('q1');
    expect(getUserMessageFromRunInput([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image', image: 'x' }, { type: 'text', text: 'b' }] }])).toBe('a\nb');
    expect(getUserMessageFromRunInput({ text: 'plain' })).toBe('plain');
    expect(getUserMessageFromRunInput({ inputMessages: [{ role: 'user', content: { format: 2, parts: [{ type: 'text', text: 'db' }] } }] })).toBe('db');
    expect(getUserMessageFromRunInput({ messages: [{ role: 'user', content: 'm' }] })).toBe('m');
    expect(getUserMessageFromRunInput(42)).toBeUndefined();
  });

  it('reads the last assistant output from strings, message arrays, { text }, { role, content } and parts', () => {
    expect(getAssistantMessageFromRunOutput('answer')).toBe('answer');
    expect(getAssistantMessageFromRunOutput({ text: 'from text' })).toBe('from text');
    expect(getAssistantMessageFromRunOutput({ role: 'assistant', content: 'c' })).toBe('c');
    expect(
      getAssistantMessageFromRunOutput([
        { role: 'assistant', content: 'first' },
        { role: 'tool', content: 'tool output' },
        { role: 'assistant', content: [{ type: 'text', text: 'last' }] },
      ]),
    ).toBe('last');
    expect(getAssistantMessageFromRunOutput([{ type: 'text', text: 'part' }])).toBe('part');
    expect(getAssistantMessageFromRunOutput({ role: 'user', content: 'not mine' })).toBeUndefined();
  });
});

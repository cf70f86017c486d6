/**
 * Judge-facing details found in review: strict structured-output schemas (OpenAI's default), lenient
 * verdict numbering, the temperature default, the offline judge's weather cue, and sampling edge cases.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAnswerRelevancyScorer, createScorer, offlineJudge, runEvals, shouldSample } from '../../src/runtime/index.js';
import { scriptedModel, statements } from './helpers.js';

/** OpenAI's strict mode: every object closed and every property listed in `required`. */
function strictProblems(schema: any, path = 'schema'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const problems: string[] = [];
  if (schema.type === 'object' || schema.properties) {
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
    const keys = Object.keys(schema.properties ?? {}).sort();
    if (JSON.stringify([...(schema.required ?? [])].sort()) !== JSON.stringify(keys)) problems.push(`${path}: required must list ${keys.join(', ')}`);
  }
  for (const [key, sub] of Object.entries(schema.properties ?? {})) problems.push(...strictProblems(sub, `${path}.${key}`));
  if (schema.items) problems.push(...strictProblems(schema.items, `${path}[]`));
  for (const [i, sub] of (schema.anyOf ?? []).entries()) problems.push(...strictProblems(sub, `${path}.anyOf[${i}]`));
  return problems;
}

describe('structured output fits strict providers', () => {
  it("the relevancy scorer's and a prompt generateScore step's schemas are strict-mode valid", async () => {
    const model = scriptedModel([
      statements('Paris is the capital.', 'Museums.'),
      JSON.stringify({ results: [{ index: 1, result: 'yes', reason: 'a' }, { index: 2, result: 'no', reason: null }] }),
      'The score is 0.5 because.',
      JSON.stringify({ score: 0.7 }),
    ]);
    const relevancy = await createAnswerRelevancyScorer({ model }).run({ input: 'Capital of France?', output: 'Paris is the capital. Museums.' });
    expect(relevancy.score).toBe(0.5);
    const judged = await createScorer({ id: 'judged', description: 'd', judge: { model, instructions: 'Judge.' } })
      .generateScore({ description: 'score it', createPrompt: () => 'Score this.' })
      .run({ input: 'q', output: 'a' });
    expect(judged.score).toBe(0.7);
    const schemas = model.doGenerateCalls.filter((c) => c.responseFormat?.type === 'json').map((c) => (c.responseFormat as any).schema);
    expect(schemas).toHaveLength(3);
    for (const schema of schemas) expect(strictProblems(schema)).toEqual([]);
  });
});

describe('verdict numbering', () => {
  const three = statements('Paris is the capital of France.', 'It has museums.', 'Bananas are yellow.');
  const ask = (reply: object) => {
    const model = scriptedModel([three, JSON.stringify(reply), 'The score is x because.']);
    return { model, result: createAnswerRelevancyScorer({ model }).run({ input: 'What is the capital of France?', output: 'Paris. Museums. Bananas.' }) };
  };

  it('reads numbers written as strings, without a re-ask', async () => {
    const { model, result } = ask({ results: [{ index: '2', result: 'no' }, { index: '1', result: 'yes' }, { index: '3', result: 'yes' }] });
    expect((await result).analyzeStepResult.results.map((r: any) => r.result)).toEqual(['yes', 'no', 'yes']);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it('reads a judge that counts from 0 without shifting verdicts onto the wrong statements', async () => {
    const { model, result } = ask({ results: [{ index: 0, result: 'yes' }, { index: 1, result: 'no' }, { index: 2, result: 'unsure' }] });
    expect((await result).analyzeStepResult.results.map((r: any) => r.result)).toEqual(['yes', 'no', 'unsure']);
    expect((await result).score).toBe(0.43);
    expect(model.doGenerateCalls).toHaveLength(3);
  });
});

it('an explicit temperature: undefined keeps the judge at temperature 0', async () => {
  const model = scriptedModel([statements('Paris.'), JSON.stringify({ results: [{ index: 1, result: 'yes' }] }), 'The score is 1 because.']);
  await createAnswerRelevancyScorer({ model, modelSettings: { temperature: undefined } }).run({ input: 'Capital?', output: 'Paris.' });
  expect(model.doGenerateCalls.map((c) => c.temperature)).toEqual([0, 0, 0]);
});

it('the offline judge does not take "Ukraine" or "train" for a weather question', async () => {
  const scorer = createAnswerRelevancyScorer({ model: offlineJudge() });
  const offTopic = 'Cats like warm places. Dogs hate cold floors.';
  for (const input of ['What is the capital of Ukraine?', 'When does the train leave?']) {
    expect((await scorer.run({ input, output: offTopic })).score).toBeLessThan(0.5);
  }
  expect((await scorer.run({ input: 'Will it rain in Paris?', output: 'Expect rain and cold winds.' })).score).toBeGreaterThan(0.5);
});

describe('sampling edge cases', () => {
  it('an empty run id decides like Mastra (sha256 of the empty string)', () => {
    const unit = createHash('sha256').update('').digest().readUIntBE(0, 6) / 2 ** 48;
    expect(shouldSample({ sampling: { type: 'ratio', rate: unit + 1e-9 } }, { runId: '' })).toBe(true);
    expect(shouldSample({ sampling: { type: 'ratio', rate: unit - 1e-9 } }, { runId: '' })).toBe(false);
  });

  it("a sampling failure inside runEvals names the item's index", async () => {
    const scorer = createScorer({ id: 's', description: 'd' }).generateScore(() => 1);
    const run = runEvals({
      data: [{ input: 'a' }, { input: 'b', traceId: 42 as unknown as string, runId: 7 as unknown as string }],
      scorers: [{ scorer, sampling: { type: 'ratio', rate: 0.5 } }],
      target: (input: unknown) => input,
      applySampling: true,
    });
    await expect(run).rejects.toMatchObject({ name: 'RunEvalsError', index: 1, scorerId: 's' });
  });
});

describe('option checks at creation', () => {
  it('rejects options: null, a non-object modelSettings and a non-function prepareRun', () => {
    const model = scriptedModel([]);
    expect(() => createAnswerRelevancyScorer({ model, options: null as any })).toThrow('"options" must be an object');
    expect(() => createAnswerRelevancyScorer({ model, modelSettings: 'hot' as any })).toThrow('"modelSettings" must be an object');
    expect(() => createScorer({ id: 'x', description: 'd', prepareRun: 'x' as any })).toThrow('"prepareRun" must be a function');
  });
});

it('takes the first JSON value in the reply that fits the schema, without a re-ask', async () => {
  const model = scriptedModel([
    `For statements [1, 2]: ${statements('Paris is the capital.', 'Museums.')}`,
    JSON.stringify({ results: [{ index: 1, result: 'yes', reason: 'a' }, { index: 2, result: 'yes', reason: 'b' }] }),
    'The score is 1 because.',
  ]);
  const result = await createAnswerRelevancyScorer({ model }).run({ input: 'Capital of France?', output: 'Paris is the capital. Museums.' });
  expect(result.preprocessStepResult.statements).toEqual(['Paris is the capital.', 'Museums.']);
  expect(model.doGenerateCalls).toHaveLength(3);
});

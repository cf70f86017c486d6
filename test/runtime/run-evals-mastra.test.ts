/**
 * Differential: the same configurations through `@mastra/core` 1.71's `runEvals` and this package's,
 * on a Mastra Agent whose model is a mock, comparing every field Mastra returns (scores, summary,
 * verdict, gateResults, thresholdResults) and the errors of refused configurations.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer, notScorable as mastraNotScorable, runEvals as mastraRunEvals } from '@mastra/core/evals';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createScorer, notScorable, runEvals } from '../../src/runtime/index.js';
import { answeringModel } from './helpers.js';

const ANSWERS: Record<string, string> = {
  'What is the capital of France?': 'Paris is the capital of France.',
  'What is the weather in Paris?': 'It is sunny in Paris today, 24 degrees.',
  'What is the capital of Japan?': 'Tokyo.',
  'What is the weather in Oslo?': 'Cold and grey.',
};
const DATA = Object.keys(ANSWERS).map((input) => ({ input }));

/** The last user message's text of a model call. */
const userText = (options: any) => {
  const user = options.prompt.filter((m: any) => m.role === 'user').at(-1);
  return typeof user.content === 'string' ? user.content : user.content.map((p: any) => p.text ?? '').join('');
};

/** A mock answering generate and stream calls (Mastra's agents stream) from ANSWERS; it records every call. */
function agentModel() {
  return answeringModel((options: any) => ANSWERS[userText(options)] ?? `no answer for ${JSON.stringify(userText(options))}`);
}

const text = (output: unknown) => JSON.stringify(output);
const inputText = (input: unknown) => JSON.stringify(input);

// Mastra's scorers (deterministic function steps) and one of this package's, all reading Mastra's agent shapes.
const mentionsParis = createMastraScorer({ id: 'mentions-paris', description: 'd', type: 'agent' }).generateScore(({ run }) =>
  text(run.output).includes('Paris') ? 1 : 0,
);
const long = createMastraScorer({ id: 'long', description: 'd', type: 'agent' }).generateScore(({ run }) =>
  Math.min(1, text(run.output).length / 1000),
);
const weatherOnly = createMastraScorer({ id: 'weather-only', description: 'd', type: 'agent' })
  .preprocess(({ run }) => (inputText(run.input).includes('weather') ? { ok: true } : mastraNotScorable('not a weather question')))
  .generateScore(({ run }) => (/sunny/.test(text(run.output)) ? 1 : 0.5));
const neverApplies = createMastraScorer({ id: 'never-applies', description: 'd', type: 'agent' })
  .preprocess(() => mastraNotScorable('nothing to judge'))
  .generateScore(() => 1);
const alwaysOne = createMastraScorer({ id: 'always-one', description: 'd', type: 'agent' }).generateScore(() => 1);
const brokenGate = createMastraScorer({ id: 'broken-gate', description: 'd', type: 'agent' }).generateScore(() => {
  throw new Error('gate exploded');
});
// This package's own scorer, with this package's notScorable (the same registered marker as Mastra's).
const ownCapital = createScorer({ id: 'own-capital', description: 'd', type: 'agent' })
  .preprocess(({ run }) => (inputText(run.input).includes('capital') ? {} : notScorable('not a capital question')))
  .generateScore(({ run }) => (/Paris|Tokyo/.test(text(run.output)) ? 1 : 0));

type Config = { scorers?: any[]; gates?: any[]; concurrency?: number };
const CASES: Array<[string, Config]> = [
  ['a number threshold that passes (a minimum)', { scorers: [{ scorer: alwaysOne, threshold: 0.7 }, long] }],
  ['a number threshold that is missed', { scorers: [{ scorer: mentionsParis, threshold: 0.75 }] }],
  ['a number threshold met exactly', { scorers: [{ scorer: mentionsParis, threshold: 0.5 }] }],
  ['a { max } threshold', { scorers: [{ scorer: long, threshold: { max: 0.01 } }, { scorer: mentionsParis, threshold: { max: 0.3 } }] }],
  ['a { min, max } band', { scorers: [{ scorer: mentionsParis, threshold: { min: 0.4, max: 0.6 } }, { scorer: alwaysOne, threshold: { min: 0, max: 0.9 } }] }],
  ['gates that pass, with thresholds met', { gates: [alwaysOne], scorers: [{ scorer: mentionsParis, threshold: 0.5 }, long] }],
  ['gates that pass, a threshold missed: scored', { gates: [alwaysOne], scorers: [{ scorer: mentionsParis, threshold: 0.9 }] }],
  ['a gate that fails', { gates: [mentionsParis, alwaysOne], scorers: [{ scorer: long, threshold: 0 }] }],
  ['gates only (no scorers)', { gates: [alwaysOne, mentionsParis] }],
  ['a gate that throws scores 0', { gates: [brokenGate], scorers: [alwaysOne] }],
  ['no assertions: no verdict', { scorers: [mentionsParis, long] }],
  ['not-scorable runs left out of means and thresholds', { scorers: [{ scorer: weatherOnly, threshold: 0.7 }, mentionsParis] }],
  ['a threshold scorer never scorable: left out, no verdict', { scorers: [{ scorer: neverApplies, threshold: 0.5 }, long] }],
  ['a gate never scorable beside a failing threshold', { gates: [neverApplies], scorers: [{ scorer: mentionsParis, threshold: 0.9 }] }],
  ['a not-scorable gate on some items', { gates: [weatherOnly] }],
  ['this package’s scorer and notScorable', { gates: [ownCapital], scorers: [{ scorer: weatherOnly, threshold: { min: 0.5 } }] }],
  ['one scorer as a gate and a tracked scorer', { gates: [weatherOnly, mentionsParis], scorers: [{ scorer: weatherOnly, threshold: 0.7 }, mentionsParis] }],
  ['concurrency 3', { gates: [alwaysOne], scorers: [{ scorer: mentionsParis, threshold: 0.5 }, weatherOnly], concurrency: 3 }],
];

const newAgent = () => {
  const model = agentModel();
  return { model, agent: new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model }) };
};
const modelCalls = (model: MockLanguageModelV3) => model.doGenerateCalls.length + model.doStreamCalls.length;

describe('runEvals matches @mastra/core 1.71 on a Mastra Agent', () => {
  it.each(CASES)('%s', async (_name, config) => {
    const theirs = newAgent();
    const expected: any = await mastraRunEvals({ data: DATA, target: theirs.agent, ...config } as any);
    const ours = newAgent();
    const { items, config: _config, ...actual } = await runEvals({ data: DATA, target: ours.agent, ...(config as { scorers: any[] }) });

    // Every field Mastra returns, and no other besides `items`.
    expect(actual).toEqual(expected);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys(actual.summary).sort()).toEqual(Object.keys(expected.summary).sort());
    // Each agent answered each item once, from its prompt.
    expect(modelCalls(theirs.model)).toBe(DATA.length);
    expect(modelCalls(ours.model)).toBe(DATA.length);
    expect([...ours.model.doGenerateCalls, ...ours.model.doStreamCalls].map(userText).sort()).toEqual(Object.keys(ANSWERS).sort());
    expect(items.map((item) => item.output)).toEqual(Object.values(ANSWERS));
  });

  it('a registry record with per-key thresholds gives what Mastra gives for the same scorers as an array', async () => {
    const record = Object.freeze({ relevance: { scorer: mentionsParis }, weather: { scorer: weatherOnly, sampling: { type: 'ratio' as const, rate: 0.5 } }, size: { scorer: long } });
    const expected: any = await mastraRunEvals({
      data: DATA,
      target: newAgent().agent,
      gates: [alwaysOne],
      scorers: [{ scorer: mentionsParis, threshold: 0.9 }, { scorer: weatherOnly, threshold: { min: 0.5, max: 1 } }, long],
    });
    const { items: _items, config: _config, ...actual } = await runEvals({
      data: DATA,
      target: newAgent().agent,
      gates: [alwaysOne],
      scorers: record,
      thresholds: { relevance: 0.9, weather: { min: 0.5, max: 1 } },
    });
    expect(actual).toEqual(expected);
    expect(actual.verdict).toBe('scored');
  });

  it('the registry’s function form, resolved per item with its request context, gives what Mastra gives for its result', async () => {
    const seen: unknown[] = [];
    const form = ({ requestContext }: { requestContext?: unknown }) => (seen.push(requestContext), { relevance: { scorer: mentionsParis }, size: long });
    const expected: any = await mastraRunEvals({ data: DATA, target: newAgent().agent, gates: [alwaysOne], scorers: [{ scorer: mentionsParis, threshold: 0.6 }, long] });
    const { items: _items, config: _config, ...actual } = await runEvals({ data: DATA, target: newAgent().agent, gates: [alwaysOne], scorers: form, thresholds: { relevance: 0.6 } });
    expect(actual).toEqual(expected);
    expect(seen).toHaveLength(DATA.length);
  });

  it('the cases cover every verdict and its absence', async () => {
    const verdicts = new Set<string>();
    for (const [, config] of CASES) {
      const { verdict } = await runEvals({ data: DATA, target: newAgent().agent, ...(config as { scorers: any[] }) });
      verdicts.add(String(verdict));
    }
    expect([...verdicts].sort()).toEqual(['failed', 'passed', 'scored', 'undefined']);
  });

  const INVALID: Array<[string, unknown]> = [
    ['a minimum above 1', 1.5],
    ['a negative minimum', -0.1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an empty object', {}],
    ['null', null],
    ['an array', [0.5]],
    ['a string', '0.5'],
    ['a string bound', { min: '0.5' }],
    ['a max above 1', { max: 2 }],
    ['min greater than max', { min: 0.8, max: 0.2 }],
  ];
  it.each(INVALID)('an invalid threshold (%s) is refused with Mastra’s words', async (_name, threshold) => {
    const config = { scorers: [long, { scorer: mentionsParis, threshold }] };
    const theirs = await mastraRunEvals({ data: DATA, target: newAgent().agent, ...config } as any).catch((e: Error) => e);
    const ours = await runEvals({ data: DATA, target: newAgent().agent, ...(config as any) }).catch((e: Error) => e);
    expect(theirs).toBeInstanceOf(Error);
    expect(ours).toBeInstanceOf(Error);
    expect((ours as Error).message).toBe((theirs as Error).message);
    expect((ours as any).id).toBe((theirs as any).id);
  });

  it('a bad threshold is reported before empty data, as Mastra does', async () => {
    const config = { scorers: [{ scorer: long, threshold: 3 }] };
    const theirs = await mastraRunEvals({ data: [], target: newAgent().agent, ...config } as any).catch((e: Error) => e);
    const ours = await runEvals({ data: [], target: newAgent().agent, ...config }).catch((e: Error) => e);
    expect((ours as Error).message).toBe((theirs as Error).message);
    expect((ours as Error).message).toBe('Minimum threshold for scorer "long" must be a finite number between 0 and 1, got 3');
  });

  it('neither scorers nor gates: both refuse', async () => {
    for (const config of [{}, { scorers: [] }, { scorers: [], gates: [] }]) {
      const theirs = await mastraRunEvals({ data: DATA, target: newAgent().agent, ...config } as any).catch((e: Error) => e);
      const ours = await runEvals({ data: DATA, target: newAgent().agent, ...(config as any) }).catch((e: Error) => e);
      expect(theirs).toBeInstanceOf(Error);
      expect((theirs as Error).message).toBe('At least one scorer or gate must be provided');
      expect((ours as Error).message).toBe('At least one scorer or gate must be provided');
      expect((ours as any).id).toBe('NO_SCORERS_PROVIDED');
    }
  });
});

describe('a failing item on a Mastra Agent', () => {
  it('names the item, the stage and the scorer, with Mastra’s error id and the cause', async () => {
    const model = answeringModel((options: any) => {
      if (userText(options).includes('Oslo')) throw new Error('provider is down');
      return 'fine';
    });
    const agent = new Agent({ id: 'flaky', name: 'flaky', instructions: 'i', model });
    const target = await runEvals({ data: DATA, target: agent, scorers: [long] }).catch((e) => e);
    expect(target.name).toBe('RunEvalsError');
    expect(target.message).toMatch(/^runEvals: item 3 failed in the target: /);
    expect(target.message).toContain('provider is down');
    expect([target.index, target.stage, target.id]).toEqual([3, 'target', 'RUN_EXPERIMENT_TARGET_FAILED_TO_GENERATE_RESULT']);

    const picky = createMastraScorer({ id: 'picky', description: 'd' }).generateScore(({ run }) => {
      if (text(run.output).includes('Tokyo')) throw new Error('no Tokyo');
      return 1;
    });
    const scorer = await runEvals({ data: DATA, target: newAgent().agent, scorers: [picky] }).catch((e) => e);
    expect(scorer.message).toMatch(/^runEvals: item 2 failed in scorer "picky": /);
    expect([scorer.index, scorer.stage, scorer.scorerId, scorer.id]).toEqual([2, 'scorer', 'picky', 'RUN_EXPERIMENT_SCORER_FAILED_TO_SCORE_RESULT']);
    expect(String(scorer.cause?.message ?? scorer.cause)).toContain('no Tokyo');
  });
});

describe('Mastra checks the whole run before any item runs', () => {
  it('a bad item is reported with its own index, in Mastra’s words, and no item runs', async () => {
    const { model, agent } = newAgent();
    const data = [...DATA, { turns: [{ input: 'a' }], input: 'both' }];
    const theirs = await mastraRunEvals({ data, target: newAgent().agent, scorers: [long] } as any).catch((e: Error) => e);
    const ours = await runEvals({ data: data as any, target: agent, scorers: [long] }).catch((e: Error) => e);
    expect((ours as Error).message).toBe("Invalid data item at index 4: 'turns' cannot be combined with 'input' or 'inputs'");
    expect((ours as Error).message).toBe((theirs as Error).message);
    expect((ours as any).id).toBe('INVALID_DATA_ITEM');
    expect(modelCalls(model)).toBe(0);
  });
});

/**
 * Differential, for every form of Mastra's `runEvals` beyond single-turn items: multi-turn `inputs`
 * (with memory), `turns` with per-turn gates and thresholds, `{ agent, trajectory }` with a tool-calling
 * agent and a trajectory gate, Workflow targets (a list, `{ workflow, steps, trajectory }`,
 * `startOptions`), `targetOptions`, `requestContext`. Each configuration runs twice on a fresh copy of
 * the same world (Agent or Workflow, mock models, a Mastra instance with a real LibSQL file): once
 * through `@mastra/core`'s `runEvals`, once through this package's. Equal: every field Mastra returns,
 * the model's calls (count, prompts, settings), and the rows saved where Mastra Studio reads them.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer, runEvals as mastraRunEvals } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { Memory } from '@mastra/memory';
import type { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runEvals } from '../../src/runtime/index.js';
import { userText } from './helpers.js';
import { agentModel, hasToolResult, savedScores, tmpStorage } from './mastra-suite/helpers.js';

const storages = tmpStorage('run-evals-forms');
afterAll(() => storages.cleanup());

const text = (value: unknown) => JSON.stringify(value);

// Scorers: deterministic function steps, each registered on the Mastra instance so Mastra saves its scores.
const mentionsSun = createScorer({ id: 'mentions-sun', description: 'd', type: 'agent' }).generateScore(({ run }) => (/sun/i.test(text(run.output)) ? 1 : 0));
const replies = createScorer({ id: 'replies', description: 'how many replies', type: 'agent' }).generateScore(({ run }) =>
  Array.isArray(run.output) ? Math.min(1, run.output.length / 3) : 0.5,
);
const short = createScorer({ id: 'short', description: 'd' }).generateScore(({ run }) => (text(run.output).length < 400 ? 1 : 0.25));
const polite = createScorer({ id: 'polite', description: 'd' }).generateScore(({ run }) => (/please|thanks/i.test(text(run.output)) ? 1 : 0));
const usedWeather = createScorer({ id: 'used-weather', description: 'd', type: 'trajectory' }).generateScore(({ run }) =>
  text(run.output).includes('get_weather') ? 1 : 0,
);
const matchesExpected = createScorer({ id: 'matches-expected', description: 'd', type: 'trajectory' }).generateScore(({ run }) => {
  const expected = (run as { expectedTrajectory?: { steps?: Array<{ name: string }> } }).expectedTrajectory?.steps?.map((s) => s.name) ?? [];
  return expected.every((name) => text(run.output).includes(name)) ? 1 : 0;
});
const tier = createScorer({ id: 'tier', description: 'reads the request context' }).generateScore(({ run }) =>
  (run.requestContext as RequestContext | undefined)?.get?.('tier') === 'gold' ? 1 : 0,
);
const stepDoubled = createScorer({ id: 'step-doubled', description: 'd' }).generateScore(({ run }) => (text(run.output).includes('twice') ? 1 : 0));
const workflowDone = createScorer({ id: 'workflow-done', description: 'd' }).generateScore(({ run }) => (text(run.output).includes('done') ? 1 : 0.5));
const scorers = { mentionsSun, replies, short, polite, usedWeather, matchesExpected, tier, stepDoubled, workflowDone };

const weatherTool = createTool({
  id: 'get_weather',
  description: 'Weather for a city',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ temperature: z.number(), condition: z.string() }),
  execute: async () => ({ temperature: 21, condition: 'sunny' }),
});

/** A fresh world: agents whose mock models answer from the prompt, a workflow, a Mastra instance with its own LibSQL file. */
function world() {
  const storage = storages.store();
  const chatModel = agentModel((options) => {
    const turn = (options.prompt as Array<{ role: string }>).filter((m) => m.role === 'user').length;
    return /rain/i.test(userText(options)) ? `Turn ${turn}: rain later, thanks for asking.` : `Turn ${turn}: sunny, 21 degrees.`;
  });
  const toolModel = agentModel((options) => (hasToolResult(options) ? 'It is sunny in Paris.' : { toolCalls: [{ id: 'c1', name: 'get_weather', input: { city: 'Paris' } }] }));
  const chat = new Agent({ id: 'chat', name: 'Chat', instructions: 'Answer about the weather.', model: chatModel, memory: new Memory({ storage }) });
  const tools = new Agent({ id: 'tools', name: 'Tools', instructions: 'Use tools.', model: toolModel, tools: { get_weather: weatherTool } });
  const double = createStep({
    id: 'double',
    inputSchema: z.object({ word: z.string() }),
    outputSchema: z.object({ word: z.string() }),
    execute: async ({ inputData }) => ({ word: `${inputData.word} ${inputData.word} (twice)` }),
  });
  const finish = createStep({
    id: 'finish',
    inputSchema: z.object({ word: z.string() }),
    outputSchema: z.object({ result: z.string() }),
    execute: async ({ inputData }) => ({ result: `${inputData.word}: done` }),
  });
  const flow = createWorkflow({ id: 'flow', inputSchema: z.object({ word: z.string() }), outputSchema: z.object({ result: z.string() }) })
    .then(double)
    .then(finish)
    .commit();
  const mastra = new Mastra({ agents: { chat, tools }, workflows: { flow }, scorers, storage, logger: false });
  return { storage, mastra, chatModel, toolModel, chat: mastra.getAgent('chat'), tools: mastra.getAgent('tools'), flow: mastra.getWorkflow('flow') };
}
type World = ReturnType<typeof world>;

/** What differs between any two runs: times and random ids. */
const TIMES = new Set(['createdAt', 'updatedAt', 'startedAt', 'endedAt', 'durationMs', 'totalDurationMs']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const stable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null, (key, v) => (TIMES.has(key) ? undefined : typeof v === 'string' ? v.replace(UUID, '<uuid>') : v)));

const calls = (model: MockLanguageModelV3) =>
  stable([...model.doGenerateCalls, ...model.doStreamCalls].map((call: any) => ({ prompt: call.prompt, temperature: call.temperature, maxOutputTokens: call.maxOutputTokens })));

/** A saved row without what differs between any two runs (ids, times, trace and thread ids, run ids). */
const row = ({ id, runId, createdAt, updatedAt, traceId, spanId, threadId, resourceId, ...rest }: any) => ({
  ...(stable(rest) as object),
  hasThread: threadId !== undefined && threadId !== null,
});
async function rows(w: World) {
  const out: Record<string, unknown[]> = {};
  for (const id of Object.keys(scorers).map((k) => (scorers as any)[k].id)) {
    const saved = await savedScores(w.storage, id);
    if (saved.length > 0) out[id] = saved.map(row).sort((a, b) => text(a).localeCompare(text(b)));
  }
  return out;
}

type Case = [string, (w: World) => Record<string, unknown>];
const CASES: Case[] = [
  [
    'multi-turn inputs on one thread with memory: scorers see every reply',
    (w) => ({
      target: w.chat,
      data: [{ inputs: ['Weather in Paris?', 'And tomorrow?', 'Will it rain?'], groundTruth: 'sunny' }, { input: 'Weather in Oslo?' }],
      scorers: [replies, { scorer: mentionsSun, threshold: 0.5 }],
      gates: [short],
    }),
  ],
  [
    '{ input, inputs }: Mastra runs the inputs',
    (w) => ({ target: w.chat, data: [{ input: 'ignored', inputs: ['Weather?', 'Rain?'] }], scorers: [replies, polite] }),
  ],
  [
    'turns with per-turn gates and thresholds, beside top-level ones',
    (w) => ({
      target: w.chat,
      data: [
        { turns: [{ input: 'Weather?', gates: [mentionsSun] }, { input: 'Will it rain?', scorers: [{ scorer: polite, threshold: 0.9 }, short] }, { input: 'Thanks' }] },
        { turns: [{ input: 'Rain today?', gates: [mentionsSun] }, { input: 'Sure?', scorers: [{ scorer: polite, threshold: 0.9 }] }] },
      ],
      scorers: [{ scorer: replies, threshold: 0.5 }],
      gates: [short],
    }),
  ],
  [
    'turns only (scorers: [])',
    (w) => ({ target: w.chat, data: [{ turns: [{ input: 'Hello', scorers: [polite] }, { input: 'Rain?', gates: [polite] }] }], scorers: [] }),
  ],
  [
    '{ agent, trajectory } with a tool-calling agent, expectedTrajectory and a trajectory gate',
    (w) => ({
      target: w.tools,
      data: [
        { input: 'Weather in Paris?', expectedTrajectory: { steps: [{ name: 'get_weather', stepType: 'tool_call' }] } },
        { input: 'And in Rome?', expectedTrajectory: { steps: [{ name: 'send_email', stepType: 'tool_call' }] } },
      ],
      scorers: { agent: [mentionsSun, short], trajectory: [usedWeather, matchesExpected] },
      gates: [usedWeather],
    }),
  ],
  [
    'targetOptions reach the model; requestContext reaches the scorers and the saved rows',
    (w) => ({
      target: w.chat,
      data: [{ input: 'Weather?', requestContext: new RequestContext([['tier', 'gold']]) }, { input: 'Rain?' }],
      scorers: [{ scorer: tier, threshold: 0.5 }, mentionsSun],
      targetOptions: { modelSettings: { temperature: 0.3, maxOutputTokens: 77 } },
    }),
  ],
  [
    'a Workflow with a list of scorers, startOptions and targetOptions',
    (w) => ({
      target: w.flow,
      data: [{ input: { word: 'go' }, groundTruth: 'go go' }, { input: { word: 'stop' }, startOptions: { initialState: {} } }],
      scorers: [{ scorer: workflowDone, threshold: 0.9 }, stepDoubled],
      gates: [workflowDone],
    }),
  ],
  [
    'a Workflow with { workflow, steps, trajectory }',
    (w) => ({
      target: w.flow,
      data: [{ input: { word: 'go' } }, { input: { word: 'again' } }],
      scorers: { workflow: [workflowDone], steps: { double: [stepDoubled], finish: [workflowDone] }, trajectory: [matchesExpected] },
    }),
  ],
  [
    'concurrency 3 over mixed single- and multi-turn items',
    (w) => ({
      target: w.chat,
      data: [{ input: 'a?' }, { inputs: ['b?', 'rain?'] }, { turns: [{ input: 'c?', gates: [short] }] }, { input: 'rain?' }],
      scorers: [mentionsSun, { scorer: polite, threshold: 0.2 }],
      concurrency: 3,
    }),
  ],
];

describe('runEvals matches @mastra/core 1.71 on every form', () => {
  it.each(CASES)('%s', async (_name, configOf) => {
    const theirs = world();
    const expected: any = await mastraRunEvals(configOf(theirs) as any);
    const ours = world();
    const { items, config: runConfig, ...actual } = await runEvals(configOf(ours) as any);

    expect(actual).toEqual(expected);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    expect(items).toHaveLength(expected.summary.totalItems);
    expect(runConfig.form).toBe(typeof expected.scores.workflow === 'object' || 'steps' in expected.scores ? 'workflow' : runConfig.form);
    // The same model calls: how many, with which prompts (memory recall included) and settings.
    expect(calls(ours.chatModel)).toEqual(calls(theirs.chatModel));
    expect(calls(ours.toolModel)).toEqual(calls(theirs.toolModel));
    // The same rows where Mastra Studio reads them.
    const saved = await rows(theirs);
    expect(await rows(ours)).toEqual(saved);
    expect(Object.keys(saved).length).toBeGreaterThan(0);
  });
});

describe('items: what the report reads, per turn and per step', () => {
  it('a multi-turn item records each turn’s reply and its own assertions', async () => {
    const w = world();
    const result = await runEvals({
      target: w.chat,
      data: [{ id: 'chat-1', turns: [{ input: 'Weather?', gates: [mentionsSun] }, { input: 'Will it rain?', scorers: [{ scorer: polite, threshold: 0.9 }] }] }],
      scorers: [replies],
    });
    const [item] = result.items;
    expect(item.id).toBe('chat-1');
    expect(item.input).toBe('Weather?');
    expect(item.output).toEqual(['Turn 1: sunny, 21 degrees.', 'Turn 2: rain later, thanks for asking.']);
    expect(item.turns).toEqual([
      { index: 0, input: 'Weather?', output: 'Turn 1: sunny, 21 degrees.', scores: {}, gates: { 'mentions-sun': { score: 1, reason: null } } },
      { index: 1, input: 'Will it rain?', output: 'Turn 2: rain later, thanks for asking.', scores: { polite: { score: 1, reason: null, threshold: 0.9 } }, gates: {} },
    ]);
    expect(item.scores).toEqual({ replies: { score: 2 / 3, reason: null } });
    expect(result.turnResults).toEqual([
      { index: 0, gateResults: [{ id: 'mentions-sun', passed: true, score: 1 }] },
      { index: 1, thresholdResults: [{ id: 'polite', passed: true, averageScore: 1, threshold: 0.9 }], scores: { polite: 1 } },
    ]);
  });

  it('a Workflow item records its result and its step scores', async () => {
    const w = world();
    const result = await runEvals({ target: w.flow, data: [{ input: { word: 'go' } }], scorers: { workflow: [workflowDone], steps: { double: [stepDoubled] } } });
    expect(result.items[0].output).toEqual({ result: 'go go (twice): done' });
    expect(result.items[0].scores).toEqual({ 'workflow-done': { score: 1, reason: null } });
    expect(result.items[0].steps).toEqual({ double: { 'step-doubled': { score: 1, reason: null } } });
    // Each step's input and output, in the order the steps ran: what the step's scorers were given.
    expect(result.items[0].stepResults).toEqual({
      double: { status: 'success', input: { word: 'go' }, output: { word: 'go go (twice)' } },
      finish: { status: 'success', input: { word: 'go go (twice)' }, output: { result: 'go go (twice): done' } },
    });
    expect(Object.keys(result.items[0].stepResults!)).toEqual(['double', 'finish']);
    expect(result.config).toEqual({ form: 'workflow', gates: [], scorers: ['workflow-done', 'steps/double/step-doubled'], thresholds: [] });
    expect(result.scores).toEqual({ workflow: { 'workflow-done': 1 }, steps: { double: { 'step-doubled': 1 } } });
  });

  it('a Workflow item judged by a plain list records its steps too; a failed step records its error', async () => {
    const w = world();
    const listed = await runEvals({ target: w.flow, data: [{ input: { word: 'ok' } }], scorers: [workflowDone] });
    expect(listed.items[0].stepResults).toEqual({
      double: { status: 'success', input: { word: 'ok' }, output: { word: 'ok ok (twice)' } },
      finish: { status: 'success', input: { word: 'ok ok (twice)' }, output: { result: 'ok ok (twice): done' } },
    });
    const broken = createStep({
      id: 'broken',
      inputSchema: z.object({ word: z.string() }),
      outputSchema: z.object({ word: z.string() }),
      execute: async () => {
        throw new Error('the lookup service is down');
      },
    });
    const flaky = createWorkflow({ id: 'flaky', inputSchema: z.object({ word: z.string() }), outputSchema: z.object({ word: z.string() }) }).then(broken).commit();
    // A failed run has no output: this scorer says so instead of reading it.
    const hasOutput = createScorer({ id: 'has-output', description: 'd' }).generateScore(({ run }) => (run.output === undefined ? 0 : 1));
    const failed = await runEvals({ target: flaky, data: [{ input: { word: 'x' } }], scorers: [hasOutput] });
    expect(failed.scores).toEqual({ 'has-output': 0 });
    expect(failed.items[0].output).toBeUndefined();
    expect(failed.items[0].stepResults).toEqual({ broken: { status: 'failed', input: { word: 'x' }, error: 'the lookup service is down' } });
  });

  it('an inputs item shows one reply per turn, with no per-turn assertions', async () => {
    const w = world();
    const result = await runEvals({ target: w.chat, data: [{ inputs: ['Weather?', 'Rain?'] }], scorers: [replies] });
    expect(result.items[0].turns).toEqual([
      { index: 0, input: 'Weather?', output: 'Turn 1: sunny, 21 degrees.' },
      { index: 1, input: 'Rain?', output: 'Turn 2: rain later, thanks for asking.' },
    ]);
    expect(result.turnResults).toBeUndefined();
  });
});

describe('what the differential compares is there to compare', () => {
  it('targetOptions reach the model, and rows carry source, entity, ground truth and the turn', async () => {
    const w = world();
    await runEvals({
      target: w.chat,
      data: [
        { input: 'Weather?', groundTruth: 'sunny' },
        { turns: [{ input: 'Hi', scorers: [polite] }, { input: 'Rain?', scorers: [polite] }] },
      ],
      scorers: [mentionsSun],
      targetOptions: { modelSettings: { temperature: 0.3 } },
    });
    expect(calls(w.chatModel)).toHaveLength(3);
    expect((calls(w.chatModel) as Array<{ temperature: number }>).map((c) => c.temperature)).toEqual([0.3, 0.3, 0.3]);
    const sun = await savedScores(w.storage, 'mentions-sun');
    expect(sun.map((r) => [r.source, r.entityId, r.entityType, r.additionalContext?.groundTruth ?? null, r.score])).toEqual(
      expect.arrayContaining([['TEST', 'chat', 'AGENT', 'sunny', 1]]),
    );
    const turns = await savedScores(w.storage, 'polite');
    expect(turns.map((r) => r.metadata?.turnIndex).sort()).toEqual([0, 1]);
    expect(turns.every((r) => typeof r.threadId === 'string')).toBe(true);
  });
});

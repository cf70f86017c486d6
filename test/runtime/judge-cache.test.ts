import { fork, spawn, type ChildProcess } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  cachedJudge,
  createAnswerRelevancyScorer,
  createScorer,
  JudgeCacheMiss,
  offlineJudge,
  runEvals,
  type JudgeCacheMode,
} from '../../src/runtime/index.js';
import { usage } from './helpers.js';

const REPO = path.resolve(import.meta.dirname, '../..');
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'judge-cache-'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A mock judge whose answers come from the offline judge (real, deterministic replies), with token usage. */
function judgeModel(options: { provider?: string; modelId?: string } = {}) {
  const brain = offlineJudge();
  return new MockLanguageModelV3({
    ...options,
    doGenerate: async (call) => ({ ...(await brain.doGenerate(call)), usage: usage(12, 7) }),
  });
}

const lines = async (file: string) => (await fs.readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line));

/**
 * A script recording one request (`node paused.mjs <file> <text> <pause>`) that tells its parent each
 * read of the lock, and stops where `pause` says until the parent sends a message: so a test can
 * hold writers still in a chosen order.
 */
async function pausedWriter(): Promise<string> {
  const script = path.join(dir, 'paused.mjs');
  await fs.writeFile(
    script,
    `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { cachedJudge } from ${JSON.stringify(pathToFileURL(path.join(REPO, 'dist/runtime/index.js')).href)};
const [file, text, pause] = process.argv.slice(2);
const go = () => new Promise((resolve) => process.once('message', resolve));
const { readFile, rename, rm } = fs.promises;
let lockReads = 0;
let lockRemovals = 0;
let renames = 0;
// 'lock-read': tell each read of the lock, and stop after the first until told to go on.
fs.promises.readFile = async (target, ...rest) => {
  const read = await readFile(target, ...rest);
  if (target === file + '.lock') {
    process.send({ lockRead: ++lockReads });
    if (pause === 'lock-read' && lockReads === 1) await go();
  }
  return read;
};
// 'lock-rm': stop before removing the lock the first time (a take-over), until told to go on.
fs.promises.rm = async (target, ...rest) => {
  if (pause === 'lock-rm' && target === file + '.lock' && ++lockRemovals === 1) {
    process.send({ removing: true });
    await go();
  }
  return rm(target, ...rest);
};
// 'rename': stop holding the lock, the temporary file written, until told to go on.
fs.promises.rename = async (...args) => {
  if (pause === 'rename' && ++renames === 1) {
    process.send({ renaming: true });
    await go();
  }
  return rename(...args);
};
syncBuiltinESMExports();
const model = { specificationVersion: 'v3', provider: 'mock-provider', modelId: 'mock-model-id', supportedUrls: {},
  doGenerate: async (call) => ({ content: [{ type: 'text', text: 'reply to ' + call.prompt[0].content[0].text }], finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] }) };
await cachedJudge(model, { file }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] });
process.disconnect();
`,
  );
  return script;
}
const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
/** The first message from `child` that `wanted` accepts. */
const message = <T,>(child: ChildProcess, wanted: (m: any) => boolean) =>
  new Promise<T>((resolve) => {
    const listener = (m: any) => {
      if (!wanted(m)) return;
      child.off('message', listener);
      resolve(m);
    };
    child.on('message', listener);
  });

const DATA = [
  { input: 'What is the capital of France?' },
  { input: 'How many legs does a spider have?' },
  { input: 'Who wrote "Hamlet"?' },
];
const ANSWERS: Record<string, string> = {
  'What is the capital of France?': 'Paris is the capital of France. It has many museums.',
  'How many legs does a spider have?': 'A spider has eight legs.',
  'Who wrote "Hamlet"?': 'William Shakespeare wrote it. Bananas are yellow.',
};

/** A scorer with prompt steps for every step kind (structured analyze, score, reason). */
function promptScorer(model: unknown, { prompt = 'Rate the answer', schema = z.object({ label: z.string() }), temperature = 0 } = {}) {
  return createScorer({
    id: 'prompted',
    description: 'prompt steps',
    judge: { model: model as any, instructions: 'You grade answers.', modelSettings: { temperature } },
  })
    .analyze({ description: 'classify', outputSchema: schema, createPrompt: ({ run }) => `${prompt}: ${JSON.stringify(run.output)}` })
    .generateScore({ description: 'score', createPrompt: ({ run }) => `Score: ${JSON.stringify(run.output)}` })
    .generateReason({ description: 'why', createPrompt: ({ run, score }) => `Explain ${score} for ${JSON.stringify(run.output)}` });
}

async function evalRun(model: unknown, scorerOptions?: Parameters<typeof promptScorer>[1]) {
  const items: any[] = [];
  const result = await runEvals({
    data: DATA,
    target: (input: string) => ANSWERS[input],
    scorers: [createAnswerRelevancyScorer({ model: model as any }), promptScorer(model, scorerOptions)],
    onItemComplete: ({ scorerResults }) => void items.push(scorerResults),
  });
  return { result, items };
}

/** What must not change between a recorded and a replayed run (durations and cache counters may). */
const stable = (items: any[]) =>
  items.map((byId) =>
    Object.fromEntries(
      Object.entries(byId).map(([id, r]: [string, any]) => [
        id,
        {
          score: r.score,
          reason: r.reason,
          preprocessStepResult: r.preprocessStepResult,
          analyzeStepResult: r.analyzeStepResult,
          prompts: [r.preprocessPrompt, r.analyzePrompt, r.generateScorePrompt, r.generateReasonPrompt],
          tokens: r.usage.total.totalTokens,
        },
      ]),
    ),
  );

describe('the judge models of this package under ai 7', () => {
  // What `ai` 7's `generateText` does with a spec v3 model (its asLanguageModelV4): a Proxy that reports
  // `specificationVersion: 'v4'` and passes everything else through. A Proxy may not report another value
  // for a non-writable, non-configurable property of its target, so a frozen model threw here.
  const asV4 = <T extends object>(model: T): T =>
    new Proxy(model, { get: (target, prop) => (prop === 'specificationVersion' ? 'v4' : Reflect.get(target, prop)) });
  const call = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Is it sunny?' }] }] };

  it('cachedJudge and offlineJudge can be wrapped, answer through the wrapper, and still cannot be changed', async () => {
    const model = judgeModel();
    const judges = [cachedJudge(model, { file: path.join(dir, 'v4.jsonl') }), offlineJudge()];
    for (const judge of judges) {
      const wrapped = asV4(judge);
      expect(wrapped.specificationVersion).toBe('v4');
      expect((await wrapped.doGenerate(call as any)).content[0].type).toBe('text');
      expect(() => Object.assign(judge, { modelId: 'other' })).toThrow(TypeError);
      expect(() => Object.assign(judge, { extra: 1 })).toThrow(TypeError);
      expect(judge.specificationVersion).toBe('v3');
    }
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('cachedJudge: replaying runEvals', () => {
  it('a second identical runEvals makes zero model calls and gives identical results, and says they came from the cache', async () => {
    const file = path.join(dir, 'judge-cache.jsonl');
    const model = judgeModel();
    const first = await evalRun(cachedJudge(model, { file }));
    const calls = model.doGenerateCalls.length;
    // 3 items x (relevancy: statements, verdicts, reason + prompted: analyze, score, reason)
    expect(calls).toBe(18);
    expect(await lines(file)).toHaveLength(18);
    for (const byId of first.items) for (const r of Object.values<any>(byId)) expect(r.usage.total.cachedCalls).toBe(0);

    // A new judge object on the same file, as a new process would build it.
    const second = await evalRun(cachedJudge(model, { file }));
    expect(model.doGenerateCalls.length).toBe(calls);
    // The same result, but for where each run's judge replies came from: live first, the file second.
    const { items: firstItems, ...firstRest } = first.result;
    const { items: secondItems, ...secondRest } = second.result;
    expect(secondRest).toEqual(firstRest);
    const withoutCached = (items: typeof firstItems) =>
      items.map((item) => ({ ...item, scores: Object.fromEntries(Object.entries(item.scores).map(([id, { cached: _c, ...rest }]) => [id, rest])) }));
    expect(withoutCached(secondItems)).toEqual(withoutCached(firstItems));
    const flags = (items: typeof firstItems) => items.flatMap((item) => Object.values(item.scores).map((s) => s.cached));
    expect(flags(firstItems)).toEqual(Array(6).fill(false));
    expect(flags(secondItems)).toEqual(Array(6).fill(true));
    expect(stable(second.items)).toEqual(stable(first.items));
    for (const byId of second.items) {
      for (const r of Object.values<any>(byId)) {
        expect(r.usage.total.cachedCalls).toBe(r.usage.total.modelCalls);
        for (const step of Object.values<any>(r.judge)) for (const e of step.executions) expect(e.cachedCallCount).toBe(e.modelCallCount);
      }
    }
  });

  it('marks each reply in provider metadata and its response header', async () => {
    const file = path.join(dir, 'c.jsonl');
    const judge = cachedJudge(judgeModel(), { file });
    const call = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] };
    const miss = await judge.doGenerate(call);
    const hit = await judge.doGenerate(call);
    const [record] = await lines(file);
    expect(miss.providerMetadata['agent-scorers'].judgeCache).toEqual({ hit: false, key: record.key });
    expect(hit.providerMetadata['agent-scorers'].judgeCache).toEqual({ hit: true, key: record.key });
    expect(miss.response.headers['x-agent-scorers-judge-cache']).toBe('miss');
    expect(hit.response.headers['x-agent-scorers-judge-cache']).toBe('hit');
    expect(hit.content).toEqual(miss.content);
    expect(hit.usage.inputTokens.total).toBe(12);
  });

  it('counts a replayed re-ask (a malformed first reply) as two cached calls', async () => {
    const file = path.join(dir, 'reask.jsonl');
    const replies = ['not json at all', '{"label": "fine"}', '{"score": 0.5}', 'because'];
    let n = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'text', text: replies[n++] }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(), warnings: [] }),
    });
    const scorer = promptScorer(cachedJudge(model, { file }));
    const first = await scorer.run({ output: 'x' });
    expect(first.analyzeStepResult).toEqual({ label: 'fine' });
    expect(first.usage?.analyze).toMatchObject({ modelCalls: 2, cachedCalls: 0 });
    const second = await promptScorer(cachedJudge(model, { file })).run({ output: 'x' });
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(second.analyzeStepResult).toEqual({ label: 'fine' });
    expect(second.usage?.analyze).toMatchObject({ modelCalls: 2, cachedCalls: 2 });
    expect(second.usage?.total).toMatchObject({ modelCalls: 4, cachedCalls: 4 });
  });
});

describe('cachedJudge: what is a miss', () => {
  it('a changed input, prompt, schema or setting is a miss; the same request again is not', async () => {
    const file = path.join(dir, 'miss.jsonl');
    const model = judgeModel();
    const judge = cachedJudge(model, { file });
    const analyzeCalls = () => model.doGenerateCalls.filter((c) => JSON.stringify(c.prompt).includes('Rate') || JSON.stringify(c.prompt).includes('Judge')).length;
    const score = (output: string, options?: Parameters<typeof promptScorer>[1]) => promptScorer(judge, options).run({ output });

    await score('a');
    expect(analyzeCalls()).toBe(1);
    await score('a');
    expect(analyzeCalls()).toBe(1);
    await score('b'); // input
    expect(analyzeCalls()).toBe(2);
    await score('a', { prompt: 'Judge the answer' }); // prompt
    expect(analyzeCalls()).toBe(3);
    await score('a', { schema: z.object({ label: z.string(), ok: z.boolean() }) }); // schema
    expect(analyzeCalls()).toBe(4);
    await score('a', { temperature: 0.7 }); // setting
    expect(analyzeCalls()).toBe(5);
    // The settings also reach the other steps: score and reason of 'a' at 0.7 were new too.
    expect(model.doGenerateCalls.at(-1)?.temperature).toBe(0.7);

    const withSeed = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] };
    await judge.doGenerate(withSeed);
    const before = model.doGenerateCalls.length;
    await judge.doGenerate({ ...withSeed, seed: 1 });
    await judge.doGenerate({ ...withSeed, abortSignal: new AbortController().signal, headers: { 'x-trace': '1' } });
    // A new setting (seed) is a miss; transport options (abort signal, headers) are not part of the key.
    expect(model.doGenerateCalls.length).toBe(before + 1);
  });

  it('a different model (provider or id) is a miss', async () => {
    const file = path.join(dir, 'models.jsonl');
    const a = judgeModel({ modelId: 'judge-a' });
    const b = judgeModel({ modelId: 'judge-b' });
    await evalRun(cachedJudge(a, { file }));
    await evalRun(cachedJudge(b, { file }));
    expect(b.doGenerateCalls.length).toBe(a.doGenerateCalls.length);
    const records = await lines(file);
    expect(new Set(records.map((r) => r.modelId))).toEqual(new Set(['judge-a', 'judge-b']));
  });
});

describe('cachedJudge: modes', () => {
  it('replay throws JudgeCacheMiss with the prompt preview and the file, and calls nothing', async () => {
    const file = path.join(dir, 'none.jsonl');
    const model = judgeModel();
    const scorer = createAnswerRelevancyScorer({ model: cachedJudge(model, { file, mode: 'replay' }) });
    const error = await scorer.run({ input: 'What is 2 + 2?', output: 'It is 4.' }).catch((e) => e);
    expect(model.doGenerateCalls).toHaveLength(0);
    let miss = error;
    while (miss && !(miss instanceof JudgeCacheMiss)) miss = miss.cause;
    expect(miss).toBeInstanceOf(JudgeCacheMiss);
    expect(miss.file).toBe(file);
    expect(miss.preview).toMatch(/^Split the assistant answer/);
    expect(miss.preview).toContain('It is 4.');
    expect(miss.message).toContain(JSON.stringify(miss.preview));
    expect(miss.message).toContain(`${file} (the file does not exist)`);
    expect(error.message).toContain('judge cache miss in replay mode');
    expect(fsSync.existsSync(file)).toBe(false);
  });

  it('replay answers from a recorded file; a string model needs neither its package nor its key then', async () => {
    const file = path.join(dir, 'string.jsonl');
    vi.stubEnv('OPENAI_API_KEY', '');
    // Recorded by a mock named as `openai('gpt-4o-mini')` names itself: the key takes the provider family
    // (`openai`), the model id and the request, so the string form finds the record.
    const recorder = judgeModel({ provider: 'openai.responses', modelId: 'gpt-4o-mini' });
    const run = { input: 'What is the capital of Japan?', output: 'Tokyo.' };
    const recorded = await createAnswerRelevancyScorer({ model: cachedJudge(recorder, { file }) }).run(run);
    const replayed = await createAnswerRelevancyScorer({ model: cachedJudge('openai/gpt-4o-mini', { file, mode: 'replay' }) }).run(run);
    expect(replayed.score).toBe(recorded.score);
    expect(replayed.reason).toBe(recorded.reason);
    expect(replayed.usage?.total).toMatchObject({ modelCalls: 3, cachedCalls: 3 });
  });

  it('a failed reply (error finish, filtered, no text) is passed on but not recorded, so the next run asks again', async () => {
    const file = path.join(dir, 'failed.jsonl');
    const replies = [
      { content: [{ type: 'text', text: 'partial' }], finishReason: { unified: 'error', raw: 'error' } },
      { content: [{ type: 'text', text: 'hidden' }], finishReason: { unified: 'content-filter', raw: 'filtered' } },
      { content: [{ type: 'text', text: '  ' }], finishReason: { unified: 'stop', raw: 'stop' } },
      { content: [{ type: 'text', text: 'good' }], finishReason: { unified: 'stop', raw: 'stop' } },
    ];
    let n = 0;
    const model = new MockLanguageModelV3({ doGenerate: async () => ({ ...replies[n++], usage: usage(), warnings: [] }) as any });
    const judge = cachedJudge(model, { file });
    const ask = () => judge.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] });
    for (const text of ['partial', 'hidden', '  ']) {
      const reply = await ask();
      expect(reply.content[0].text).toBe(text);
      expect(reply.providerMetadata['agent-scorers'].judgeCache.hit).toBe(false);
      expect(fsSync.existsSync(file)).toBe(false);
    }
    expect((await ask()).content[0].text).toBe('good');
    expect((await ask()).providerMetadata['agent-scorers'].judgeCache.hit).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(4);
    expect((await lines(file)).map((r) => r.text)).toEqual(['good']);
  });

  it('when a call that identical requests wait on fails, each of them asks the model itself', async () => {
    const file = path.join(dir, 'shared-failure.jsonl');
    let n = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        if (n++ === 0) throw new Error('aborted by its caller');
        return { content: [{ type: 'text', text: 'fine' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(), warnings: [] };
      },
    });
    const judge = cachedJudge(model, { file });
    const ask = () => judge.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'same' }] }] });
    const [first, second] = await Promise.allSettled([ask(), ask()]);
    expect(first.status === 'rejected' && first.reason.message).toBe('aborted by its caller');
    expect(second.status === 'fulfilled' && second.value.content[0].text).toBe('fine');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('record calls the model again and overwrites the record', async () => {
    const file = path.join(dir, 'record.jsonl');
    let answer = 'first';
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'text', text: answer }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(), warnings: [] }),
    });
    const call = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] };
    await cachedJudge(model, { file }).doGenerate(call);
    answer = 'second';
    const again = await cachedJudge(model, { file, mode: 'record' }).doGenerate(call);
    expect(again.content[0].text).toBe('second');
    expect(model.doGenerateCalls).toHaveLength(2);
    const records = await lines(file);
    expect(records.map((r) => r.text)).toEqual(['second']);
    expect((await cachedJudge(model, { file }).doGenerate(call)).content[0].text).toBe('second');
  });

  it('AGENT_SCORERS_JUDGE_CACHE overrides mode; off bypasses the cache entirely', async () => {
    const file = path.join(dir, 'env.jsonl');
    const model = judgeModel();
    await evalRun(cachedJudge(model, { file }));
    const recordedCalls = model.doGenerateCalls.length;
    const content = await fs.readFile(file, 'utf8');

    vi.stubEnv('AGENT_SCORERS_JUDGE_CACHE', 'replay');
    const fresh = judgeModel();
    await evalRun(cachedJudge(fresh, { file, mode: 'record' }));
    expect(fresh.doGenerateCalls).toHaveLength(0);

    vi.stubEnv('AGENT_SCORERS_JUDGE_CACHE', 'off');
    const off = await evalRun(cachedJudge(model, { file, mode: 'replay' }));
    expect(model.doGenerateCalls.length).toBe(2 * recordedCalls);
    for (const byId of off.items) for (const r of Object.values<any>(byId)) expect(r.usage.total.cachedCalls).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toBe(content);
    const untouched = path.join(dir, 'never.jsonl');
    await evalRun(cachedJudge(model, { file: untouched }));
    expect(fsSync.existsSync(untouched)).toBe(false);
    expect(await fs.readdir(dir)).toEqual(['env.jsonl']);

    expect(model.doGenerateCalls.length).toBe(3 * recordedCalls);

    vi.stubEnv('AGENT_SCORERS_JUDGE_CACHE', 'record');
    await evalRun(cachedJudge(model, { file, mode: 'replay' }));
    expect(model.doGenerateCalls.length).toBe(4 * recordedCalls);
    expect(await lines(file)).toHaveLength(recordedCalls);

    vi.stubEnv('AGENT_SCORERS_JUDGE_CACHE', 'sometimes');
    await expect(cachedJudge(model, { file }).doGenerate({ prompt: [] })).rejects.toThrow(
      'AGENT_SCORERS_JUDGE_CACHE must be one of auto, replay, record, off; got "sometimes"',
    );
  });

  it('rejects bad options when the judge is made', () => {
    const model = judgeModel();
    expect(() => cachedJudge(model, { file: '' })).toThrow('cachedJudge: "file" must be a path or a file URL');
    expect(() => cachedJudge(model, { file: 'x.jsonl', mode: 'always' as JudgeCacheMode })).toThrow(
      'cachedJudge: "mode" must be one of auto, replay, record, off; got "always"',
    );
    expect(() => cachedJudge('gpt-4o' as any, { file: 'x.jsonl' })).toThrow("must look like 'provider/model-id'");
    expect(() => cachedJudge(42 as any, { file: 'x.jsonl' })).toThrow('cachedJudge: model must be');
  });
});

const HOSTILE = ['it\'s "quoted"', '${process.env.HOME}', 'back\\slash', 'two\nlines', 'ünïcødé 東京 🎌', '__proto__', 'constructor'];

describe('cachedJudge: the file', () => {
  it('50 concurrent calls (each also asked twice at once) leave a valid file holding each record once', async () => {
    const file = path.join(dir, 'deep', 'er', 'concurrent.jsonl');
    const model = judgeModel();
    const judge = cachedJudge(model, { file });
    const prompts = Array.from({ length: 50 }, (_, i) => `${HOSTILE[i % HOSTILE.length]} #${i}`);
    const ask = (text: string) => judge.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] });
    const replies = await Promise.all([...prompts, ...prompts].map(ask));
    expect(model.doGenerateCalls).toHaveLength(50);
    expect(replies.filter((r) => r.providerMetadata['agent-scorers'].judgeCache.hit)).toHaveLength(50);
    const records = await lines(file);
    expect(records).toHaveLength(50);
    expect(new Set(records.map((r) => r.key)).size).toBe(50);
    expect(new Set(records.map((r) => r.prompt))).toEqual(new Set(prompts.map((p) => p.replace(/\s+/g, ' '))));
    expect(await fs.readdir(path.dirname(file))).toEqual(['concurrent.jsonl']); // no temp file left
  });

  it('is sorted by key, one fixed-shape record per line, with no machine path, and the same bytes whatever the call order', async () => {
    const model = judgeModel();
    const forward = path.join(dir, 'forward.jsonl');
    const backward = path.join(dir, 'backward.jsonl');
    const ask = (file: string, text: string) => cachedJudge(model, { file }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] });
    const texts = [`path ${dir}`, ...HOSTILE];
    for (const text of texts) await ask(forward, text);
    for (const text of [...texts].reverse()) await ask(backward, text);
    const body = await fs.readFile(forward, 'utf8');
    expect(await fs.readFile(backward, 'utf8')).toBe(body);
    expect(body.endsWith('\n')).toBe(true);
    const records = body.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.key)).toEqual(records.map((r) => r.key).sort());
    // The whole prompt, which a replay miss compares with, comes last: it is the longest field.
    expect(records.map((r) => r.fullPrompt).sort()).toEqual(texts.map((text) => `[user]\n${text}`).sort());
    for (const r of records) {
      expect(Object.keys(r)).toEqual(['key', 'provider', 'modelId', 'prompt', 'text', 'finishReason', 'usage', 'fullPrompt']);
      expect(r.key).toMatch(/^[0-9a-f]{64}$/);
      expect(r).toMatchObject({ provider: 'mock-provider', modelId: 'mock-model-id', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 } });
    }
    // The only machine path in the file is the one a prompt itself contained.
    const withoutPrompt = body.replaceAll(JSON.stringify(`path ${dir}`).slice(1, -1), '');
    for (const machinePath of [dir, os.tmpdir(), os.homedir(), process.cwd(), REPO]) expect(withoutPrompt).not.toContain(machinePath);
    // A replayed run does not rewrite the file.
    const { mtimeMs } = await fs.stat(forward);
    for (const text of texts) await ask(forward, text);
    expect((await fs.stat(forward)).mtimeMs).toBe(mtimeMs);
  });

  it('reads a file URL, and a relative path from the working directory', async () => {
    const model = judgeModel();
    const url = pathToFileURL(path.join(dir, 'url.jsonl'));
    const call = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'u' }] }] };
    await cachedJudge(model, { file: url }).doGenerate(call);
    expect(await lines(path.join(dir, 'url.jsonl'))).toHaveLength(1);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await cachedJudge(model, { file: 'rel/relative.jsonl' }).doGenerate(call);
    } finally {
      process.chdir(cwd);
    }
    expect(await lines(path.join(dir, 'rel/relative.jsonl'))).toHaveLength(1);
  });

  it('a corrupt line (a merge conflict) is a clear error naming the file and line', async () => {
    const file = path.join(dir, 'conflict.jsonl');
    await fs.writeFile(file, '<<<<<<< HEAD\n');
    const error = await cachedJudge(judgeModel(), { file }).doGenerate({ prompt: [] }).catch((e) => e);
    expect(error.message).toBe(`agent-scorers: judge cache ${file} line 1 is not JSON (a merge conflict?): <<<<<<< HEAD`);
  });

  it('a write that throws between the temporary file and the rename leaves the previous file intact and no temporary file, and the reply is kept', async () => {
    const file = path.join(dir, 'throw.jsonl');
    const model = judgeModel();
    const ask = (text: string) => cachedJudge(model, { file }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] });
    await ask('kept');
    const before = await fs.readFile(file, 'utf8');
    const promises = fsSync.promises as any;
    const rename = promises.rename;
    let tempSeen = '';
    promises.rename = async (from: string) => {
      tempSeen = await fs.readFile(from, 'utf8');
      throw new Error('disk on fire');
    };
    syncBuiltinESMExports();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let reply: any;
    let warnings: unknown[][] = [];
    try {
      reply = await ask('lost');
    } finally {
      promises.rename = rename;
      syncBuiltinESMExports();
      warnings = [...warn.mock.calls];
      warn.mockRestore();
    }
    // The paid reply is returned; the failure is one warning naming the file.
    const direct = await offlineJudge().doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'lost' }] }] } as any);
    expect(reply.content).toEqual(direct.content);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(reply.providerMetadata['agent-scorers'].judgeCache.hit).toBe(false);
    expect(warnings).toEqual([[expect.stringContaining(`agent-scorers: could not write the judge cache ${file}: disk on fire.`)]]);
    expect(tempSeen.split('\n').filter(Boolean)).toHaveLength(2); // the new file was complete, only the rename failed
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(await fs.readdir(dir)).toEqual(['throw.jsonl']);
    // The next write succeeds and carries the record that could not be written.
    await ask('next');
    expect(await lines(file)).toHaveLength(3);
  });

  it('a process killed mid-write leaves the previous file intact', async () => {
    const file = path.join(dir, 'killed.jsonl');
    await cachedJudge(judgeModel(), { file }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'kept' }] }] });
    const before = await fs.readFile(file, 'utf8');
    const script = path.join(dir, 'child.mjs');
    await fs.writeFile(
      script,
      `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { cachedJudge } from ${JSON.stringify(pathToFileURL(path.join(REPO, 'dist/runtime/index.js')).href)};
// Stop between the temporary file and the rename, tell the parent, and wait to be killed.
// (The interval keeps the process alive: a pending promise alone would let it exit.)
fs.promises.rename = (from) => { setInterval(() => {}, 1000); process.send({ temp: from }); return new Promise(() => {}); };
syncBuiltinESMExports();
const model = { specificationVersion: 'v3', provider: 'mock-provider', modelId: 'mock-model-id', supportedUrls: {},
  doGenerate: async () => ({ content: [{ type: 'text', text: 'new' }], finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] }) };
await cachedJudge(model, { file: process.argv[2] }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'lost' }] }] });
`,
    );
    const child = fork(script, [file], { stdio: 'pipe' });
    const temp = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: any) => resolve(m.temp));
      child.once('exit', (code) => reject(new Error(`child exited (${code}) before writing`)));
    });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect((await fs.readFile(temp, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(await lines(file)).toHaveLength(1);
    // The killed writer still held the lock: the next writer sees its process is gone and goes on.
    expect(await fs.readFile(`${file}.lock`, 'utf8')).toBe(String(child.pid));
    await cachedJudge(judgeModel(), { file }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'after' }] }] });
    expect((await lines(file)).map((r) => r.prompt).sort()).toEqual(['after', 'kept']);
    expect(fsSync.existsSync(`${file}.lock`)).toBe(false);
  });

  it('processes and worker threads recording into one file at once keep every record', async () => {
    const file = path.join(dir, 'shared.jsonl');
    const script = path.join(dir, 'writer.mjs');
    await fs.writeFile(
      script,
      `import { workerData } from 'node:worker_threads';
import { cachedJudge } from ${JSON.stringify(pathToFileURL(path.join(REPO, 'dist/runtime/index.js')).href)};
const [file, name] = workerData ?? process.argv.slice(2);
const model = { specificationVersion: 'v3', provider: 'mock-provider', modelId: 'mock-model-id', supportedUrls: {},
  doGenerate: async (call) => ({ content: [{ type: 'text', text: 'reply to ' + call.prompt[0].content[0].text }], finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] }) };
const judge = cachedJudge(model, { file, mode: 'auto' });
// One request at a time, so each writer writes the file once per record and the writers interleave.
for (let i = 0; i < 25; i++) await judge.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: name + ' #' + i }] }] });
`,
    );
    const { Worker } = await import('node:worker_threads');
    const done = (emitter: { once(event: 'exit', listener: (code: number | null) => void): unknown }, who: string) =>
      new Promise<void>((resolve, reject) => emitter.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${who} exited with ${code}`)))));
    await Promise.all([
      ...[0, 1, 2, 3].map((i) => done(fork(script, [file, `process ${i}`]), `process ${i}`)),
      ...[0, 1, 2, 3].map((i) => done(new Worker(script, { workerData: [file, `thread ${i}`] }), `thread ${i}`)),
    ]);
    const records = await lines(file);
    expect(records).toHaveLength(200);
    expect(new Set(records.map((r) => r.prompt)).size).toBe(200);
    expect(records.every((r) => r.text === `reply to ${r.prompt}`)).toBe(true);
    expect((await fs.readdir(dir)).sort()).toEqual(['shared.jsonl', 'writer.mjs']); // no temporary or lock file left
  });

  it('a lock whose holder let go and exited while a writer looked at it is not taken from the writer that holds it next', async () => {
    // The race behind a lost record: waiter C reads the lock (held by live process A); A lets go and
    // exits; writer B takes the lock; C finds A gone and must not remove B's lock as A's. Each step
    // is held still by the scripts below, so the order is certain, not a matter of luck.
    const file = path.join(dir, 'handover.jsonl');
    const lock = `${file}.lock`;
    const script = await pausedWriter();
    // A: a live writer holding the lock.
    const holderA = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await fs.writeFile(lock, String(holderA.pid));
    // C reads the lock (A's pid) and is held there, before it asks whether A is running.
    const waiterC = fork(script, [file, 'from C', 'lock-read'], { stdio: 'pipe' });
    const waiterCExit = exited(waiterC);
    await message(waiterC, (m) => m.lockRead === 1);
    // A lets go and exits.
    await fs.rm(lock);
    const holderAExit = exited(holderA);
    holderA.kill('SIGKILL');
    await holderAExit;
    // B takes the lock and is held while it holds it, its file written but not yet renamed into place.
    const writerB = fork(script, [file, 'from B', 'rename'], { stdio: 'pipe' });
    const writerBExit = exited(writerB);
    await message(writerB, (m) => m.renaming);
    expect(await fs.readFile(lock, 'utf8')).toBe(String(writerB.pid));
    // C goes on: A is gone, but the lock is now B's. C must wait for it (it reads it again and again)
    // instead of removing it and writing its record while B writes.
    waiterC.send('go');
    const waited = await Promise.race([waiterCExit.then(() => 'C wrote while B held the lock'), message(waiterC, (m) => m.lockRead >= 4).then(() => 'C waited')]);
    expect(waited).toBe('C waited');
    expect(await fs.readFile(lock, 'utf8')).toBe(String(writerB.pid));
    // B finishes and lets go; C then writes, keeping B's record.
    writerB.send('go');
    expect(await writerBExit).toBe(0);
    expect(await waiterCExit).toBe(0);
    expect((await lines(file)).map((r) => r.text).sort()).toEqual(['reply to from B', 'reply to from C']);
    expect((await fs.readdir(dir)).sort()).toEqual(['handover.jsonl', 'paused.mjs']); // no temporary, lock or take-over file left
  });

  it('two writers that find one lock left by a dead writer take it over one at a time, and keep both records', async () => {
    // Both see the lock of a writer that is gone. If both removed "it", the second would remove the
    // lock the first took in between, and they would write at once. C1 is held just before its
    // removal; C2 runs meanwhile as far as it can (to its rename, holding the lock, or waiting).
    const file = path.join(dir, 'takeover.jsonl');
    const lock = `${file}.lock`;
    const script = await pausedWriter();
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    expect(await exited(gone)).toBe(0);
    await fs.writeFile(lock, String(gone.pid));
    const c1 = fork(script, [file, 'from C1', 'lock-rm'], { stdio: 'pipe' });
    const c1Exit = exited(c1);
    await message(c1, (m) => m.removing);
    const c2 = fork(script, [file, 'from C2', 'rename'], { stdio: 'pipe' });
    const c2Exit = exited(c2);
    const c2Renaming = message(c2, (m) => m.renaming);
    const c2First = await Promise.race([c2Renaming.then(() => 'took the lock'), message(c2, (m) => m.lockRead >= 6).then(() => 'waited')]);
    c1.send('go');
    // Had C2 taken the lock, C1 would remove it and write: let C1 finish, so C2's rename shows what is lost.
    if (c2First === 'took the lock') await c1Exit;
    await c2Renaming;
    c2.send('go');
    expect(await c2Exit).toBe(0);
    expect(await c1Exit).toBe(0);
    expect((await lines(file)).map((r) => r.text).sort()).toEqual(['reply to from C1', 'reply to from C2']);
    expect(c2First).toBe('waited');
    expect((await fs.readdir(dir)).sort()).toEqual(['paused.mjs', 'takeover.jsonl']); // no temporary, lock or take-over file left
  });
});

describe('cachedJudge: bundles that never call it', () => {
  it('the runtime imports node: modules only dynamically, and the registry helper never reaches the cache', async () => {
    const { build } = await import('esbuild');
    const bundle = async (entry: string) =>
      build({
        entryPoints: [path.join(REPO, 'dist/runtime', entry)],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        external: ['node:*', 'ai', '@ai-sdk/*'],
        metafile: true,
        logLevel: 'silent',
      });
    const index = await bundle('index.js');
    const imports = Object.values(index.metafile.inputs).flatMap((input) => input.imports);
    // The store builds its node: specifiers at run time, so no bundler sees one (a Workers bundle
    // without nodejs_compat has none to give): not even a lazy import() of one is left to resolve.
    expect(imports.filter((i) => i.path.startsWith('node:'))).toEqual([]);
    expect(Object.keys(index.metafile.inputs).some((f) => f.endsWith('judge-cache-store.js'))).toBe(true);

    const registry = await bundle('registry.js');
    expect(Object.keys(registry.metafile.inputs).filter((f) => /judge-cache|model\.js/.test(f))).toEqual([]);
  });
});

describe('cachedJudge: other model shapes and the middleware', () => {
  it('wraps a spec v2 model: its reply is returned and recorded in spec v3 shape', async () => {
    const file = path.join(dir, 'v2.jsonl');
    const calls: unknown[] = [];
    const v2 = {
      specificationVersion: 'v2',
      provider: 'old-provider',
      modelId: 'old-model',
      supportedUrls: {},
      doGenerate: async (options: unknown) => {
        calls.push(options);
        return { content: [{ type: 'text', text: '{"score": 0.75}' }], finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 }, warnings: [] };
      },
      doStream: async () => {
        throw new Error('not used');
      },
    };
    const scorer = () =>
      createScorer({ id: 'v2', description: 'd', judge: { model: cachedJudge(v2, { file }), instructions: 'i' } }).generateScore({
        description: 's',
        createPrompt: () => 'score it',
      });
    const first = await scorer().run({ output: 'x' });
    const second = await scorer().run({ output: 'x' });
    expect(calls).toHaveLength(1);
    expect([first.score, second.score]).toEqual([0.75, 0.75]);
    expect(first.usage?.total).toEqual({ inputTokens: 3, outputTokens: 2, totalTokens: 5, modelCalls: 1, cachedCalls: 0 });
    expect(second.usage?.total).toEqual({ inputTokens: 3, outputTokens: 2, totalTokens: 5, modelCalls: 1, cachedCalls: 1 });
    expect(await lines(file)).toEqual([expect.objectContaining({ provider: 'old-provider', modelId: 'old-model', text: '{"score": 0.75}', finishReason: 'stop' })]);
  });

  it('judgeCacheMiddleware works with the AI SDK\'s own wrapLanguageModel, for generateText and streamText', async () => {
    const { generateText, streamText, wrapLanguageModel } = await import('ai');
    const { judgeCacheMiddleware } = await import('../../src/runtime/index.js');
    const file = path.join(dir, 'middleware.jsonl');
    const inner = judgeModel();
    const model = wrapLanguageModel({ model: inner, middleware: judgeCacheMiddleware({ file }) as any });
    const ask = () => generateText({ model, prompt: 'Say something', temperature: 0 });
    const first = await ask();
    const second = await ask();
    expect(inner.doGenerateCalls).toHaveLength(1);
    expect(second.text).toBe(first.text);
    expect((first.providerMetadata as any)['agent-scorers'].judgeCache.hit).toBe(false);
    expect((second.providerMetadata as any)['agent-scorers'].judgeCache.hit).toBe(true);
    expect(second.usage.inputTokens).toBe(12);

    const streamed = streamText({ model, prompt: 'Say something', temperature: 0 });
    expect(await streamed.text).toBe(first.text);
    expect(inner.doGenerateCalls).toHaveLength(1);
    expect(inner.doStreamCalls).toHaveLength(0);
  });

  it("cachedJudge itself is an AI SDK model: generateText takes it with no cast (npm run typecheck checks this file)", async () => {
    const { generateText } = await import('ai');
    const inner = judgeModel();
    const judge = cachedJudge(inner, { file: path.join(dir, 'typed.jsonl') });
    const first = await generateText({ model: judge, prompt: 'Say something', temperature: 0 });
    const second = await generateText({ model: judge, prompt: 'Say something', temperature: 0 });
    expect(second.text).toBe(first.text);
    expect(inner.doGenerateCalls).toHaveLength(1);
  });

  it('takes a file name with quotes, spaces and unicode', async () => {
    const file = path.join(dir, 'ju"dge cäche ${x}', 'réplies \'1\'.jsonl');
    const model = judgeModel();
    const call = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] };
    await cachedJudge(model, { file }).doGenerate(call);
    const replay = await cachedJudge(model, { file, mode: 'replay' }).doGenerate(call);
    expect(replay.providerMetadata['agent-scorers'].judgeCache.hit).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(1);
    const error = await cachedJudge(model, { file, mode: 'replay' }).doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'other' }] }] }).catch((e) => e);
    expect(error).toBeInstanceOf(JudgeCacheMiss);
    expect(error.message).toContain(`"other" is not recorded in ${file}.`);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedJudge } from '../../src/runtime/index.js';
import { canonicalJson, judgeCacheKey } from '../../src/runtime/judge/judge-cache.js';
import { sha256Hex } from '../../src/runtime/sha256.js';
import { usage } from './helpers.js';

type Call = Record<string, any>;
const MODEL = { provider: 'openai.responses', modelId: 'gpt-4o-mini' };

/** A request as Mastra's createScorer sends it: a system message, then a user message whose part carries Mastra's time stamp. */
const base = (): Call => ({
  prompt: [
    { role: 'system', content: 'You grade answers.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Is "Paris" relevant to "capital of France?"', providerOptions: { mastra: { createdAt: 1796229130664 } } },
        { type: 'text', text: 'Return JSON.' },
      ],
    },
  ],
  temperature: 0,
});
const key = (call: Call, model = MODEL) => judgeCacheKey(model, call);
const edit = (change: (call: Call) => void): Call => {
  const call = base();
  change(call);
  return call;
};

const TOOLS = [{ type: 'function', name: 'lookup', description: 'Look a word up', inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }];
/** Two tool calls (`ids`), then their results: `answers[i]` is the id the i-th result answers. */
const withTools = (ids: [string, string], answers: [string, string] = ids): Call =>
  edit((c) => {
    c.prompt.push(
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: ids[0], toolName: 'lookup', input: { word: 'Paris' } },
          { type: 'tool-call', toolCallId: ids[1], toolName: 'lookup', input: { word: 'France' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: answers[0], toolName: 'lookup', output: { type: 'text', value: 'a city' } },
          { type: 'tool-result', toolCallId: answers[1], toolName: 'lookup', output: { type: 'text', value: 'a country' } },
        ],
      },
    );
  });

describe('judge cache key: what decides the reply changes the key', () => {
  const changes: Array<[string, () => string]> = [
    ['the provider family', () => key(base(), { ...MODEL, provider: 'anthropic.messages' })],
    ['the model id', () => key(base(), { ...MODEL, modelId: 'gpt-4o' })],
    ['a message role', () => key(edit((c) => (c.prompt[0].role = 'user')))],
    ['the system text', () => key(edit((c) => (c.prompt[0].content = 'You grade harshly.')))],
    ['a part text', () => key(edit((c) => (c.prompt[1].content[0].text += ' ')))],
    ['one more part', () => key(edit((c) => c.prompt[1].content.push({ type: 'text', text: 'Be brief.' })))],
    ['the order of parts', () => key(edit((c) => c.prompt[1].content.reverse()))],
    ['a file part', () => key(edit((c) => c.prompt[1].content.push({ type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) })))],
    ['the response format', () => key({ ...base(), responseFormat: { type: 'json' } })],
    ['the response schema', () => key({ ...base(), responseFormat: { type: 'json', schema: { type: 'object', properties: { score: { type: 'number' } } } } })],
    ['temperature', () => key({ ...base(), temperature: 0.7 })],
    ['maxOutputTokens', () => key({ ...base(), maxOutputTokens: 100 })],
    ['topP', () => key({ ...base(), topP: 0.9 })],
    ['topK', () => key({ ...base(), topK: 40 })],
    ['presencePenalty', () => key({ ...base(), presencePenalty: 0.5 })],
    ['frequencyPenalty', () => key({ ...base(), frequencyPenalty: 0.5 })],
    ['seed', () => key({ ...base(), seed: 42 })],
    ['stop sequences', () => key({ ...base(), stopSequences: ['\n\n'] })],
    ['tools', () => key({ ...base(), tools: TOOLS })],
    ['tool choice', () => key({ ...base(), tools: TOOLS, toolChoice: { type: 'required' } })],
    ['a provider option of the call', () => key({ ...base(), providerOptions: { openai: { reasoningEffort: 'high' } } })],
    ['a provider option of a part', () => key(edit((c) => (c.prompt[1].content[1].providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } })))],
    ['a setting this package does not know yet', () => key({ ...base(), thinkingBudget: 1024 })],
  ];
  const reference = key(base());
  it.each(changes)('%s', (_name, changed) => {
    expect(changed()).toMatch(/^[0-9a-f]{64}$/);
    expect(changed()).not.toBe(reference);
  });
});

describe('judge cache key: bookkeeping does not change the key', () => {
  const same: Array<[string, Call]> = [
    ["Mastra's time stamp on a part (providerOptions.mastra.createdAt)", edit((c) => (c.prompt[1].content[0].providerOptions.mastra.createdAt = 1796229999999))],
    ["no Mastra time stamp at all (this package's own scorers send none)", edit((c) => delete c.prompt[1].content[0].providerOptions)],
    ["other notes under Mastra's namespace, on a message", edit((c) => (c.prompt[1].providerOptions = { mastra: { channels: { slack: { messageId: 'm-1' } } } }))],
    ["Mastra's namespace on the call", { ...base(), providerOptions: { mastra: { runId: 'r-1' } } }],
    ['empty provider options', edit((c) => (c.prompt[1].content[1].providerOptions = {}))],
    ['headers', { ...base(), headers: { 'x-trace-id': 'abc', authorization: 'Bearer x' } }],
    ['an abort signal', { ...base(), abortSignal: new AbortController().signal }],
    ['includeRawChunks', { ...base(), includeRawChunks: true }],
    ['message and part ids', edit((c) => ((c.prompt[1].id = 'msg-1'), (c.prompt[1].content[1].id = 'part-9')))],
    ['the order of object keys', Object.fromEntries(Object.entries(base()).reverse())],
    ['the provider suffix (openai.responses and openai.chat are one family)', base()],
  ];
  const reference = key(base());
  it.each(same)('%s', (name, call) => {
    const model = name.startsWith('the provider suffix') ? { ...MODEL, provider: 'openai.chat' } : MODEL;
    expect(key(call, model)).toBe(reference);
  });

  it('tool call ids, random per run, count by their place in the prompt; which result answers which call still counts', () => {
    expect(key(withTools(['call_Xy12', 'call_Pq34']))).toBe(key(withTools(['toolu_0199', 'toolu_0200'])));
    expect(key(withTools(['call_Xy12', 'call_Pq34']))).not.toBe(reference);
    expect(key(withTools(['call_Xy12', 'call_Pq34'], ['call_Pq34', 'call_Xy12']))).not.toBe(key(withTools(['call_Xy12', 'call_Pq34'])));
  });

  it('stays a SHA-256 of a canonical JSON (sorted keys) of provider family, model id and the kept options', () => {
    const call = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'q', providerOptions: { mastra: { createdAt: 1 } } }] }], temperature: 0, headers: { a: '1' } };
    const material = { v: 1, provider: 'openai', modelId: 'gpt-4o-mini', options: { prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], temperature: 0 } };
    expect(canonicalJson(material)).toBe('{"modelId":"gpt-4o-mini","options":{"prompt":[{"content":[{"text":"q","type":"text"}],"role":"user"}],"temperature":0},"provider":"openai","v":1}');
    expect(key(call)).toBe(sha256Hex(canonicalJson(material)));
  });
});

describe('judge cache key: end to end', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'judge-cache-key-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('a request stamped at another time is a hit; one with another temperature is a miss', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'text', text: '{"score": 1}' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(), warnings: [] }),
    });
    const judge = cachedJudge(model, { file: path.join(dir, 'cache.jsonl') });
    const stamped = (createdAt: number, temperature = 0) => ({
      prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Score it', providerOptions: { mastra: { createdAt } } }] }],
      temperature,
    });
    await judge.doGenerate(stamped(1000));
    const later = await judge.doGenerate(stamped(2000));
    expect(later.providerMetadata['agent-scorers'].judgeCache.hit).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(1);
    // The model itself got the request as sent, stamp and all: only the key leaves it out.
    expect(model.doGenerateCalls[0].prompt[0].content[0]).toMatchObject({ providerOptions: { mastra: { createdAt: 1000 } } });
    await judge.doGenerate(stamped(3000, 0.5));
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});

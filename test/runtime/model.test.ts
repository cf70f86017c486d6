import { afterEach, describe, expect, it } from 'vitest';
import { createScorer } from '../../src/runtime/index.js';
import { parseJsonLenient, checkJsonSchema } from '../../src/runtime/judge/json.js';
import { callJudge, resolveModel } from '../../src/runtime/judge/model.js';

const savedKey = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
});

describe('model strings', () => {
  it('resolves "openai/<model>" through @ai-sdk/openai when OPENAI_API_KEY is set (no network call)', async () => {
    process.env.OPENAI_API_KEY = 'sk-test-not-used';
    const model = await resolveModel('openai/gpt-4o-mini');
    expect(model.modelId).toBe('gpt-4o-mini');
    expect(model.provider).toMatch(/^openai/);
    expect(model.specificationVersion).toBe('v3');
  });

  it('names the API-key variable when it is missing', async () => {
    delete process.env.OPENAI_API_KEY;
    await expect(resolveModel('openai/gpt-4o')).rejects.toThrow(/OPENAI_API_KEY environment variable \(read by @ai-sdk\/openai\)/);
  });

  it('names the package to install when the provider package is missing', async () => {
    await expect(resolveModel('anthropic/claude-sonnet-4')).rejects.toThrow(/needs the package @ai-sdk\/anthropic.*npm install @ai-sdk\/anthropic/);
    await expect(resolveModel('some-vendor/x')).rejects.toThrow(/@ai-sdk\/some-vendor/);
  });

  it('rejects strings without a provider and values that are not models, at scorer creation', () => {
    expect(() => createScorer({ id: 's', description: 'd', judge: { model: 'gpt-4o', instructions: 'i' } })).toThrow(
      /must look like 'provider\/model-id'/,
    );
    expect(() => createScorer({ id: 's', description: 'd', judge: { model: {} as any, instructions: 'i' } })).toThrow(
      /AI SDK language model object or a 'provider\/model-id' string/,
    );
  });
});

describe('callJudge', () => {
  it('accepts a specification v2 model object and reports its usage', async () => {
    const calls: any[] = [];
    const v2 = {
      specificationVersion: 'v2' as const,
      provider: 'legacy',
      modelId: 'old-1',
      supportedUrls: {},
      async doGenerate(options: any) {
        calls.push(options);
        return {
          content: [{ type: 'text', text: '{"ok": true}' }],
          finishReason: 'stop',
          usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
          warnings: [],
        };
      },
      async doStream() {
        throw new Error('not used');
      },
    };
    const response = await callJudge({
      model: v2,
      prompt: 'say ok',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    expect(response.value).toEqual({ ok: true });
    expect(response.usage).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
    expect(response.modelCalls).toBe(1);
    expect(calls[0].temperature).toBe(0);
    expect(calls[0].responseFormat.type).toBe('json');
  });
});

describe('lenient JSON', () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    ['```json\n{"a": 1}\n```', { a: 1 }],
    ['```\n[1, 2]\n```', [1, 2]],
    ['Sure, here it is: {"a": {"b": "}"}} -- done', { a: { b: '}' } }],
    ['{"a": [1, 2,],}', { a: [1, 2] }],
  ])('reads %j', (text, value) => {
    expect(parseJsonLenient(text)).toEqual({ ok: true, value });
  });

  it.each(['', 'no json here', '{"a": '])('refuses %j', (text) => {
    expect(parseJsonLenient(text).ok).toBe(false);
  });

  it('checks the JSON Schema subset', () => {
    const schema = { type: 'object', properties: { xs: { type: 'array', items: { type: 'string' } } }, required: ['xs'] };
    expect(checkJsonSchema(schema, { xs: ['a'] })).toBeNull();
    expect(checkJsonSchema(schema, {})).toBe('reply.xs is missing');
    expect(checkJsonSchema(schema, { xs: ['a', 2] })).toBe('reply.xs[1] must be string, got number');
  });
});

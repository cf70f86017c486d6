/**
 * The registry helper's run-time diagnostics: levels from the build (off / warning / error), an
 * Agent config recognised by shape, CONFIG_INVALID_SCORERS for values only evaluation shows.
 */
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createResolver, defineAgent, defineRegistry, mergeScorers } from '../../src/runtime/registry.js';

const scorer = (id: string) => ({ id, run: async () => ({ score: 1 }) });
let warnings: string[];
let spy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warnings = [];
  spy = vi.spyOn(console, 'warn').mockImplementation((text: unknown) => void warnings.push(String(text)));
});
afterEach(() => spy.mockRestore());

// Each test uses its own agent name: run-time warnings print once per process.
describe('levels reach run-time warnings', () => {
  const collide = (agent: string, levels?: object) =>
    defineAgent(agent, `agents/${agent}/`, [['k', scorer('file'), 'k.ts']], { scorers: { k: scorer('config') } }, 'config.ts', levels as never);

  test('a plain warning prints once', () => {
    collide('lv-warn');
    collide('lv-warn');
    expect(warnings).toEqual([
      '[SCORER_KEY_COLLISION] Agent "lv-warn": scorer "k" defined in both config.scorers and scorers/; config.scorers wins. (agents/lv-warn/config.ts)',
    ]);
  });

  test("'off' is silent and the merge still happens; 'error' throws with code and file", () => {
    expect((collide('lv-off', { SCORER_KEY_COLLISION: 'off' }) as any).k.scorer.id).toBe('config');
    expect(warnings).toEqual([]);
    expect(() => collide('lv-error', { SCORER_KEY_COLLISION: 'error' })).toThrow(
      '[SCORER_KEY_COLLISION] Agent "lv-error": scorer "k" defined in both config.scorers and scorers/; config.scorers wins. (agents/lv-error/config.ts)',
    );
    expect(() => collide('lv-error2', { SCORER_KEY_COLLISION: 'error' })).toThrow(expect.objectContaining({ code: 'SCORER_KEY_COLLISION', file: 'agents/lv-error2/config.ts' }));
  });

  test('mergeScorers (no levels) keeps reporting through onWarn', () => {
    const seen: string[] = [];
    mergeScorers('lv-merge', { a: scorer('f') }, () => ({}), { onWarn: (m) => seen.push(m) });
    expect(seen).toEqual(['[CONFIG_SCORERS_FUNCTION] Agent "lv-merge": config.scorers is a function, so discovered scorers under lv-merge/scorers/ are ignored.']);
  });
});

describe('a config that is an Agent at run time', () => {
  const model = new MockLanguageModelV3();
  const own = scorer('agent-own');
  const agent = new Agent({ id: 'x', name: 'x', instructions: 'x', model, scorers: { own: { scorer: own as never, sampling: { type: 'none' } } } });

  test('is recognised by shape: a function form resolving to its own scorers, warned once when files were bundled', async () => {
    const resolved = defineAgent('ag-files', 'agents/ag-files/', [['f', scorer('file'), 'f.ts']], agent, 'config.ts');
    expect(typeof resolved).toBe('function');
    expect(warnings).toEqual([
      '[CONFIG_EXPORTS_AGENT] Agent "ag-files": config.ts exports a new Agent(), so discovered scorers under agents/ag-files/scorers/ are ignored. (agents/ag-files/config.ts)',
    ]);
    const resolveScorers = createResolver(defineRegistry([['ag-files', resolved]]));
    const record = await resolveScorers('ag-files');
    expect(Object.keys(record)).toEqual(['own']);
    expect(record.own.scorer).toBe(own);
    expect(record).toEqual(await agent.listScorers());
  });

  test('a structural copy of an Agent counts too (another copy of @mastra/core); files the build left out are not warned again', async () => {
    const lookalike = { listScorers: async () => ({ a: { scorer: own } }), generate() {}, getInstructions() {} };
    const resolved = defineAgent('ag-shape', 'agents/ag-shape/', [['f', 'f.ts']], lookalike, 'config.js');
    expect(warnings).toEqual([]);
    expect(Object.keys(await (resolved as any)({}))).toEqual(['a']);
    // A plain config that merely has a listScorers field is not an Agent.
    expect(() => defineAgent('ag-plain', 'agents/ag-plain/', [], { listScorers: () => ({}), scorers: {} }, 'config.ts')).not.toThrow();
    expect(typeof defineAgent('ag-plain2', 'agents/ag-plain2/', [], { listScorers: () => ({}), scorers: {} }, 'config.ts')).toBe('object');
  });

  test("CONFIG_EXPORTS_AGENT follows the levels: 'off' silent, 'error' throws", () => {
    const files = [['f', scorer('file'), 'f.ts']] as const;
    defineAgent('ag-off', 'agents/ag-off/', files, agent, 'config.ts', { CONFIG_EXPORTS_AGENT: 'off' });
    expect(warnings).toEqual([]);
    expect(() => defineAgent('ag-err', 'agents/ag-err/', files, agent, 'config.ts', { CONFIG_EXPORTS_AGENT: 'error' })).toThrow('[CONFIG_EXPORTS_AGENT] Agent "ag-err"');
  });
});

describe('CONFIG_INVALID_SCORERS at run time', () => {
  const define = (scorers: unknown) => () => defineAgent('inv', 'agents/inv/', [], { scorers }, 'config.ts');

  test.each([
    [42, 'a number'],
    ['x', 'a string'],
    [true, 'a boolean'],
    [[scorer('a')], 'an array'],
  ])('config.scorers = %o throws, saying what it is', (value, what) => {
    expect(define(value)).toThrow(`[CONFIG_INVALID_SCORERS] Agent "inv": config.scorers is ${what}, not a record or a function. (agents/inv/config.ts)`);
  });

  test.each([
    [{ x: 'str' }, 'x', 'a string'],
    [{ x: 42 }, 'x', 'a number'],
    [{ x: { scorer: 'str' } }, 'x', 'an object whose "scorer" is a string'],
    [JSON.parse('{"__proto__":null}'), '__proto__', 'null'],
  ])('a record value %o throws naming the key', (value, key, what) => {
    expect(define(value)).toThrow(
      `[CONFIG_INVALID_SCORERS] Agent "inv": config.scorers[${JSON.stringify(key)}] is ${what}, not a scorer or a { scorer, sampling } entry. (agents/inv/config.ts)`,
    );
  });

  test('a function form that returns no record, or a bad value, throws when resolved', async () => {
    const resolve = (fn: unknown) => createResolver(defineRegistry([['fn', fn as never]]))('fn');
    await expect(resolve(() => [scorer('a')])).rejects.toThrow('[CONFIG_INVALID_SCORERS] Agent "fn": config.scorers() returned an array, not a record.');
    await expect(resolve(() => ({ a: 1 }))).rejects.toThrow('[CONFIG_INVALID_SCORERS] Agent "fn": config.scorers()["a"] is a number, not a scorer or a { scorer, sampling } entry.');
  });
});

describe('resolveScorers without a request context', () => {
  test("a function form gets an empty context with Mastra's RequestContext API", async () => {
    let seen: any;
    const fn = defineAgent('rc-fn', 'agents/rc-fn/', [], {
      scorers: ({ requestContext }: { requestContext: any }) => {
        seen = requestContext;
        return { k: scorer(`size ${requestContext.size()} lang ${requestContext.get('lang') ?? 'none'}`) };
      },
    }, 'config.ts');
    const resolveScorers = createResolver(defineRegistry([['rc-fn', fn]]));
    expect((await resolveScorers('rc-fn')).k.scorer.id).toBe('size 0 lang none');
    seen.set('lang', 'fr');
    expect([seen.has('lang'), seen.size(), seen.toJSON(), [...seen.keys()]]).toEqual([true, 1, { lang: 'fr' }, ['lang']]);
    // A context of the caller's is passed as it is.
    const given = new Map([['lang', 'de']]);
    expect((await resolveScorers('rc-fn', { requestContext: { get: (k: string) => given.get(k), size: () => 7 } })).k.scorer.id).toBe('size 7 lang de');
  });

  test('a new Agent() config gets none, so Mastra makes its own', async () => {
    const calls: unknown[] = [];
    const lookalike = { listScorers: async (options: unknown) => (calls.push(options), { k: { scorer: scorer('a') } }), generate: () => {}, getInstructions: () => '' };
    const resolveScorers = createResolver(defineRegistry([['rc-agent', defineAgent('rc-agent', 'agents/rc-agent/', [], lookalike, 'config.ts')]]));
    expect(Object.keys(await resolveScorers('rc-agent'))).toEqual(['k']);
    expect(calls).toEqual([{ requestContext: undefined }]);
  });
});

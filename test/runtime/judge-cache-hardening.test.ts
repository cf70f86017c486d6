import { spawn, spawnSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedJudge, JudgeCacheMiss } from '../../src/runtime/index.js';
import { judgeCacheKey } from '../../src/runtime/judge/judge-cache.js';
import { lockTiming } from '../../src/runtime/judge/judge-cache-store.js';
import { unprivileged } from '../helpers/unprivileged.js';
import { usage } from './helpers.js';

const STORES = Symbol.for('agent-scorers.judge-cache.stores');
let dir: string;
const timing = { ...lockTiming };
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'judge-cache-hard-'));
});
afterEach(async () => {
  Object.assign(lockTiming, timing);
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A mock judge answering `reply to <prompt>`, counting its calls; `during` runs inside each call. */
function judgeModel(during?: () => void | Promise<void>) {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      await during?.();
      const text = (call.prompt.at(-1)?.content as any[])[0].text;
      return { content: [{ type: 'text', text: `reply to ${text}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(12, 7), warnings: [] };
    },
  });
}
const request = (text: string) => ({ prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }] });
const lines = async (file: string) => (await fs.readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line));
/** A store is per file per process: forget it, as a new process would start. */
const forgetStores = () => (globalThis as any)[STORES].clear();

const KEY = 'a'.repeat(64);
const valid = { key: KEY, provider: 'mock-provider', modelId: 'mock-model-id', prompt: 'q', text: 'recorded', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } };
const { usage: _usage, ...withoutUsage } = valid;

describe('judge cache: every record is checked on load', () => {
  const bad: Array<[string, unknown, string]> = [
    ['a record without usage', withoutUsage, '"usage" is missing'],
    ['token counts that are not numbers', { ...valid, usage: { ...valid.usage, inputTokens: 'lots' } }, '"usage.inputTokens" must be a whole number of tokens, got "lots"'],
    ['negative token counts', { ...valid, usage: { ...valid.usage, totalTokens: -1 } }, '"usage.totalTokens" must be a whole number of tokens, got -1'],
    ['a usage without a field', { ...valid, usage: { inputTokens: 1, outputTokens: 1 } }, '"usage.totalTokens" is missing'],
    ['a usage that is a number', { ...valid, usage: 5 }, '"usage" must be { inputTokens, outputTokens, totalTokens }, got 5'],
    ['junk inside usage', { ...valid, usage: { ...valid.usage, cost: 1 } }, 'unexpected field "usage.cost"'],
    ['a reply that is not a string', { ...valid, text: 42 }, '"text" must be a string, got 42'],
    ['a missing provider', { ...valid, provider: undefined }, '"provider" is missing'],
    ['a model id that is null', { ...valid, modelId: null }, '"modelId" must be a string, got null'],
    ['a finish reason that is an object', { ...valid, finishReason: { unified: 'stop' } }, '"finishReason" must be a string, got {"unified":"stop"}'],
    ['a key that is not a SHA-256', { ...valid, key: 'abc' }, '"key" must be a SHA-256 (64 lowercase hex digits), got "abc"'],
    ['extra junk', { ...valid, note: 'hand edit' }, 'unexpected field "note"'],
    ['an array', [valid], 'it is an array, not a record'],
    ['a string', 'hello', 'it is "hello", not a record'],
    ['null', null, 'it is null, not a record'],
  ];
  it.each(bad)('%s is an error naming the file and the line, before any model call', async (_name, record, problem) => {
    const file = path.join(dir, 'cache.jsonl');
    // Line 1 is fine, line 2 is blank (skipped, still counted), line 3 is the bad one.
    await fs.writeFile(file, `${JSON.stringify(valid)}\n\n${JSON.stringify(record)}\n`);
    for (const mode of ['auto', 'record', 'replay'] as const) {
      forgetStores();
      const model = judgeModel();
      const error = await cachedJudge(model, { file, mode }).doGenerate(request('new question')).catch((e) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error.message).toBe(`agent-scorers: judge cache ${file} line 3 is not a whole judge cache record: ${problem}`);
      expect(model.doGenerateCalls).toHaveLength(0);
    }
  });

  it('names the file as given (a relative path or a file URL), never the absolute path behind it', async () => {
    await fs.mkdir(path.join(dir, 'evals'));
    await fs.writeFile(path.join(dir, 'evals/cache.jsonl'), `${JSON.stringify(withoutUsage)}\n`);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const relative = await cachedJudge(judgeModel(), { file: 'evals/cache.jsonl' }).doGenerate(request('q')).catch((e) => e);
      expect(relative.message).toBe('agent-scorers: judge cache evals/cache.jsonl line 1 is not a whole judge cache record: "usage" is missing');
      forgetStores();
      const url = pathToFileURL(path.join(dir, 'evals/cache.jsonl'));
      const fromUrl = await cachedJudge(judgeModel(), { file: url }).doGenerate(request('q')).catch((e) => e);
      expect(fromUrl.message).toBe(`agent-scorers: judge cache ${path.join('evals', 'cache.jsonl')} line 1 is not a whole judge cache record: "usage" is missing`);
      expect(fromUrl.message).not.toContain(dir);
    } finally {
      process.chdir(cwd);
    }
  });

  it('replays a valid hand-written record (any finish reason, a byte-order mark, CRLF line ends) without a TypeError', async () => {
    const file = path.join(dir, 'hand.jsonl');
    const req = request('the question');
    const key = judgeCacheKey({ provider: 'mock-provider', modelId: 'mock-model-id' }, req);
    const record = { ...valid, key, finishReason: 'made-up-reason', text: 'from the file' };
    await fs.writeFile(file, `\uFEFF${JSON.stringify({ ...valid, key: 'b'.repeat(64) })}\r\n${JSON.stringify(record)}\r\n`);
    const model = judgeModel();
    const reply = await cachedJudge(model, { file, mode: 'replay' }).doGenerate(req);
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(reply.content).toEqual([{ type: 'text', text: 'from the file' }]);
    expect(reply.finishReason).toEqual({ unified: 'other', raw: 'made-up-reason' });
    expect(reply.usage.inputTokens.total).toBe(3);
    expect(reply.usage.outputTokens.total).toBe(2);
  });

  it('a cache path that is a folder is a clear error naming it, before any model call', async () => {
    const file = path.join(dir, 'folder.jsonl');
    await fs.mkdir(file);
    const model = judgeModel();
    const error = await cachedJudge(model, { file }).doGenerate(request('q')).catch((e) => e);
    expect(error.message).toBe(`agent-scorers: could not read the judge cache ${file}: it is a folder, not a file (EISDIR)`);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('judge cache: what would stop the write is found before the model is called', () => {
  it('a lock held by a live eval (another process): waits, then a clear error naming the lock and the process; 0 calls', async () => {
    lockTiming.waitMs = 300;
    const file = path.join(dir, 'held.jsonl');
    // A live process that holds the lock, as a running eval in another terminal would.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await fs.writeFile(`${file}.lock`, String(holder.pid));
      const model = judgeModel();
      const judge = cachedJudge(model, { file });
      // Concurrent misses share the check, and each of them fails without a call.
      const errors = await Promise.all(['a', 'b', 'a'].map((text) => judge.doGenerate(request(text)).catch((e) => e)));
      for (const error of errors) {
        expect(error.message).toBe(
          `agent-scorers: cannot record judge replies in ${file}: process ${holder.pid}, which is still running, has held the lock ${file}.lock for over 300 ms; remove that file if no eval is running. Nothing was sent to the model.`,
        );
      }
      expect(model.doGenerateCalls).toHaveLength(0);
      // A live writer's lock is not taken from it.
      expect(await fs.readFile(`${file}.lock`, 'utf8')).toBe(String(holder.pid));
      expect(fsSync.existsSync(file)).toBe(false);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a lock that its live holder lets go of while a request waits: the request then calls and records', async () => {
    const file = path.join(dir, 'released.jsonl');
    await fs.writeFile(`${file}.lock`, String(process.pid)); // held by a live process: this one
    const model = judgeModel();
    const pending = cachedJudge(model, { file }).doGenerate(request('waited'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(model.doGenerateCalls).toHaveLength(0); // nothing is paid for while the write could not happen
    await fs.rm(`${file}.lock`);
    const reply = await pending;
    expect(reply.content[0].text).toBe('reply to waited');
    expect(model.doGenerateCalls).toHaveLength(1);
    expect((await lines(file)).map((r) => r.text)).toEqual(['reply to waited']);
    expect(fsSync.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock path that is a folder is a clear error naming it; 0 calls', async () => {
    const file = path.join(dir, 'it\'s "${x}" \\ ünï 東京.jsonl');
    await fs.mkdir(`${file}.lock`);
    const model = judgeModel();
    const error = await cachedJudge(model, { file }).doGenerate(request('q')).catch((e) => e);
    expect(error.message).toBe(
      `agent-scorers: cannot record judge replies in ${file}: the lock ${file}.lock is a folder (or another non-file); remove it. Nothing was sent to the model.`,
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a folder path that runs through a file is a clear error; 0 calls', async () => {
    await fs.writeFile(path.join(dir, 'plain'), '');
    const file = path.join(dir, 'plain', 'cache.jsonl');
    const model = judgeModel();
    const error = await cachedJudge(model, { file }).doGenerate(request('q')).catch((e) => e);
    expect(error.message).toBe(`agent-scorers: could not read the judge cache ${file}: a part of its folder path is a file (ENOTDIR)`);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('replay mode and cache hits need no write, so they check nothing and work with a lock held', async () => {
    const file = path.join(dir, 'hits.jsonl');
    const model = judgeModel();
    await cachedJudge(model, { file }).doGenerate(request('known'));
    await fs.mkdir(`${file}.lock`);
    forgetStores();
    expect((await cachedJudge(model, { file }).doGenerate(request('known'))).content[0].text).toBe('reply to known');
    const miss = await cachedJudge(model, { file, mode: 'replay' }).doGenerate(request('unknown')).catch((e) => e);
    expect(miss).toBeInstanceOf(JudgeCacheMiss);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

// Root ignores file permissions, so these run as `nobody`, from a copy of the package it can reach
// when the checkout is root-only. Not root: file modes already apply.
const user = unprivileged();
afterAll(() => ('cleanup' in user ? user.cleanup() : undefined));
const nobodySkip = process.getuid?.() !== 0 ? 'needs root on Linux to switch to the nobody user' : 'skip' in user ? user.skip : undefined;

describe.skipIf(nobodySkip !== undefined)(`judge cache: a folder that cannot be written (as a non-root user)${nobodySkip ? `: skipped, ${nobodySkip}` : ''}`, () => {
  const runAsNobody = (file: string) => {
    if ('skip' in user) throw new Error(user.skip);
    const { dist } = user;
    const script = `
import { cachedJudge } from ${JSON.stringify(pathToFileURL(path.join(dist, 'runtime/index.js')).href)};
let calls = 0;
const model = { specificationVersion: 'v3', provider: 'mock-provider', modelId: 'mock-model-id', supportedUrls: {},
  doGenerate: async (call) => { calls++; return { content: [{ type: 'text', text: 'reply to ' + call.prompt[0].content[0].text }],
    finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] }; } };
const judge = cachedJudge(model, { file: process.argv[1] });
const ask = (text) => judge.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] }).then((r) => r.content[0].text, (e) => 'error: ' + e.message);
const known = await ask('known');
const fresh = await ask('fresh');
console.log(JSON.stringify({ known, fresh, calls }));
`;
    const [command, args] = user.node(['--input-type=module', '-e', script, file]);
    const run = spawnSync(command, args, { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as { known: string; fresh: string; calls: number };
  };

  it('a read-only folder: recorded replies still replay; a new request is a clear error with 0 calls', async () => {
    const folder = path.join(dir, 'read-only');
    const file = path.join(folder, 'cache.jsonl');
    await cachedJudge(judgeModel(), { file }).doGenerate(request('known'));
    await fs.chmod(dir, 0o755);
    await fs.chmod(file, 0o644);
    await fs.chmod(folder, 0o555);
    const result = runAsNobody(file);
    expect(result).toEqual({
      known: 'reply to known',
      fresh: `error: agent-scorers: cannot record judge replies in ${file}: its folder is not writable (EACCES). Nothing was sent to the model.`,
      calls: 0,
    });
  });

  it('a cache file that cannot be read: a clear error with 0 calls', async () => {
    const file = path.join(dir, 'secret.jsonl');
    await cachedJudge(judgeModel(), { file }).doGenerate(request('known'));
    await fs.chmod(dir, 0o755);
    await fs.chmod(file, 0o600);
    const result = runAsNobody(file);
    expect(result).toEqual({
      known: `error: agent-scorers: could not read the judge cache ${file}: it cannot be read (EACCES)`,
      fresh: `error: agent-scorers: could not read the judge cache ${file}: it cannot be read (EACCES)`,
      calls: 0,
    });
  });

  it('a folder that cannot be created: a clear error with 0 calls', async () => {
    const parent = path.join(dir, 'locked-parent');
    await fs.mkdir(parent, { mode: 0o555 });
    await fs.chmod(dir, 0o755);
    const file = path.join(parent, 'evals', 'cache.jsonl');
    const result = runAsNobody(file);
    expect(result.calls).toBe(0);
    expect(result.fresh).toBe(`error: agent-scorers: cannot record judge replies in ${file}: its folder cannot be created (EACCES). Nothing was sent to the model.`);
  });
});

describe('judge cache: a write that still fails after the call returns the reply with one warning', () => {
  const cases: Array<[string, (file: string) => void, (file: string) => string]> = [
    ['the cache path became a folder', (file) => fsSync.mkdirSync(file), () => 'it is a folder, not a file (EISDIR)'],
    ['the lock path became a folder', (file) => fsSync.mkdirSync(`${file}.lock`), (file) => `the lock ${file}.lock is a folder (or another non-file); remove it`],
  ];
  it.each(cases)('%s during the call', async (_name, breakIt, reason) => {
    const file = path.join(dir, 'broken.jsonl');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = judgeModel(() => breakIt(file));
    const judge = cachedJudge(model, { file });
    const replies = await Promise.all([judge.doGenerate(request('paid')), judge.doGenerate(request('paid'))]);
    for (const reply of replies) expect(reply.content).toEqual([{ type: 'text', text: 'reply to paid' }]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(warn.mock.calls).toEqual([
      [
        `agent-scorers: could not write the judge cache ${file}: ${reason(file)}. The reply is used in this run; it is written with the next record, or asked for again next run.`,
      ],
    ]);
    // The reply is kept in memory: asked again in this process, it is a hit.
    const again = await judge.doGenerate(request('paid'));
    expect(again.providerMetadata['agent-scorers'].judgeCache.hit).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect((await fs.readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('another writer left a line that is not a record during the call: that file is not written over, and the reply is kept', async () => {
    const file = path.join(dir, 'clobbered.jsonl');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = judgeModel(() => fsSync.writeFileSync(file, '<<<<<<< HEAD\n'));
    const reply = await cachedJudge(model, { file }).doGenerate(request('paid'));
    expect(reply.content).toEqual([{ type: 'text', text: 'reply to paid' }]);
    expect(warn.mock.calls).toEqual([
      [
        `agent-scorers: could not write the judge cache ${file}: judge cache ${file} line 1 is not JSON (a merge conflict?): <<<<<<< HEAD. The reply is used in this run; it is written with the next record, or asked for again next run.`,
      ],
    ]);
    expect(await fs.readFile(file, 'utf8')).toBe('<<<<<<< HEAD\n');
  });
});

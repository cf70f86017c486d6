/**
 * `cachedJudge(model, { file, mode })`: recorded judge replies, so an eval run in CI is repeatable
 * and pays only for what changed.
 *
 * The work is done by `judgeCacheMiddleware`, an AI SDK language-model middleware (`wrapGenerate`,
 * `wrapStream`) that users of `wrapLanguageModel` can also apply themselves. `cachedJudge` applies it
 * itself, so that it can be made synchronously at import time without loading `ai` (the runtime loads
 * `ai` lazily) and so that a `'provider/model'` string is resolved only when a request must be sent.
 *
 * - Key: SHA-256 of canonical JSON (sorted keys) of what decides the reply; see `judgeCacheKey`.
 * - File: JSON Lines, one record per key, sorted by key, rewritten whole through a temporary file and a
 *   rename, so a killed write leaves the previous file. No machine path is written.
 * - One store per file per process (shared through `globalThis`, so two copies of this module, e.g.
 *   Vite's SSR one and Node's, still share it); writes are serialised and concurrent identical
 *   requests share one model call.
 * - `node:fs` is imported inside the functions that touch the file: a browser or edge bundle that
 *   never calls a cached judge never loads it.
 */
import { sha256Hex } from '../sha256.js';
import { describeModel, JUDGE_CACHE_HEADER, readOnlyModel, resolveModel, type ModelInput } from './model.js';
import { openStore, type JudgeCacheRecord } from './judge-cache-store.js';
import { reportJudgeReply } from './judge-cache-tracker.js';
import { describeNearest, nearestRecord, type JudgeCacheNearest, type RequestText } from './judge-cache-nearest.js';

export type { JudgeCacheRecord, JudgeCacheNearest };

export type JudgeCacheMode = 'auto' | 'replay' | 'record' | 'off';

export interface JudgeCacheOptions {
  /**
   * The JSON Lines file holding the records, e.g. `'evals/judge-cache.jsonl'` (relative to the working
   * directory) or `new URL('./judge-cache.jsonl', import.meta.url)`. Commit it.
   */
  file: string | URL;
  /**
   * `'auto'` (default): answer from the file, else call the model and record the reply. `'replay'`:
   * never call the model; a request not in the file throws `JudgeCacheMiss`. `'record'`: always call
   * and overwrite the record. `'off'`: no cache. The environment variable `AGENT_SCORERS_JUDGE_CACHE`
   * (same values) overrides this for a whole run.
   */
  mode?: JudgeCacheMode;
}

/** The model returned by `cachedJudge`: an AI SDK language model (spec v3). */
export interface CachedJudge {
  readonly specificationVersion: 'v3';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> | PromiseLike<Record<string, RegExp[]>>;
  /** The file as given. */
  readonly file: string | URL;
  /** The mode as given; `AGENT_SCORERS_JUDGE_CACHE` may override it at call time. */
  readonly mode: JudgeCacheMode;
  doGenerate(options: any): Promise<any>;
  doStream(options: any): Promise<any>;
}

/**
 * In `replay` mode, a request that is not in the cache file. Nothing was sent to the model. `nearest`
 * is the recorded request of the same model closest to it, and where the two first differ (absent
 * when the file holds no request of that model).
 */
export class JudgeCacheMiss extends Error {
  constructor(
    readonly file: string,
    readonly key: string,
    readonly preview: string,
    fileMissing: boolean,
    readonly nearest?: JudgeCacheNearest,
  ) {
    super(
      `agent-scorers: judge cache miss in replay mode: ${JSON.stringify(preview)} is not recorded in ${file}` +
        (fileMissing ? ' (the file does not exist)' : '') +
        '.' +
        (nearest ? describeNearest(nearest) : '') +
        ` Record it by running once with AGENT_SCORERS_JUDGE_CACHE=auto (or record) and commit the file.`,
    );
    this.name = 'JudgeCacheMiss';
  }
}

export const JUDGE_CACHE_ENV = 'AGENT_SCORERS_JUDGE_CACHE';
const MODES: readonly JudgeCacheMode[] = ['auto', 'replay', 'record', 'off'];
// Bump when the key material changes shape, so old records miss instead of answering the wrong request.
const KEY_VERSION = 1;

/** The mode for this call: the environment variable, when set, wins over the option. */
function effectiveMode(option: JudgeCacheMode): JudgeCacheMode {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[JUDGE_CACHE_ENV];
  if (env === undefined || env.trim() === '') return option;
  const value = env.trim().toLowerCase() as JudgeCacheMode;
  if (!MODES.includes(value)) {
    throw new Error(`agent-scorers: ${JUDGE_CACHE_ENV} must be one of ${MODES.join(', ')}; got ${JSON.stringify(env)}`);
  }
  return value;
}

/** JSON with object keys sorted at every level; bytes as base64, URLs and dates as strings, functions dropped. */
export function canonicalJson(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
    }
    if (v instanceof Uint8Array) return { $bytes: bytesToBase64(v) };
    if (v instanceof URL) return v.href;
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v)) return v.map((item) => walk(item) ?? null);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) {
      const item = walk((v as Record<string, unknown>)[key]);
      if (item !== undefined) out[key] = item;
    }
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/*
 * What decides a judge's reply, and so is in the key:
 * - the provider family and the model id;
 * - the prompt: each message's role and content (text, files and their media types, reasoning, tool
 *   calls and results) and the provider options of messages and parts;
 * - every call setting: response format and its schema, temperature, maxOutputTokens, topP, topK,
 *   presence and frequency penalties, seed, stop sequences, tools, tool choice, provider options. A
 *   setting this list does not know (a newer AI SDK's) counts too: a needless miss costs one call,
 *   a wrong hit gives a wrong score.
 * What is bookkeeping, and left out:
 * - transport: `abortSignal`, `headers`, `includeRawChunks`;
 * - the `mastra` namespace of provider options, at every level: Mastra stamps each prompt part it
 *   sends with `providerOptions.mastra.createdAt` (the time) and keeps its own notes there; only a
 *   provider's own namespace (`openai`, `anthropic`...) reaches a model, and there is no `mastra`
 *   provider. Every other namespace stays, even options that may not change the reply, for the
 *   reason above. Provider options left empty count as none;
 * - ids: a message's or part's `id`, and tool call ids, which are random per run; a tool call id is
 *   replaced by its place in the prompt (`call-0`, `call-1`...), so which result answers which call
 *   still counts;
 * - the order of object keys (canonical JSON).
 */
const BOOKKEEPING_OPTIONS = new Set(['abortSignal', 'headers', 'includeRawChunks']);
const BOOKKEEPING_NAMESPACE = 'mastra';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof URL) && !(value instanceof Date);

/** Provider options without the bookkeeping namespace; undefined when nothing is left. */
function keyProviderOptions(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const kept = Object.entries(value).filter(([namespace]) => namespace !== BOOKKEEPING_NAMESPACE);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The prompt as it decides the reply: bookkeeping ids and namespaces out, tool call ids by place. */
function keyPrompt(prompt: unknown): unknown {
  if (!Array.isArray(prompt)) return prompt;
  const callIds = new Map<unknown, string>();
  const callId = (id: unknown) => {
    if (!callIds.has(id)) callIds.set(id, `call-${callIds.size}`);
    return callIds.get(id);
  };
  const entry = (value: unknown): unknown => {
    if (!isPlainObject(value)) return value;
    const { id: _id, providerOptions, ...rest } = value;
    const out: Record<string, unknown> = { ...rest, providerOptions: keyProviderOptions(providerOptions) };
    if (Object.hasOwn(rest, 'toolCallId')) out.toolCallId = callId(rest.toolCallId);
    return out;
  };
  return prompt.map((message) => {
    const kept = entry(message);
    if (isPlainObject(kept) && Array.isArray(kept.content)) kept.content = kept.content.map(entry);
    return kept;
  });
}

/** The cache key of a request to `provider/modelId` with these call options (see the comment above). */
export function judgeCacheKey(model: { provider: string; modelId: string }, params: Record<string, unknown>): string {
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (BOOKKEEPING_OPTIONS.has(name)) continue;
    options[name] = name === 'prompt' ? keyPrompt(value) : name === 'providerOptions' ? keyProviderOptions(value) : value;
  }
  // The provider family only: `openai('gpt-4o-mini')` reports `openai.responses`, while the string
  // `'openai/gpt-4o-mini'` names `openai`, and both must find the same records.
  const provider = model.provider.split('.')[0];
  return sha256Hex(canonicalJson({ v: KEY_VERSION, provider, modelId: model.modelId, options }));
}

// Built from its code: hosts print escapes in literals as the character, and the bundle stays ASCII (test/plugin/ascii.test.ts).
const ELLIPSIS = String.fromCharCode(0x2026);

/**
 * The last user message's first text, flattened: its start and its end, which is where prompts differ.
 * The first text only: Mastra appends a part with the same output-format instructions to every
 * structured prompt, and with it every preview would end alike.
 */
function promptPreview(params: any): string {
  const messages: any[] = Array.isArray(params?.prompt) ? params.prompt : [];
  const user = [...messages].reverse().find((m) => m?.role === 'user') ?? messages.at(-1);
  const content = user?.content;
  const first = Array.isArray(content) ? content.find((p: any) => p?.type === 'text' && typeof p.text === 'string' && p.text.trim() !== '') : undefined;
  const text = typeof content === 'string' ? content : (first?.text ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 160 ? flat : `${flat.slice(0, 60)} ${ELLIPSIS} ${flat.slice(-96)}`;
}

// A setting whose JSON is longer than this (a response schema, tool definitions) is shown by its hash:
// enough to see that it changed, without a copy in every record.
const LONG_SETTING = 200;

/**
 * The whole request as text, as a record's `fullPrompt` keeps it and a replay miss compares it: each
 * message under its role (`[system]`, `[user]`...), parts one per line, then `[settings]` with every
 * call setting. It is built from the request as the key sees it (ids, tool call ids and the `mastra`
 * namespace left out), so two requests with one key read the same; what differs between two keys shows.
 */
export function requestText(model: { provider: string; modelId: string }, params: any): RequestText {
  const sections: Array<[number, string]> = [];
  const blocks: string[] = [];
  let length = 0;
  let head = 0;
  let leading = true;
  const add = (label: string, body: string) => {
    const block = `[${label}]\n${body}`;
    const start = length + (blocks.length > 0 ? 2 : 0);
    sections.push([start, label]);
    blocks.push(block);
    length = start + block.length;
  };
  const prompt = keyPrompt(params?.prompt);
  for (const message of Array.isArray(prompt) ? (prompt as any[]) : []) {
    const role = String(message?.role ?? 'message');
    const parts = typeof message?.content === 'string' ? [message.content] : Array.isArray(message?.content) ? message.content.map(partText) : [canonicalJson(message?.content)];
    const options = message?.providerOptions !== undefined ? [`providerOptions: ${canonicalJson(message.providerOptions)}`] : [];
    add(role, [...parts, ...options].join('\n'));
    if (role === 'system' && leading) head = length;
    else leading = false;
  }
  const settings: string[] = [];
  for (const name of Object.keys(params ?? {}).sort()) {
    if (name === 'prompt' || BOOKKEEPING_OPTIONS.has(name)) continue;
    const json = canonicalJson(name === 'providerOptions' ? keyProviderOptions(params[name]) : params[name]);
    if (json === 'null' && params[name] === undefined) continue;
    settings.push(`${name}: ${json.length > LONG_SETTING ? `sha256:${sha256Hex(json).slice(0, 16)}` : json}`);
  }
  if (settings.length > 0) add('settings', settings.join('\n'));
  return { provider: model.provider, modelId: model.modelId, text: blocks.join('\n\n'), head, sections, preview: promptPreview(params) };
}

/** One part of a message as a line: text as it is, anything else as canonical JSON (bytes by their hash). */
function partText(part: any): string {
  if (!isPlainObject(part)) return canonicalJson(part);
  const { type, text, providerOptions, ...rest } = part;
  const options = providerOptions !== undefined ? ` providerOptions: ${canonicalJson(providerOptions)}` : '';
  if ((type === 'text' || type === 'reasoning') && typeof text === 'string') return `${type === 'reasoning' ? '(reasoning) ' : ''}${text}${options}`;
  const data = rest.data;
  if (data !== undefined && typeof data !== 'string' && !(data instanceof URL)) rest.data = `sha256:${sha256Hex(canonicalJson(data)).slice(0, 16)}`;
  else if (typeof data === 'string' && data.length > LONG_SETTING) rest.data = `sha256:${sha256Hex(data).slice(0, 16)}`;
  return `(${String(type)}) ${canonicalJson(rest)}${options}`;
}

const flatCount = (value: any): number => {
  const n = value !== null && typeof value === 'object' ? value.total : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
};

/**
 * A reply worth recording: text only (a judge that calls tools is passed through, unrecorded), and not
 * a failure (an error or filtered finish, or no text), which would otherwise be replayed for good.
 */
function recordable(result: any): { text: string; finishReason: string; usage: JudgeCacheRecord['usage'] } | undefined {
  const content: any[] = Array.isArray(result?.content) ? result.content : [];
  if (content.some((part) => part?.type !== 'text' && part?.type !== 'reasoning')) return undefined;
  const text = content.filter((part) => part.type === 'text').map((part) => String(part.text ?? '')).join('');
  const finish = result?.finishReason;
  const finishReason = typeof finish === 'string' ? finish : typeof finish?.unified === 'string' ? finish.unified : 'other';
  if (finishReason === 'error' || finishReason === 'content-filter' || text.trim() === '') return undefined;
  const inputTokens = flatCount(result?.usage?.inputTokens);
  const outputTokens = flatCount(result?.usage?.outputTokens);
  const totalTokens = flatCount(result?.usage?.totalTokens) || inputTokens + outputTokens;
  return { text, finishReason, usage: { inputTokens, outputTokens, totalTokens } };
}

/** Spec v2 results (string finish reason, flat usage) in spec v3's shape; v3 results unchanged. */
function asV3Result(result: any): any {
  if (!result || typeof result.finishReason !== 'string') return result;
  const u = result.usage ?? {};
  const unified = result.finishReason === 'unknown' ? 'other' : result.finishReason;
  return {
    ...result,
    finishReason: { unified, raw: result.finishReason },
    usage: {
      inputTokens: { total: u.inputTokens, noCache: undefined, cacheRead: u.cachedInputTokens, cacheWrite: undefined },
      outputTokens: { total: u.outputTokens, text: undefined, reasoning: u.reasoningTokens },
    },
  };
}

const V3_FINISH = new Set(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']);

function replayResult(record: JudgeCacheRecord): any {
  return {
    content: [{ type: 'text', text: record.text }],
    finishReason: { unified: V3_FINISH.has(record.finishReason) ? record.finishReason : 'other', raw: record.finishReason },
    usage: {
      inputTokens: { total: record.usage.inputTokens, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: record.usage.outputTokens, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
}

/** Marks where a reply came from, in provider metadata (for AI SDK users) and a response header (read by this package). */
function mark(result: any, key: string, hit: boolean): any {
  const meta = result.providerMetadata ?? {};
  return {
    ...result,
    providerMetadata: { ...meta, 'agent-scorers': { ...(meta['agent-scorers'] ?? {}), judgeCache: { hit, key } } },
    response: { ...(result.response ?? {}), headers: { ...(result.response?.headers ?? {}), [JUDGE_CACHE_HEADER]: hit ? 'hit' : 'miss' } },
  };
}

export interface JudgeCacheMiddleware {
  readonly specificationVersion: 'v3';
  wrapGenerate(args: { doGenerate: () => PromiseLike<any>; params: any; model: { provider: string; modelId: string } }): Promise<any>;
  wrapStream(args: { doGenerate: () => PromiseLike<any>; params: any; model: { provider: string; modelId: string } }): Promise<any>;
}

function checkOptions(options: JudgeCacheOptions, where: string): JudgeCacheMode {
  if (options === null || typeof options !== 'object') throw new TypeError(`${where}: takes { file, mode? }`);
  const { file, mode = 'auto' } = options;
  if (!(file instanceof URL) && (typeof file !== 'string' || file.trim() === '')) {
    throw new TypeError(`${where}: "file" must be a path or a file URL, e.g. 'evals/judge-cache.jsonl'`);
  }
  if (!MODES.includes(mode)) throw new TypeError(`${where}: "mode" must be one of ${MODES.join(', ')}; got ${JSON.stringify(mode)}`);
  return mode;
}

async function cachedGenerate(
  options: JudgeCacheOptions,
  modeOption: JudgeCacheMode,
  model: { provider: string; modelId: string },
  params: any,
  doGenerate: () => PromiseLike<any>,
): Promise<any> {
  const mode = effectiveMode(modeOption);
  if (mode === 'off') return asV3Result(await doGenerate());
  const store = await openStore(options.file);
  const key = judgeCacheKey(model, params);
  const known = store.records.get(key);
  if (known && mode !== 'record') {
    reportJudgeReply(true);
    return mark(replayResult(known), key, true);
  }
  if (mode === 'replay') {
    const request = requestText(model, params);
    throw new JudgeCacheMiss(store.shown, key, request.preview, store.fileMissing, nearestRecord(store.records.values(), request));
  }

  // Identical requests in flight share one model call; the others are answered as cache hits.
  const running = store.inflight.get(key);
  if (running) {
    // The first caller's failure (or abort: its signal is not part of the key) is not ours: ask ourselves.
    const shared = await running.catch(() => undefined);
    if (shared) {
      reportJudgeReply(true);
      return mark(replayResult(shared), key, true);
    }
  }
  let result: any;
  const call = (async () => {
    // Whatever would stop the record from being written is found now, before a reply is paid for.
    await store.ready();
    result = asV3Result(await doGenerate());
    const reply = recordable(result);
    if (!reply) return undefined;
    const request = requestText(model, params);
    const record: JudgeCacheRecord = { key, provider: model.provider, modelId: model.modelId, prompt: request.preview, ...reply, fullPrompt: request.text };
    // Kept in memory even when the write fails (persist warns): later identical requests replay it, and the next write carries it.
    store.records.set(key, record);
    await store.persist();
    return record;
  })();
  store.inflight.set(key, call);
  try {
    await call;
  } finally {
    store.inflight.delete(key);
  }
  reportJudgeReply(false);
  return mark(result, key, false);
}

/** A v3 stream of one finished reply, for streaming callers. */
function streamOf(result: any): any {
  const parts: any[] = [{ type: 'stream-start', warnings: result.warnings ?? [] }];
  if (result.response) parts.push({ type: 'response-metadata', ...result.response });
  (result.content ?? []).forEach((part: any, i: number) => {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: `t${i}` }, { type: 'text-delta', id: `t${i}`, delta: part.text }, { type: 'text-end', id: `t${i}` });
    } else if (part.type !== 'reasoning') {
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage, providerMetadata: result.providerMetadata });
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
    response: { headers: result.response?.headers },
  };
}

/**
 * The judge cache as an AI SDK middleware: `wrapLanguageModel({ model, middleware: judgeCacheMiddleware({ file }) })`.
 * Streaming calls are answered through `doGenerate` (a judge's reply is short) and replayed as a stream.
 */
export function judgeCacheMiddleware(options: JudgeCacheOptions): JudgeCacheMiddleware {
  const mode = checkOptions(options, 'judgeCacheMiddleware');
  const middleware: JudgeCacheMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: ({ doGenerate, params, model }) => cachedGenerate(options, mode, model, params, doGenerate),
    wrapStream: async ({ doGenerate, params, model }) => streamOf(await cachedGenerate(options, mode, model, params, doGenerate)),
  };
  return Object.freeze(middleware);
}

/**
 * A judge model that answers requests it has seen from `file` and otherwise asks `model` and records
 * the reply. Usable as `model` anywhere: `createScorer`'s judge and prompt steps, the relevancy scorer,
 * `runEvals`, the inspector. `model` may be a `'provider/model'` string: it is resolved only when a
 * request has to be sent, so a replayed run needs neither the provider package nor its API key.
 */
export function cachedJudge(model: ModelInput, options: JudgeCacheOptions): CachedJudge {
  const mode = checkOptions(options, 'cachedJudge');
  const where = 'cachedJudge';
  let info: { provider: string; modelId: string };
  if (typeof model === 'string') {
    const slash = model.indexOf('/');
    if (slash <= 0 || slash === model.length - 1) {
      throw new TypeError(`${where}: model string ${JSON.stringify(model)} must look like 'provider/model-id'`);
    }
    info = { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
  } else if (model !== null && typeof model === 'object' && typeof model.doGenerate === 'function') {
    info = { provider: String(model.provider), modelId: String(model.modelId) };
  } else {
    throw new TypeError(`${where}: model must be an AI SDK language model object or a 'provider/model-id' string`);
  }
  const middleware = judgeCacheMiddleware(options);
  const inner = async (params: any) => (await resolveModel(model)).doGenerate(params);
  return readOnlyModel({
    specificationVersion: 'v3' as const,
    provider: info.provider,
    modelId: info.modelId,
    supportedUrls: typeof model === 'string' ? {} : (model.supportedUrls ?? {}),
    file: options.file,
    mode,
    doGenerate: (params: any) => middleware.wrapGenerate({ params, model: info, doGenerate: () => inner(params) }),
    doStream: (params: any) => middleware.wrapStream({ params, model: info, doGenerate: () => inner(params) }),
    toString: () => `cachedJudge(${describeModel(model)})`,
  });
}

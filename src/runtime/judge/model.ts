/**
 * The model adapter: every judge call of this package goes through `callJudge`.
 *
 * - Models are AI SDK language model objects (specification v2 or v3), or `'provider/model'` strings
 *   resolved through the installed `@ai-sdk/<provider>` package (its default instance, which reads
 *   the provider's usual API-key variable), or a local model such as `offlineJudge()`.
 * - `ai` is an optional peer dependency: it is imported lazily, on the first call that needs it, so
 *   code that never calls a model (the registry, function-only scorers, the offline judge) runs
 *   without it.
 * - Structured output: the schema goes to the provider as the response format; a reply that the
 *   SDK cannot parse is read leniently (code fences, surrounding prose, trailing commas); if it still
 *   does not fit, the judge is asked once more with the JSON Schema in the prompt; then a clear error.
 * - Temperature is 0 unless the call's settings say otherwise; every other setting passes through.
 */
import { checkJsonSchema, parseJsonCandidates, parseJsonLenient, preview, type JsonSchema } from './json.js';

/** Structural view of an AI SDK language model (spec v2 or v3); `ai` itself checks the details. */
export interface LanguageModelLike {
  readonly specificationVersion: 'v2' | 'v3' | (string & {});
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: any): PromiseLike<any>;
  [extra: string]: any;
}

/** A judge model: an AI SDK model object or a `'provider/model'` string such as `'openai/gpt-4o-mini'`. */
export type ModelInput = LanguageModelLike | string;

/** Per-call settings passed through to the AI SDK (`generateText`); `temperature` defaults to 0. */
export interface ModelSettings {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  maxRetries?: number;
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, Record<string, unknown>>;
  abortSignal?: AbortSignal;
  [setting: string]: unknown;
}

export interface JudgeUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface JudgeRequest {
  model: ModelInput;
  /** System instructions. */
  instructions?: string;
  prompt: string;
  /** When given, the reply is structured output validated against it: a zod (Standard Schema), AI SDK or plain JSON Schema. */
  schema?: unknown;
  settings?: ModelSettings;
  /**
   * What this call is for, in machine-readable form, sent as `providerOptions['agent-scorers']`.
   * Real providers ignore it; the offline judge reads it instead of parsing prompt text.
   */
  task?: { name: string; data?: unknown };
}

export interface JudgeResponse<T = unknown> {
  value: T;
  /** The raw reply text of the last attempt. */
  text: string;
  usage: JudgeUsage;
  /** Model calls made (2 when the reply had to be re-asked). */
  modelCalls: number;
  /** How many of `modelCalls` a judge cache answered (`cachedJudge`): those were not sent to the provider. */
  cachedCalls: number;
  /** How many of `modelCalls` went through a judge cache that did not know them (sent to the provider and recorded). */
  cacheMisses: number;
  modelId: string;
  provider: string;
  durationMs: number;
}

/** The judge's reply did not fit the expected schema, even after one re-ask. */
export class JudgeOutputError extends Error {
  constructor(
    message: string,
    readonly text: string,
    readonly usage: JudgeUsage,
    readonly modelCalls: number,
    readonly cachedCalls = 0,
  ) {
    super(message);
    this.name = 'JudgeOutputError';
  }
}

/**
 * Response header set by the judge cache on each reply (`hit` or `miss`). Read from the response,
 * which the AI SDK keeps even when structured output fails to parse (provider metadata it drops).
 */
export const JUDGE_CACHE_HEADER = 'x-agent-scorers-judge-cache';

const fromCache = (response: any): boolean => response?.headers?.[JUDGE_CACHE_HEADER] === 'hit';
/** A judge cache answered `miss`: the request went through a cache and on to the provider. */
const cacheMiss = (response: any): boolean => response?.headers?.[JUDGE_CACHE_HEADER] === 'miss';

/** Marks a model that the adapter calls directly, without `ai` (see `offlineJudge`). */
export const LOCAL_MODEL = Symbol.for('agent-scorers.local-model');

/**
 * Makes a model object of ours read-only without freezing it: every property non-writable but
 * configurable, no new ones. `ai` 7 adapts a spec v3 model with a Proxy that reports
 * `specificationVersion: 'v4'`, and a Proxy may not report another value for a property of its target
 * that is both non-writable and non-configurable, which `Object.freeze` makes every property.
 */
export function readOnlyModel<T extends object>(model: T): T {
  for (const key of Reflect.ownKeys(model)) Object.defineProperty(model, key, { writable: false, configurable: true });
  return Object.preventExtensions(model);
}

export const emptyUsage = (): JudgeUsage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(into: JudgeUsage, more: Partial<JudgeUsage> | undefined): JudgeUsage {
  if (!more) return into;
  into.inputTokens += more.inputTokens ?? 0;
  into.outputTokens += more.outputTokens ?? 0;
  into.totalTokens += more.totalTokens ?? 0;
  return into;
}

/** AI SDK usage (flat numbers) or raw spec v3 usage (`{ inputTokens: { total } }`) to flat numbers. */
function normaliseUsage(usage: any): JudgeUsage {
  const count = (value: any): number => {
    const n = value !== null && typeof value === 'object' ? value.total : value;
    return typeof n === 'number' && Number.isFinite(n) ? n : 0;
  };
  const inputTokens = count(usage?.inputTokens);
  const outputTokens = count(usage?.outputTokens);
  const total = count(usage?.totalTokens);
  return { inputTokens, outputTokens, totalTokens: total || inputTokens + outputTokens };
}

type AiModule = typeof import('ai');
/**
 * What of `ai` the adapter uses: all that `agent-scorers/ai` puts into a bundle. Not exported, so the
 * published declarations never name `ai` (a project without it must still type-check).
 */
type AiFunctions = Pick<AiModule, 'generateText' | 'Output' | 'NoObjectGeneratedError' | 'asSchema' | 'jsonSchema'>;
let aiModule: Promise<AiFunctions> | undefined;

/** Where `agent-scorers/ai` leaves the AI SDK for a bundle that has no node_modules at run time. */
export const BUNDLED_AI = Symbol.for('agent-scorers.ai');

/**
 * `ai` is loaded only when a judge is called, and never through an import a bundler can follow: a
 * bundler cannot tell a scorer that calls a model from one that does not (`createScorer` is the same
 * call), so a followed import put all of `ai` (~900 kB) into every bundle that uses a scorer.
 * Where `node_modules` exist at run time (Node, Bun, Vite's and Next's servers) it is imported there;
 * a bundle that runs without them (a Cloudflare Worker) carries it by importing `agent-scorers/ai`.
 */
const importAtRunTime = (name: string): Promise<unknown> =>
  import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ name);

/** A Cloudflare Worker (workerd), where a package can only come from the bundle. */
const inWorkerd = () => (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';

async function loadAi(reason: string): Promise<AiFunctions> {
  const bundled = (globalThis as { [BUNDLED_AI]?: AiFunctions })[BUNDLED_AI];
  if (bundled) return bundled;
  if (inWorkerd()) {
    // Also in `vite dev`, where Vite could load it: a Worker that works only in dev is worse than none.
    throw new Error(
      `agent-scorers: ${reason} needs the AI SDK ("ai") in this Worker's bundle: a Worker has no node_modules to load it ` +
        `from. Add  import 'agent-scorers/ai';  to your Worker's entry (and npm install ai).`,
    );
  }
  aiModule ??= (importAtRunTime('ai') as Promise<AiFunctions>).catch((error: unknown) => {
    aiModule = undefined;
    throw new Error(
      `agent-scorers: ${reason} needs the optional peer dependency "ai" (the Vercel AI SDK, version 6 or 7). ` +
        `Install it with: npm install ai. A bundle that runs without node_modules carries it with  import 'agent-scorers/ai';`,
      { cause: error },
    );
  });
  return aiModule;
}

interface ProviderInfo {
  pkg: string;
  exportName: string;
  env?: string;
}

/** Providers whose package, default export and API-key variable are known. Others are tried as `@ai-sdk/<provider>`. */
const PROVIDERS: Record<string, ProviderInfo> = {
  openai: { pkg: '@ai-sdk/openai', exportName: 'openai', env: 'OPENAI_API_KEY' },
  anthropic: { pkg: '@ai-sdk/anthropic', exportName: 'anthropic', env: 'ANTHROPIC_API_KEY' },
  google: { pkg: '@ai-sdk/google', exportName: 'google', env: 'GOOGLE_GENERATIVE_AI_API_KEY' },
  mistral: { pkg: '@ai-sdk/mistral', exportName: 'mistral', env: 'MISTRAL_API_KEY' },
  groq: { pkg: '@ai-sdk/groq', exportName: 'groq', env: 'GROQ_API_KEY' },
  xai: { pkg: '@ai-sdk/xai', exportName: 'xai', env: 'XAI_API_KEY' },
  deepseek: { pkg: '@ai-sdk/deepseek', exportName: 'deepseek', env: 'DEEPSEEK_API_KEY' },
  cohere: { pkg: '@ai-sdk/cohere', exportName: 'cohere', env: 'COHERE_API_KEY' },
  perplexity: { pkg: '@ai-sdk/perplexity', exportName: 'perplexity', env: 'PERPLEXITY_API_KEY' },
  togetherai: { pkg: '@ai-sdk/togetherai', exportName: 'togetherai', env: 'TOGETHER_AI_API_KEY' },
  fireworks: { pkg: '@ai-sdk/fireworks', exportName: 'fireworks', env: 'FIREWORKS_API_KEY' },
  cerebras: { pkg: '@ai-sdk/cerebras', exportName: 'cerebras', env: 'CEREBRAS_API_KEY' },
  deepinfra: { pkg: '@ai-sdk/deepinfra', exportName: 'deepinfra', env: 'DEEPINFRA_API_KEY' },
  azure: { pkg: '@ai-sdk/azure', exportName: 'azure', env: 'AZURE_API_KEY' },
  // Cloud credentials, not one key variable: the provider package reports what is missing.
  'amazon-bedrock': { pkg: '@ai-sdk/amazon-bedrock', exportName: 'bedrock' },
  'google-vertex': { pkg: '@ai-sdk/google-vertex', exportName: 'vertex' },
};

const resolvedStrings = new Map<string, Promise<LanguageModelLike>>();

function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env ? env[name] : undefined;
}
const hasEnv = () => Boolean((globalThis as { process?: { env?: unknown } }).process?.env);

function isLanguageModel(value: unknown): value is LanguageModelLike {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as LanguageModelLike).specificationVersion === 'string' &&
    typeof (value as LanguageModelLike).doGenerate === 'function'
  );
}

/** Describes a model for messages and results. */
export function describeModel(model: ModelInput): string {
  return typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
}

/** Checks a model value without loading anything: throws a clear error for what can never work. */
export function assertModelInput(model: unknown, where: string): asserts model is ModelInput {
  if (typeof model === 'string') {
    const slash = model.indexOf('/');
    if (slash <= 0 || slash === model.length - 1) {
      throw new TypeError(
        `${where}: model string ${JSON.stringify(model)} must look like 'provider/model-id' (for example 'openai/gpt-4o-mini')`,
      );
    }
    return;
  }
  if (isLanguageModel(model)) {
    if (!['v2', 'v3'].includes(model.specificationVersion) && !(model as any)[LOCAL_MODEL]) {
      throw new TypeError(
        `${where}: model ${describeModel(model)} implements language model specification ${model.specificationVersion}; ` +
          `this package supports AI SDK models of specification v2 and v3`,
      );
    }
    return;
  }
  throw new TypeError(
    `${where}: model must be an AI SDK language model object or a 'provider/model-id' string; got ${
      model === null ? 'null' : typeof model
    }`,
  );
}

/** Resolves a model input to a model object; strings go through the installed `@ai-sdk/<provider>` package. */
export async function resolveModel(model: ModelInput): Promise<LanguageModelLike> {
  assertModelInput(model, 'agent-scorers');
  if (typeof model !== 'string') return model;
  let pending = resolvedStrings.get(model);
  if (!pending) {
    pending = resolveModelString(model);
    resolvedStrings.set(model, pending);
    pending.catch(() => resolvedStrings.delete(model));
  }
  return pending;
}

async function resolveModelString(id: string): Promise<LanguageModelLike> {
  const slash = id.indexOf('/');
  const provider = id.slice(0, slash);
  const modelId = id.slice(slash + 1);
  const info = PROVIDERS[provider] ?? {
    pkg: `@ai-sdk/${provider}`,
    exportName: provider.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  };
  let mod: Record<string, unknown>;
  try {
    // Left to run time on every bundler: Turbopack and webpack would otherwise bundle every file
    // under node_modules/@ai-sdk/ (READMEs and licences included) and fail the build.
    mod = (await import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ info.pkg)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `agent-scorers: model "${id}" needs the package ${info.pkg}, which is not installed. ` +
        `Install it (npm install ${info.pkg}), or pass an AI SDK model object instead of a string.`,
      { cause: error },
    );
  }
  const factory = mod[info.exportName] ?? (mod.default as Record<string, unknown> | undefined)?.[info.exportName];
  if (typeof factory !== 'function') {
    throw new Error(
      `agent-scorers: model "${id}": ${info.pkg} has no "${info.exportName}" provider export; pass an AI SDK model object instead.`,
    );
  }
  if (info.env && hasEnv() && !readEnv(info.env)) {
    throw new Error(
      `agent-scorers: model "${id}" needs the ${info.env} environment variable (read by ${info.pkg}). ` +
        `Set it, or pass a model object created with an explicit apiKey.`,
    );
  }
  const resolved = (factory as (modelId: string) => unknown)(modelId);
  if (!isLanguageModel(resolved)) {
    throw new Error(`agent-scorers: model "${id}": ${info.pkg}'s ${info.exportName}(modelId) did not return a language model`);
  }
  return resolved;
}

/** What the adapter needs to know about a step schema, whatever library wrote it. */
interface SchemaAdapter {
  /** JSON Schema for the provider's response format and for the re-ask prompt, when it can be had. */
  jsonSchema(): Promise<JsonSchema | undefined>;
  /** Validates (and possibly transforms) a parsed value. */
  validate(value: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }>;
  /** The schema in a form `Output.object({ schema })` takes. */
  forAi(ai: AiFunctions): unknown;
}

const AI_SCHEMA = Symbol.for('vercel.ai.schema');

function schemaAdapter(schema: unknown): SchemaAdapter {
  const s = schema as any;
  if (s !== null && typeof s === 'object' && s['~standard'] && typeof s['~standard'].validate === 'function') {
    // zod (v3.24+ and v4), valibot, arktype...: validate through Standard Schema.
    return {
      async jsonSchema() {
        const converter = s['~standard'].jsonSchema;
        if (converter && typeof converter.output === 'function') {
          try {
            return converter.output({ target: 'draft-07' });
          } catch {
            /* fall through to the AI SDK's conversion */
          }
        }
        try {
          const ai = await loadAi('converting a schema');
          return (await ai.asSchema(s).jsonSchema) as JsonSchema;
        } catch {
          return undefined;
        }
      },
      async validate(value) {
        const result = await s['~standard'].validate(value);
        if (result.issues) {
          const first = result.issues[0];
          const where = first?.path?.length ? first.path.map((p: any) => (typeof p === 'object' ? p.key : p)).join('.') : 'reply';
          return { ok: false, error: `${where}: ${first?.message ?? 'does not match the schema'}` };
        }
        return { ok: true, value: result.value };
      },
      forAi: () => s,
    };
  }
  if (s !== null && typeof s === 'object' && s[AI_SCHEMA]) {
    // An AI SDK schema (`jsonSchema(...)`, `zodSchema(...)`).
    return {
      jsonSchema: async () => (await s.jsonSchema) as JsonSchema,
      async validate(value) {
        if (typeof s.validate !== 'function') return { ok: true, value };
        const result = await s.validate(value);
        return result.success ? { ok: true, value: result.value } : { ok: false, error: String(result.error?.message ?? result.error) };
      },
      forAi: () => s,
    };
  }
  if (s !== null && typeof s === 'object' && !s._def) {
    // A plain JSON Schema object, as Mastra's own prebuilt scorers pass.
    const validate = (value: unknown) => {
      const error = checkJsonSchema(s as JsonSchema, value);
      return error ? ({ ok: false, error } as const) : ({ ok: true, value } as const);
    };
    return {
      jsonSchema: async () => s as JsonSchema,
      validate: async (value) => validate(value),
      forAi: (ai) =>
        ai.jsonSchema(s, {
          validate: (value: unknown) => {
            const result = validate(value);
            return result.ok ? { success: true, value } : { success: false, error: new Error(result.error) };
          },
        }),
    };
  }
  throw new TypeError(
    'agent-scorers: outputSchema must be a zod (or other Standard Schema) schema, an AI SDK schema, or a JSON Schema object',
  );
}

interface RawReply {
  text: string;
  usage: JudgeUsage;
  /** Set when the AI SDK already parsed and validated the structured output. */
  parsed?: { value: unknown };
  /** Answered by a judge cache. */
  cached: boolean;
  /** Went through a judge cache, which asked the provider. */
  missed: boolean;
  modelId: string;
  provider: string;
}

async function generateOnce(
  model: LanguageModelLike,
  request: JudgeRequest,
  prompt: string,
  schema: SchemaAdapter | undefined,
): Promise<RawReply> {
  const settings: ModelSettings = { ...(request.settings ?? {}) };
  // Judges answer at temperature 0 unless told otherwise; `temperature: undefined` is not "otherwise".
  if (settings.temperature === undefined) settings.temperature = 0;
  const providerOptions = request.task
    ? { ...(settings.providerOptions ?? {}), 'agent-scorers': { task: request.task.name, data: request.task.data as any } }
    : settings.providerOptions;

  if ((model as any)[LOCAL_MODEL]) {
    // Local models (the offline judge) are called directly: no `ai` needed.
    const { providerOptions: _ignored, maxRetries: _r, headers, abortSignal, ...rest } = settings;
    const messages: any[] = [];
    if (request.instructions) messages.push({ role: 'system', content: request.instructions });
    messages.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
    const jsonSchema = schema ? await schema.jsonSchema() : undefined;
    const result = await model.doGenerate({
      ...rest,
      prompt: messages,
      responseFormat: schema ? { type: 'json', schema: jsonSchema } : { type: 'text' },
      providerOptions,
      headers,
      abortSignal,
    });
    const text = (result.content ?? [])
      .filter((part: any) => part?.type === 'text')
      .map((part: any) => part.text)
      .join('');
    return { text, usage: normaliseUsage(result.usage), cached: fromCache(result.response), missed: cacheMiss(result.response), modelId: model.modelId, provider: model.provider };
  }

  const ai = await loadAi(`calling the judge model ${describeModel(model)}`);
  const base: Record<string, unknown> = {
    ...settings,
    model,
    prompt,
    ...(request.instructions ? { system: request.instructions } : {}),
    ...(providerOptions ? { providerOptions } : {}),
  };
  if (!schema) {
    const result = await ai.generateText(base as any);
    return {
      text: result.text,
      usage: normaliseUsage(result.usage),
      cached: fromCache(result.response),
      missed: cacheMiss(result.response),
      modelId: model.modelId,
      provider: model.provider,
    };
  }
  try {
    const result = await ai.generateText({ ...base, output: ai.Output.object({ schema: schema.forAi(ai) as any }) } as any);
    return {
      text: result.text,
      usage: normaliseUsage(result.usage),
      parsed: { value: result.output },
      cached: fromCache(result.response),
      missed: cacheMiss(result.response),
      modelId: model.modelId,
      provider: model.provider,
    };
  } catch (error) {
    // The model answered, but not with JSON the SDK could parse or validate: read it ourselves.
    if (ai.NoObjectGeneratedError.isInstance(error)) {
      return {
        text: error.text ?? '',
        usage: normaliseUsage(error.usage),
        cached: fromCache(error.response),
        missed: cacheMiss(error.response),
        modelId: model.modelId,
        provider: model.provider,
      };
    }
    throw error;
  }
}

async function readStructured(reply: RawReply, schema: SchemaAdapter) {
  if (reply.parsed) return { ok: true as const, value: reply.parsed.value };
  const parsed = parseJsonCandidates(reply.text);
  if (!parsed.ok) return parsed;
  if (parsed.value.length === 0) return parseJsonLenient(reply.text); // its error says what was read
  // The first value that fits the schema wins; else the first value's problem is reported.
  let first: Awaited<ReturnType<SchemaAdapter['validate']>> | undefined;
  for (const value of parsed.value) {
    const checked = await schema.validate(value);
    if (checked.ok) return checked;
    first ??= checked;
  }
  return first!;
}

/**
 * One judge call: text, or structured output when `request.schema` is given (lenient parse, then one
 * re-ask with the JSON Schema in the prompt, then `JudgeOutputError`).
 */
export async function callJudge<T = unknown>(request: JudgeRequest): Promise<JudgeResponse<T>> {
  const started = Date.now();
  const model = await resolveModel(request.model);
  const schema = request.schema === undefined ? undefined : schemaAdapter(request.schema);
  const usage = emptyUsage();

  const first = await generateOnce(model, request, request.prompt, schema);
  addUsage(usage, first.usage);
  let cachedCalls = first.cached ? 1 : 0;
  let cacheMisses = first.missed ? 1 : 0;
  const done = (reply: RawReply, value: unknown, calls: number): JudgeResponse<T> => ({
    value: value as T,
    text: reply.text,
    usage,
    modelCalls: calls,
    cachedCalls,
    cacheMisses,
    modelId: reply.modelId,
    provider: reply.provider,
    durationMs: Date.now() - started,
  });
  if (!schema) return done(first, first.text, 1);

  const firstRead = await readStructured(first, schema);
  if (firstRead.ok) return done(first, firstRead.value, 1);

  const jsonSchema = await schema.jsonSchema();
  const reask =
    `${request.prompt}\n\n` +
    `Your previous reply could not be used (${firstRead.error}). ` +
    `Reply again with only a JSON value, without prose or code fences` +
    (jsonSchema ? `, that matches this JSON Schema:\n${JSON.stringify(jsonSchema)}` : '.');
  const second = await generateOnce(model, request, reask, schema);
  addUsage(usage, second.usage);
  if (second.cached) cachedCalls++;
  if (second.missed) cacheMisses++;
  const secondRead = await readStructured(second, schema);
  if (secondRead.ok) return done(second, secondRead.value, 2);

  throw new JudgeOutputError(
    `the judge (${describeModel(model)}) did not return usable JSON after 2 attempts: ${secondRead.error}; last reply: ${preview(second.text)}`,
    second.text,
    usage,
    2,
    cachedCalls,
  );
}

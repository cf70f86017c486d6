/**
 * What the inspector runs inside the environment that runs your app: it loads what one request needs
 * (the agent's config, and for a run only the scorer's own file), builds the agent's record with the
 * registry helper exactly as the generated module does, and resolves or runs a scorer.
 *
 * It runs in two places: in the dev server's process, for an environment that Vite runs there
 * (Node), and inside the environment itself, for one that runs elsewhere (a Cloudflare Worker in
 * workerd), where the inspector's bridge module imports this file. So it imports nothing, touches no
 * Node API, and answers with plain JSON: errors as data, which the server turns into text that names
 * the file relative to the project (errors.ts).
 */

/** The registry helper's functions used here (src/runtime/registry.ts). */
interface Helper {
  defineAgent(agent: string, dir: string, files: readonly unknown[], config: unknown, configName: string, levels?: object): unknown;
  defineRegistry(agents: ReadonlyArray<readonly [string, unknown]>): Readonly<Record<string, unknown>>;
  createResolver(registry: Readonly<Record<string, unknown>>): (agent: string, options?: { requestContext?: unknown }) => Promise<Record<string, unknown>>;
}

/** One agent as the plan has it, with the specifier of every module it may need. */
export interface AgentLoad {
  agent: string;
  /** The agent folder relative to the root, with a trailing slash (as `defineAgent` takes it). */
  dir: string;
  /** The config, when the registry imports it. */
  config: { specifier: string; file: string; name: string } | null;
  /** Every discovered scorer file in key order; `specifier` null when the build knows the config overrides it (not imported). */
  files: Array<{ key: string; name: string; file: string; specifier: string | null }>;
  /** `strict` and `diagnostics` levels, as the generated module passes them. */
  levels: object;
}

export type ExecRequest =
  | { op: 'scorers'; helper: string; load: AgentLoad; requestContext?: Record<string, unknown> }
  | {
      op: 'run';
      helper: string;
      load: AgentLoad;
      key: string;
      input: unknown;
      output: unknown;
      groundTruth?: unknown;
      hasGroundTruth: boolean;
      requestContext?: Record<string, unknown>;
    };

/** An error as data: what the server needs to name the file and keep paths out. */
export interface Failure {
  message: string;
  stack?: string;
  /** Set by Vite on a module it could not transform. */
  id?: string;
  locFile?: string;
  /** The user's file whose import failed (absolute). */
  file?: string;
  /** The step of a scorer run that failed. */
  step?: string;
}

export type ExecReply =
  | { kind: 'scorers'; scorers: Described[]; failed: Array<{ key: string; file: string; failure: Failure }> }
  | { kind: 'run'; payload: unknown }
  | { kind: 'failed'; stage: 'config' | 'file' | 'resolve' | 'run'; failure: Failure; key?: string }
  | { kind: 'no-key'; keys: string[] };

export interface Described {
  key: string;
  id: string | null;
  name: string | null;
  description: string | null;
  sampling: unknown;
}

type Import = (specifier: string) => Promise<Record<string, unknown>>;

export async function execute(request: ExecRequest, importModule: Import): Promise<ExecReply> {
  const { load } = request;
  const helper = (await importModule(request.helper)) as unknown as Helper;
  let config: unknown;
  if (load.config) {
    try {
      config = (await importModule(load.config.specifier)).default;
    } catch (error) {
      return { kind: 'failed', stage: 'config', failure: { ...failureOf(error), file: load.config.file } };
    }
  }
  // A run needs only its own file (a key the config gives needs none); a listing tries each file on
  // its own, so one that cannot load is named and the others still show.
  const wanted = request.op === 'run' ? load.files.filter((f) => f.key === request.key) : load.files;
  const entries: unknown[] = [];
  const failed: Array<{ key: string; file: string; failure: Failure }> = [];
  for (const file of wanted) {
    if (file.specifier === null) {
      entries.push([file.key, file.name]);
      continue;
    }
    try {
      entries.push([file.key, (await importModule(file.specifier)).default, file.name]);
    } catch (error) {
      const failure = { ...failureOf(error), file: file.file };
      if (request.op === 'run') return { kind: 'failed', stage: 'file', failure, key: file.key };
      failed.push({ key: file.key, file: file.file, failure });
    }
  }
  const requestContext = request.requestContext ? new Map(Object.entries(request.requestContext)) : undefined;
  let record: Record<string, unknown>;
  try {
    const agentRecord = helper.defineAgent(load.agent, load.dir, entries, config, load.config?.name ?? '', load.levels);
    const resolve = helper.createResolver(helper.defineRegistry([[load.agent, agentRecord]]));
    record = await resolve(load.agent, requestContext ? { requestContext } : {});
  } catch (error) {
    return { kind: 'failed', stage: 'resolve', failure: failureOf(error) };
  }
  if (request.op === 'scorers') {
    return { kind: 'scorers', scorers: Object.keys(record).map((key) => describeEntry(key, record[key])), failed };
  }
  if (!Object.prototype.hasOwnProperty.call(record, request.key)) return { kind: 'no-key', keys: Object.keys(record) };
  const entry = record[request.key] as { scorer?: { run?: unknown } } | null;
  const scorer = entry?.scorer;
  if (!scorer || typeof scorer.run !== 'function') {
    return { kind: 'failed', stage: 'run', key: request.key, failure: { message: 'the scorer has no run() function' } };
  }
  const started = Date.now();
  try {
    const run = {
      input: request.input,
      output: request.output,
      ...(request.hasGroundTruth ? { groundTruth: request.groundTruth } : {}),
      ...(requestContext ? { requestContext } : {}),
    };
    const result = ((await (scorer.run as (run: unknown) => Promise<unknown>).call(scorer, run)) ?? {}) as Record<string, unknown>;
    return {
      kind: 'run',
      payload: jsonSafe({
        agent: load.agent,
        key: request.key,
        scorer: describeEntry(request.key, entry),
        score: result.score ?? null,
        reason: result.reason ?? null,
        steps: { preprocess: result.preprocessStepResult ?? null, analyze: result.analyzeStepResult ?? null },
        prompts: {
          preprocess: result.preprocessPrompt ?? null,
          analyze: result.analyzePrompt ?? null,
          generateScore: result.generateScorePrompt ?? null,
          generateReason: result.generateReasonPrompt ?? null,
        },
        notScorable: result.notScorable ?? null,
        usage: result.usage ?? null,
        runId: result.runId ?? null,
        durationMs: Date.now() - started,
      }),
    };
  } catch (error) {
    const step = (error as { failedStep?: unknown })?.failedStep;
    return { kind: 'failed', stage: 'run', key: request.key, failure: { ...failureOf(error), ...(typeof step === 'string' ? { step } : {}) } };
  }
}

function failureOf(error: unknown): Failure {
  const e = (error ?? {}) as { message?: unknown; stack?: unknown; id?: unknown; loc?: { file?: unknown } };
  let message: string;
  if (error instanceof Error || typeof e.message === 'string') message = String(e.message);
  else if (typeof error === 'string') message = error;
  else {
    try {
      message = JSON.stringify(error) ?? String(error);
    } catch {
      message = String(error);
    }
  }
  return {
    message,
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
    ...(typeof e.id === 'string' ? { id: e.id } : {}),
    ...(typeof e.loc?.file === 'string' ? { locFile: e.loc.file } : {}),
  };
}

/** What the page shows about one resolved entry. */
export function describeEntry(key: string, entry: unknown): Described {
  const e = (entry ?? {}) as { scorer?: Record<string, unknown>; sampling?: unknown };
  const scorer = e.scorer ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { key, id: text(scorer.id), name: text(scorer.name), description: text(scorer.description), sampling: jsonSafe(e.sampling ?? null) };
}

/** A JSON-safe copy: cycles, BigInt, functions, errors and class instances become plain data. */
export function jsonSafe(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => jsonSafe(item, seen));
    if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), jsonSafe(v, seen)]));
    if (value instanceof Set) return [...value].map((item) => jsonSafe(item, seen));
    // Null prototype: keys such as `__proto__` stay ordinary keys.
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = jsonSafe(v, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

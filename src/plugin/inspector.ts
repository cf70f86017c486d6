/**
 * The dev inspector (Vite dev server only): `/__agent-scorers/` shows what the plugin compiled and
 * lets a user run one scorer on the server.
 *
 * - `GET  /__agent-scorers/`                the page (inspector-page.ts): no framework, no external request
 * - `GET  /__agent-scorers/api/state`       `{ revision, manifest }` of the current plan
 * - `GET  /__agent-scorers/api/events`      server-sent `state` events whenever the plan changes
 * - `POST /__agent-scorers/api/scorers`     `{ agent, requestContext? }` → the agent's scorers as
 *                                           resolved at run time (the function form too)
 * - `POST /__agent-scorers/api/run`         `{ agent, key, input, output, groundTruth?, requestContext? }`
 *                                           → `{ score, reason, steps, ... }` or `{ error }`
 *
 * Every route first passes inspector-guard.ts (this machine only unless `remote`, never another
 * origin). What runs user code is a JSON POST, so no `<img>`, link or form of another page can
 * trigger it; scorer runs share a few slots and a short queue, the rest get 429.
 *
 * A `requestContext` is a JSON object; the function form of `config.scorers` and the scorer receive
 * it as a `Map`, as Mastra passes its Map-like `RequestContext`.
 *
 * The registry is loaded through the dev server's own SSR module loading, so the scorers run exactly
 * as the app would import them, with the same invalidation when files come and go. Nothing here
 * can crash the server: every failure is a JSON `{ error }` with a status code.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VIRTUAL_ID } from '../core/codegen.js';
import type { Manifest } from '../core/manifest.js';
import type { Plan } from '../core/plan.js';
import { describeFailure, messageOf, withoutAbsolutePaths, type ErrorContext } from './inspector-errors.js';
import { createLimiter, isLoopback, REMOTE_HINT, refusal } from './inspector-guard.js';
import { inspectorPage } from './inspector-page.js';

const INSPECTOR_PATH = '/__agent-scorers/';

/** Largest accepted POST body. */
const MAX_BODY = 1024 * 1024;
/** Scorer runs at once (each may be a paid judge call), and how many more may wait for a slot. */
const RUN_SLOTS = 4;
const RUN_QUEUE = 16;
/** Seconds a client told 429 waits before trying again. */
const RETRY_AFTER_S = 2;
/** Watcher bursts (a rename, a folder copy) settle before the plan is compared and pushed. */
const PUSH_DELAY_MS = 120;

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** What the registry module exports (`virtual:agent-scorers`). */
export interface RegistryModule {
  default: Readonly<Record<string, unknown>>;
  resolveScorers(agentKey: string, options?: { requestContext?: unknown }): Promise<Readonly<Record<string, unknown>>>;
}

// Loose structural types: Vite 7's and 8's server types differ in details; parameters are `any`
// where Vite's richer types must stay assignable.
export interface InspectorServer {
  middlewares: { use(fn: any): unknown };
  watcher: { on(event: 'all', listener: (...args: any[]) => void): unknown; off?(event: 'all', listener: (...args: any[]) => void): unknown };
  config: { base?: string; logger: { info(message: string, options?: any): void } };
  httpServer?: { once(event: 'close', listener: () => void): unknown; address?(): unknown } | null;
  resolvedUrls?: { local: string[]; network: string[] } | null;
  printUrls?: () => void;
  environments?: Record<string, any>;
  ssrLoadModule?: (url: string, options?: any) => Promise<Record<string, any>>;
}

export interface InspectorHooks {
  /** The current plan (re-made by the plugin after files are added or removed). */
  getPlan(): Plan;
  /** The project root: error texts name files relative to it. */
  root: string;
  /** Serve clients other than this machine (`inspector: { remote: true }`). */
  remote?: boolean;
  /** Loads `virtual:agent-scorers`; defaults to the dev server's SSR module loading. */
  loadRegistry?: () => Promise<RegistryModule>;
}

/** Adds the inspector's middleware, live updates and the URL in the startup output. Returns a stop function. */
export function installInspector(server: InspectorServer, hooks: InspectorHooks): () => void {
  const loadRegistry = hooks.loadRegistry ?? (() => loadThroughServer(server));
  const base = normaliseBase(server.config.base);
  const prefixes = [...new Set([INSPECTOR_PATH.slice(0, -1), `${base}${INSPECTOR_PATH.slice(1, -1)}`])];
  const remote = hooks.remote === true;
  const runs = createLimiter(RUN_SLOTS, RUN_QUEUE);
  /** What error texts may name: the plan's configs and scorer files, relative to the root. */
  const errorContext = (): ErrorContext => {
    const files = new Set<string>();
    try {
      for (const agent of hooks.getPlan().agents) {
        if (agent.folder.config) files.add(`${agent.folder.path}/${agent.folder.config}`);
        for (const file of agent.files) files.add(file.path);
      }
    } catch {
      // no plan: name files by the root alone
    }
    return { root: hooks.root, files };
  };

  // Live updates: after watcher events settle, compare the plan's manifest and push it if it changed.
  const clients = new Set<ServerResponse>();
  let pushTimer: ReturnType<typeof setTimeout> | undefined;
  let lastPushed: string | null = null;
  const onWatch = () => {
    if (clients.size === 0) return;
    clearTimeout(pushTimer);
    pushTimer = setTimeout(push, PUSH_DELAY_MS);
    pushTimer.unref?.();
  };
  const push = () => {
    const state = readState(hooks);
    if (!('revision' in state) || state.revision === lastPushed) return;
    lastPushed = state.revision;
    const message = sse('state', state);
    for (const res of clients) res.write(message);
  };
  server.watcher.on('all', onWatch);

  const middleware: Middleware = (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://inspector.invalid');
    const prefix = prefixes.find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
    if (prefix === undefined) return next();
    const route = url.pathname.slice(prefix.length);
    // Every route, the page and GETs included: a refused client learns nothing and runs nothing.
    const refused = refusal(req, remote);
    if (refused) return sendJson(res, 403, { error: refused });
    handle(route, url, req, res).catch((error: unknown) => {
      // Only a bug of ours lands here; answer rather than hang or crash the server.
      if (!res.headersSent) sendJson(res, 500, { error: `agent-scorers inspector: ${withoutAbsolutePaths(messageOf(error), hooks.root)}` });
      else res.end();
    });
  };

  async function handle(route: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    if (route === '') {
      res.writeHead(301, { Location: `${url.pathname}/${url.search}` });
      res.end();
      return;
    }
    if (route === '/' || route === '/index.html') {
      if (!allow(method, ['GET', 'HEAD'], res)) return;
      const nonce = randomBytes(16).toString('base64');
      const body = inspectorPage(nonce);
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        // The page talks to this server only: no CDN, no font, no analytics, nothing else.
        'Content-Security-Policy': [
          "default-src 'none'",
          `script-src 'nonce-${nonce}'`,
          `style-src 'nonce-${nonce}'`,
          "img-src 'self' data:",
          "connect-src 'self'",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'self'",
        ].join('; '),
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(method === 'HEAD' ? undefined : body);
      return;
    }
    if (route === '/api/state') {
      if (!allow(method, ['GET'], res)) return;
      const state = readState(hooks);
      sendJson(res, 'error' in state ? 500 : 200, state);
      return;
    }
    if (route === '/api/events') {
      if (!allow(method, ['GET'], res)) return;
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      // The page says which revision it shows; anything newer is sent at once, so no change is missed.
      const state = readState(hooks);
      if ('revision' in state && state.revision !== url.searchParams.get('since')) res.write(sse('state', state));
      clients.add(res);
      req.once('close', () => clients.delete(res));
      return;
    }
    if (route === '/api/scorers') {
      // Resolving a function-form config runs the user's function: a POST, never a GET.
      if (!allow(method, ['POST'], res)) return;
      const body = await readJson(req, res);
      if (body === undefined) return;
      const parsed = parseScorersRequest(body);
      if ('error' in parsed) return sendJson(res, 400, parsed);
      const found = await resolveAgent(parsed.agent, parsed.requestContext);
      if ('status' in found) return sendJson(res, found.status, { error: found.error });
      const scorers = Object.keys(found.record).map((key) => describeEntry(key, found.record[key]));
      sendJson(res, 200, { agent: parsed.agent, scorers });
      return;
    }
    if (route === '/api/run') {
      if (!allow(method, ['POST'], res)) return;
      const body = await readJson(req, res);
      if (body === undefined) return;
      const parsed = parseRunRequest(body);
      if ('error' in parsed) return sendJson(res, 400, parsed);
      const queued = runs.run(() => runScorer(parsed), (drop) => res.once('close', drop));
      if (queued === null) {
        res.setHeader('Retry-After', String(RETRY_AFTER_S));
        return sendJson(res, 429, {
          error: `Too many scorer runs at once (${RUN_SLOTS} running, ${RUN_QUEUE} waiting); try again in ${RETRY_AFTER_S} s.`,
        });
      }
      const done = await queued;
      // undefined: the client left while its run waited, so it never ran.
      if (done !== undefined) sendJson(res, done.status, done.payload);
      return;
    }
    sendJson(res, 404, { error: `No inspector route ${JSON.stringify(route)}.` });
  }

  async function resolveAgent(agent: string, requestContext: Map<string, unknown> | undefined): Promise<{ record: Readonly<Record<string, unknown>> } | { status: number; error: string }> {
    let registry: RegistryModule;
    try {
      registry = await loadRegistry();
    } catch (error) {
      return { status: 500, error: `Could not load ${VIRTUAL_ID}: ${describeFailure(error, errorContext())}` };
    }
    if (!Object.prototype.hasOwnProperty.call(registry.default, agent)) {
      const known = Object.keys(registry.default).map((k) => JSON.stringify(k)).join(', ') || '(none)';
      return { status: 404, error: `Unknown agent ${JSON.stringify(agent)}; known agents: ${known}.` };
    }
    try {
      return { record: await registry.resolveScorers(agent, requestContext ? { requestContext } : {}) };
    } catch (error) {
      return { status: 500, error: `Could not resolve the scorers of agent ${JSON.stringify(agent)}: ${describeFailure(error, errorContext())}` };
    }
  }

  async function runScorer(request: RunRequest): Promise<{ status: number; payload: unknown }> {
    const found = await resolveAgent(request.agent, request.requestContext);
    if ('status' in found) return { status: found.status, payload: { error: found.error } };
    const { record } = found;
    if (!Object.prototype.hasOwnProperty.call(record, request.key)) {
      const keys = Object.keys(record).map((k) => JSON.stringify(k)).join(', ') || '(none)';
      return { status: 404, payload: { error: `Agent ${JSON.stringify(request.agent)} has no scorer ${JSON.stringify(request.key)}; its scorers: ${keys}.` } };
    }
    const entry = record[request.key] as { scorer?: { id?: unknown; run?: unknown } } | null;
    const scorer = entry?.scorer;
    if (!scorer || typeof scorer.run !== 'function') {
      return { status: 500, payload: { error: `Scorer ${JSON.stringify(request.key)} of agent ${JSON.stringify(request.agent)} has no run() function.` } };
    }
    const started = Date.now();
    try {
      const run = {
        input: request.input,
        output: request.output,
        ...(request.groundTruth !== undefined ? { groundTruth: request.groundTruth } : {}),
        ...(request.requestContext ? { requestContext: request.requestContext } : {}),
      };
      const result = (await (scorer.run as (run: unknown) => Promise<Record<string, unknown>>).call(scorer, run)) ?? {};
      return {
        status: 200,
        payload: jsonSafe({
          agent: request.agent,
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
      return {
        status: 500,
        payload: { error: `Scorer ${JSON.stringify(request.key)} failed: ${withoutAbsolutePaths(messageOf(error), hooks.root)}`, ...(typeof step === 'string' ? { step } : {}) },
      };
    }
  }

  /** Answers 415, 413 or 400 itself (and resolves undefined), else resolves the parsed body. */
  async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      sendJson(res, 415, { error: 'Send the request body as JSON (Content-Type: application/json).' });
      return undefined;
    }
    const text = await readBody(req);
    if (text === null) {
      // Answer at once and drop the connection rather than keep reading what the client still sends.
      res.once('finish', () => req.destroy());
      res.setHeader('Connection', 'close');
      sendJson(res, 413, { error: `Request body is larger than ${MAX_BODY} bytes.` });
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      sendJson(res, 400, { error: `The request body is not valid JSON: ${messageOf(error)}` });
      return undefined;
    }
  }

  server.middlewares.use(middleware);
  announceUrl(server, remote);

  const stop = () => {
    clearTimeout(pushTimer);
    server.watcher.off?.('all', onWatch);
    for (const res of clients) res.end();
    clients.clear();
  };
  server.httpServer?.once('close', stop);
  return stop;
}

/** `{ revision, manifest }`, or `{ error }` when planning itself failed. */
function readState(hooks: InspectorHooks): { revision: string; manifest: Manifest } | { error: string } {
  try {
    const manifest = hooks.getPlan().manifest;
    const revision = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 16);
    return { revision, manifest };
  } catch (error) {
    return { error: `Could not read the agents folders: ${messageOf(error)}` };
  }
}

async function loadThroughServer(server: InspectorServer): Promise<RegistryModule> {
  const runner = server.environments?.ssr?.runner;
  const mod = runner && typeof runner.import === 'function' ? await runner.import(VIRTUAL_ID) : await server.ssrLoadModule?.(VIRTUAL_ID);
  if (!mod || typeof mod.resolveScorers !== 'function' || mod.default === null || typeof mod.default !== 'object') {
    throw new Error('this dev server cannot load server-side modules (no SSR environment runner or ssrLoadModule)');
  }
  return mod as RegistryModule;
}

/**
 * Prints `➜  Scorers: <url>` after Vite's own URLs. When the server listens beyond loopback, the
 * line says who may use it: this machine only, or (with `remote`) the network URLs as well.
 */
function announceUrl(server: InspectorServer, remote: boolean): void {
  const print = server.printUrls;
  if (typeof print !== 'function') return;
  server.printUrls = function printUrls(this: unknown) {
    print.call(server);
    const network = server.resolvedUrls?.network ?? [];
    // A server bound to one network address has no local URL: this machine reaches it there.
    const local = server.resolvedUrls?.local?.length ? server.resolvedUrls.local : network.slice(0, 1);
    if (local.length === 0) return;
    const color = process.stdout.isTTY && !process.env.NO_COLOR;
    const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
    const at = (base: string) => `${base.replace(/\/?$/, '/')}${INSPECTOR_PATH.slice(1)}`;
    const line = (url: string, note = '') => server.config.logger.info(`  ${paint('32', '➜')}  ${paint('1', 'Scorers')}: ${paint('36', url)}${note}`);
    if (!listensBeyondLoopback(server, network)) return line(at(local[0]));
    if (!remote) return line(at(local[0]), paint('2', ` (this machine only. ${REMOTE_HINT})`));
    if (local[0] !== network[0]) line(at(local[0]));
    for (const url of network) line(at(url), paint('2', ' (other machines allowed: inspector.remote is on)'));
  };
}

/** Vite lists network URLs only when it listens beyond loopback; the bound address says so too. */
function listensBeyondLoopback(server: InspectorServer, network: string[]): boolean {
  if (network.length > 0) return true;
  const address = server.httpServer?.address?.() as { address?: string } | string | null | undefined;
  return typeof address === 'object' && address !== null && typeof address.address === 'string' && !isLoopback(address.address);
}

interface RunRequest {
  agent: string;
  key: string;
  input: unknown;
  output: unknown;
  groundTruth?: unknown;
  requestContext?: Map<string, unknown>;
}

/** A request context given as a JSON object (text or parsed), as a Map; undefined when absent. */
function parseRequestContext(value: unknown): Map<string, unknown> | undefined | Error {
  if (value === null || value === undefined || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      return new Error(`"requestContext" is not valid JSON: ${messageOf(error)}`);
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return new Error('"requestContext" must be a JSON object such as {"tier":"premium"}.');
  }
  return new Map(Object.entries(parsed));
}

const RUN_FIELDS = ['agent', 'key', 'input', 'output', 'groundTruth', 'requestContext'];

const SCORERS_FIELDS = ['agent', 'requestContext'];

/** Validates `POST /api/scorers`' body. */
function parseScorersRequest(body: unknown): { agent: string; requestContext?: Map<string, unknown> } | { error: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { error: 'The request body must be an object { agent, requestContext? }.' };
  }
  const b = body as Record<string, unknown>;
  if (typeof b.agent !== 'string' || b.agent === '') return { error: '"agent" must be a non-empty string (an agent key such as "weather").' };
  const unknown = Object.keys(b).filter((k) => !SCORERS_FIELDS.includes(k));
  if (unknown.length > 0) return { error: `Unknown field(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}; expected ${SCORERS_FIELDS.join(', ')}.` };
  const requestContext = parseRequestContext(b.requestContext);
  if (requestContext instanceof Error) return { error: requestContext.message };
  return { agent: b.agent, ...(requestContext ? { requestContext } : {}) };
}

/** Validates `POST /api/run`'s body; every problem is a sentence the page can show. */
function parseRunRequest(body: unknown): RunRequest | { error: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { error: 'The request body must be an object { agent, key, input, output }.' };
  }
  const b = body as Record<string, unknown>;
  if (typeof b.agent !== 'string' || b.agent === '') return { error: '"agent" must be a non-empty string (an agent key such as "weather").' };
  if (typeof b.key !== 'string' || b.key === '') return { error: '"key" must be a non-empty string (a scorer key of that agent).' };
  if (!('input' in b)) return { error: '"input" is missing.' };
  if (!('output' in b)) return { error: '"output" is missing.' };
  const unknown = Object.keys(b).filter((k) => !RUN_FIELDS.includes(k));
  if (unknown.length > 0) return { error: `Unknown field(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}; expected ${RUN_FIELDS.join(', ')}.` };
  const requestContext = parseRequestContext(b.requestContext);
  if (requestContext instanceof Error) return { error: requestContext.message };
  return {
    agent: b.agent,
    key: b.key,
    input: b.input,
    output: b.output,
    ...('groundTruth' in b ? { groundTruth: b.groundTruth } : {}),
    ...(requestContext ? { requestContext } : {}),
  };
}

/** What the page shows about one resolved entry. */
function describeEntry(key: string, entry: unknown) {
  const e = (entry ?? {}) as { scorer?: Record<string, unknown>; sampling?: unknown };
  const scorer = e.scorer ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { key, id: text(scorer.id), name: text(scorer.name), description: text(scorer.description), sampling: jsonSafe(e.sampling ?? null) };
}

function allow(method: string, allowed: string[], res: ServerResponse): boolean {
  if (allowed.includes(method)) return true;
  res.setHeader('Allow', allowed.join(', '));
  sendJson(res, 405, { error: `Method ${method} is not allowed here; use ${allowed.join(' or ')}.` });
  return false;
}

/** The body as text, or null as soon as it is known to be larger than MAX_BODY. */
function readBody(req: IncomingMessage): Promise<string | null> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) return void chunks.push(chunk);
      req.off('data', onData);
      resolve(null);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const normaliseBase = (base: string | undefined) => {
  const b = base && base.startsWith('/') ? base : '/';
  return b.endsWith('/') ? b : `${b}/`;
};

/** A JSON-safe copy: cycles, BigInt, functions, errors and class instances become plain data. */
function jsonSafe(value: unknown, seen = new WeakSet<object>()): unknown {
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

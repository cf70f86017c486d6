/**
 * The dev inspector (Vite dev server only): `/__agent-scorers/` shows what the plugin compiled and
 * lets a user run one scorer on the server.
 *
 * - `GET  /__agent-scorers/`                the page (page.ts): no framework, no external request
 * - `GET  /__agent-scorers/api/state`       `{ revision, manifest }` of the current plan
 * - `GET  /__agent-scorers/api/events`      server-sent `state` events whenever the plan changes
 * - `POST /__agent-scorers/api/scorers`     `{ agent, requestContext? }` → the agent's scorers as
 *                                           resolved at run time (the function form too)
 * - `POST /__agent-scorers/api/run`         `{ agent, key, input, output, groundTruth?, requestContext? }`
 *                                           → `{ score, reason, steps, ... }` or `{ error }`
 *
 * Every route first passes guard.ts (this machine only unless `remote`, never another
 * origin). What runs user code is a JSON POST, so no `<img>`, link or form of another page can
 * trigger it; scorer runs share a few slots and a short queue, the rest get 429, and each run or
 * listing is answered within `inspector.runTimeout` whatever the scorer does (env.ts).
 *
 * A `requestContext` is a JSON object; the function form of `config.scorers` and the scorer receive
 * it as a `Map`, as Mastra passes its Map-like `RequestContext`.
 *
 * Scorers run in the environment that imports the registry, as the app runs them (env.ts:
 * Node through Vite's module runner, a Cloudflare Worker inside workerd), and a request loads only
 * what it needs (exec.ts): the agent's config and, for a run, the scorer's own file, so a
 * file that cannot load is named and never breaks the other scorers. Nothing here can crash the
 * server: every failure is a JSON `{ error }` with a status code.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import type { Manifest } from '../../core/manifest.js';
import type { AgentPlan, Plan } from '../../core/plan.js';
import { describeFailure, messageOf, relativeFile, withoutAbsolutePaths, type ErrorContext } from './errors.js';
import { createRunners, seconds, type RunnerServer, type Unfinished, type Where } from './env.js';
import type { AgentLoad, ExecReply, ExecRequest, Failure } from './exec.js';
import { createLimiter, hostName, isLoopback, REMOTE_HINT, refusal } from './guard.js';
import { inspectorPage } from './page.js';

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
/** What answers sent just before a restart get to leave before the server closes its sockets. */
const RESTART_DELAY_MS = 200;

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

// Loose structural types: Vite 7's and 8's server types differ in details; parameters are `any`
// where Vite's richer types must stay assignable.
export interface InspectorServer {
  middlewares: { use(fn: any): unknown };
  watcher: { on(event: 'all', listener: (...args: any[]) => void): unknown; off?(event: 'all', listener: (...args: any[]) => void): unknown };
  config: { base?: string; server?: { host?: string | boolean }; logger: { info(message: string, options?: any): void; warn?(message: string, options?: any): void } };
  httpServer?: { once(event: 'close', listener: () => void): unknown; address?(): unknown } | null;
  resolvedUrls?: { local: string[]; network: string[] } | null;
  printUrls?: () => void;
  environments?: RunnerServer['environments'];
  ssrLoadModule?: (url: string, options?: any) => Promise<Record<string, any>>;
  /** Vite's restart (what `r` in the terminal does): new environments, a new workerd. */
  restart?: (forceOptimize?: boolean) => Promise<void>;
}

export interface InspectorHooks {
  /** The current plan (re-made by the plugin after files are added or removed). */
  getPlan(): Plan;
  /** The project root: error texts name files relative to it. */
  root: string;
  /** Serve clients other than this machine (`inspector: { remote: true }`). */
  remote?: boolean;
  /** How long one run or listing may take, in milliseconds (`inspector: { runTimeout }`). */
  runTimeout?: number;
  /** The environments whose module graph has loaded the registry or an agent's module. */
  importedIn(): ReadonlySet<string>;
  /** The specifier the generated modules import a file by (Vite's `/@fs/` form where it applies). */
  specifier(file: string): string;
  /** The registry helper's absolute path. */
  helper: string;
}

/** Adds the inspector's middleware, live updates and the URL in the startup output. Returns a stop function. */
export function installInspector(server: InspectorServer, hooks: InspectorHooks): () => void {
  // A bridge that reports its runtime changes what the page says: push it like a new plan.
  const runners = createRunners(server as RunnerServer, hooks.importedIn, {
    onChange: () => onWatch(),
    ...(hooks.runTimeout !== undefined ? { runTimeout: hooks.runTimeout } : {}),
    restart: (environment) => restartFor(environment),
  });
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
    const state = readState(hooks, runners.where());
    if (!('revision' in state) || state.revision === lastPushed) return;
    lastPushed = state.revision;
    const message = sse('state', state);
    for (const res of clients) res.write(message);
  };
  server.watcher.on('all', onWatch);

  /**
   * An environment that stopped answering (an endless loop holds workerd's thread) is restarted the
   * way Vite's own `r` shortcut restarts the dev server: new environments and a new workerd. The
   * requests that waited for it have their answers by now; a moment lets those answers leave before
   * the server closes its sockets.
   */
  let restarting = false;
  const restartFor = (environment: string) => {
    if (restarting) return;
    restarting = true;
    const say = server.config.logger.warn ?? server.config.logger.info;
    if (typeof server.restart !== 'function') {
      say.call(server.config.logger, `agent-scorers inspector: the "${environment}" environment stopped answering; restart the dev server.`, { timestamp: true });
      return;
    }
    say.call(server.config.logger, `agent-scorers inspector: the "${environment}" environment stopped answering; restarting the dev server.`, { timestamp: true });
    const timer = setTimeout(() => {
      server.restart!().catch((error: unknown) => say.call(server.config.logger, `agent-scorers inspector: the restart failed: ${messageOf(error)}`, { timestamp: true }));
    }, RESTART_DELAY_MS);
    timer.unref?.();
  };

  const middleware: Middleware = (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://inspector.invalid');
    const prefix = prefixes.find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
    if (prefix === undefined) return next();
    const route = url.pathname.slice(prefix.length);
    // Every route, the page and GETs included: a refused client learns nothing and runs nothing.
    const refused = refusal(req, remote, (name) => ownHosts(server).has(name));
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
      const state = readState(hooks, runners.where());
      sendJson(res, 'error' in state ? 500 : 200, state);
      return;
    }
    if (route === '/api/events') {
      if (!allow(method, ['GET'], res)) return;
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      // The page says which revision it shows; anything newer is sent at once, so no change is missed.
      const state = readState(hooks, runners.where());
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
      const answer = await listScorers(parsed);
      sendJson(res, answer.status, answer.payload);
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

  type Answer = { status: number; payload: unknown };

  /** The agent's modules and their specifiers, or the 404 answer for an unknown agent. */
  function agentLoad(agent: string): AgentLoad | Answer {
    let planned: Plan;
    try {
      planned = hooks.getPlan();
    } catch (error) {
      return { status: 500, payload: { error: `Could not read the agents folders: ${withoutAbsolutePaths(messageOf(error), hooks.root)}` } };
    }
    const found: AgentPlan | undefined = planned.byKey.get(agent);
    if (!found) {
      const known = planned.agents.map((a) => JSON.stringify(a.folder.key)).join(', ') || '(none)';
      return { status: 404, payload: { error: `Unknown agent ${JSON.stringify(agent)}; known agents: ${known}.` } };
    }
    const { folder } = found;
    const configFile = folder.config ? `${folder.path}/${folder.config}` : null;
    return {
      agent,
      dir: folder.dir,
      config: found.importConfig && configFile ? { specifier: hooks.specifier(configFile), file: configFile, name: folder.config! } : null,
      files: found.files.map((f) => ({ key: f.key, name: f.name, file: f.path, specifier: f.imported ? hooks.specifier(f.path) : null })),
      levels: planned.levels,
    };
  }

  /** Runs `request` where the app runs; an environment that cannot be reached is a 503 saying why. */
  async function exec(request: ExecRequest): Promise<ExecReply | Unfinished | Answer> {
    try {
      return await runners.run(request);
    } catch (error) {
      return { status: 503, payload: { error: `Could not run in ${placeOf(runners.where())}: ${withoutAbsolutePaths(messageOf(error), hooks.root)}` } };
    }
  }

  /** A failure's text: the file named relative to the root, no absolute path, no stack. */
  const failureText = (failure: Failure) => {
    const error = Object.assign(new Error(failure.message), { stack: failure.stack ?? '', id: failure.id, loc: failure.locFile ? { file: failure.locFile } : undefined });
    const text = describeFailure(error, errorContext());
    // The file whose import failed comes first, even when the failure names another (a helper it imports).
    const file = failure.file ? relativeFile(hooks.root, failure.file) : null;
    return file === null || text.startsWith(`${file}: `) ? text : `${file}: ${text}`;
  };
  /** Where the modules ran, when that is not where the app runs them. */
  const caveat = () => {
    const note = runners.where().note;
    return note ? ` (${note})` : '';
  };

  function failureAnswer(reply: Extract<ExecReply, { kind: 'failed' }>, agent: string): Answer {
    const text = failureText(reply.failure);
    switch (reply.stage) {
      case 'config':
        return { status: 500, payload: { error: `Could not load the config of agent ${JSON.stringify(agent)}: ${text}${caveat()}` } };
      case 'file':
        return { status: 500, payload: { error: `Could not load scorer ${JSON.stringify(reply.key)} of agent ${JSON.stringify(agent)}: ${text}${caveat()}` } };
      case 'resolve':
        return { status: 500, payload: { error: `Could not resolve the scorers of agent ${JSON.stringify(agent)}: ${text}` } };
      case 'run':
        return {
          status: 500,
          payload: { error: `Scorer ${JSON.stringify(reply.key)} failed: ${withoutAbsolutePaths(reply.failure.message, hooks.root)}`, ...(reply.failure.step ? { step: reply.failure.step } : {}) },
        };
    }
  }

  /**
   * A run or listing that did not end with a reply: what happened, what the inspector did about it,
   * and that the next runs are unaffected.
   */
  function unfinishedAnswer(reply: Unfinished, what: string): Answer {
    const place = placeOf(runners.where());
    const within = `did not finish within ${seconds(reply.ms)} (inspector.runTimeout)`;
    switch (reply.kind) {
      case 'timeout':
        return {
          status: 504,
          payload: { error: `${what} ${within}, so the inspector stopped waiting for it; it may still be running in ${place}. Other runs are not affected.` },
        };
      case 'unresponsive':
        return {
          status: 504,
          payload: {
            // Found out at the run timeout, or sooner when the run was never even acknowledged.
            error: `${what} did not finish, and ${place} stopped answering (an endless loop, or a run that holds its thread), so the dev server is restarting it; your app and the next runs work again in a few seconds.`,
            restarted: true,
          },
        };
      case 'lost':
        return reply.by === 'environment'
          ? {
              status: 502,
              payload: {
                error: `${what} never finished: ${place} restarted while it ran (workerd restarts after a crash, such as running out of memory). Your app and the next runs use the restarted environment.`,
                restarted: true,
              },
            }
          : {
              status: 503,
              payload: {
                error: `${what} never finished: the dev server is restarting or closing (its config changed, you asked for it, or workerd restarted after a crash, such as running out of memory). Run it again once the server is back.`,
                restarted: true,
              },
            };
    }
  }

  async function listScorers(request: { agent: string; requestContext?: Record<string, unknown> }): Promise<Answer> {
    const load = agentLoad(request.agent);
    if ('status' in load) return load;
    const reply = await exec({ op: 'scorers', helper: hooks.specifier(hooks.helper), load, ...(request.requestContext ? { requestContext: request.requestContext } : {}) });
    if ('status' in reply) return reply;
    if (reply.kind === 'timeout' || reply.kind === 'unresponsive' || reply.kind === 'lost') {
      return unfinishedAnswer(reply, `Listing the scorers of agent ${JSON.stringify(request.agent)}`);
    }
    if (reply.kind === 'failed') return failureAnswer(reply, request.agent);
    if (reply.kind !== 'scorers') return { status: 500, payload: { error: 'agent-scorers inspector: an unexpected answer' } };
    const failed = reply.failed.map((f) => ({ key: f.key, error: `Could not load scorer ${JSON.stringify(f.key)}: ${failureText(f.failure)}${caveat()}` }));
    return { status: 200, payload: { agent: request.agent, scorers: reply.scorers, ...(failed.length ? { failed } : {}) } };
  }

  async function runScorer(request: RunRequest): Promise<Answer> {
    const load = agentLoad(request.agent);
    if ('status' in load) return load;
    const reply = await exec({
      op: 'run',
      helper: hooks.specifier(hooks.helper),
      load,
      key: request.key,
      input: request.input,
      output: request.output,
      hasGroundTruth: 'groundTruth' in request,
      ...('groundTruth' in request ? { groundTruth: request.groundTruth } : {}),
      ...(request.requestContext ? { requestContext: request.requestContext } : {}),
    });
    if ('status' in reply) return reply;
    if (reply.kind === 'timeout' || reply.kind === 'unresponsive' || reply.kind === 'lost') {
      return unfinishedAnswer(reply, `Scorer ${JSON.stringify(request.key)} of agent ${JSON.stringify(request.agent)}`);
    }
    if (reply.kind === 'failed') return failureAnswer(reply, request.agent);
    if (reply.kind === 'no-key') {
      const keys = reply.keys.map((k) => JSON.stringify(k)).join(', ') || '(none)';
      return { status: 404, payload: { error: `Agent ${JSON.stringify(request.agent)} has no scorer ${JSON.stringify(request.key)}; its scorers: ${keys}.` } };
    }
    if (reply.kind !== 'run') return { status: 500, payload: { error: 'agent-scorers inspector: an unexpected answer' } };
    return { status: 200, payload: reply.payload };
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
  answerBeforeClosing(server, () => runners.close());

  const stop = () => {
    runners.stop();
    clearTimeout(pushTimer);
    server.watcher.off?.('all', onWatch);
    for (const res of clients) res.end();
    clients.clear();
  };
  server.httpServer?.once('close', stop);
  return stop;
}

/**
 * The names and addresses this server listens on: its URLs as Vite prints them, the configured
 * `server.host`, and the bound address, or every address of this machine when it is bound to all
 * (`0.0.0.0`, `::`). A request for any other host reached us through a name we never gave out.
 */
function ownHosts(server: InspectorServer): Set<string> {
  const hosts = new Set<string>();
  for (const url of [...(server.resolvedUrls?.local ?? []), ...(server.resolvedUrls?.network ?? [])]) {
    try {
      hosts.add(hostName(new URL(url).host));
    } catch {
      // not a URL
    }
  }
  const configured = server.config.server?.host;
  if (typeof configured === 'string') hosts.add(hostName(configured));
  const address = server.httpServer?.address?.() as { address?: string } | string | null | undefined;
  const bound = typeof address === 'object' && address !== null ? address.address : undefined;
  if (bound === undefined || bound === '0.0.0.0' || bound === '::') {
    for (const list of Object.values(os.networkInterfaces())) for (const entry of list ?? []) hosts.add(entry.address.toLowerCase());
  } else hosts.add(bound.toLowerCase());
  return hosts;
}

/**
 * A restart or close of the dev server drops every open connection (Vite destroys the sockets), so
 * the requests still waiting are answered first: `close` answers them, and a turn of the event loop
 * lets those answers reach their sockets. A restart comes from Vite itself (a config change, `r`),
 * from `@cloudflare/vite-plugin` after workerd crashed, or from the inspector.
 */
function answerBeforeClosing(server: InspectorServer & { close?: () => Promise<void> }, close: () => void): void {
  for (const method of ['restart', 'close'] as const) {
    const original = server[method];
    if (typeof original !== 'function') continue;
    server[method] = async function (this: unknown, ...args: unknown[]) {
      close();
      await new Promise((resolve) => setImmediate(resolve));
      return (original as (...a: unknown[]) => Promise<void>).apply(this ?? server, args);
    };
  }
}

/** `{ revision, manifest, runs }`, or `{ error }` when planning itself failed. */
function readState(hooks: InspectorHooks, runs: Where): { revision: string; manifest: Manifest; runs: Where } | { error: string } {
  try {
    const manifest = hooks.getPlan().manifest;
    const revision = createHash('sha256').update(JSON.stringify([manifest, runs])).digest('hex').slice(0, 16);
    return { revision, manifest, runs };
  } catch (error) {
    return { error: `Could not read the agents folders: ${messageOf(error)}` };
  }
}

/** "the `scorers_worker` environment (workerd)", for messages. */
function placeOf(where: Where): string {
  const runtime = where.runtime === 'node' ? 'Node' : where.runtime;
  return where.environment === null || where.how === 'ssrLoadModule' ? runtime : `the "${where.environment}" environment (${runtime})`;
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
  requestContext?: Record<string, unknown>;
}

/**
 * A request context given as a JSON object (text or parsed); undefined when absent. The environment
 * that runs the scorer makes it a Map, as Mastra passes its Map-like `RequestContext`.
 */
function parseRequestContext(value: unknown): Record<string, unknown> | undefined | Error {
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
  return parsed as Record<string, unknown>;
}

const RUN_FIELDS = ['agent', 'key', 'input', 'output', 'groundTruth', 'requestContext'];

const SCORERS_FIELDS = ['agent', 'requestContext'];

/** Validates `POST /api/scorers`' body. */
function parseScorersRequest(body: unknown): { agent: string; requestContext?: Record<string, unknown> } | { error: string } {
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

// What other adapters (the Nuxt module's start-up line) say about who may use the inspector.
export { isLoopback, REMOTE_HINT } from './guard.js';

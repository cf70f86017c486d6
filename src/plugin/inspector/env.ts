/**
 * Where the inspector runs scorers: in the environment that runs your app, found through Vite's
 * Environment API.
 *
 * - The environment is the one that imports the registry (the plugin sees which environments load
 *   its modules); before any has, a server environment other than the default `ssr` (a framework's
 *   or a Cloudflare Worker's), else `ssr`.
 * - An environment Vite runs in this process (a `RunnableDevEnvironment`: Node) runs the modules
 *   through its own module runner.
 * - One that runs elsewhere (`@cloudflare/vite-plugin`'s worker runs in workerd) gets a small dev-only
 *   bridge module, imported by the registry's modules there; the inspector talks to it over the
 *   environment's own HMR channel (custom events), and it runs exec.ts in place, so a
 *   scorer sees `cloudflare:workers`, its bindings and workerd's APIs, as the Worker does.
 * - Where neither works, modules run in this process through `ssrLoadModule`, and the answer says
 *   so and why.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { VIRTUAL_ID } from '../../core/codegen.js';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../core/options.js';
import { toPosix } from '../../core/scan.js';
import type { ExecReply, ExecRequest } from './exec.js';
import { execute } from './exec.js';
import { inspectorFile } from './folder.js';

/** The bridge module: served only by a dev server, only to environments that run outside this process. */
export const BRIDGE_ID = `\0${VIRTUAL_ID}:inspector-bridge`;
/** exec.js, served to those environments by path. */
const EXEC_FILE = toPosix(fileURLToPath(inspectorFile('exec.js')));

const EVENT = {
  hello: 'agent-scorers:bridge-hello',
  ready: 'agent-scorers:bridge-ready',
  request: 'agent-scorers:inspect',
  ack: 'agent-scorers:inspect-ack',
  reply: 'agent-scorers:inspect-reply',
} as const;

// Loose structural types: Vite 7's and 8's environment types differ in details.
export interface EnvironmentLike {
  name: string;
  config?: { consumer?: string };
  /** A `RunnableDevEnvironment`'s module runner (created on first use). */
  runner?: { import(url: string): Promise<Record<string, unknown>> };
  hot?: {
    send(payload: { type: 'custom'; event: string; data: unknown }): void;
    on(event: string, listener: (data: any) => void): void;
    off?(event: string, listener: (data: any) => void): void;
  };
  moduleGraph?: { getModuleById?(id: string): unknown };
}

export interface RunnerServer {
  environments?: Record<string, EnvironmentLike>;
  ssrLoadModule?: (url: string) => Promise<Record<string, unknown>>;
}

/** Where scorers run, as the page and the errors say it. */
export interface Where {
  /** The environment's name; null without the Environment API. */
  environment: string | null;
  /** `node` (this process), or what the environment reports (`workerd`). */
  runtime: string;
  how: 'runner' | 'bridge' | 'ssrLoadModule';
  /** Why it is not where the app runs, or what is still missing; null when all is well. */
  note: string | null;
}

/** Whether `env` should get the bridge: a server environment that this process cannot run modules in. */
export function wantsBridge(env: EnvironmentLike | undefined): boolean {
  return env !== undefined && !isClient(env) && !canRunHere(env) && typeof env.hot?.on === 'function';
}

const isClient = (env: EnvironmentLike) => (env.config?.consumer ?? (env.name === 'client' ? 'client' : 'server')) === 'client';
// `runner` is a getter on RunnableDevEnvironment: test for it without creating the runner.
const canRunHere = (env: EnvironmentLike) => 'runner' in env;

/**
 * The bridge's code: registers for the inspector's requests over the environment's HMR channel.
 *
 * Vite's module runner hands HMR messages to listeners one at a time and waits for each listener's
 * promise before the next message (its HMR queue), so a listener that awaited the run would make
 * every run wait for the one before it, and a run that never settles would hold back every later
 * message, hot updates of the app included. The listener starts the run and returns at once.
 * `instance` tells a bridge that loaded again (the environment restarted) from the one that took a
 * request.
 */
export function bridgeModule(specifier: (file: string) => string): string {
  return `import { execute } from ${JSON.stringify(specifier(EXEC_FILE))};
const hot = import.meta.hot;
if (hot) {
  const agent = typeof navigator === 'object' && navigator && typeof navigator.userAgent === 'string' ? navigator.userAgent : '';
  const instance = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const answer = async (message) => {
    let reply;
    try {
      reply = await execute(message.request, (specifier) => import(/* @vite-ignore */ specifier));
    } catch (error) {
      reply = { kind: 'failed', stage: 'resolve', failure: { message: String(error && error.message || error), stack: error && error.stack } };
    }
    hot.send(${JSON.stringify(EVENT.reply)}, { id: message.id, reply });
  };
  hot.on(${JSON.stringify(EVENT.request)}, (message) => {
    hot.send(${JSON.stringify(EVENT.ack)}, { id: message.id, agent, instance });
    void answer(message);
  });
  // Said when loaded, and again when asked: a first message can come before the server listens.
  hot.on(${JSON.stringify(EVENT.hello)}, () => hot.send(${JSON.stringify(EVENT.ready)}, { agent, instance }));
  hot.send(${JSON.stringify(EVENT.ready)}, { agent, instance });
}
`;
}

/**
 * How a request ended when it did not end with the environment's reply (the inspector turns each into
 * a JSON error naming the scorer):
 * - `timeout`: no reply within the run timeout, and the environment still answers; the run may still
 *   be going on there (a promise that never settles cannot be cancelled).
 * - `unresponsive`: no reply, and the environment no longer answers at all (an endless loop holds its
 *   thread): it is being restarted.
 * - `lost`: the environment loaded the bridge again while the run was going on (it restarted, as
 *   workerd does after running out of memory), or the dev server itself is restarting or closing
 *   (`by: 'server'`), so the reply will never come.
 */
export type Unfinished = { kind: 'timeout' | 'unresponsive'; ms: number } | { kind: 'lost'; ms: number; by: 'environment' | 'server' };

export interface RunnersOptions {
  /** Called when what `where()` says may have changed (a bridge reported its runtime). */
  onChange?: () => void;
  /** How long a request may take, in milliseconds (`inspector.runTimeout`). */
  runTimeout?: number;
  /**
   * Restarts the environment named (the dev server's restart); called once the environment stopped
   * answering and every request waiting for it has been answered.
   */
  restart?: (environment: string) => void;
}

export interface Runners {
  /** Where the next request would run. */
  where(): Where;
  /**
   * Runs `request` there, within the run timeout; rejects only when it cannot reach the environment
   * (the message says why).
   */
  run(request: ExecRequest): Promise<ExecReply | Unfinished>;
  /**
   * The dev server is about to restart or close (and drop every connection): each request still
   * waiting is answered now as lost, and later ones are refused.
   */
  close(): void;
  stop(): void;
}

interface Pending {
  request: ExecRequest;
  /** The bridge instance that acknowledged the request, or null before one has. */
  ackedBy: string | null;
  resolve: (reply: ExecReply | Unfinished) => void;
  reject: (error: Error) => void;
  timers: Array<ReturnType<typeof setTimeout>>;
}

interface Bridge {
  /** What the bridge reported when it loaded (navigator.userAgent), or null before it has. */
  agent: string | null;
  /** The bridge module instance that spoke last. */
  instance: string | null;
  pending: Map<string, Pending>;
  /** When the bridge was last asked to say hello. */
  asked: number;
  /** Callbacks waiting for the bridge to say anything (a probe). */
  heard: Array<() => void>;
  /** Set once the environment stopped answering and a restart was asked for. */
  restarting: boolean;
}

/** How long a bridge may take to acknowledge a request (it answers at once when its module is loaded). */
const ACK_TIMEOUT_MS = 15_000;
/** How long a bridge may take to answer a hello when asked whether it still answers at all. */
const PROBE_MS = 1_500;

/** `importedIn`: the environments that have loaded the registry's modules. */
export function createRunners(server: RunnerServer, importedIn: () => ReadonlySet<string>, options: RunnersOptions = {}): Runners {
  const onChange = options.onChange ?? (() => {});
  const runTimeout = options.runTimeout ?? DEFAULT_RUN_TIMEOUT_MS;
  const envs = () => Object.values(server.environments ?? {}).filter((env) => !isClient(env));
  const bridges = new Map<string, Bridge>();
  const listeners: Array<() => void> = [];
  /** Runs in this process still going on, each with a way to answer it at once. */
  const inProcess = new Set<(unfinished: Unfinished) => void>();
  let closed = false;

  for (const env of envs()) {
    if (!wantsBridge(env)) continue;
    const bridge: Bridge = { agent: null, instance: null, pending: new Map(), asked: 0, heard: [], restarting: false };
    bridges.set(env.name, bridge);
    const on = (event: string, listener: (data: any) => void) => {
      env.hot!.on(event, listener);
      listeners.push(() => env.hot!.off?.(event, listener));
    };
    /** Whatever the bridge says proves it answers; a new instance means its module loaded again. */
    const spoke = (data: { agent?: unknown; instance?: unknown } | undefined) => {
      if (typeof data?.instance === 'string') bridge.instance = data.instance;
      for (const done of bridge.heard.splice(0)) done();
      // The ready event may be sent before this server listens on the channel: an ack says it too.
      if (typeof data?.agent === 'string' && bridge.agent !== data.agent) {
        bridge.agent = data.agent;
        onChange();
      }
    };
    on(EVENT.ready, (data: { agent?: unknown; instance?: unknown }) => {
      spoke(data);
      if (bridge.agent === null) {
        bridge.agent = '';
        onChange();
      }
      // A bridge that loads again (the environment reloaded its modules) never saw requests that
      // were sent before and not acknowledged: send them again.
      for (const [id, pending] of bridge.pending) if (pending.ackedBy === null) send(env, id, pending.request);
    });
    on(EVENT.ack, (data: { id?: unknown; agent?: unknown; instance?: unknown }) => {
      spoke(data);
      const pending = bridge.pending.get(String(data?.id));
      if (!pending) return;
      pending.ackedBy = typeof data?.instance === 'string' ? data.instance : '';
    });
    on(EVENT.reply, (data: { id?: unknown; reply?: ExecReply }) => {
      for (const done of bridge.heard.splice(0)) done();
      const id = String(data?.id);
      const pending = bridge.pending.get(id);
      if (!pending || !data.reply) return;
      settle(bridge, id, () => pending.resolve(data.reply!));
    });
  }

  /** Sends over the channel; false when the channel cannot take it (its socket is gone). */
  function send(env: EnvironmentLike, id: string, request: ExecRequest): boolean {
    try {
      env.hot!.send({ type: 'custom', event: EVENT.request, data: { id, request } });
      return true;
    } catch {
      return false;
    }
  }

  function settle(bridge: Bridge, id: string, finish: () => void): void {
    const pending = bridge.pending.get(id);
    if (!pending) return;
    bridge.pending.delete(id);
    for (const timer of pending.timers) clearTimeout(timer);
    finish();
  }

  /** Whether the bridge says anything within PROBE_MS of being asked to say hello. */
  function probe(env: EnvironmentLike, bridge: Bridge): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        bridge.heard = bridge.heard.filter((done) => done !== heard);
        resolve(false);
      }, PROBE_MS);
      timer.unref?.();
      const heard = () => {
        clearTimeout(timer);
        resolve(true);
      };
      bridge.heard.push(heard);
      try {
        env.hot!.send({ type: 'custom', event: EVENT.hello, data: null });
      } catch {
        heard();
        resolve(false);
      }
    });
  }

  /**
   * The environment no longer answers: every request waiting for it is answered now (nothing it
   * holds will ever come back), then it is restarted. Requests that come meanwhile are refused with
   * a 503 until the restarted server takes over.
   */
  function unresponsive(env: EnvironmentLike, bridge: Bridge): void {
    if (bridge.restarting) return;
    bridge.restarting = true;
    for (const [id, pending] of [...bridge.pending]) settle(bridge, id, () => pending.resolve({ kind: 'unresponsive', ms: runTimeout }));
    options.restart?.(env.name);
  }

  /** The environment that imports the registry, or the likeliest one before any has. */
  function chosen(): EnvironmentLike | undefined {
    const candidates = envs();
    const imported = importedIn();
    return (
      candidates.find((env) => imported.has(env.name)) ??
      candidates.find((env) => env.name !== 'ssr' && (canRunHere(env) || wantsBridge(env))) ??
      candidates.find((env) => env.name === 'ssr') ??
      candidates[0]
    );
  }

  function where(): Where {
    const env = chosen();
    if (!env) return { environment: null, runtime: 'node', how: 'ssrLoadModule', note: null };
    if (canRunHere(env)) return { environment: env.name, runtime: 'node', how: 'runner', note: null };
    const bridge = bridges.get(env.name);
    if (bridge) {
      if (bridge.agent === null && importedIn().has(env.name) && Date.now() - bridge.asked > 2000) {
        bridge.asked = Date.now();
        try {
          env.hot!.send({ type: 'custom', event: EVENT.hello, data: null });
        } catch {
          // the channel is down; the next look asks again
        }
      }
      const runtime = bridge.agent === null ? 'its own runtime' : runtimeName(bridge.agent);
      const note = bridge.restarting
        ? `Environment "${env.name}" stopped answering and is restarting.`
        : bridge.agent === null && !importedIn().has(env.name)
          ? `Environment "${env.name}" has not imported ${VIRTUAL_ID} yet: open a page of your app that uses it, then run again.`
          : null;
      return { environment: env.name, runtime, how: 'bridge', note };
    }
    return {
      environment: env.name,
      runtime: 'node',
      how: 'ssrLoadModule',
      note: `Environment "${env.name}" runs outside this process and offers no channel to run scorers in, so they run in Node (the dev server's process), where its own modules (such as cloudflare:workers) do not exist.`,
    };
  }

  async function run(request: ExecRequest): Promise<ExecReply | Unfinished> {
    if (closed) throw new Error('the dev server is restarting or closing; run again once it is back');
    const env = chosen();
    if (env && canRunHere(env)) {
      const runner = env.runner!;
      return withinTimeout(execute(request, (specifier) => runner.import(specifier)));
    }
    const bridge = env && bridges.get(env.name);
    if (env && bridge) return viaBridge(env, bridge, request);
    if (typeof server.ssrLoadModule !== 'function') {
      throw new Error('this dev server cannot load server-side modules (no runnable environment and no ssrLoadModule)');
    }
    const load = server.ssrLoadModule.bind(server);
    return withinTimeout(execute(request, (specifier) => load(specifier)));
  }

  /**
   * In this process nothing can stop a promise that never settles: the inspector stops waiting for it
   * after the run timeout, so its slot goes to the next run, and the promise is left to itself.
   */
  function withinTimeout(work: Promise<ExecReply>): Promise<ExecReply | Unfinished> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cut: ((unfinished: Unfinished) => void) | undefined;
    const unfinished = new Promise<Unfinished>((resolve) => {
      cut = resolve;
      timer = setTimeout(() => resolve({ kind: 'timeout', ms: runTimeout }), runTimeout);
      timer.unref?.();
    });
    inProcess.add(cut!);
    return Promise.race([work, unfinished]).finally(() => {
      clearTimeout(timer);
      inProcess.delete(cut!);
    });
  }

  function viaBridge(env: EnvironmentLike, bridge: Bridge, request: ExecRequest): Promise<ExecReply | Unfinished> {
    if (bridge.restarting) {
      return Promise.reject(new Error(`Environment "${env.name}" stopped answering and the dev server is restarting it; run again in a few seconds.`));
    }
    if (bridge.agent === null && !importedIn().has(env.name)) {
      return Promise.reject(new Error(where().note ?? `Environment "${env.name}" is not ready.`));
    }
    const id = randomUUID();
    return new Promise<ExecReply | Unfinished>((resolve, reject) => {
      const pending: Pending = { request, ackedBy: null, resolve, reject, timers: [] };
      const later = (ms: number, then: () => void) => {
        const timer = setTimeout(then, ms);
        timer.unref?.();
        pending.timers.push(timer);
      };
      // Not acknowledged in time: the bridge is not loaded, or the environment's thread is held.
      later(Math.min(ACK_TIMEOUT_MS, runTimeout), () => {
        if (pending.ackedBy !== null || !bridge.pending.has(id)) return;
        void probe(env, bridge).then((answers) => {
          if (!bridge.pending.has(id)) return;
          if (!answers && bridge.agent !== null) return unresponsive(env, bridge);
          settle(bridge, id, () =>
            reject(
              new Error(
                `Environment "${env.name}" did not answer within ${seconds(Math.min(ACK_TIMEOUT_MS, runTimeout))}. The inspector reaches it over its HMR channel, ` +
                  `which answers once the environment has imported ${VIRTUAL_ID} with HMR on: open a page of your app that uses it, then run again.`,
              ),
            ),
          );
        });
      });
      // Acknowledged but no reply in time: still running there, lost in a restart, or stuck for good.
      later(runTimeout, () => {
        if (pending.ackedBy === null || !bridge.pending.has(id)) return;
        void probe(env, bridge).then((answers) => {
          if (!bridge.pending.has(id)) return;
          if (!answers) return unresponsive(env, bridge);
          const reloaded = bridge.instance !== null && pending.ackedBy !== '' && bridge.instance !== pending.ackedBy;
          settle(bridge, id, () => resolve(reloaded ? { kind: 'lost', ms: runTimeout, by: 'environment' } : { kind: 'timeout', ms: runTimeout }));
        });
      });
      bridge.pending.set(id, pending);
      // When the channel's socket is gone (the runtime crashed), the probe after the ack timeout decides.
      send(env, id, request);
    });
  }

  return {
    where,
    run,
    close() {
      closed = true;
      const lost: Unfinished = { kind: 'lost', ms: runTimeout, by: 'server' };
      for (const cut of [...inProcess]) cut(lost);
      for (const bridge of bridges.values()) for (const [id, pending] of [...bridge.pending]) settle(bridge, id, () => pending.resolve(lost));
    },
    stop() {
      for (const off of listeners.splice(0)) off();
      for (const bridge of bridges.values()) {
        for (const [id, pending] of [...bridge.pending]) settle(bridge, id, () => pending.reject(new Error('the dev server closed')));
      }
    },
  };
}

/** `1.5 s`, `60 s`. */
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** A runtime's name from the bridge's `navigator.userAgent`. */
function runtimeName(agent: string): string {
  if (agent === 'Cloudflare-Workers') return 'workerd';
  return agent === '' ? 'its own runtime' : agent;
}

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

/** How long a bridge may take to acknowledge a request (it answers at once when its module is loaded). */
const ACK_TIMEOUT_MS = 15_000;

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

/** The bridge's code: registers for the inspector's requests over the environment's HMR channel. */
export function bridgeModule(specifier: (file: string) => string): string {
  return `import { execute } from ${JSON.stringify(specifier(EXEC_FILE))};
const hot = import.meta.hot;
if (hot) {
  const agent = typeof navigator === 'object' && navigator && typeof navigator.userAgent === 'string' ? navigator.userAgent : '';
  hot.on(${JSON.stringify(EVENT.request)}, async (message) => {
    hot.send(${JSON.stringify(EVENT.ack)}, { id: message.id, agent });
    let reply;
    try {
      reply = await execute(message.request, (specifier) => import(/* @vite-ignore */ specifier));
    } catch (error) {
      reply = { kind: 'failed', stage: 'resolve', failure: { message: String(error && error.message || error), stack: error && error.stack } };
    }
    hot.send(${JSON.stringify(EVENT.reply)}, { id: message.id, reply });
  });
  // Said when loaded, and again when asked: a first message can come before the server listens.
  hot.on(${JSON.stringify(EVENT.hello)}, () => hot.send(${JSON.stringify(EVENT.ready)}, { agent }));
  hot.send(${JSON.stringify(EVENT.ready)}, { agent });
}
`;
}

export interface Runners {
  /** Where the next request would run. */
  where(): Where;
  /** Runs `request` there; rejects only when it cannot reach the environment (the message says why). */
  run(request: ExecRequest): Promise<ExecReply>;
  stop(): void;
}

interface Pending {
  request: ExecRequest;
  acked: boolean;
  resolve: (reply: ExecReply) => void;
  reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

interface Bridge {
  /** What the bridge reported when it loaded (navigator.userAgent), or null before it has. */
  agent: string | null;
  pending: Map<string, Pending>;
  /** When the bridge was last asked to say hello. */
  asked: number;
}

/**
 * `importedIn`: the environments that have loaded the registry's modules. `onChange`: called when
 * what `where()` says may have changed (a bridge reported its runtime).
 */
export function createRunners(server: RunnerServer, importedIn: () => ReadonlySet<string>, onChange: () => void = () => {}): Runners {
  const envs = () => Object.values(server.environments ?? {}).filter((env) => !isClient(env));
  const bridges = new Map<string, Bridge>();
  const listeners: Array<() => void> = [];

  for (const env of envs()) {
    if (!wantsBridge(env)) continue;
    const bridge: Bridge = { agent: null, pending: new Map(), asked: 0 };
    bridges.set(env.name, bridge);
    const on = (event: string, listener: (data: any) => void) => {
      env.hot!.on(event, listener);
      listeners.push(() => env.hot!.off?.(event, listener));
    };
    on(EVENT.ready, (data: { agent?: unknown }) => {
      const before = bridge.agent;
      bridge.agent = typeof data?.agent === 'string' ? data.agent : '';
      if (bridge.agent !== before) onChange();
      // A bridge that loads again (the environment reloaded its modules) never saw requests that
      // were sent before and not acknowledged: send them again.
      for (const [id, pending] of bridge.pending) if (!pending.acked) send(env, id, pending.request);
    });
    on(EVENT.ack, (data: { id?: unknown; agent?: unknown }) => {
      // The ready event may be sent before this server listens on the channel: an ack says it too.
      if (typeof data?.agent === 'string' && bridge.agent !== data.agent) {
        bridge.agent = data.agent;
        onChange();
      }
      const pending = bridge.pending.get(String(data?.id));
      if (!pending) return;
      pending.acked = true;
      clearTimeout(pending.timer);
    });
    on(EVENT.reply, (data: { id?: unknown; reply?: ExecReply }) => {
      const id = String(data?.id);
      const pending = bridge.pending.get(id);
      if (!pending || !data.reply) return;
      bridge.pending.delete(id);
      clearTimeout(pending.timer);
      pending.resolve(data.reply);
    });
  }

  function send(env: EnvironmentLike, id: string, request: ExecRequest): void {
    env.hot!.send({ type: 'custom', event: EVENT.request, data: { id, request } });
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
        env.hot!.send({ type: 'custom', event: EVENT.hello, data: null });
      }
      const runtime = bridge.agent === null ? 'its own runtime' : runtimeName(bridge.agent);
      const note = bridge.agent === null && !importedIn().has(env.name)
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

  async function run(request: ExecRequest): Promise<ExecReply> {
    const env = chosen();
    if (env && canRunHere(env)) {
      const runner = env.runner!;
      return execute(request, (specifier) => runner.import(specifier));
    }
    const bridge = env && bridges.get(env.name);
    if (env && bridge) return viaBridge(env, bridge, request);
    if (typeof server.ssrLoadModule !== 'function') {
      throw new Error('this dev server cannot load server-side modules (no runnable environment and no ssrLoadModule)');
    }
    const load = server.ssrLoadModule.bind(server);
    return execute(request, (specifier) => load(specifier));
  }

  function viaBridge(env: EnvironmentLike, bridge: Bridge, request: ExecRequest): Promise<ExecReply> {
    if (bridge.agent === null && !importedIn().has(env.name)) {
      return Promise.reject(new Error(where().note ?? `Environment "${env.name}" is not ready.`));
    }
    const id = randomUUID();
    return new Promise<ExecReply>((resolve, reject) => {
      const pending: Pending = { request, acked: false, resolve, reject };
      pending.timer = setTimeout(() => {
        bridge.pending.delete(id);
        reject(
          new Error(
            `Environment "${env.name}" did not answer within ${ACK_TIMEOUT_MS / 1000} s. The inspector reaches it over its HMR channel, ` +
              `which answers once the environment has imported ${VIRTUAL_ID} with HMR on: open a page of your app that uses it, then run again.`,
          ),
        );
      }, ACK_TIMEOUT_MS);
      pending.timer.unref?.();
      bridge.pending.set(id, pending);
      send(env, id, request);
    });
  }

  return {
    where,
    run,
    stop() {
      for (const off of listeners.splice(0)) off();
      for (const bridge of bridges.values()) {
        for (const pending of bridge.pending.values()) {
          clearTimeout(pending.timer);
          pending.reject(new Error('the dev server closed'));
        }
        bridge.pending.clear();
      }
    },
  };
}

/** A runtime's name from the bridge's `navigator.userAgent`. */
function runtimeName(agent: string): string {
  if (agent === 'Cloudflare-Workers') return 'workerd';
  return agent === '' ? 'its own runtime' : agent;
}

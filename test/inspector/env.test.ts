/**
 * Where the inspector runs scorers (src/plugin/inspector/env.ts), with stand-in environments shaped
 * like Vite's: the environment that imports the registry wins; one Vite runs in this process runs
 * modules through its runner; one that runs elsewhere is reached over its HMR channel (here a channel
 * whose other end runs the real bridge logic, `execute`), including a bridge that loads again and one
 * that never answers; with neither, `ssrLoadModule`, and the answer says why. The real hosts are in
 * test/hosts/cloudflare.test.ts (workerd) and test/inspector/security.test.ts (Node).
 */
import { describe, expect, test, vi } from 'vitest';
import { bridgeModule, createRunners, wantsBridge, type EnvironmentLike } from '../../src/plugin/inspector/env.js';
import { execute, type ExecRequest } from '../../src/plugin/inspector/exec.js';
import * as registryHelper from '../../src/runtime/registry.js';

const modules: Record<string, Record<string, unknown>> = {
  helper: registryHelper as unknown as Record<string, unknown>,
  '/a/tone.ts': { default: { id: 'tone', run: async (run: { output: string }) => ({ score: run.output.length }) } },
  '/a/broken.ts': {},
};
const importModule = async (specifier: string) => {
  if (specifier === '/a/broken.ts') throw Object.assign(new Error('Cannot find module x'), { stack: 'Error: Cannot find module x\n    at /a/broken.ts:1:1' });
  const found = modules[specifier];
  if (!found) throw new Error(`no module ${specifier}`);
  return found;
};

const runRequest = (key = 'tone'): ExecRequest => ({
  op: 'run',
  helper: 'helper',
  key,
  input: 'q',
  output: 'four',
  hasGroundTruth: false,
  load: {
    agent: 'weather',
    dir: 'src/mastra/agents/weather/',
    config: null,
    files: [
      { key: 'broken', name: 'broken.ts', file: '/a/broken.ts', specifier: '/a/broken.ts' },
      { key: 'tone', name: 'tone.ts', file: '/a/tone.ts', specifier: '/a/tone.ts' },
    ],
    levels: {},
  },
});

/** A hot channel whose other end is a bridge running `execute`, as the generated bridge module does. */
function bridgeChannel({ answers = true, agent = 'Cloudflare-Workers', replies = true } = {}) {
  const toServer = new Map<string, Array<(data: any) => void>>();
  const emit = (event: string, data: unknown) => toServer.get(event)?.forEach((listener) => listener(data));
  const sent: Array<{ event: string; data: any }> = [];
  const state = { answers, replies, instance: 'first' };
  const channel = {
    sent,
    state,
    on: (event: string, listener: (data: any) => void) => void toServer.set(event, [...(toServer.get(event) ?? []), listener]),
    off: (event: string, listener: (data: any) => void) => void toServer.set(event, (toServer.get(event) ?? []).filter((l) => l !== listener)),
    send(payload: { event: string; data: any }) {
      sent.push(payload);
      if (!state.answers) return;
      const instance = state.instance;
      if (payload.event === 'agent-scorers:bridge-hello') queueMicrotask(() => emit('agent-scorers:bridge-ready', { agent, instance }));
      if (payload.event === 'agent-scorers:inspect') {
        const { id, request } = payload.data;
        queueMicrotask(async () => {
          emit('agent-scorers:inspect-ack', { id, agent, instance });
          // `replies: false`: the run never settles there.
          if (state.replies) emit('agent-scorers:inspect-reply', { id, reply: await execute(request, importModule) });
        });
      }
    },
    /** What the bridge would say when its module loads (again). */
    ready: () => emit('agent-scorers:bridge-ready', { agent, instance: state.instance }),
  };
  return channel;
}

const client: EnvironmentLike = { name: 'client', config: { consumer: 'client' }, hot: bridgeChannel() };
const nodeEnv = (name = 'ssr'): EnvironmentLike => ({ name, config: { consumer: 'server' }, runner: { import: importModule } });

describe('which environment, and how', () => {
  test('the bridge goes only to a server environment this process cannot run modules in', () => {
    expect(wantsBridge({ name: 'worker', config: { consumer: 'server' }, hot: bridgeChannel() })).toBe(true);
    expect(wantsBridge(client)).toBe(false);
    expect(wantsBridge(nodeEnv())).toBe(false);
    expect(wantsBridge({ name: 'worker', config: { consumer: 'server' } })).toBe(false);
    expect(wantsBridge(undefined)).toBe(false);
  });

  test('the environment that imports the registry wins; before any does, a named server environment, then ssr', () => {
    const worker: EnvironmentLike = { name: 'my_worker', config: { consumer: 'server' }, hot: bridgeChannel() };
    const imported = new Set<string>();
    const runners = createRunners({ environments: { client, ssr: nodeEnv(), my_worker: worker } }, () => imported);
    expect(runners.where()).toMatchObject({ environment: 'my_worker', how: 'bridge' });
    imported.add('ssr');
    expect(runners.where()).toEqual({ environment: 'ssr', runtime: 'node', how: 'runner', note: null });
    const onlySsr = createRunners({ environments: { client, ssr: nodeEnv() } }, () => new Set());
    expect(onlySsr.where()).toEqual({ environment: 'ssr', runtime: 'node', how: 'runner', note: null });
  });

  test('in this process: the environment\'s runner loads only what the run needs', async () => {
    const imported: string[] = [];
    const env: EnvironmentLike = { name: 'ssr', runner: { import: (s) => (imported.push(s), importModule(s)) } };
    const runners = createRunners({ environments: { ssr: env } }, () => new Set(['ssr']));
    const reply = await runners.run(runRequest());
    expect(reply).toMatchObject({ kind: 'run', payload: { score: 4 } });
    expect(imported).toEqual(['helper', '/a/tone.ts']);
    expect(await runners.run(runRequest('broken'))).toMatchObject({ kind: 'failed', stage: 'file', key: 'broken', failure: { message: 'Cannot find module x', file: '/a/broken.ts' } });
  });
});

describe('over the HMR channel', () => {
  test('a run goes to the bridge and its reply comes back; the runtime is what the bridge reports', async () => {
    const hot = bridgeChannel();
    const changed = vi.fn();
    const runners = createRunners({ environments: { w: { name: 'w', config: { consumer: 'server' }, hot } } }, () => new Set(['w']), { onChange: changed });
    expect(runners.where().runtime).toBe('its own runtime');
    // Asking for `where` asks a silent bridge to say hello.
    expect(hot.sent.map((m) => m.event)).toEqual(['agent-scorers:bridge-hello']);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled());
    expect(runners.where()).toEqual({ environment: 'w', runtime: 'workerd', how: 'bridge', note: null });
    expect(await runners.run(runRequest())).toMatchObject({ kind: 'run', payload: { score: 4, key: 'tone' } });
    runners.stop();
  });

  test('a request sent while the bridge was reloading is sent again when it says it is ready', async () => {
    const hot = bridgeChannel({ answers: false });
    const runners = createRunners({ environments: { w: { name: 'w', config: { consumer: 'server' }, hot } } }, () => new Set(['w']));
    const pending = runners.run(runRequest());
    await vi.waitFor(() => expect(hot.sent.filter((m) => m.event === 'agent-scorers:inspect')).toHaveLength(1));
    const first = hot.sent.find((m) => m.event === 'agent-scorers:inspect')!.data;
    hot.ready();
    const again = hot.sent.filter((m) => m.event === 'agent-scorers:inspect');
    expect(again).toHaveLength(2);
    expect(again[1].data).toEqual(first);
    runners.stop();
    await expect(pending).rejects.toThrow('the dev server closed');
  });

  test('an environment that has not imported the registry is not asked: the answer says what to do', async () => {
    const hot = bridgeChannel();
    const runners = createRunners({ environments: { w: { name: 'w', config: { consumer: 'server' }, hot } } }, () => new Set());
    expect(runners.where().note).toBe('Environment "w" has not imported virtual:agent-scorers yet: open a page of your app that uses it, then run again.');
    await expect(runners.run(runRequest())).rejects.toThrow('has not imported virtual:agent-scorers yet');
    expect(hot.sent.filter((m) => m.event === 'agent-scorers:inspect')).toEqual([]);
  });

  test('a bridge that never answers times out with what to check', async () => {
    vi.useFakeTimers();
    try {
      const hot = bridgeChannel({ answers: false });
      const runners = createRunners({ environments: { w: { name: 'w', config: { consumer: 'server' }, hot } } }, () => new Set(['w']));
      const pending = runners.run(runRequest());
      const caught = pending.catch((error: Error) => error);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(String(await caught)).toContain('Environment "w" did not answer within 15 s. The inspector reaches it over its HMR channel');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('bounded by the run timeout', () => {
  const worker = (hot: ReturnType<typeof bridgeChannel>) => ({ environments: { w: { name: 'w', config: { consumer: 'server' }, hot } } });

  test('in this process: a run that never settles is answered as a timeout after runTimeout', async () => {
    vi.useFakeTimers();
    try {
      const env: EnvironmentLike = { name: 'ssr', runner: { import: async (s) => (s === '/a/tone.ts' ? { default: { id: 'tone', run: () => new Promise(() => {}) } } : importModule(s)) } };
      const runners = createRunners({ environments: { ssr: env } }, () => new Set(['ssr']), { runTimeout: 500 });
      const reply = runners.run(runRequest());
      await vi.advanceTimersByTimeAsync(500);
      expect(await reply).toEqual({ kind: 'timeout', ms: 500 });
    } finally {
      vi.useRealTimers();
    }
  });

  test('over the bridge: a run that never settles while the bridge still answers is a timeout, and nothing restarts', async () => {
    vi.useFakeTimers();
    try {
      const hot = bridgeChannel({ replies: false });
      const restart = vi.fn();
      const runners = createRunners(worker(hot), () => new Set(['w']), { runTimeout: 1000, restart });
      const reply = runners.run(runRequest());
      await vi.advanceTimersByTimeAsync(1000);
      // The bridge is asked whether it still answers, and does.
      expect(hot.sent.map((m) => m.event)).toEqual(['agent-scorers:inspect', 'agent-scorers:bridge-hello']);
      expect(await reply).toEqual({ kind: 'timeout', ms: 1000 });
      expect(restart).not.toHaveBeenCalled();
      hot.state.replies = true;
      expect(await runners.run(runRequest())).toMatchObject({ kind: 'run', payload: { score: 4 } });
    } finally {
      vi.useRealTimers();
    }
  });

  test('over the bridge: a bridge that stops answering answers every waiting run as unresponsive, asks for one restart, and refuses runs meanwhile', async () => {
    vi.useFakeTimers();
    try {
      const hot = bridgeChannel({ replies: false });
      const restart = vi.fn();
      const runners = createRunners(worker(hot), () => new Set(['w']), { runTimeout: 1000, restart });
      const first = runners.run(runRequest());
      await vi.advanceTimersByTimeAsync(10);
      // Both are acknowledged, then the environment's thread is held: nothing more comes back.
      const second = runners.run(runRequest('broken'));
      await vi.advanceTimersByTimeAsync(10);
      hot.state.answers = false;
      await vi.advanceTimersByTimeAsync(1000 + 1500);
      expect(await first).toEqual({ kind: 'unresponsive', ms: 1000 });
      expect(await second).toEqual({ kind: 'unresponsive', ms: 1000 });
      expect(restart).toHaveBeenCalledTimes(1);
      expect(restart).toHaveBeenCalledWith('w');
      await expect(runners.run(runRequest())).rejects.toThrow('Environment "w" stopped answering and the dev server is restarting it; run again in a few seconds.');
      expect(runners.where().note).toBe('Environment "w" stopped answering and is restarting.');
    } finally {
      vi.useRealTimers();
    }
  });

  test('over the bridge: a bridge loaded again while a run was going on (workerd restarted) means the run is lost', async () => {
    vi.useFakeTimers();
    try {
      const hot = bridgeChannel({ replies: false });
      const runners = createRunners(worker(hot), () => new Set(['w']), { runTimeout: 1000 });
      const reply = runners.run(runRequest());
      await vi.advanceTimersByTimeAsync(10);
      hot.state.instance = 'second';
      await vi.advanceTimersByTimeAsync(1000);
      expect(await reply).toEqual({ kind: 'lost', ms: 1000, by: 'environment' });
    } finally {
      vi.useRealTimers();
    }
  });

  test('close(): every waiting run, in this process or over the bridge, is answered as lost to the server, and later runs are refused', async () => {
    const hot = bridgeChannel({ replies: false });
    const overBridge = createRunners(worker(hot), () => new Set(['w']));
    const env: EnvironmentLike = { name: 'ssr', runner: { import: async (s) => (s === '/a/tone.ts' ? { default: { id: 'tone', run: () => new Promise(() => {}) } } : importModule(s)) } };
    const here = createRunners({ environments: { ssr: env } }, () => new Set(['ssr']));
    const replies = [overBridge.run(runRequest()), here.run(runRequest())];
    await new Promise((resolve) => setTimeout(resolve, 10));
    overBridge.close();
    here.close();
    expect(await Promise.all(replies)).toEqual([
      { kind: 'lost', ms: 60_000, by: 'server' },
      { kind: 'lost', ms: 60_000, by: 'server' },
    ]);
    await expect(here.run(runRequest())).rejects.toThrow('the dev server is restarting or closing');
  });
});

describe('the bridge module', () => {
  test('starts a run and returns at once: the module runner hands HMR messages over one at a time and waits for each listener', async () => {
    const code = bridgeModule((file) => file);
    const listeners = new Map<string, (data: any) => unknown>();
    const sent: Array<[string, any]> = [];
    const hot = { on: (event: string, listener: (data: any) => unknown) => void listeners.set(event, listener), send: (event: string, data: any) => void sent.push([event, data]) };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const modules: Record<string, Record<string, unknown>> = {
      ...Object.fromEntries(Object.entries({ helper: registryHelper })),
      '/a/tone.ts': { default: { id: 'tone', run: async () => (await held, { score: 1 }) } },
    };
    // The module's body, with its one import and import.meta.hot given as arguments.
    const body = code.replace(/^import \{ execute \} from .*;\n/, '').replaceAll('import.meta.hot', 'hotArg').replace('import(/* @vite-ignore */ specifier)', 'load(specifier)');
    new Function('execute', 'hotArg', 'load', body)(execute, hot, async (s: string) => modules[s]);
    const returned = listeners.get('agent-scorers:inspect')!({ id: '1', request: runRequest() });
    expect(returned).toBeUndefined();
    expect(sent.map(([event]) => event)).toEqual(['agent-scorers:bridge-ready', 'agent-scorers:inspect-ack']);
    release();
    await vi.waitFor(() => expect(sent.map(([event]) => event)).toContain('agent-scorers:inspect-reply'));
    expect(sent.find(([event]) => event === 'agent-scorers:inspect-reply')![1]).toMatchObject({ id: '1', reply: { kind: 'run', payload: { score: 1 } } });
  });
});

describe('no way to run in the environment', () => {
  test('ssrLoadModule in this process, and the answer says where and why', async () => {
    const loaded: string[] = [];
    const runners = createRunners(
      { environments: { client, w: { name: 'w', config: { consumer: 'server' } } }, ssrLoadModule: (s) => (loaded.push(s), importModule(s)) },
      () => new Set(['w']),
    );
    expect(runners.where()).toMatchObject({ environment: 'w', runtime: 'node', how: 'ssrLoadModule' });
    expect(runners.where().note).toContain('Environment "w" runs outside this process and offers no channel to run scorers in, so they run in Node');
    expect(await runners.run(runRequest())).toMatchObject({ kind: 'run', payload: { score: 4 } });
    expect(loaded).toEqual(['helper', '/a/tone.ts']);
  });
});

/**
 * Long-running host processes for the tests (`vite dev`, `vite preview`, `react-router-serve`): each
 * in a process group of its own, so stopping it also stops what it started (workerd, which the
 * Cloudflare plugin runs as a child), and nothing outlives the test that started it.
 */
import { spawn } from 'node:child_process';
import { freePort, get } from './serve.js';
import { stripAnsi } from '../helpers/hosts.js';

export interface Started {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** Everything printed so far, colours stripped. */
  output: () => string;
  /** Ends the whole process group and waits until the process has exited. */
  stop: () => Promise<void>;
}

/** Network use the Cloudflare tools would try (the `cf` object, telemetry); the tests have no network. */
export const OFFLINE_ENV = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };

/**
 * Starts `command args` in `dir` with `{port}` in `args` replaced by a free port; resolves once
 * `readyPath` answers with a status below 500 (or `ready` accepts the answer).
 */
export async function startServer(
  command: string,
  args: string[],
  dir: string,
  { readyPath = '/', env = {}, timeout = 120_000, ready = (status: number) => status < 500 }: { readyPath?: string; env?: Record<string, string>; timeout?: number; ready?: (status: number) => boolean } = {},
): Promise<Started> {
  const port = await freePort();
  let output = '';
  const child = spawn(command, args.map((a) => a.replace('{port}', String(port))), {
    cwd: dir,
    env: { ...process.env, ...OFFLINE_ENV, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone already
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signal('SIGTERM');
      const killer = setTimeout(() => signal('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    // Whatever the process started and left behind (workerd) goes with the group.
    signal('SIGKILL');
  };
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (let last = '';;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before ${readyPath} answered:\n${stripAnsi(output)}`);
    }
    try {
      const status = (await get(`${base}${readyPath}`)).status;
      if (ready(status)) break;
      last = `status ${status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() - started > timeout) {
      await stop();
      throw new Error(`${readyPath} did not answer within ${timeout} ms (last: ${last}):\n${stripAnsi(output)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { base, port, output: () => stripAnsi(output), stop };
}

/** Reads until `check` holds (a server answering, a file rebuilt), or fails after `timeout` naming `what` and the last reading. */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeout = 60_000): Promise<T> {
  const start = Date.now();
  let last: unknown;
  for (;;) {
    try {
      last = await read();
      if (check(last as T)) return last as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() - start > timeout) throw new Error(`${what}: not seen within ${timeout} ms; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

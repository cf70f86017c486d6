/**
 * Runs a built server program (`node build/index.js`, `node dist/server.js`) on a free port in a
 * child process, for the framework host tests, and reads its JSON answers.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { poll } from '../helpers/hosts.js';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The status and the body, parsed when it is JSON. */
export async function get(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export interface Served {
  base: string;
  /** Everything the program printed so far. */
  output: () => string;
  /** Ends the program and waits until it has exited. */
  stop: () => Promise<void>;
}

/** Starts `node <script>` in `dir` with `PORT` and `HOST` set; resolves once `readyPath` answers. */
export async function serve(dir: string, script: string, readyPath: string): Promise<Served> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [script], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  try {
    await poll(() => get(`${base}${readyPath}`), (r) => r.status < 500, { timeout: 30_000, context: () => `\nserver output:\n${output}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, output: () => output, stop };
}

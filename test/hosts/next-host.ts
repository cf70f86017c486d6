/**
 * Real Next.js 16 runs of a fixture copy: `next build` (Turbopack or `--webpack`), `next start` and
 * `next dev` as child processes, exactly as a user runs them. The copy lives under the repository,
 * so Next resolves `next` and `react` from the repository's node_modules; `turbopack.root` and
 * `outputFileTracingRoot` say so, or Turbopack refuses files outside the copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { poll, REPO, run, stripAnsi } from '../helpers/hosts.js';

const NEXT = path.join(REPO, 'node_modules/next/dist/bin/next');
/** No telemetry, no network: NOTES measured that Next 16 then builds offline on both bundlers. */
const ENV = { NEXT_TELEMETRY_DISABLED: '1' };

/** next.config.mjs with `withAgentScorers` from the installed package (`prepare(..., { linkSelf: true })`). */
export function writeNextConfig(dir: string, pluginOptions = '{}'): void {
  fs.writeFileSync(
    path.join(dir, 'next.config.mjs'),
    `import { withAgentScorers } from 'agent-scorers/next';

export default withAgentScorers({ turbopack: { root: ${JSON.stringify(REPO)} }, outputFileTracingRoot: ${JSON.stringify(REPO)} }, ${pluginOptions});
`,
  );
}

export type Bundler = 'turbopack' | 'webpack';

export function nextBuild(dir: string, bundler: Bundler): Promise<{ code: number | null; output: string }> {
  return run('nice', ['-n', '10', process.execPath, NEXT, 'build', ...(bundler === 'webpack' ? ['--webpack'] : [])], dir, ENV);
}

export interface NextServer {
  url: string;
  output: () => string;
  /** GET `path` as JSON (the route handlers answer JSON). */
  get: (route: string) => Promise<any>;
  stop: () => Promise<void>;
}

/** `next start`, `next dev` or `next dev --webpack` on a free port; resolves once Next prints its URL. */
export async function startNext(dir: string, command: 'start' | 'dev' | 'dev --webpack'): Promise<NextServer> {
  const child: ChildProcess = spawn(process.execPath, [NEXT, ...command.split(' '), '-p', '0'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  try {
    const url = await poll(
      async () => /Local:\s+(http:\/\/\S+)/.exec(stripAnsi(output))?.[1] ?? null,
      (u) => u !== null && /Ready in/.test(output),
      { timeout: 60_000, interval: 50, context: () => `\n${output}` },
    );
    return {
      url: url!,
      output: () => stripAnsi(output),
      get: async (route) => {
        const response = await fetch(`${url}${route}`);
        const text = await response.text();
        if (!response.ok) throw new Error(`${response.status}: ${text.slice(0, 500)}`);
        return JSON.parse(text);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

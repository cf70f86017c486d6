/**
 * Builds a fixture project with a real host CLI in a child process, exactly as a user would run
 * it, and returns the printed output and the built module. The plugin comes from `dist/` (built by
 * `npm test` first), so the tests exercise what ships.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const FIXTURES = path.join(REPO, 'test/fixtures');
const TMP = path.join(REPO, 'test/.tmp');
/** The built package; `AGENT_SCORERS_DIST` points at another build (used to check that these tests can fail). */
export const DIST = process.env.AGENT_SCORERS_DIST ?? path.join(REPO, 'dist');
export const PLUGIN = path.join(DIST, 'plugin');

export type Host = 'vite8' | 'vite7' | 'rollup' | 'rolldown';
export const HOSTS: Host[] = ['vite8', 'vite7', 'rollup', 'rolldown'];

const CLI: Record<Host, string[]> = {
  vite8: ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.config.mjs'],
  vite7: ['node_modules/vite7/bin/vite.js', 'build', '--config', 'vite.config.mjs'],
  rollup: ['node_modules/rollup/dist/bin/rollup', '-c', 'rollup.config.mjs'],
  rolldown: ['node_modules/rolldown/bin/cli.mjs', '-c', 'rolldown.config.mjs'],
};

// Bare imports stay external on every host, as they would in a server bundle.
const EXTERNAL = String.raw`/^(?![./\0]|[A-Za-z]:|virtual:)/`;

/** Vite 8 bundles with Rolldown, Vite 7 with Rollup: the build option that reaches the bundler. */
export const bundlerOptionsKey = (host: 'vite8' | 'vite7') => (host === 'vite8' ? 'rolldownOptions' : 'rollupOptions');

/** The built plugin entry a host's config imports, as a JS string literal. */
export const pluginEntry = (host: Host): string =>
  JSON.stringify(path.join(PLUGIN, host === 'vite7' || host === 'vite8' ? 'vite.js' : `${host}.js`));

function configFor(host: Host, pluginOptions: string): string {
  const plugin = pluginEntry(host);
  switch (host) {
    case 'vite8':
    case 'vite7':
      return `import agentScorers from ${plugin};
export default {
  logLevel: 'warn',
  plugins: [agentScorers(${pluginOptions})],
  build: {
    ssr: 'src/main.ts',
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    ${bundlerOptionsKey(host)}: { output: { entryFileNames: 'main.js', format: 'es' } },
  },
  ssr: { noExternal: [] },
};
`;
    case 'rollup':
      return `import typescript from ${JSON.stringify(path.join(REPO, 'node_modules/@rollup/plugin-typescript/dist/es/index.js'))};
import agentScorers from ${plugin};
export default {
  input: 'src/main.ts',
  external: ${EXTERNAL},
  plugins: [agentScorers(${pluginOptions}), typescript({ tsconfig: false, noEmitOnError: false, compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true, noCheck: true }, include: ['**/*.ts', '**/*.mts'] })],
  output: { file: 'dist/main.js', format: 'es' },
};
`;
    case 'rolldown':
      return `import agentScorers from ${plugin};
export default {
  input: 'src/main.ts',
  external: ${EXTERNAL},
  plugins: [agentScorers(${pluginOptions})],
  output: { file: 'dist/main.js', format: 'es' },
};
`;
  }
}

export interface BuildResult {
  host: Host;
  dir: string;
  code: number | null;
  /** stdout and stderr interleaved as printed, without colour. */
  output: string;
  /** Imports the built `dist/main.js`. */
  load: () => Promise<any>;
  bundle: () => string;
}

let counter = 0;

/** Copies `fixture` (a folder under test/fixtures, or an absolute folder) to a fresh temp folder. */
/** `linkSelf`: as after `npm install agent-scorers`, the project's `node_modules/agent-scorers` is this repository. */
export function prepare(fixture: string, host: string, { linkSelf = false } = {}): string {
  const source = path.isAbsolute(fixture) ? fixture : path.join(FIXTURES, fixture);
  const dir = path.join(TMP, `${path.basename(fixture)}-${host}-${process.pid}-${counter++}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(source, dir, { recursive: true, verbatimSymlinks: true });
  if (linkSelf) {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(REPO, path.join(dir, 'node_modules/agent-scorers'), 'dir');
  }
  return dir;
}

export async function build(
  host: Host,
  fixture: string,
  {
    pluginOptions = '{ dts: false }',
    dir = prepare(fixture, host),
    config = configFor(host, pluginOptions),
    extraArgs = [],
    env = {},
  }: {
    pluginOptions?: string;
    dir?: string;
    /** The whole config file, instead of the standard one. */
    config?: string;
    extraArgs?: string[];
    /** Beside `run`'s: builds run with `CI=1` unless this says otherwise. */
    env?: Record<string, string>;
  } = {},
): Promise<BuildResult> {
  fs.writeFileSync(path.join(dir, host.startsWith('vite') ? 'vite.config.mjs' : `${host}.config.mjs`), config);
  const [script, ...args] = CLI[host];
  const { code, output } = await run(process.execPath, [path.join(REPO, script), ...args, ...extraArgs], dir, env);
  const main = path.join(dir, 'dist/main.js');
  return {
    host,
    dir,
    code,
    output,
    load: () => importFresh(main),
    bundle: () => fs.readFileSync(main, 'utf8'),
  };
}

/**
 * Every file and folder under `dir` modified at `when` (an hour ago unless given), as in a checkout that
 * is not being edited: the readings store never keeps what was modified in the last seconds.
 */
export function age(dir: string, when = new Date(Date.now() - 3600_000)): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    fs.utimesSync(path.join(entry.parentPath, entry.name), when, when);
  }
}

/** Where option `cache` keeps its files for a project with its own node_modules: Vite's cacheDir, else node_modules/.cache. */
export const storeFolder = (dir: string, host: Host): string =>
  path.join(dir, 'node_modules', host.startsWith('vite') ? '.vite' : '.cache', 'agent-scorers');

let fresh = 0;
/**
 * Imports a built file as it is now. Vitest's module runner drops a `?t=` query (Vite's own timestamp
 * parameter), so `import(`${url}?t=${Date.now()}`)` of a file rebuilt in the same folder gave the
 * first build's module (measured); a query of another name makes each import a module of its own.
 */
export function importFresh(file: string): Promise<any> {
  return import(`${pathToFileURL(file).href}?fresh=${process.pid}-${fresh++}`);
}

export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: stripAnsi(output) }));
  });
}

export const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/** A Vite logger that records every message as `level: text`, colours stripped, into `logs`. */
export function captureLogger(vite: { createLogger(level: 'info'): any }, logs: string[]): any {
  const logger = vite.createLogger('info');
  for (const level of ['info', 'warn', 'warnOnce', 'error'] as const) {
    logger[level] = (message: string) => void logs.push(`${level}: ${stripAnsi(message)}`);
  }
  return logger;
}

/**
 * Calls `read` every `interval` ms until `check` accepts its value (a throw counts as not yet), and
 * fails after `timeout` ms with the last value or error, plus whatever `context()` adds.
 */
export async function poll<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { timeout = 10_000, interval = 25, context = () => '' }: { timeout?: number; interval?: number; context?: () => string } = {},
): Promise<T> {
  const start = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (check(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() - start > timeout) {
      const value = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeout} ms; last value: ${value}${context()}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** How many times `needle` occurs in `haystack`. */
export const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

/**
 * Writes a file a dev server watches and has seen written before. chokidar (inside Vite) drops a second
 * `change` of one path within 50 ms of the first, and a test that writes again as soon as it sees
 * the first edit served can land in that window, so its write goes unreported (seen: a Worker
 * served the previous content for 60 s). Waits until the last write is 200 ms old, and 100 ms at least.
 */
export async function rewriteFile(file: string, content: string): Promise<void> {
  const mtime = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  await new Promise((resolve) => setTimeout(resolve, Math.max(100, mtime + 200 - Date.now())));
  fs.writeFileSync(file, content);
}

/**
 * Nuxt 4 as a host, through the Nuxt module: the fixture app is a Nuxt 4 app (`app/`, `server/`) whose
 * `nuxt.config.ts` only adds `modules: ['agent-scorers/nuxt']`, with server routes that import the
 * registry and Mastra-style agents under `src/mastra/agents`. The package comes from its `npm pack`
 * tarball, as a user installs it. Everything runs through Nuxt's own CLI (`nuxi prepare`, `typecheck`,
 * `build`, `dev`), `tsc` 7 on Nuxt's generated tsconfigs, and the built `.output/server/index.mjs`.
 *
 * A standalone Nitro 3 server (its Vite plugin, `nuxt-nitro3`) is built with the plain Vite plugin beside it.
 *
 * Installing Nuxt takes about a minute, so each fixture's pinned dependencies are installed once into
 * `test/.tmp/<fixture>-deps-<hash of its package.json>` and kept while runs use them (test/global-setup.ts
 * removes what is an hour old); each run installs this build's tarball there and copies the app into
 * a folder beneath, where Node and TypeScript find the packages as in a project of its own.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, FIXTURES, REPO, run } from '../helpers/hosts.js';
import { npm, packPackage } from '../helpers/pack.js';
import { OFFLINE_ENV, startServer, type Started, until } from './processes.js';
import { get } from './serve.js';

const FIXTURE = path.join(FIXTURES, 'nuxt-app');
/** A standalone Nitro 3 server built by Vite with Nitro's Vite plugin (the same agents). */
const NITRO3 = path.join(FIXTURES, 'nuxt-nitro3');
/** Where a fixture's pinned dependencies are installed: one folder per content of its package.json. */
const depsOf = (fixture: string) =>
  path.join(REPO, 'test/.tmp', `${path.basename(fixture)}-deps-${createHash('sha1').update(fs.readFileSync(path.join(fixture, 'package.json'))).digest('hex').slice(0, 10)}`);
const DEPS = depsOf(FIXTURE);
const NITRO3_DEPS = depsOf(NITRO3);
const NUXI = path.join(DEPS, 'node_modules/nuxt/bin/nuxt.mjs');
/** TypeScript 7, the `typescript` package's own major today (the fixture's `typescript` is 6, for vue-tsc). */
const TSC7 = path.join(DEPS, 'node_modules/typescript7/bin/tsc');
/** Nuxt's logger hides its info lines (the URLs, "Nitro server built") in a test process: run as a user does. */
const ENV = { ...OFFLINE_ENV, NUXT_TELEMETRY_DISABLED: '1', NODE_ENV: '', TEST: '' };

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const FUNCTION_FORM =
  '[CONFIG_SCORERS_FUNCTION] Agent "support": config.scorers is a function, so discovered scorers under src/mastra/agents/support/scorers/ are ignored. (src/mastra/agents/support/config.ts)';
/** What `GET /api/registry` answers: each agent's keys in registry order. */
const KEYS = { support: ['function'], weather: ['relevance', 'tone'], 'weather/planner': ['brevity'] };
const WEATHER = { relevance: 'config-relevance', tone: 'tone' };

let tarballDir: string;
const apps: string[] = [];

/**
 * The Nuxt tab of Getting started, block by block (`typescript [file]`): they rely on Nuxt's
 * auto-imports, which the docs' own sample check (test/docs/samples.test.ts) has not, so they are
 * built, served and type-checked here, in the Nuxt app.
 */
function docsBlocks(): Map<string, string> {
  const page = fs.readFileSync(path.join(REPO, 'docs/guide/getting-started.md'), 'utf8');
  const tab = page.slice(page.indexOf('\n== Nuxt\n'), page.indexOf('\n== ', page.indexOf('\n== Nuxt\n') + 1));
  return new Map([...tab.matchAll(/^```typescript \[([^\]]+)\]\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));
}
const DOCS = docsBlocks();

/** A fixture's dependencies (once per package.json), then this build's package from its tarball. */
async function install(fixture: string, tarball: string): Promise<void> {
  const deps = depsOf(fixture);
  const marker = path.join(deps, '.installed');
  if (!fs.existsSync(marker)) {
    fs.rmSync(deps, { recursive: true, force: true });
    fs.mkdirSync(deps, { recursive: true });
    fs.copyFileSync(path.join(fixture, 'package.json'), path.join(deps, 'package.json'));
    const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], deps);
    expect(installed.code, installed.output).toBe(0);
    fs.writeFileSync(marker, '');
  }
  const now = new Date();
  fs.utimesSync(deps, now, now);
  const self = await npm(['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', tarball], deps);
  expect(self.code, self.output).toBe(0);
}

/** A fresh copy of the fixture app beside the installed dependencies. */
function app(name: string): string {
  const dir = path.join(DEPS, 'apps', `${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(FIXTURE, dir, { recursive: true });
  // The docs' server route, beside the fixture's own.
  fs.writeFileSync(path.join(dir, 'server/api/scorers.ts'), DOCS.get('server/api/scorers.ts')!);
  apps.push(dir);
  return dir;
}

const nuxi = (args: string[], dir: string) => run(process.execPath, [NUXI, ...args], dir, ENV);
const tsc7 = (tsconfig: string, dir: string) => run(process.execPath, [TSC7, '-p', tsconfig, '--noEmit'], dir, ENV);
/** Nuxt 4's generated tsconfigs for the app, server routes and shared code. */
const TSCONFIGS = ['.nuxt/tsconfig.app.json', '.nuxt/tsconfig.server.json', '.nuxt/tsconfig.shared.json'];

beforeAll(async () => {
  tarballDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-nuxt-'));
  const { tarball } = await packPackage(tarballDir);
  await Promise.all([install(FIXTURE, tarball), install(NITRO3, tarball)]);
}, 600_000);
afterAll(() => {
  for (const dir of [tarballDir, ...apps]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the fixture is set up exactly as the docs say: nuxt.config.ts only adds the module', () => {
  expect([...DOCS.keys()]).toEqual(['nuxt.config.ts', 'server/api/scorers.ts']);
  expect(fs.readFileSync(path.join(FIXTURE, 'nuxt.config.ts'), 'utf8')).toBe(DOCS.get('nuxt.config.ts'));
});

describe('nuxi prepare, typecheck and build; the built server', () => {
  let dir: string;

  beforeAll(() => {
    dir = app('build');
  });

  test('after nuxi prepare alone, tsc 7 passes on every generated tsconfig, which see the registry with its literal keys', async () => {
    const prepared = await nuxi(['prepare'], dir);
    expect(prepared.code, prepared.output).toBe(0);
    const declarations = fs.readFileSync(path.join(dir, '.nuxt/types/agent-scorers.d.ts'), 'utf8');
    expect(declarations).toContain('declare module "virtual:agent-scorers"');
    expect(declarations).toContain('typeof import("../../src/mastra/agents/weather/scorers/tone.ts"');
    // Nothing is written where Nuxt's tsconfigs do not look.
    expect(fs.existsSync(path.join(dir, 'src/agent-scorers.d.ts'))).toBe(false);
    for (const tsconfig of TSCONFIGS) {
      const checked = await tsc7(tsconfig, dir);
      expect(checked.output, tsconfig).toBe('');
      expect(checked.code, tsconfig).toBe(0);
    }
  });

  test('control: tsc 7 rejects an unknown agent and an unknown scorer key in a server route', async () => {
    const route = path.join(dir, 'server/api/bad.ts');
    fs.writeFileSync(route, `import scorers from 'virtual:agent-scorers';

export default defineEventHandler(() => [scorers.nope, scorers.weather.nope]);
`);
    try {
      const checked = await tsc7('.nuxt/tsconfig.server.json', dir);
      expect(checked.code).not.toBe(0);
      const errors = checked.output.split('\n').filter((line) => line.includes('error TS'));
      expect(errors).toEqual([
        expect.stringMatching(/^server\/api\/bad\.ts\(3,50\): error TS2339: Property 'nope' does not exist on type/),
        expect.stringMatching(/^server\/api\/bad\.ts\(3,72\): error TS2339: Property 'nope' does not exist on type/),
      ]);
    } finally {
      fs.rmSync(route);
    }
  });

  test('nuxi typecheck (vue-tsc on TypeScript 6) passes', async () => {
    const checked = await nuxi(['typecheck'], dir);
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).not.toMatch(/error TS/);
  }, 180_000);

  test('nuxi build prints each merge warning exactly once, and the built server answers with the registry', async () => {
    const built = await nuxi(['build'], dir);
    expect(built.code, built.output).toBe(0);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, FUNCTION_FORM)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(2);
    const server = await startServer(process.execPath, ['.output/server/index.mjs'], dir, { readyPath: '/api/registry', env: ENV });
    try {
      expect(await get(`${server.base}/api/registry`)).toEqual({ status: 200, body: KEYS });
      // The docs' route.
      expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: ['relevance', 'tone'] });
      expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: WEATHER });
      // The function form, called by resolveScorers.
      expect(await get(`${server.base}/api/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
      const page = await get(`${server.base}/`);
      expect(page.body).toMatch(/<ul id="agents">(<!--\[-->)?<li>support: function<\/li><li>weather: relevance, tone<\/li><li>weather\/planner: brevity<\/li>/);
      // Files the build knew to be overridden are not in the server output.
      const output = path.join(dir, '.output/server');
      const code = fs.readdirSync(output, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs') && !f.startsWith('node_modules'))
        .map((f) => fs.readFileSync(path.join(output, f), 'utf8')).join('\n');
      expect(code).toContain('config-relevance');
      expect(code).not.toContain('file-relevance-overridden');
      expect(code).not.toContain('file-ignored');
    } finally {
      await server.stop();
    }
  }, 240_000);

  test('a broken scorer file fails nuxi build naming the code and the file, the merge warnings still shown, ids readable', async () => {
    const broken = path.join(dir, 'src/mastra/agents/weather/scorers/broken.ts');
    fs.writeFileSync(broken, "export default 'not a scorer';\n");
    try {
      const built = await nuxi(['build'], dir);
      expect(built.code).not.toBe(0);
      expect(built.output).toContain(
        '[SCORER_INVALID_EXPORT] Agent "weather": scorer "broken": the default export is a string, not a scorer or a { scorer, sampling } entry. (src/mastra/agents/weather/scorers/broken.ts)',
      );
      expect(count(built.output, COLLISION)).toBe(1);
      expect(count(built.output, FUNCTION_FORM)).toBe(1);
      // Rollup names the module that failed by its id: the one the user imports, not `\0virtual:...`.
      expect(built.output).toContain('Could not load virtual:agent-scorers');
      expect(built.output).not.toContain('\0');
    } finally {
      fs.rmSync(broken);
    }
  }, 240_000);
});

describe('nuxi dev', () => {
  let dir: string;
  let server: Started;
  const scorers = (file: string) => path.join(dir, 'src/mastra/agents/weather/scorers', file);
  /**
   * A request that reaches Nitro's dev server while it swaps in a new bundle can stay unanswered
   * (measured: `curl` waited for good, with or without this plugin), so each one gives up after a while.
   */
  const answer = async (route: string) => {
    const response = await fetch(`${server.base}${route}`, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const weather = () => answer('/api/agents/weather');
  /** Nitro has bundled the server routes again after a change (each rebuild prints this line). */
  const rebuilds = () => count(server.output(), 'Nitro server built');
  /** `until`, failing with the end of what Nuxt printed. */
  const settled = <T>(read: () => Promise<T>, check: (value: T) => boolean, what: string) =>
    until(read, check, what).catch((error: Error) => {
      throw new Error(`${error.message}\nnuxi dev printed, last lines:\n${server.output().slice(-4000)}`);
    });

  beforeAll(async () => {
    dir = app('dev');
    server = await startServer(process.execPath, [NUXI, 'dev', '--host', '127.0.0.1', '--port', '{port}'], dir, { readyPath: '/api/registry', env: ENV });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('the server routes answer with the registry; the inspector starts once and runs a scorer', async () => {
    expect(await answer('/api/registry')).toEqual({ status: 200, body: KEYS });
    expect(await weather()).toEqual({ status: 200, body: WEATHER });
    expect(count(server.output(), `➜ Scorers: http://127.0.0.1:${server.port}/__agent-scorers/`)).toBe(1);
    expect(count(server.output(), '__agent-scorers')).toBe(1);
    const inspector = `${server.base}/__agent-scorers/`;
    const page = await fetch(inspector);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>');
    expect((await get(`${inspector}api/state`)).body.manifest.agents.weather.scorers).toMatchObject({ relevance: { source: 'config' }, tone: { source: 'file' } });
    const res = await fetch(`${inspector}api/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: 'weather', key: 'tone', input: 'q', output: 'Sunny!!' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { score: number }).score).toBe(0);
  });

  test('an added and a deleted scorer file show in the next responses; each warning printed once across Nitro rebuilds', async () => {
    const before = rebuilds();
    expect(before).toBeGreaterThanOrEqual(1);
    // An edit of a server route: Nitro bundles again (and would print the tree's warnings again).
    fs.writeFileSync(path.join(dir, 'server/api/hello.ts'), "export default defineEventHandler(() => 'hello');\n");
    await settled(() => answer('/api/hello'), (r) => r.body === 'hello', 'server/api/hello.ts added');
    fs.writeFileSync(scorers('brevity.ts'), "export default { id: 'file-brevity', run: async () => ({ score: 1 }) };\n");
    await settled(weather, (r) => r.body?.brevity === 'file-brevity', 'brevity.ts added');
    fs.rmSync(scorers('brevity.ts'));
    await settled(weather, (r) => r.status === 200 && !('brevity' in r.body), 'brevity.ts deleted');
    expect(await weather()).toEqual({ status: 200, body: WEATHER });
    expect(rebuilds()).toBeGreaterThanOrEqual(before + 3);
    expect(count(server.output(), COLLISION)).toBe(1);
    expect(count(server.output(), FUNCTION_FORM)).toBe(1);
  });

  test('a fixed warning is forgotten: when the collision comes back, it prints again', async () => {
    const file = scorers('relevance.ts');
    const text = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    // Without the file, the config's key follows the discovered ones.
    await settled(weather, (r) => JSON.stringify(Object.keys(r.body ?? {})) === '["tone","relevance"]', 'relevance.ts deleted');
    expect(count(server.output(), COLLISION)).toBe(1);
    fs.writeFileSync(file, text);
    await settled(weather, (r) => JSON.stringify(Object.keys(r.body ?? {})) === '["relevance","tone"]', 'relevance.ts back');
    expect(count(server.output(), COLLISION)).toBe(2);
    expect(count(server.output(), FUNCTION_FORM)).toBe(1);
  });
});

describe('a standalone Nitro 3 server with the plain Vite plugin', () => {
  test('vite build prints each warning once; the built server answers with the registry', async () => {
    const dir = path.join(NITRO3_DEPS, 'apps', `build-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(NITRO3, dir, { recursive: true });
    fs.cpSync(path.join(FIXTURE, 'src'), path.join(dir, 'src'), { recursive: true });
    apps.push(dir);
    const built = await run(process.execPath, [path.join(NITRO3_DEPS, 'node_modules/vite/bin/vite.js'), 'build'], dir, ENV);
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain('building nitro environment');
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, FUNCTION_FORM)).toBe(1);
    const server = await startServer(process.execPath, ['.output/server/index.mjs'], dir, { readyPath: '/api/registry', env: ENV });
    try {
      expect(await get(`${server.base}/api/registry`)).toEqual({ status: 200, body: KEYS });
    } finally {
      await server.stop();
    }
  }, 180_000);
});

/**
 * One fixture, every host: Vite 8, esbuild (our esbuild plugin), the generated file under Node 24
 * and Bun, and Next.js 16 with Turbopack and with webpack. Each yields the same registry (agent keys
 * and order, scorer keys and order, scorer ids, sampling, forms), the same manifest and the same score,
 * and each build prints every warning once. Hostile names are written at test time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, count, DIST, importFresh, prepare, REPO, run } from '../helpers/hosts.js';
import { nextBuild, startNext, writeNextConfig, type Bundler } from './next-host.js';

const AGENT = `qu"o'te \${x} ü`;
const KEYS = [`a'b"`, 'x${y}', 'ünïcødé', 'with space', '__proto__', 'toString'];
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const WARNINGS = ['[SCORER_KEY_COLLISION]', '[CONFIG_SCORERS_FUNCTION]'];
const BIN = path.join(DIST, 'plugin/bin.js');

function writeHostile(dir: string): void {
  const scorers = path.join(dir, 'src/mastra/agents', AGENT, 'scorers');
  fs.mkdirSync(scorers, { recursive: true });
  for (const key of KEYS) {
    fs.writeFileSync(path.join(scorers, `${key}.ts`), `export default { id: ${JSON.stringify(`hostile:${key}`)}, run: async () => ({ score: 1 }) };\n`);
  }
}

/** The description printed last by `src/node-main.mjs`. */
const lastJson = (output: string) => JSON.parse(output.trim().split('\n').pop()!);

let dir: string;
let expected: any;

beforeAll(async () => {
  dir = prepare('hosts-app', 'differential', { linkSelf: true });
  writeHostile(dir);
  const vite = await build('vite8', 'hosts-app', { dir });
  expect(vite.code, vite.output).toBe(0);
  for (const warning of WARNINGS) expect(count(vite.output, warning), vite.output).toBe(1);
  expected = await (await vite.load()).result();
}, 300_000);

test('the reference (Vite 8) holds the fixture: hostile names, the merge, sampling, a score', () => {
  expect(expected.keys).toEqual(['constructor', AGENT, 'support', 'weather', 'weather/planner']);
  expect(expected.agents[AGENT].scorers).toEqual([...KEYS].sort(byCodeUnit).map((k) => [k, `hostile:${k}`, null]));
  expect(expected.agents.constructor.scorers).toEqual([['__proto__', 'constructor:__proto__', null]]);
  expect(expected.agents.support).toEqual({ form: 'function', nullPrototype: true, frozen: true, scorers: [['helpful', 'support:helpful', null]] });
  expect(expected.agents.weather.scorers).toEqual([
    ['relevance', 'config:relevance', null],
    ['tone', 'tone', { type: 'ratio', rate: 0.5 }],
  ]);
  expect(expected.agents['weather/planner'].scorers).toEqual([['brevity', 'planner:brevity', { type: 'none' }]]);
  expect(Object.keys(expected.manifest.agents)).toEqual(expected.keys);
  expect(expected.manifest.diagnostics.map((d: any) => d.code)).toEqual(['CONFIG_SCORERS_FUNCTION', 'SCORER_KEY_COLLISION']);
  expect(expected.score).toBe(0.75);
});

test('esbuild with agent-scorers/esbuild', async () => {
  const esbuild = await import('esbuild');
  const { default: agentScorers } = await import(pathToFileURL(path.join(DIST, 'plugin/esbuild.js')).href);
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ['src/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: 'dist-esbuild/main.js',
    logLevel: 'silent',
    plugins: [agentScorers()],
  });
  expect(result.errors).toEqual([]);
  for (const warning of WARNINGS) expect(result.warnings.filter((w) => w.text.startsWith(warning))).toHaveLength(1);
  const m = await importFresh(path.join(dir, 'dist-esbuild/main.js'));
  expect(await m.result()).toEqual(expected);
});

describe('the generated file', () => {
  beforeAll(async () => {
    const generated = await run(process.execPath, [BIN, 'generate'], dir);
    expect(generated.code, generated.output).toBe(0);
    for (const warning of WARNINGS) expect(count(generated.output, warning), generated.output).toBe(1);
  });

  test('imported by Node 24 directly (type stripping)', async () => {
    const result = await run('npx', ['-y', 'node@24', 'src/node-main.mjs'], dir);
    expect(result.code, result.output).toBe(0);
    expect(lastJson(result.output)).toEqual(expected);
  });

  test('imported by Bun', async () => {
    const result = await run(path.join(REPO, 'node_modules/.bin/bun'), ['src/node-main.mjs'], dir);
    expect(result.code, result.output).toBe(0);
    expect(lastJson(result.output)).toEqual(expected);
  });
});

describe.each<Bundler>(['turbopack', 'webpack'])('Next.js 16 with %s: next build, then next start', (bundler) => {
  let app: string;
  let built: { code: number | null; output: string };
  let server: Awaited<ReturnType<typeof startNext>> | undefined;

  beforeAll(async () => {
    app = prepare('hosts-app', `next-${bundler}`, { linkSelf: true });
    writeHostile(app);
    writeNextConfig(app);
    built = await nextBuild(app, bundler);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('builds, printing each warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain(bundler === 'webpack' ? '(webpack)' : '(Turbopack)');
    for (const warning of WARNINGS) expect(count(built.output, warning), built.output).toBe(1);
  });

  test('the route handler answers with the same registry', async () => {
    server = await startNext(app, 'start');
    expect(await server.get('/api/scorers')).toEqual(expected);
  });
});

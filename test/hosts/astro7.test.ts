/**
 * Astro 7 with `@astrojs/node` 11 in standalone mode, the plugin under `vite.plugins` in
 * `astro.config.mjs`, installed with npm from the packed tarball into a project of its own
 * (installed.ts). `astro build`, the built `dist/server/entry.mjs`, `astro sync` + `tsc` 7 and
 * `astro dev`, each as the user runs them. `astro check` refuses TypeScript 7, so `tsc` is the check here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { bin, gettingStartedTab, install, remove, type Installed } from './installed.js';
import { startServer, type Started, until } from './processes.js';
import { get } from './serve.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const NO_DEFAULT =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/weather/scorers/broken.ts)';
const WEATHER = { relevance: 'config-relevance', tone: 'tone' };
const ENV = { ASTRO_TELEMETRY_DISABLED: '1' };
/**
 * Astro's dev server leaves out its routes when `VITEST` is set (for Astro inside Vitest), and every
 * process these tests start inherits it from Vitest's worker: Astro runs with it unset, as in a terminal.
 */
const ASTRO = () => ['-u', 'VITEST', process.execPath, bin(app.dir, 'astro')];

const FIXTURE = path.join(import.meta.dirname, '../fixtures/astro7');
let app: Installed;
const astro = (...args: string[]) => run('env', [...ASTRO(), ...args], app.dir, ENV);
const scorerFile = (name: string) => path.join(app.dir, 'src/mastra/agents/weather/scorers', name);

beforeAll(async () => {
  app = await install('astro7');
}, 600_000);
// A few hundred MB of node_modules per install: gone when the file is done.
afterAll(() => remove(app));

test("the getting-started tab shows this fixture's own files", () => {
  const tab = gettingStartedTab('Astro');
  for (const file of ['astro.config.mjs', 'src/pages/api/scorers.ts']) expect(tab.get(file), file).toBe(fs.readFileSync(path.join(FIXTURE, file), 'utf8'));
});

describe('astro build', () => {
  let built: { code: number | null; output: string };
  let server: Started | undefined;
  beforeAll(async () => {
    built = await astro('build');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('builds with Astro 7 and prints the merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(app.versions.astro).toMatch(/^7\./);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(1);
  });

  test('the built standalone server answers an API route and a page with the registry', async () => {
    server = await startServer(process.execPath, ['dist/server/entry.mjs'], app.dir, { readyPath: '/api/agents/weather' });
    expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: WEATHER });
    expect(await get(`${server.base}/api/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
    // The route the getting-started tab shows.
    expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: ['relevance', 'tone'] });
    expect((await get(`${server.base}/`)).body).toContain('<ul id="agents"><li>support</li><li>weather</li></ul>');
  }, 120_000);

  test('astro sync && tsc (TypeScript 7) passes; an unknown scorer key fails it', async () => {
    const sync = await astro('sync');
    expect(sync.code, sync.output).toBe(0);
    const tsc = () => run(process.execPath, [bin(app.dir, 'typescript', 'tsc'), '--noEmit', '-p', '.'], app.dir);
    const passed = await tsc();
    expect(passed.output).toBe('');
    expect(passed.code).toBe(0);
    const bad = path.join(app.dir, 'src/bad.ts');
    fs.writeFileSync(bad, "import weather from 'virtual:agent-scorers/weather';\n\nexport const nope = weather.nope;\n");
    try {
      const failed = await tsc();
      expect(failed.code).not.toBe(0);
      expect(failed.output).toMatch(/src\/bad\.ts\(3,29\): error TS2339: Property 'nope' does not exist on type/);
    } finally {
      fs.rmSync(bad);
    }
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warning still prints', async () => {
    fs.writeFileSync(scorerFile('broken.ts'), "export const broken = { id: 'broken', run: async () => ({ score: 1 }) };\n");
    try {
      const failed = await astro('build');
      expect(failed.code, failed.output).not.toBe(0);
      expect(failed.output).toContain(NO_DEFAULT);
      expect(count(failed.output, COLLISION)).toBe(1);
    } finally {
      fs.rmSync(scorerFile('broken.ts'));
    }
  }, 300_000);
});

describe('astro dev', () => {
  let server: Started;
  beforeAll(async () => {
    server = await startServer('env', [...ASTRO(), 'dev', '--host', '127.0.0.1', '--port', '{port}'], app.dir, {
      readyPath: '/api/agents/weather',
      // Astro answers 404 for a moment while its first dependency scan runs.
      ready: (status) => status === 200,
      env: ENV,
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('answers, follows a scorer file that is added and deleted, and warns once', async () => {
    expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: WEATHER });
    fs.writeFileSync(scorerFile('brevity.ts'), "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
    await until(() => get(`${server.base}/api/agents/weather`), (r) => r.body?.brevity === 'brevity', 'brevity.ts added');
    fs.rmSync(scorerFile('brevity.ts'));
    await until(() => get(`${server.base}/api/agents/weather`), (r) => r.status === 200 && !('brevity' in r.body), 'brevity.ts deleted');
    expect(count(server.output(), COLLISION), server.output()).toBe(1);
  }, 120_000);
});

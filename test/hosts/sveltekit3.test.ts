/**
 * SvelteKit 3 as a host, the major `latest` gives today (Kit 2 is sveltekit.test.ts): the same app as
 * Kit 2's fixture, with adapter-node 6 and Kit 3's `tsconfig.json` (extends `$app/tsconfig`), installed
 * with npm from the packed tarball into a project of its own (installed.ts). TypeScript 6, because Kit's
 * build and `svelte-check` use TypeScript's compiler API, which TypeScript 7 does not have.
 * Everything runs through the real CLIs: `vite build`, `node build/index.js`, `svelte-kit sync`,
 * `svelte-check`, `vite dev`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { bin, gettingStartedTab, install, remove, type Installed } from './installed.js';
import { startServer, type Started, until } from './processes.js';
import { get, serve } from './serve.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const FUNCTION_FORM =
  '[CONFIG_SCORERS_FUNCTION] Agent "support": config.scorers is a function, so discovered scorers under src/mastra/agents/support/scorers/ are ignored. (src/mastra/agents/support/config.ts)';
const NO_DEFAULT =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "recipes": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/recipes/scorers/broken.ts)';

const AGENTS = {
  recipes: { form: 'record', keys: ['servings'], ids: ['file-servings'] },
  support: { form: 'function', keys: ['empathy'], ids: ['config-empathy'] },
  weather: {
    form: 'record',
    keys: ['answer-relevancy', 'relevance', 'tone', 'extra'],
    ids: ['answer-relevancy-scorer', 'config-relevance', 'file-tone', 'config-extra'],
  },
  'weather/planner': { form: 'record', keys: ['brevity'], ids: ['file-brevity'] },
};
const MASTRA_AGENTS = {
  weatherAgent: ['answer-relevancy', 'relevance', 'tone', 'extra'],
  plannerAgent: ['brevity'],
  supportAgent: ['empathy'],
  recipesAgent: ['servings'],
};
const RESPONSE = { agents: AGENTS, scores: { answer: 1, offTopic: 0 }, diagnostics: ['CONFIG_SCORERS_FUNCTION', 'SCORER_KEY_COLLISION'] };

const FIXTURE = path.join(import.meta.dirname, '../fixtures/sveltekit3');
let app: Installed;
const vite = (...args: string[]) => run(process.execPath, [bin(app.dir, 'vite'), ...args], app.dir);
const scorerFile = (name: string) => path.join(app.dir, 'src/mastra/agents/recipes/scorers', name);

beforeAll(async () => {
  app = await install('sveltekit3');
}, 600_000);
// A few hundred MB of node_modules per install: gone when the file is done.
afterAll(() => remove(app));

test("the getting-started tab shows this fixture's own vite.config.ts and tsconfig.json", () => {
  const tab = gettingStartedTab('SvelteKit');
  for (const file of ['vite.config.ts', 'tsconfig.json']) expect(tab.get(file), file).toBe(fs.readFileSync(path.join(FIXTURE, file), 'utf8'));
});

describe('vite build, the built server, svelte-check', () => {
  let built: { code: number | null; output: string };
  beforeAll(async () => {
    built = await vite('build');
  }, 300_000);

  test('vite build succeeds with Kit 3 and adapter-node 6, and prints each merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(app.versions['@sveltejs/kit']).toMatch(/^3\./);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, FUNCTION_FORM)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(2);
    expect(built.output).toContain('Using @sveltejs/adapter-node');
  });

  test('node build/index.js serves the routes with the registry and the Mastra instance built from it', async () => {
    const server = await serve(app.dir, 'build/index.js', '/api/scorers');
    try {
      expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: RESPONSE });
      expect(await get(`${server.base}/api/agents`)).toEqual({ status: 200, body: MASTRA_AGENTS });
      const page = await fetch(`${server.base}/`).then((r) => r.text());
      expect(page).toContain('<li>weather: answer-relevancy, relevance, tone, extra</li><li>support: empathy</li>');
      expect(server.output()).not.toContain('SCORER_KEY_COLLISION');
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('svelte-kit sync && svelte-check passes with TypeScript 6; an unknown agent key fails it', async () => {
    const sync = await run(process.execPath, [bin(app.dir, '@sveltejs/kit'), 'sync'], app.dir);
    expect(sync.code, sync.output).toBe(0);
    // Kit 3 checks the tsconfig itself: no warning that it misses `$app/tsconfig` or overrides an essential option.
    expect(sync.output).not.toMatch(/tsconfig/i);
    const check = () => run(process.execPath, [bin(app.dir, 'svelte-check'), '--tsconfig', './tsconfig.json', '--output', 'machine'], app.dir);
    const passed = await check();
    expect(passed.output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    expect(passed.code).toBe(0);
    const route = path.join(app.dir, 'src/routes/api/bad/+server.ts');
    fs.mkdirSync(path.dirname(route), { recursive: true });
    fs.writeFileSync(route, "import { json } from '@sveltejs/kit';\nimport scorers from 'virtual:agent-scorers';\n\nexport const GET = () => json(scorers.nope);\n");
    try {
      const failed = await check();
      expect(failed.code).not.toBe(0);
      expect(failed.output).toMatch(/ERROR "src\/routes\/api\/bad\/\+server\.ts" 4:39 "Property 'nope' does not exist on type/);
    } finally {
      fs.rmSync(path.dirname(route), { recursive: true });
    }
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warnings still print', async () => {
    fs.writeFileSync(scorerFile('broken.ts'), "export const broken = { id: 'broken', run: async () => ({ score: 1 }) };\n");
    try {
      const failed = await vite('build');
      expect(failed.code, failed.output).not.toBe(0);
      expect(count(failed.output, NO_DEFAULT)).toBe(1);
      expect(count(failed.output, COLLISION)).toBe(1);
      expect(count(failed.output, FUNCTION_FORM)).toBe(1);
    } finally {
      fs.rmSync(scorerFile('broken.ts'));
    }
  }, 300_000);
});

describe('vite dev', () => {
  let server: Started;
  beforeAll(async () => {
    server = await startServer(process.execPath, [bin(app.dir, 'vite'), 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], app.dir, { readyPath: '/api/scorers' });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('answers with the registry, follows an added and a deleted scorer file, and warns once', async () => {
    expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: RESPONSE });
    fs.writeFileSync(scorerFile('added.ts'), "import { keyword } from '../../../scorers';\n\nexport default keyword('file-added', 'serves');\n");
    const added = await until(() => get(`${server.base}/api/scorers`), (r) => r.body?.agents?.recipes?.keys?.includes('added'), 'added.ts');
    expect(added.body.agents.recipes).toEqual({ form: 'record', keys: ['added', 'servings'], ids: ['file-added', 'file-servings'] });
    expect((await get(`${server.base}/api/agents`)).body.recipesAgent).toEqual(['added', 'servings']);
    fs.rmSync(scorerFile('added.ts'));
    await until(() => get(`${server.base}/api/scorers`), (r) => r.status === 200 && !r.body.agents.recipes.keys.includes('added'), 'added.ts deleted');
    expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: RESPONSE });
    expect(count(server.output(), COLLISION), server.output()).toBe(1);
    expect(count(server.output(), FUNCTION_FORM), server.output()).toBe(1);
  }, 120_000);
});

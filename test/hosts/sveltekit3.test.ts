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
import { describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { buildOnce, collisionWarning, expectBrokenScorerFails, expectBuiltWarningOnce, expectTabShowsFixture, expectTypeCheckCatchesBadKey, installedApp, noDefaultError, serverForBlock } from './host-steps.js';
import { bin } from './installed.js';
import { startServer, until } from './processes.js';
import { get, serve } from './serve.js';

const COLLISION = collisionWarning();
const FUNCTION_FORM =
  '[CONFIG_SCORERS_FUNCTION] Agent "support": config.scorers is a function, so discovered scorers under src/mastra/agents/support/scorers/ are ignored. (src/mastra/agents/support/config.ts)';

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

const app = installedApp('sveltekit3');
const vite = (...args: string[]) => run(process.execPath, [bin(app.dir, 'vite'), ...args], app.dir);
const scorers = () => path.join(app.dir, 'src/mastra/agents/recipes/scorers');
const scorerFile = (name: string) => path.join(scorers(), name);

test("the getting-started tab shows this fixture's own vite.config.ts and tsconfig.json", () => {
  expectTabShowsFixture('SvelteKit', 'sveltekit3', ['vite.config.ts', 'tsconfig.json']);
});

describe('vite build, the built server, svelte-check', () => {
  const built = buildOnce(() => vite('build'));

  test('vite build succeeds with Kit 3 and adapter-node 6, and prints each merge warning once', () => {
    expectBuiltWarningOnce(built, [COLLISION, FUNCTION_FORM], 2);
    expect(app.versions['@sveltejs/kit']).toMatch(/^3\./);
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
    await expectTypeCheckCatchesBadKey(check, {
      clean: (output) => expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/),
      // In a folder of its own, removed with it.
      file: path.join(app.dir, 'src/routes/api/bad/+server.ts'),
      source: "import { json } from '@sveltejs/kit';\nimport scorers from 'virtual:agent-scorers';\n\nexport const GET = () => json(scorers.nope);\n",
      error: /ERROR "src\/routes\/api\/bad\/\+server\.ts" 4:39 "Property 'nope' does not exist on type/,
    });
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warnings still print', async () => {
    await expectBrokenScorerFails(scorers(), () => vite('build'), { error: noDefaultError('src', 'recipes'), errorOnce: true, warnings: [COLLISION, FUNCTION_FORM] });
  }, 300_000);
});

describe('vite dev', () => {
  const server = serverForBlock(() =>
    startServer(process.execPath, [bin(app.dir, 'vite'), 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], app.dir, { readyPath: '/api/scorers' }),
  );

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

/**
 * Astro 7 with `@astrojs/node` 11 in standalone mode, the plugin under `vite.plugins` in
 * `astro.config.mjs`, installed with npm from the packed tarball into a project of its own
 * (installed.ts). `astro build`, the built `dist/server/entry.mjs`, `astro sync` + `tsc` 7 and
 * `astro dev`, each as the user runs them. `astro check` refuses TypeScript 7, so `tsc` is the check here.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../helpers/hosts.js';
import { buildOnce, collisionWarning, expectBrokenScorerFails, expectBuiltWarningOnce, expectDevFollowsWeatherScorers, expectServesAgents, expectTabShowsFixture, expectTscCatchesBadKey, installedApp, noDefaultError, serverForBlock, stopAfterBlock } from './host-steps.js';
import { bin } from './installed.js';
import { startServer } from './processes.js';

const COLLISION = collisionWarning();
const ENV = { ASTRO_TELEMETRY_DISABLED: '1' };
/**
 * Astro's dev server leaves out its routes when `VITEST` is set (for Astro inside Vitest), and every
 * process these tests start inherits it from Vitest's worker: Astro runs with it unset, as in a terminal.
 */
const ASTRO = () => ['-u', 'VITEST', process.execPath, bin(app.dir, 'astro')];

const app = installedApp('astro7');
const astro = (...args: string[]) => run('env', [...ASTRO(), ...args], app.dir, ENV);
const scorers = () => path.join(app.dir, 'src/mastra/agents/weather/scorers');

test("the getting-started tab shows this fixture's own files", () => {
  expectTabShowsFixture('Astro', 'astro7', ['astro.config.mjs', 'src/pages/api/scorers.ts']);
});

describe('astro build', () => {
  const built = buildOnce(() => astro('build'));
  const keep = stopAfterBlock();

  test('builds with Astro 7 and prints the merge warning once', () => {
    expectBuiltWarningOnce(built, [COLLISION], 1);
    expect(app.versions.astro).toMatch(/^7\./);
  });

  test('the built standalone server answers an API route and a page with the registry', async () => {
    const server = keep(await startServer(process.execPath, ['dist/server/entry.mjs'], app.dir, { readyPath: '/api/agents/weather' }));
    // With the route the getting-started tab shows.
    await expectServesAgents(server.base, { scorersRoute: true });
  }, 120_000);

  test('astro sync && tsc (TypeScript 7) passes; an unknown scorer key fails it', async () => {
    const sync = await astro('sync');
    expect(sync.code, sync.output).toBe(0);
    await expectTscCatchesBadKey(app, 'src/bad.ts', ['--noEmit', '-p', '.']);
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warning still prints', async () => {
    await expectBrokenScorerFails(scorers(), () => astro('build'), { error: noDefaultError(), errorOnce: false, warnings: [COLLISION] });
  }, 300_000);
});

describe('astro dev', () => {
  const server = serverForBlock(() =>
    startServer('env', [...ASTRO(), 'dev', '--host', '127.0.0.1', '--port', '{port}'], app.dir, {
      readyPath: '/api/agents/weather',
      // Astro answers 404 for a moment while its first dependency scan runs.
      ready: (status) => status === 200,
      env: ENV,
    }),
  );

  test('answers, follows a scorer file that is added and deleted, and warns once', async () => {
    await expectDevFollowsWeatherScorers(server, scorers(), COLLISION);
  }, 120_000);
});

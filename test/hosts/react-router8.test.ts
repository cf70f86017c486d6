/**
 * React Router 8 in framework mode, the major `latest` gives today (7 is react-router.test.ts): the same
 * app, installed with npm from the packed tarball into a project of its own (installed.ts), with
 * TypeScript 7. `react-router build`, `react-router-serve`, `react-router typegen` + `tsc`, and
 * `react-router dev`, each as the user runs it.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../helpers/hosts.js';
import { buildOnce, collisionWarning, expectBrokenScorerFails, expectBuiltWarningOnce, expectDevFollowsWeatherScorers, expectNoScorersInClient, expectServesAgents, expectTscCatchesBadKey, installedApp, noDefaultError, serverForBlock, stopAfterBlock, tsc } from './host-steps.js';
import { bin } from './installed.js';
import { OFFLINE_ENV, startServer } from './processes.js';

const COLLISION = collisionWarning('app');

const app = installedApp('react-router8');
const rr = (...args: string[]) => run(process.execPath, [bin(app.dir, '@react-router/dev', 'react-router'), ...args], app.dir, OFFLINE_ENV);
const scorers = () => path.join(app.dir, 'app/mastra/agents/weather/scorers');

describe('react-router build', () => {
  const built = buildOnce(() => rr('build'));
  const keep = stopAfterBlock();

  test('builds with React Router 8, prints the merge warning once, keeps scorers out of the browser bundle', () => {
    expectBuiltWarningOnce(built, [COLLISION], 1);
    expect(app.versions['react-router']).toMatch(/^8\./);
    expectNoScorersInClient(path.join(app.dir, 'build/client/assets'));
  });

  test('react-router-serve answers from the built server', async () => {
    const server = keep(await startServer(process.execPath, [bin(app.dir, '@react-router/serve'), './build/server/index.js'], app.dir, { readyPath: '/api/agents/weather' }));
    await expectServesAgents(server.base);
  }, 120_000);

  test('react-router typegen && tsc (TypeScript 7) passes; an unknown scorer key fails it', async () => {
    const typegen = await rr('typegen');
    expect(typegen.code, typegen.output).toBe(0);
    expect((await tsc(app, '--version')).output).toMatch(/^Version 7\./);
    await expectTscCatchesBadKey(app, 'app/bad.server.ts', ['-p', '.']);
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warning still prints', async () => {
    await expectBrokenScorerFails(scorers(), () => rr('build'), { error: noDefaultError('app'), errorOnce: true, warnings: [COLLISION] });
  }, 300_000);
});

describe('react-router dev', () => {
  const server = serverForBlock(() =>
    startServer(process.execPath, [bin(app.dir, '@react-router/dev', 'react-router'), 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], app.dir, {
      readyPath: '/api/agents/weather',
    }),
  );

  test('answers, follows a scorer file that is added and deleted, and warns once', async () => {
    await expectDevFollowsWeatherScorers(server, scorers(), COLLISION);
  }, 120_000);
});

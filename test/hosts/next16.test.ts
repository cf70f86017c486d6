/**
 * Next.js 16.5, the release `latest` gives today (16.4 is the repository's own, next.test.ts), with
 * TypeScript 7: `withAgentScorers` in `next.config.mjs`, installed with npm from the packed tarball into
 * a project of its own (installed.ts). `next build` (Turbopack), `next start`, `tsc` and `next dev`,
 * each as the user runs them.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { buildOnce, collisionWarning, expectBrokenScorerFails, expectBuiltWarningOnce, expectTscCatchesBadKey, followBrevityAddedAndDeleted, installedApp, noDefaultError, serverForBlock, stopAfterBlock } from './host-steps.js';
import { bin } from './installed.js';
import { startServer } from './processes.js';
import { get } from './serve.js';

const COLLISION = collisionWarning();
/** No telemetry, no network (NOTES: Next 16 then builds offline). */
const ENV = { NEXT_TELEMETRY_DISABLED: '1' };
const KEYS = ['constructor', 'support', 'weather', 'weather/planner'];
const weatherKeys = (body: any): string[] => body.agents.weather.scorers.map((s: string[]) => s[0]);

const app = installedApp('next16');
const next = (...args: string[]) => run(process.execPath, [bin(app.dir, 'next'), ...args], app.dir, ENV);
const scorers = () => path.join(app.dir, 'src/mastra/agents/weather/scorers');

describe('next build', () => {
  const built = buildOnce(() => next('build'));
  const keep = stopAfterBlock();

  test('builds with Next 16.5 and prints the merge warning once', () => {
    expectBuiltWarningOnce(built, [COLLISION]);
    expect(app.versions.next).toMatch(/^16\./);
  });

  test('next start answers the route handler with the registry', async () => {
    const server = keep(await startServer(process.execPath, [bin(app.dir, 'next'), 'start', '-H', '127.0.0.1', '-p', '{port}'], app.dir, { readyPath: '/api/scorers', env: ENV }));
    const { status, body } = await get(`${server.base}/api/scorers`);
    expect(status).toBe(200);
    expect(body.keys).toEqual(KEYS);
    expect(weatherKeys(body)).toEqual(['relevance', 'tone']);
    expect(body.agents.weather.scorers[0][1]).toBe('config:relevance');
  }, 120_000);

  test('tsc (TypeScript 7) passes with the generated declarations; an unknown scorer key fails it', async () => {
    await expectTscCatchesBadKey(app, 'src/bad.ts', ['--noEmit', '-p', '.']);
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warning still prints', async () => {
    await expectBrokenScorerFails(scorers(), () => next('build'), { error: noDefaultError(), errorOnce: false, warnings: [COLLISION] });
  }, 300_000);
});

describe('next dev', () => {
  const server = serverForBlock(() =>
    startServer(process.execPath, [bin(app.dir, 'next'), 'dev', '-H', '127.0.0.1', '-p', '{port}'], app.dir, {
      readyPath: '/api/scorers',
      ready: (status) => status === 200,
      env: ENV,
    }),
  );

  test('answers, follows a scorer file that is added and deleted, and warns once', async () => {
    const read = () => get(`${server.base}/api/scorers`);
    expect(weatherKeys((await read()).body)).toEqual(['relevance', 'tone']);
    await followBrevityAddedAndDeleted(scorers(), read, {
      added: (r) => r.status === 200 && weatherKeys(r.body).includes('brevity'),
      deleted: (r) => r.status === 200 && !weatherKeys(r.body).includes('brevity'),
    });
    expect(count(server.output(), COLLISION), server.output()).toBe(1);
  }, 120_000);
});

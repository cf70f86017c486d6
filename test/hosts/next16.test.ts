/**
 * Next.js 16.5, the release `latest` gives today (16.4 is the repository's own, next.test.ts), with
 * TypeScript 7: `withAgentScorers` in `next.config.mjs`, installed with npm from the packed tarball into
 * a project of its own (installed.ts). `next build` (Turbopack), `next start`, `tsc` and `next dev`,
 * each as the user runs them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { bin, install, remove, type Installed } from './installed.js';
import { startServer, type Started, until } from './processes.js';
import { get } from './serve.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const NO_DEFAULT =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/weather/scorers/broken.ts)';
/** No telemetry, no network (NOTES: Next 16 then builds offline). */
const ENV = { NEXT_TELEMETRY_DISABLED: '1' };
const KEYS = ['constructor', 'support', 'weather', 'weather/planner'];
const weatherKeys = (body: any): string[] => body.agents.weather.scorers.map((s: string[]) => s[0]);

let app: Installed;
const next = (...args: string[]) => run(process.execPath, [bin(app.dir, 'next'), ...args], app.dir, ENV);
const scorerFile = (name: string) => path.join(app.dir, 'src/mastra/agents/weather/scorers', name);

beforeAll(async () => {
  app = await install('next16');
}, 600_000);
// A few hundred MB of node_modules per install: gone when the file is done.
afterAll(() => remove(app));

describe('next build', () => {
  let built: { code: number | null; output: string };
  let server: Started | undefined;
  beforeAll(async () => {
    built = await next('build');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('builds with Next 16.5 and prints the merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(app.versions.next).toMatch(/^16\./);
    expect(count(built.output, COLLISION), built.output).toBe(1);
  });

  test('next start answers the route handler with the registry', async () => {
    server = await startServer(process.execPath, [bin(app.dir, 'next'), 'start', '-H', '127.0.0.1', '-p', '{port}'], app.dir, { readyPath: '/api/scorers', env: ENV });
    const { status, body } = await get(`${server.base}/api/scorers`);
    expect(status).toBe(200);
    expect(body.keys).toEqual(KEYS);
    expect(weatherKeys(body)).toEqual(['relevance', 'tone']);
    expect(body.agents.weather.scorers[0][1]).toBe('config:relevance');
  }, 120_000);

  test('tsc (TypeScript 7) passes with the generated declarations; an unknown scorer key fails it', async () => {
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
      const failed = await next('build');
      expect(failed.code, failed.output).not.toBe(0);
      expect(failed.output).toContain(NO_DEFAULT);
      expect(count(failed.output, COLLISION), failed.output).toBe(1);
    } finally {
      fs.rmSync(scorerFile('broken.ts'));
    }
  }, 300_000);
});

describe('next dev', () => {
  let server: Started;
  beforeAll(async () => {
    server = await startServer(process.execPath, [bin(app.dir, 'next'), 'dev', '-H', '127.0.0.1', '-p', '{port}'], app.dir, {
      readyPath: '/api/scorers',
      ready: (status) => status === 200,
      env: ENV,
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('answers, follows a scorer file that is added and deleted, and warns once', async () => {
    expect(weatherKeys((await get(`${server.base}/api/scorers`)).body)).toEqual(['relevance', 'tone']);
    fs.writeFileSync(scorerFile('brevity.ts'), "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
    await until(() => get(`${server.base}/api/scorers`), (r) => r.status === 200 && weatherKeys(r.body).includes('brevity'), 'brevity.ts added');
    fs.rmSync(scorerFile('brevity.ts'));
    await until(() => get(`${server.base}/api/scorers`), (r) => r.status === 200 && !weatherKeys(r.body).includes('brevity'), 'brevity.ts deleted');
    expect(count(server.output(), COLLISION), server.output()).toBe(1);
  }, 120_000);
});

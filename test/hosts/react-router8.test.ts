/**
 * React Router 8 in framework mode, the major `latest` gives today (7 is react-router.test.ts): the same
 * app, installed with npm from the packed tarball into a project of its own (installed.ts), with
 * TypeScript 7. `react-router build`, `react-router-serve`, `react-router typegen` + `tsc`, and
 * `react-router dev`, each as the user runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, run } from '../helpers/hosts.js';
import { bin, install, remove, type Installed } from './installed.js';
import { OFFLINE_ENV, startServer, type Started, until } from './processes.js';
import { get } from './serve.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (app/mastra/agents/weather/config.ts)';
const NO_DEFAULT =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (app/mastra/agents/weather/scorers/broken.ts)';
const WEATHER = { relevance: 'config-relevance', tone: 'tone' };

let app: Installed;
const rr = (...args: string[]) => run(process.execPath, [bin(app.dir, '@react-router/dev', 'react-router'), ...args], app.dir, OFFLINE_ENV);
const scorerFile = (name: string) => path.join(app.dir, 'app/mastra/agents/weather/scorers', name);

beforeAll(async () => {
  app = await install('react-router8');
}, 600_000);
// A few hundred MB of node_modules per install: gone when the file is done.
afterAll(() => remove(app));

describe('react-router build', () => {
  let built: { code: number | null; output: string };
  let server: Started | undefined;
  beforeAll(async () => {
    built = await rr('build');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('builds with React Router 8, prints the merge warning once, keeps scorers out of the browser bundle', () => {
    expect(built.code, built.output).toBe(0);
    expect(app.versions['react-router']).toMatch(/^8\./);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(1);
    const assets = path.join(app.dir, 'build/client/assets');
    const client = fs.readdirSync(assets).map((f) => fs.readFileSync(path.join(assets, f), 'utf8'));
    expect(client.length).toBeGreaterThan(0);
    expect(client.filter((code) => /config-relevance|agent-scorers/.test(code))).toEqual([]);
  });

  test('react-router-serve answers from the built server', async () => {
    server = await startServer(process.execPath, [bin(app.dir, '@react-router/serve'), './build/server/index.js'], app.dir, { readyPath: '/api/agents/weather' });
    expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: WEATHER });
    expect(await get(`${server.base}/api/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
    const page = await get(`${server.base}/`);
    expect(page.body).toContain('<ul id="agents"><li>support</li><li>weather</li></ul>');
  }, 120_000);

  test('react-router typegen && tsc (TypeScript 7) passes; an unknown scorer key fails it', async () => {
    const typegen = await rr('typegen');
    expect(typegen.code, typegen.output).toBe(0);
    const tsc = () => run(process.execPath, [bin(app.dir, 'typescript', 'tsc'), '-p', '.'], app.dir);
    const passed = await tsc();
    expect(passed.output).toBe('');
    expect(passed.code).toBe(0);
    expect((await run(process.execPath, [bin(app.dir, 'typescript', 'tsc'), '--version'], app.dir)).output).toMatch(/^Version 7\./);
    const bad = path.join(app.dir, 'app/bad.server.ts');
    fs.writeFileSync(bad, "import weather from 'virtual:agent-scorers/weather';\n\nexport const nope = weather.nope;\n");
    try {
      const failed = await tsc();
      expect(failed.code).not.toBe(0);
      expect(failed.output).toMatch(/app\/bad\.server\.ts\(3,29\): error TS2339: Property 'nope' does not exist on type/);
    } finally {
      fs.rmSync(bad);
    }
  }, 180_000);

  test('a scorer file without a default export fails the build naming the code and the file; the warning still prints', async () => {
    fs.writeFileSync(scorerFile('broken.ts'), "export const broken = { id: 'broken', run: async () => ({ score: 1 }) };\n");
    try {
      const failed = await rr('build');
      expect(failed.code, failed.output).not.toBe(0);
      expect(count(failed.output, NO_DEFAULT)).toBe(1);
      expect(count(failed.output, COLLISION)).toBe(1);
    } finally {
      fs.rmSync(scorerFile('broken.ts'));
    }
  }, 300_000);
});

describe('react-router dev', () => {
  let server: Started;
  beforeAll(async () => {
    server = await startServer(process.execPath, [bin(app.dir, '@react-router/dev', 'react-router'), 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], app.dir, {
      readyPath: '/api/agents/weather',
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

/**
 * A React Router 7 app in framework mode (`@react-router/dev`'s Vite plugin beside ours): `react-router
 * build` prints each merge warning once and keeps the registry out of the browser bundle,
 * `react-router-serve` answers from the built server, and `react-router dev` answers, follows an added
 * scorer file and runs the inspector in its SSR environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, prepare, REPO, run } from '../helpers/hosts.js';
import { get } from './serve.js';
import { OFFLINE_ENV, startServer, type Started, until } from './processes.js';

const RR = path.join(REPO, 'node_modules/@react-router/dev/bin.js');
const SERVE = path.join(REPO, 'node_modules/@react-router/serve/bin.js');
const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (app/mastra/agents/weather/config.ts)';

describe('react-router build', () => {
  let dir: string;
  let built: { code: number | null; output: string };
  let server: Started | undefined;

  beforeAll(async () => {
    dir = prepare('react-router', 'rr-build', { linkSelf: true });
    built = await run(process.execPath, [RR, 'build'], dir, OFFLINE_ENV);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('builds the client and the server, prints the merge warning once, and keeps scorers out of the browser bundle', () => {
    expect(built.code, built.output).toBe(0);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(1);
    const server = fs.readFileSync(path.join(dir, 'build/server/index.js'), 'utf8');
    expect(server).toMatch(/["']config-relevance["']/);
    expect(server).not.toContain('file-relevance-overridden');
    const client = fs.readdirSync(path.join(dir, 'build/client/assets')).map((f) => fs.readFileSync(path.join(dir, 'build/client/assets', f), 'utf8'));
    expect(client.length).toBeGreaterThan(0);
    expect(client.filter((code) => /config-relevance|agent-scorers/.test(code))).toEqual([]);
  });

  test('react-router-serve answers from the built server: a resource route and a rendered page', async () => {
    server = await startServer(process.execPath, [SERVE, './build/server/index.js'], dir, { readyPath: '/api/agents/weather' });
    expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: { relevance: 'config-relevance', tone: 'tone' } });
    expect(await get(`${server.base}/api/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
    const page = await get(`${server.base}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<ul id="agents"><li>support</li><li>weather</li></ul>');
  }, 120_000);
});

describe('react-router dev', () => {
  let dir: string;
  let server: Started;

  beforeAll(async () => {
    dir = prepare('react-router', 'rr-dev', { linkSelf: true });
    server = await startServer(process.execPath, [RR, 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], dir, { readyPath: '/api/agents/weather' });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('answers, and follows a scorer file that is added and deleted', async () => {
    expect(await get(`${server.base}/api/agents/weather`)).toEqual({ status: 200, body: { relevance: 'config-relevance', tone: 'tone' } });
    const file = path.join(dir, 'app/mastra/agents/weather/scorers/brevity.ts');
    fs.writeFileSync(file, "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
    await until(() => get(`${server.base}/api/agents/weather`), (r) => r.body?.brevity === 'brevity', 'brevity.ts added');
    fs.rmSync(file);
    await until(() => get(`${server.base}/api/agents/weather`), (r) => r.status === 200 && !('brevity' in r.body), 'brevity.ts deleted');
  });

  test('the inspector runs scorers in the SSR environment, in Node', async () => {
    const inspector = `${server.base}/__agent-scorers/`;
    expect(server.output()).toContain(`Scorers: http://127.0.0.1:${server.port}/__agent-scorers/`);
    expect((await get(`${inspector}api/state`)).body.runs).toEqual({ environment: 'ssr', runtime: 'node', how: 'runner', note: null });
    const res = await fetch(`${inspector}api/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: 'weather', key: 'tone', input: 'q', output: 'Sunny!!' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { score: number }).score).toBe(0);
  });
});

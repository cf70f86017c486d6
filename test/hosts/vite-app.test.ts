/**
 * A two-environment app built with `vite build --app` (the fixture's own `vite.config.ts`): the page
 * (client) and the Node server (ssr) that serves it and answers from the registry. The build prints
 * each merge warning once across both environments, the page carries nothing of the scorers, and the
 * built server answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, prepare, REPO, run } from '../helpers/hosts.js';
import { get, serve, type Served } from './serve.js';

const VITE = path.join(REPO, 'node_modules/vite/bin/vite.js');
const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';

describe('vite build --app (client + ssr)', () => {
  let dir: string;
  let built: { code: number | null; output: string };
  let server: Served | undefined;

  beforeAll(async () => {
    dir = prepare('vite-app', 'app', { linkSelf: true });
    built = await run(process.execPath, [VITE, 'build', '--app'], dir);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('builds both environments and prints the merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain('building client environment');
    expect(built.output).toContain('building ssr environment');
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(1);
    expect(fs.existsSync(path.join(dir, 'dist/client/index.html'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'dist/server/server.js'), 'utf8')).toMatch(/["']config-relevance["']/);
  });

  test('the page carries nothing of the scorers', () => {
    const assets = path.join(dir, 'dist/client/assets');
    const code = fs.readdirSync(assets).map((f) => fs.readFileSync(path.join(assets, f), 'utf8'));
    expect(code.length).toBeGreaterThan(0);
    expect(code.filter((c) => /["'](config-relevance|tone)["']|agent-scorers/.test(c))).toEqual([]);
  });

  test('the built server serves the page and answers from the registry', async () => {
    server = await serve(dir, 'dist/server/server.js', '/agents');
    expect(await get(`${server.base}/agents`)).toEqual({ status: 200, body: ['support', 'weather'] });
    expect(await get(`${server.base}/agents/weather`)).toEqual({ status: 200, body: { relevance: 'config-relevance', tone: 'tone' } });
    expect(await get(`${server.base}/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
    const page = await get(`${server.base}/`);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
  });
});

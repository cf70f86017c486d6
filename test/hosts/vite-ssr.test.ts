/**
 * A Hono server built with `vite build --ssr src/server.ts` (the fixture's own `vite.config.ts`,
 * the plugin from `node_modules/agent-scorers` as after `npm install`): the build prints each merge
 * warning once, the built `dist/server.js` answers with the registry, and `tsc` (strict) passes with
 * the declaration file the build wrote to `src/agent-scorers.d.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { count, prepare, REPO, run } from '../helpers/hosts.js';
import { get, serve } from './serve.js';

const VITE = path.join(REPO, 'node_modules/vite/bin/vite.js');
const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');

describe('vite build --ssr of a Hono server', () => {
  let dir: string;
  let built: { code: number | null; output: string };

  beforeAll(async () => {
    dir = prepare('vite-ssr', 'ssr', { linkSelf: true });
    built = await run(process.execPath, [VITE, 'build', '--ssr', 'src/server.ts'], dir);
  }, 120_000);

  test('builds dist/server.js and prints each merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(count(built.output, '[plugin agent-scorers] [SCORER_KEY_COLLISION] Agent "weather"')).toBe(1);
    expect(count(built.output, '[plugin agent-scorers] [CONFIG_SCORERS_FUNCTION] Agent "support"')).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(2);
    const bundle = fs.readFileSync(path.join(dir, 'dist/server.js'), 'utf8');
    expect(bundle).toMatch(/from "hono"/); // a bare import stays external in an SSR build
    expect(bundle).not.toContain('file-relevance-overridden');
  });

  test('node dist/server.js answers with each agent\'s resolved scorers', async () => {
    const server = await serve(dir, 'dist/server.js', '/agents');
    try {
      expect(await get(`${server.base}/agents`)).toEqual({ status: 200, body: ['recipes', 'support', 'weather', 'weather/planner'] });
      expect(await get(`${server.base}/agents/weather`)).toEqual({
        status: 200,
        body: { 'answer-relevancy': 'answer-relevancy-scorer', relevance: 'config-relevance', tone: 'file-tone', extra: 'config-extra' },
      });
      expect(await get(`${server.base}/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
      expect(await get(`${server.base}/agents/weather/planner`)).toEqual({ status: 200, body: { brevity: 'file-brevity' } });
      expect(await get(`${server.base}/agents/nope`)).toEqual({ status: 404, body: { error: 'no agent "nope"' } });
    } finally {
      await server.stop();
    }
  });

  test('tsc (strict) passes with the declaration file at src/agent-scorers.d.ts', async () => {
    expect(fs.existsSync(path.join(dir, 'src/agent-scorers.d.ts'))).toBe(true);
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('vite build --ssr with everything bundled (ssr.noExternal: true)', () => {
  test('with `ai` installed, nothing of it is bundled: the relevancy scorer with offlineJudge() calls no model', async () => {
    const dir = prepare('vite-ssr', 'ssr-bundled', { linkSelf: true });
    fs.writeFileSync(
      path.join(dir, 'vite.config.ts'),
      "import agentScorers from 'agent-scorers/vite';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({ plugins: [agentScorers()], ssr: { noExternal: true } });\n",
    );
    const result = await run(process.execPath, [VITE, 'build', '--ssr', 'src/server.ts'], dir);
    expect(result.code, result.output).toBe(0);
    const files = fs.readdirSync(path.join(dir, 'dist'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.js'));
    const code = files.map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'));
    expect(code.join('\n')).not.toMatch(/from "hono"/); // really bundled
    expect(code.join('\n')).toContain('answer-relevancy-scorer');
    // `ai`'s own errors carry this marker; nothing of this package's runtime does.
    expect(code.filter((c) => c.includes('vercel.ai.error'))).toEqual([]);
    expect(files.map((e) => e.name)).toEqual(['server.js']);
  }, 120_000);
});

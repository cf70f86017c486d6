/**
 * SvelteKit as a host (SPEC 10): the fixture app is what `npx sv create` scaffolds (Svelte 5,
 * strict TypeScript, a tsconfig that extends `.svelte-kit/tsconfig.json`), with
 * `@sveltejs/adapter-node`, the plugin in `vite.config.ts` and a `+server.ts` that imports the
 * registry, and `src/mastra/index.ts`, a Mastra instance whose Agents take their scorers from the
 * registry, used by a route as in Mastra's SvelteKit guide. Its `node_modules/agent-scorers`
 * is this repository, as after `npm install agent-scorers`. Everything runs through the real CLIs
 * (`vite build`, `node build/index.js`, `svelte-kit sync`, `svelte-check`) or Vite's dev server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureLogger, count, poll, prepare, REPO, rewriteFile, run, stripAnsi } from '../helpers/hosts.js';
import { watcherSettled } from '../dev/helpers.js';
import { freePort, get, serve } from './serve.js';

const VITE = path.join(REPO, 'node_modules/vite/bin/vite.js');
const SVELTE_KIT = path.join(REPO, 'node_modules/@sveltejs/kit/svelte-kit.js');
const SVELTE_CHECK = path.join(REPO, 'node_modules/svelte-check/bin/svelte-check');

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const FUNCTION_FORM =
  '[CONFIG_SCORERS_FUNCTION] Agent "support": config.scorers is a function, so discovered scorers under src/mastra/agents/support/scorers/ are ignored. (src/mastra/agents/support/config.ts)';

/** What `GET /api/scorers` answers for the fixture as it is. */
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
/** What `GET /api/agents` answers: Mastra's own Agents list the scorers they got from the registry. */
const MASTRA_AGENTS = {
  weatherAgent: ['answer-relevancy', 'relevance', 'tone', 'extra'],
  plannerAgent: ['brevity'],
  supportAgent: ['empathy'],
  recipesAgent: ['servings'],
};
const RESPONSE = { agents: AGENTS, scores: { answer: 1, offTopic: 0 }, diagnostics: ['CONFIG_SCORERS_FUNCTION', 'SCORER_KEY_COLLISION'] };

describe('vite build, the built server, svelte-check', () => {
  let dir: string;
  let built: { code: number | null; output: string };

  beforeAll(async () => {
    dir = prepare('sveltekit', 'kit-build', { linkSelf: true });
    built = await run(process.execPath, [VITE, 'build'], dir);
  }, 300_000);

  test('vite build succeeds and prints each merge warning exactly once', () => {
    expect(built.code, built.output).toBe(0);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, FUNCTION_FORM)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(2);
    expect(built.output).toContain('Using @sveltejs/adapter-node');
  });

  test('files the build knows to be overridden are not in the server output', () => {
    const files = fs.readdirSync(path.join(dir, 'build/server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    const code = files.map((f) => fs.readFileSync(path.join(dir, 'build/server', f), 'utf8')).join('\n');
    expect(code).toContain('file-tone');
    expect(code).not.toContain('file-relevance-overridden');
    expect(code).not.toContain('file-ignored');
  });

  test('node build/index.js serves the route with the registry, merged as the build said', async () => {
    const server = await serve(dir, 'build/index.js', '/api/scorers');
    try {
      expect(await get(`${server.base}/api/scorers`)).toEqual({ status: 200, body: RESPONSE });
      expect(await get(`${server.base}/api/agents`)).toEqual({ status: 200, body: MASTRA_AGENTS });
      // The page's load function uses a per-agent module and resolveScorers.
      const page = await fetch(`${server.base}/`).then((r) => r.text());
      expect(page).toContain('<li>weather: answer-relevancy, relevance, tone, extra</li><li>support: empathy</li>');
      // The run-time merge knew it all at build time: nothing is warned again at start-up.
      expect(server.output()).not.toContain('SCORER_KEY_COLLISION');
    } finally {
      await server.stop();
    }
  });

  const check = () => run(process.execPath, [SVELTE_CHECK, '--tsconfig', './tsconfig.json', '--output', 'machine'], dir);

  test('svelte-kit sync && svelte-check passes, seeing the declaration file at src/agent-scorers.d.ts', async () => {
    expect(fs.existsSync(path.join(dir, 'src/agent-scorers.d.ts'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'agent-scorers.d.ts'))).toBe(false);
    const sync = await run(process.execPath, [SVELTE_KIT, 'sync'], dir);
    expect(sync.code, sync.output).toBe(0);
    const result = await check();
    expect(result.output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    expect(result.code).toBe(0);
  });

  test('control: without the declaration file, svelte-check cannot find the virtual module', async () => {
    const file = path.join(dir, 'src/agent-scorers.d.ts');
    fs.renameSync(file, `${file}.off`);
    try {
      const result = await check();
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/ERROR "src\/routes\/api\/scorers\/\+server\.ts" \d+:\d+ "Cannot find module 'virtual:agent-scorers'/);
    } finally {
      fs.renameSync(`${file}.off`, file);
    }
  });

  test('control: an unknown agent key and an unknown scorer key in a route fail svelte-check', async () => {
    const route = path.join(dir, 'src/routes/api/bad/+server.ts');
    fs.mkdirSync(path.dirname(route), { recursive: true });
    fs.writeFileSync(route, `import { json } from '@sveltejs/kit';
import scorers from 'virtual:agent-scorers';

export const GET = () => json([scorers.nope, scorers.weather.nope]);
`);
    try {
      const result = await check();
      expect(result.code).not.toBe(0);
      const errors = result.output.split('\n').filter((line) => / ERROR /.test(line));
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatch(/ERROR "src\/routes\/api\/bad\/\+server\.ts" 4:40 "Property 'nope' does not exist on type/);
      expect(errors[1]).toMatch(/ERROR "src\/routes\/api\/bad\/\+server\.ts" 4:62 "Property 'nope' does not exist on type/);
    } finally {
      fs.rmSync(path.dirname(route), { recursive: true });
    }
  });
});

describe('vite dev', () => {
  let dir: string;
  let agents: string;
  let server: any;
  let base: string;
  const logs: string[] = [];
  const scorersRoute = () => get(`${base}/api/scorers`);
  /** Resolves once the dev server's watcher has reported `event` for `file` (so the plugin has seen it too). */
  const reported = (event: string, file: string, change: () => void) =>
    new Promise<void>((resolve) => {
      const listener = (name: string, reportedFile: string) => {
        if (name !== event || path.resolve(reportedFile) !== file) return;
        server.watcher.off('all', listener);
        resolve();
      };
      server.watcher.on('all', listener);
      change();
    });
  const recipes = (body: any) => body?.agents?.recipes;
  /**
   * Runs a scorer in the inspector, which loads the agent's files through the SSR environment's own
   * module runner, beside the one SvelteKit serves requests with. Called before each route request,
   * so that this runner is the first to fetch a changed file. (Two runners fetching the registry
   * itself are test/dev/runners.test.ts.)
   */
  const tryInInspector = async (key: string) => {
    const response = await fetch(`${base}/__agent-scorers/api/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'recipes', key, input: 'How many does it serve?', output: 'It serves 4.' }),
    });
    return { status: response.status, body: (await response.json()) as { score?: number; error?: string } };
  };

  const cwd = process.cwd();

  beforeAll(async () => {
    dir = prepare('sveltekit', 'kit-dev', { linkSelf: true });
    agents = path.join(dir, 'src/mastra/agents');
    // SvelteKit reads svelte.config.js from the current folder, as when `vite dev` runs in the app
    // (each test file has a process of its own here).
    process.chdir(dir);
    const vite = await import('vite');
    server = await vite.createServer({
      root: dir,
      customLogger: captureLogger(vite, logs),
      clearScreen: false,
      server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    // Started before listen(): the watcher's `ready` may come before listen() resolves.
    const settled = watcherSettled(server.watcher, agents);
    await server.listen();
    base = `http://127.0.0.1:${server.config.server.port}`;
    await settled;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    process.chdir(cwd);
  });

  test('the route answers with the registry, and the merge warnings print once', async () => {
    const first = await scorersRoute();
    expect(first).toEqual({ status: 200, body: RESPONSE });
    expect(await get(`${base}/api/agents`)).toEqual({ status: 200, body: MASTRA_AGENTS });
    await scorersRoute();
    const warnings = logs.filter((line) => line.includes('[plugin agent-scorers]') || line.includes('Plugin: agent-scorers'));
    expect(logs.filter((line) => line.includes(COLLISION))).toHaveLength(1);
    expect(logs.filter((line) => line.includes(FUNCTION_FORM))).toHaveLength(1);
    expect(warnings).toHaveLength(2);
  });

  test('the inspector runs a scorer through the same dev server (the SSR environment runner)', async () => {
    const tried = await tryInInspector('servings');
    expect(tried.status).toBe(200);
    expect(tried.body.score).toBe(1);
  });

  test('an added scorer file is in the next response after the watcher reports it', async () => {
    const file = path.join(agents, 'recipes/scorers/added.ts');
    await reported('add', file, () => fs.writeFileSync(file, "import { keyword } from '../../../scorers';\n\nexport default keyword('file-added', 'serves');\n"));
    expect((await tryInInspector('added')).body.score).toBe(1);
    const next = await scorersRoute();
    expect(next.status).toBe(200);
    expect(recipes(next.body)).toEqual({ form: 'record', keys: ['added', 'servings'], ids: ['file-added', 'file-servings'] });
    // The Mastra instance is built again from the new registry too.
    expect((await get(`${base}/api/agents`)).body.recipesAgent).toEqual(['added', 'servings']);
  });

  test('a new scorer file with a syntax error makes the next response an error, never the old registry', async () => {
    const file = path.join(agents, 'recipes/scorers/broken.ts');
    await reported('add', file, () => fs.writeFileSync(file, 'export default {{{ ;\n'));
    // The inspector loads only what a run needs: the broken file fails its own run, not the others.
    const tried = await tryInInspector('broken');
    expect(tried.status).toBe(500);
    expect(tried.body.error).toMatch(/^Could not load scorer "broken" of agent "recipes": src\/mastra\/agents\/recipes\/scorers\/broken\.ts: /);
    expect((await tryInInspector('servings')).status).toBe(200);
    const next = await scorersRoute();
    expect(next.status).toBe(500);
    expect(JSON.stringify(next.body)).not.toContain('"agents"');
    expect(stripAnsi(logs.join('\n'))).toContain('src/mastra/agents/recipes/scorers/broken.ts');
    // Still an error on the request after.
    expect((await scorersRoute()).status).toBe(500);
  });

  test('fixing the file recovers', async () => {
    const file = path.join(agents, 'recipes/scorers/broken.ts');
    await rewriteFile(file, "import { keyword } from '../../../scorers';\n\nexport default keyword('file-fixed', 'x');\n");
    const fixed = await poll(scorersRoute, (r) => r.status === 200, { timeout: 15_000, context: () => `\nlogs:\n${logs.slice(-20).join('\n')}` });
    expect(recipes(fixed.body)).toEqual({ form: 'record', keys: ['added', 'broken', 'servings'], ids: ['file-added', 'file-fixed', 'file-servings'] });
  });

  test('deleted scorer files are gone from the next response after the watcher reports them', async () => {
    for (const name of ['added.ts', 'broken.ts']) {
      const file = path.join(agents, 'recipes/scorers', name);
      await reported('unlink', file, () => fs.rmSync(file));
    }
    expect((await tryInInspector('added')).status).toBe(404);
    expect(await scorersRoute()).toEqual({ status: 200, body: RESPONSE });
    expect(await get(`${base}/api/agents`)).toEqual({ status: 200, body: MASTRA_AGENTS });
  });
});

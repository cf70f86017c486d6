/**
 * A Cloudflare Worker built and served with `@cloudflare/vite-plugin` (workerd from npm, no network):
 * `vite build` in both plugin orders, the built Worker under `vite preview`, and `vite dev` with
 * scorer files added, deleted and renamed, a broken file, and the inspector running scorers inside
 * the Worker (a scorer that imports `cloudflare:workers` reads the Worker's vars), with its security
 * rules, and its bounds in workerd (four runs at once, a run that never settles, an endless loop and
 * an endless allocation, each answered, the last two with the Worker restarted). Also what a bundle carries: with `ai` installed and no scorer calling a model, no file of
 * `ai` and none over 200 kB; with a judge and `import 'agent-scorers/ai'`, the judge answers in
 * the built Worker.
 *
 * Each server runs in a process group of its own and is stopped with everything it started.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, prepare, REPO, rewriteFile, run } from '../helpers/hosts.js';
import { get } from './serve.js';
import { OFFLINE_ENV, startServer, type Started, until } from './processes.js';

const VITE = path.join(REPO, 'node_modules/vite/bin/vite.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WORKER_OUT = 'dist/scorers_worker';
const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';

const viteBuild = (dir: string) => run(process.execPath, [VITE, 'build'], dir, OFFLINE_ENV);
const jsFiles = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.m?js$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, text, json };
};

describe('vite build of a Worker', () => {
  let dir: string;
  let built: { code: number | null; output: string };

  beforeAll(async () => {
    dir = prepare('cloudflare-worker', 'cf-build', { linkSelf: true });
    built = await viteBuild(dir);
  }, 180_000);

  test('builds the Worker and prints the merge warning once', () => {
    expect(built.code, built.output).toBe(0);
    expect(count(built.output, COLLISION)).toBe(1);
    expect(count(built.output, '[plugin agent-scorers]')).toBe(1);
    const bundle = fs.readFileSync(path.join(dir, WORKER_OUT, 'index.js'), 'utf8');
    for (const id of ['config-relevance', 'greeting', 'length', 'counter', 'config-empathy']) expect(bundle).toMatch(new RegExp(`["']${id}["']`));
    // Overridden by the config, and an agent the Worker never imports: not bundled.
    expect(bundle).not.toContain('file-relevance-overridden');
    expect(bundle).not.toContain('the draft scorer is not ready');
  });

  test('with `ai` installed and no scorer calling a model, no file of `ai` is emitted and none is over 200 kB', () => {
    expect(createRequire(path.join(dir, 'package.json')).resolve('ai')).toContain(`${path.sep}node_modules${path.sep}ai${path.sep}`);
    const files = jsFiles(path.join(dir, WORKER_OUT));
    expect(files.length).toBeGreaterThan(0);
    const sizes = Object.fromEntries(files.map((file) => [path.relative(dir, file), fs.statSync(file).size]));
    expect(Object.entries(sizes).filter(([, size]) => size > 200_000), JSON.stringify(sizes)).toEqual([]);
    // `ai`'s own errors carry this marker; nothing of this package's runtime does.
    for (const file of files) expect(fs.readFileSync(file, 'utf8'), file).not.toContain('vercel.ai.error');
  });

  test('the other plugin order builds the same Worker', async () => {
    const other = prepare('cloudflare-worker', 'cf-build-order', { linkSelf: true });
    const config = path.join(other, 'vite.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('plugins: [agentScorers(), cloudflare()]', 'plugins: [cloudflare(), agentScorers()]'));
    expect(fs.readFileSync(config, 'utf8')).toContain('[cloudflare(), agentScorers()]');
    const result = await viteBuild(other);
    expect(result.code, result.output).toBe(0);
    expect(count(result.output, COLLISION)).toBe(1);
    const read = (d: string) => fs.readFileSync(path.join(d, WORKER_OUT, 'index.js'), 'utf8').replace(/\/\/# sourceMappingURL=.*$/m, '');
    expect(read(other)).toBe(read(dir));
  }, 180_000);

  test('a scorer file without a default export fails the build, naming the file', async () => {
    const broken = prepare('cloudflare-worker', 'cf-build-broken', { linkSelf: true });
    fs.writeFileSync(path.join(broken, 'src/mastra/agents/weather/scorers/broken.ts'), 'export const notDefault = 1;\n');
    const result = await viteBuild(broken);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('[SCORER_NO_DEFAULT_EXPORT]');
    expect(result.output).toContain('src/mastra/agents/weather/scorers/broken.ts');
    expect(fs.existsSync(path.join(broken, WORKER_OUT, 'index.js'))).toBe(false);
  }, 180_000);

  describe('vite preview (the built Worker in workerd)', () => {
    let server: Started;

    beforeAll(async () => {
      expect(built.code, built.output).toBe(0);
      server = await startServer(process.execPath, [VITE, 'preview', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], dir, { readyPath: '/agents' });
    }, 180_000);

    afterAll(async () => {
      await server?.stop();
    });

    test("answers with each agent's resolved scorers", async () => {
      expect(await get(`${server.base}/agents`)).toEqual({ status: 200, body: ['support', 'weather'] });
      expect(await get(`${server.base}/agents/weather`)).toEqual({
        status: 200,
        body: { counter: 'counter', greeting: 'greeting', length: 'length', relevance: 'config-relevance' },
      });
      expect(await get(`${server.base}/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
    });

    test('runs scorers in the Worker: one reads the Worker vars through cloudflare:workers', async () => {
      expect(await get(`${server.base}/score?agent=weather&key=greeting&output=hello%20there`)).toEqual({ status: 200, body: { score: 1 } });
      expect(await get(`${server.base}/score?agent=weather&key=greeting&output=bye`)).toEqual({ status: 200, body: { score: 0 } });
      expect(await get(`${server.base}/score?agent=weather&key=length&output=${'x'.repeat(80)}`)).toEqual({ status: 200, body: { score: 0.5 } });
    });
  });
});

describe('a Worker whose scorer calls a judge', () => {
  let dir: string;
  let built: { code: number | null; output: string };
  let server: Started | undefined;

  beforeAll(async () => {
    dir = prepare('cloudflare-worker', 'cf-judge', { linkSelf: true });
    fs.writeFileSync(
      path.join(dir, 'src/mastra/agents/weather/scorers/judged.ts'),
      `import { MockLanguageModelV3 } from 'ai/test';
import { createScorer } from 'agent-scorers';

const model = new MockLanguageModelV3({
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'Short and on topic.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 4, text: 4, reasoning: 0 } },
    warnings: [],
  }),
});

export default createScorer({ id: 'judged', description: 'A judge explains the score', judge: { model, instructions: 'You explain scores.' } })
  .generateScore(() => 1)
  .generateReason({ description: 'Why', createPrompt: ({ score }) => 'Explain the score ' + score + '.' });
`,
    );
    const worker = path.join(dir, 'src/worker.ts');
    fs.writeFileSync(
      worker,
      `import 'agent-scorers/ai';\n${fs
        .readFileSync(worker, 'utf8')
        .replace('run(run: unknown): Promise<{ score: number | null }>', 'run(run: unknown): Promise<{ score: number | null; reason?: unknown }>')
        .replace('return Response.json({ score: result.score });', 'return Response.json({ score: result.score, reason: result.reason });')}`,
    );
    built = await viteBuild(dir);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('with import "agent-scorers/ai", the built Worker carries the judge calls and the judge answers', async () => {
    expect(built.code, built.output).toBe(0);
    const bundle = jsFiles(path.join(dir, WORKER_OUT)).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    expect(bundle).toContain('vercel.ai.error');
    server = await startServer(process.execPath, [VITE, 'preview', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], dir, { readyPath: '/agents' });
    expect(await get(`${server.base}/score?agent=weather&key=judged&output=ok`)).toEqual({ status: 200, body: { score: 1, reason: 'Short and on topic.' } });
  }, 180_000);
});

describe('vite dev of a Worker', () => {
  let dir: string;
  let server: Started;
  let inspector: string;
  const scorers = () => path.join(dir, 'src/mastra/agents/weather/scorers');
  const weather = async () => (await get(`${server.base}/agents/weather`)).body;

  beforeAll(async () => {
    dir = prepare('cloudflare-worker', 'cf-dev', { linkSelf: true });
    server = await startServer(process.execPath, [VITE, 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], dir, { readyPath: '/agents' });
    inspector = `${server.base}/__agent-scorers/`;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('answers, and prints the merge warning once and the inspector URL', async () => {
    expect(await get(`${server.base}/agents/weather`)).toEqual({
      status: 200,
      body: { counter: 'counter', greeting: 'greeting', length: 'length', relevance: 'config-relevance' },
    });
    expect(await get(`${server.base}/score?agent=weather&key=greeting&output=hello`)).toEqual({ status: 200, body: { score: 1 } });
    expect(count(server.output(), COLLISION)).toBe(1);
    expect(server.output()).toContain(`Scorers: http://127.0.0.1:${server.port}/__agent-scorers/`);
  });

  test('the inspector says the scorers run in the Worker (workerd)', async () => {
    const state = await until(() => get(`${inspector}api/state`), (r) => r.body?.runs?.runtime === 'workerd', 'runtime workerd');
    expect(state.body.runs).toEqual({ environment: 'scorers_worker', runtime: 'workerd', how: 'bridge', note: null });
  });

  test.skipIf(!fs.existsSync(CHROMIUM))('the inspector page says so (Chromium)', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(inspector);
      await expect.poll(() => page.locator('#where').innerText(), { timeout: 30_000 }).toBe('Scorers run in the scorers_worker environment (workerd), where your app imports them.');
    } finally {
      await browser.close();
    }
  });

  test('the inspector runs a scorer that imports cloudflare:workers (it reads the Worker vars) and one that does not', async () => {
    const greeting = await post(`${inspector}api/run`, { agent: 'weather', key: 'greeting', input: 'q', output: 'hello there' });
    expect(greeting.status, greeting.text).toBe(200);
    expect(greeting.json.score).toBe(1);
    const length = await post(`${inspector}api/run`, { agent: 'weather', key: 'length', input: 'q', output: 'x'.repeat(80) });
    expect(length.status, length.text).toBe(200);
    expect(length.json.score).toBe(0.5);
    const listed = await post(`${inspector}api/scorers`, { agent: 'support' });
    expect(listed.json).toMatchObject({ agent: 'support', scorers: [{ key: 'empathy', id: 'config-empathy' }] });
  });

  test('a scorer file that cannot load is named, and the agent\'s other scorers still run and list', async () => {
    const failing = await post(`${inspector}api/run`, { agent: 'drafts', key: 'wip', input: 'q', output: 'a' });
    expect(failing.status).toBe(500);
    expect(failing.json.error).toBe('Could not load scorer "wip" of agent "drafts": src/mastra/agents/drafts/scorers/wip.ts: the draft scorer is not ready');
    expect(failing.text).not.toContain(dir);
    const ready = await post(`${inspector}api/run`, { agent: 'drafts', key: 'ready', input: 'q', output: 'a' });
    expect(ready.status, ready.text).toBe(200);
    expect(ready.json.score).toBe(1);
    const listed = await post(`${inspector}api/scorers`, { agent: 'drafts' });
    expect(listed.status).toBe(200);
    expect(listed.json.scorers.map((s: { key: string }) => s.key)).toEqual(['ready']);
    expect(listed.json.failed).toEqual([{ key: 'wip', error: 'Could not load scorer "wip": src/mastra/agents/drafts/scorers/wip.ts: the draft scorer is not ready' }]);
  });

  test('the inspector keeps its rules in front of the Worker: another origin and a GET run nothing, the Worker counts only allowed runs', async () => {
    const runs = async () => (await get(`${server.base}/runs`)).body.runs as number;
    const before = await runs();
    const body = { agent: 'weather', key: 'counter', input: 'q', output: 'a' };
    expect((await post(`${inspector}api/run`, body, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await post(`${inspector}api/run`, body, { 'Sec-Fetch-Site': 'same-site' })).status).toBe(403);
    expect((await post(`${inspector}api/run`, body, { Origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await fetch(`${inspector}api/run`)).status).toBe(405);
    expect((await post(`${inspector}api/run`, { ...body, input: 'x'.repeat(1024 * 1024 + 1) })).status).toBe(413);
    expect(await runs()).toBe(before);
    const allowed = await post(`${inspector}api/run`, body);
    expect(allowed.status, allowed.text).toBe(200);
    expect(await runs()).toBe(before + 1);
    expect(allowed.json.score).toBe(before + 1);
  });

  test('a judge in the Worker without import "agent-scorers/ai" says what to add', async () => {
    fs.writeFileSync(
      path.join(scorers(), 'judged.ts'),
      `import { createScorer } from 'agent-scorers';

const model = { specificationVersion: 'v3', provider: 'test', modelId: 'judge', supportedUrls: {}, doGenerate: async () => { throw new Error('never called'); }, doStream: async () => { throw new Error('never called'); } };

export default createScorer({ id: 'judged', description: 'A judge explains the score', judge: { model, instructions: 'Explain.' } })
  .generateScore(() => 1)
  .generateReason({ description: 'Why', createPrompt: () => 'Explain.' });
`,
    );
    try {
      const answer = await until(
        () => post(`${inspector}api/run`, { agent: 'weather', key: 'judged', input: 'q', output: 'a' }),
        (a) => a.status !== 404,
        'the judged scorer',
      );
      expect(answer.status).toBe(500);
      expect(answer.json.error).toContain(`needs the AI SDK ("ai") in this Worker's bundle`);
      expect(answer.json.error).toContain(`import 'agent-scorers/ai';`);
    } finally {
      fs.rmSync(path.join(scorers(), 'judged.ts'));
      await until(weather, (body) => body && !('judged' in body), 'judged.ts removed');
    }
  });

  test('a scorer file added, renamed and deleted shows in the Worker without a restart', async () => {
    fs.writeFileSync(path.join(scorers(), 'brevity.ts'), "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
    await until(weather, (body) => body?.brevity === 'brevity', 'brevity.ts added');
    fs.renameSync(path.join(scorers(), 'brevity.ts'), path.join(scorers(), 'concise.ts'));
    const renamed = await until(weather, (body) => body?.concise === 'brevity' && !('brevity' in body), 'brevity.ts renamed to concise.ts');
    expect(Object.keys(renamed)).toEqual(['concise', 'counter', 'greeting', 'length', 'relevance']);
    // The inspector sees the same: the new key runs in the Worker.
    const ran = await until(() => post(`${inspector}api/run`, { agent: 'weather', key: 'concise', input: 'q', output: 'a' }), (a) => a.status === 200, 'concise in the inspector');
    expect(ran.json.score).toBe(1);
    fs.rmSync(path.join(scorers(), 'concise.ts'));
    await until(weather, (body) => body && !('concise' in body) && 'length' in body, 'concise.ts deleted');
  });

  test('an edited scorer file runs its new code, in the Worker and in the inspector', async () => {
    const file = path.join(scorers(), 'length.ts');
    const before = fs.readFileSync(file, 'utf8');
    const long = 'x'.repeat(80);
    fs.writeFileSync(file, before.replace('40 / Math.max', '20 / Math.max'));
    try {
      await until(() => get(`${server.base}/score?agent=weather&key=length&output=${long}`), (r) => r.body?.score === 0.25, 'the edit in the Worker');
      const ran = await until(() => post(`${inspector}api/run`, { agent: 'weather', key: 'length', input: 'q', output: long }), (a) => a.json?.score === 0.25, 'the edit in the inspector');
      expect(ran.status).toBe(200);
    } finally {
      await rewriteFile(file, before);
      await until(() => get(`${server.base}/score?agent=weather&key=length&output=${long}`), (r) => r.body?.score === 0.5, 'the file restored');
    }
  });

  test('a scorer file without a default export fails the Worker with the diagnostic, and fixing it recovers', async () => {
    fs.writeFileSync(path.join(scorers(), 'broken.ts'), 'export const notDefault = 1;\n');
    const failing = await until(() => get(`${server.base}/agents/weather`), (r) => r.status >= 500, 'the broken file fails the Worker');
    expect(JSON.stringify(failing.body)).toContain('[SCORER_NO_DEFAULT_EXPORT]');
    expect(JSON.stringify(failing.body)).toContain('src/mastra/agents/weather/scorers/broken.ts');
    await rewriteFile(path.join(scorers(), 'broken.ts'), "export default { id: 'fixed', run: async () => ({ score: 1 }) };\n");
    await until(weather, (body) => body?.broken === 'fixed', 'broken.ts fixed');
    fs.rmSync(path.join(scorers(), 'broken.ts'));
    await until(weather, (body) => body && !('broken' in body), 'broken.ts deleted');
  });
});

describe('vite dev of a Worker: inspector runs are bounded in workerd', () => {
  let dir: string;
  let server: Started;
  let inspector: string;
  const RUN_TIMEOUT = 2500;
  const bounds = (key: string, output = '') => post(`${inspector}api/run`, { agent: 'bounds', key, input: 'q', output });
  const appAnswers = () => until(() => get(`${server.base}/agents/weather`), (r) => r.status === 200, 'the app answers', 90_000);
  const quickRunAnswers = () => until(() => bounds('quick'), (a) => a.status === 200, 'a quick run in the Worker', 90_000);

  beforeAll(async () => {
    dir = prepare('cloudflare-worker', 'cf-bounds', { linkSelf: true });
    const scorers = path.join(dir, 'src/mastra/agents/bounds/scorers');
    fs.mkdirSync(scorers, { recursive: true });
    const files: Record<string, string> = {
      // Each run says when it started and ended, as the Worker's clock saw it.
      'slow.ts': `export default { id: 'slow', run: async (run: { output: string }) => {
  const start = Date.now();
  await new Promise((resolve) => setTimeout(resolve, Number(run.output)));
  return { score: 1, reason: { start, end: Date.now() } };
} };\n`,
      'hang.ts': "export default { id: 'hang', run: () => new Promise(() => {}) };\n",
      'loop.ts': "export default { id: 'loop', run: async () => { for (;;) {} } };\n",
      'hog.ts': "export default { id: 'hog', run: async () => { const kept: number[][] = []; for (;;) kept.push(new Array(1_000_000).fill(kept.length)); } };\n",
      'quick.ts': "export default { id: 'quick', run: async () => ({ score: 1 }) };\n",
    };
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(scorers, name), text);
    const config = path.join(dir, 'vite.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('agentScorers()', `agentScorers({ inspector: { runTimeout: ${RUN_TIMEOUT} } })`));
    expect(fs.readFileSync(config, 'utf8')).toContain(`runTimeout: ${RUN_TIMEOUT}`);
    server = await startServer(process.execPath, [VITE, 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], dir, { readyPath: '/agents' });
    inspector = `${server.base}/__agent-scorers/`;
    await until(() => get(`${inspector}api/state`), (r) => r.body?.runs?.runtime === 'workerd', 'runtime workerd');
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('four runs at once run at once: each reports its own start and end, and the four intervals overlap', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => bounds('slow', '1500')));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const spans = answers.map((a) => a.json.reason as { start: number; end: number });
    for (const span of spans) expect(span.end - span.start).toBeGreaterThanOrEqual(1500);
    // One after the other, each would start at or after the end of the one before.
    expect(Math.max(...spans.map((s) => s.start))).toBeLessThan(Math.min(...spans.map((s) => s.end)));
  });

  test('a run that never settles is answered naming the scorer; the next run and listing are answered at once', async () => {
    const hung = await bounds('hang');
    expect(hung.status).toBe(504);
    expect(hung.json).toEqual({
      error: `Scorer "hang" of agent "bounds" did not finish within 2.5 s (inspector.runTimeout), so the inspector stopped waiting for it; it may still be running in the "scorers_worker" environment (workerd). Other runs are not affected.`,
    });
    const quick = await bounds('quick');
    expect(quick.status, quick.text).toBe(200);
    const listed = await post(`${inspector}api/scorers`, { agent: 'bounds' });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.scorers.map((s: { key: string }) => s.key)).toEqual(['hang', 'hog', 'loop', 'quick', 'slow']);
    expect((await get(`${server.base}/agents/weather`)).status).toBe(200);
    // Four of them at once hold no slot either.
    const hangs = await Promise.all(Array.from({ length: 4 }, () => bounds('hang')));
    expect(hangs.map((a) => a.status)).toEqual([504, 504, 504, 504]);
    expect((await bounds('quick')).status).toBe(200);
  });

  test('an endless loop is answered naming the scorer, and the Worker is restarted: the app and the next runs work again', async () => {
    const looped = await bounds('loop');
    expect(looped.status).toBe(504);
    expect(looped.json).toEqual({
      error: `Scorer "loop" of agent "bounds" did not finish, and the "scorers_worker" environment (workerd) stopped answering (an endless loop, or a run that holds its thread), so the dev server is restarting it; your app and the next runs work again in a few seconds.`,
      restarted: true,
    });
    expect(server.output()).toContain('agent-scorers inspector: the "scorers_worker" environment stopped answering; restarting the dev server.');
    await appAnswers();
    const quick = await quickRunAnswers();
    expect(quick.json.score).toBe(1);
  });

  test('a run that allocates without end is answered naming the scorer, and the Worker is restarted: the app and the next runs work again', async () => {
    const hog = await bounds('hog');
    // It holds workerd's thread (its collector runs without end) or runs it out of memory first:
    // either way the answer names it and says the environment restarts.
    expect([502, 503, 504], hog.text).toContain(hog.status);
    expect(hog.json.error).toMatch(/^Scorer "hog" of agent "bounds" (did not finish, and|never finished)/);
    expect(hog.json.error).toMatch(/restart/);
    expect(hog.json.restarted).toBe(true);
    await appAnswers();
    await quickRunAnswers();
  });
});

/**
 * The dev inspector (`/__agent-scorers/`) on the playground's real Vite 8 dev server, driven in
 * real headless Chromium (Debian's `chromium` + playwright-core): it shows every agent and key,
 * runs the relevancy scorer with `offlineJudge()` and shows the score the runtime computes, follows
 * a scorer file that is added and removed, and makes no request outside the dev server.
 *
 * The server runs on a temp copy of playground/ (inside the repository, so `agent-scorers` still
 * resolves to this package's `dist/`), with the playground's own vite.config.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSync } from 'oxc-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { watcherSettled } from '../dev/helpers.js';
import { captureLogger, REPO } from '../helpers/hosts.js';

// Used only inside page.evaluate callbacks, which run in the browser (this tsconfig has no DOM lib).
declare const document: any;
declare function getComputedStyle(element: unknown): any;

const PLAYGROUND = path.join(REPO, 'playground');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
// Flags for root in a container with a closed network (NOTES.md, "Browser checks").
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

if (!hasChromium) {
  console.warn(`inspector browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
}

const QUESTION = 'What will the weather be in Paris tomorrow?';
const ANSWER = 'Tomorrow Paris will be sunny and warm, around 21 °C in the afternoon. My cousin collects stamps.';

/** Agent keys from the folders themselves (SPEC section 4), to check the page against the disk. */
function agentKeysOnDisk(agentsDir: string): string[] {
  const keys: string[] = [];
  const visit = (dir: string, prefix: string, depth: number) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      keys.push(key);
      if (depth < 3) visit(path.join(dir, entry.name, 'subagents'), key, depth + 1);
    }
  };
  visit(agentsDir, '', 0);
  return keys.sort();
}

/** WCAG contrast ratio of each element's text against the first opaque background behind it. */
function contrastRatios(page: Page, selector: string): Promise<Array<{ text: string; ratio: number }>> {
  return page.$$eval(selector, (elements: any[]) => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const background = (el: any): number[] => {
      for (let node = el; node; node = node.parentElement) {
        const c = parse(getComputedStyle(node).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    return elements
      .filter((el) => (el as any).innerText.trim() !== '')
      .map((el) => {
        const fg = luminance(parse(getComputedStyle(el).color).slice(0, 3));
        const bg = luminance(background(el));
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        return { text: `${el.tagName.toLowerCase()}.${el.className}: ${(el as any).innerText.trim().slice(0, 40)}`, ratio };
      });
  });
}

interface Playground {
  dir: string;
  server: any;
  /** Everything the server logged, colours stripped. */
  logs: string[];
  /** The inspector page's URL. */
  inspector: string;
  close: () => Promise<void>;
}

/**
 * The playground's dev server (its own vite.config.ts) on a temp copy inside the repository (so that
 * `agent-scorers` resolves to `dist/`), on a free port, after the watcher's first scan. Without a key
 * the playground's judge is offlineJudge(): the key is removed until `close`, to stay offline.
 */
async function openPlayground(name: string, vite: any): Promise<Playground> {
  const savedKey = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
  const dir = path.join(REPO, 'test/.tmp', `${name}-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of ['src', 'vite.config.ts', 'tsconfig.json']) {
    fs.cpSync(path.join(PLAYGROUND, entry), path.join(dir, entry), { recursive: true });
  }
  const logs: string[] = [];
  const logger = captureLogger(vite, logs);
  const server = await vite.createServer({
    root: dir,
    configFile: path.join(dir, 'vite.config.ts'),
    customLogger: logger,
    server: { host: '127.0.0.1', port: 0 },
  });
  const settled = watcherSettled(server.watcher, dir);
  await server.listen();
  await settled;
  server.printUrls(); // what the `vite` CLI does after listening
  const close = async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  };
  return { dir, server, logs, inspector: new URL('__agent-scorers/', server.resolvedUrls.local[0]).href, close };
}

describe('dev inspector on the playground (Vite 8)', () => {
  let playground: Playground | undefined;
  let dir: string;
  let server: any;
  let browser: Browser;
  let page: Page;
  let base: string;
  let inspector: string;
  let logs: string[] = [];
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    playground = await openPlayground('inspector', await import('vite'));
    ({ dir, server, logs, inspector } = playground);
    base = server.resolvedUrls.local[0];

    if (!hasChromium) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => void requests.push(request.url()));
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    page.on('pageerror', (error) => void consoleErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });

  test('the startup output lists the inspector URL', () => {
    expect(logs.join('\n')).toContain(`Scorers: ${inspector}`);
  });

  test('no API route answers another site, not even a blind GET, and an oversized body is refused at once', async () => {
    const scorers = { method: 'POST', body: JSON.stringify({ agent: 'support', requestContext: { tier: 'x' } }) };
    for (const [route, init] of [['', {}], ['api/state', {}], ['api/scorers', scorers]] as const) {
      const json = { ...init, headers: { 'Content-Type': 'application/json' } };
      const blind = await fetch(new URL(route, inspector), { ...json, headers: { ...json.headers, 'Sec-Fetch-Site': 'cross-site' } });
      expect(blind.status, route).toBe(403);
      const other = await fetch(new URL(route, inspector), { ...json, headers: { ...json.headers, Origin: 'http://localhost:1' } });
      expect(other.status, route).toBe(403);
    }
    expect((await fetch(new URL('api/state', inspector))).status).toBe(200);
    const big = await fetch(new URL('api/run', inspector), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: 'weather', key: 'x', input: 'q', output: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toMatch(/larger than \d+ bytes/);
  });

  test('the page is one self-contained document: a CSP that allows only itself, a script that parses, no outside URL', async () => {
    const res = await fetch(inspector);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    // The compiled src/plugin/inspector/client.ts, inlined as a module (tsc ends it with `export {};`).
    const [, attributes, script] = scripts[0];
    const nonce = /^ type="module" nonce="([A-Za-z0-9+/=]+)"$/.exec(attributes)?.[1];
    expect(nonce, attributes).toBeDefined();
    expect(csp).toContain(`'nonce-${nonce}'`);
    expect(script).toBe(fs.readFileSync(path.join(REPO, 'dist/plugin/inspector/client.js'), 'utf8'));
    expect(parseSync('client.js', script, { sourceType: 'module' }).errors).toEqual([]);
    const styles = [...html.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)];
    expect(styles.map((m) => m[1])).toEqual([` nonce="${nonce}"`]);
    expect(styles[0][2]).toBe(fs.readFileSync(path.join(REPO, 'dist/plugin/inspector/page.css'), 'utf8'));
    expect(styles[0][2]).toContain(':focus-visible');
    expect(html).not.toMatch(/%(NONCE|STYLE|SCRIPT)%/);
    // A fresh nonce per request: the cached page is not served with the last one.
    const again = await (await fetch(inspector)).text();
    expect(again).not.toContain(nonce);
    expect(again.split(/nonce="[^"]+"/)).toEqual(html.split(/nonce="[^"]+"/));
    // Without the trailing slash: redirected, so the page's relative API URLs resolve.
    const bare = await fetch(inspector.slice(0, -1), { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/__agent-scorers/');
  });

  test.skipIf(!hasChromium)('the page shows every agent and subagent, every key with its source, and the diagnostics', async () => {
    await page.goto(inspector);
    await expect.poll(() => page.locator('#agents article').count()).toBeGreaterThan(0);
    const state: any = await (await fetch(new URL('api/state', inspector))).json();

    const onDisk = agentKeysOnDisk(path.join(dir, 'src/mastra/agents'));
    expect(onDisk).toContain('weather/planner');
    const shown = await page.locator('#agents article').evaluateAll((els) => els.map((el) => el.getAttribute('data-agent')));
    expect([...shown].sort()).toEqual(onDisk);
    expect(Object.keys(state.manifest.agents).sort()).toEqual(onDisk);

    for (const [key, agent] of Object.entries<any>(state.manifest.agents)) {
      const card = page.locator(`#agents article[data-agent="${key}"]`);
      await expect.poll(() => card.locator('h3').innerText()).toContain(key);
      expect(await card.innerText()).toContain(agent.dir);
      expect(await card.locator('dl').innerText()).toContain(`${agent.configScorers}:`);
      const rows = await card.locator('table').first().locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children, (cell) => (cell as any).innerText.trim())),
      );
      const expected = Object.entries<any>(agent.scorers).map(([k, s]) => [
        k,
        s.source === 'file' ? 'scorers/ file' : 'config.scorers',
        s.source === 'file' ? s.file : agent.config,
      ]);
      if (agent.configScorers === 'function') expect(expected).toEqual([]);
      else expect(rows.map((r) => r.slice(0, 3))).toEqual(expected);
    }
    // The playground's own files: a scorers/ file, and a config record key overriding a file.
    const weather = (await page.locator('#agents article[data-agent="weather"]').innerText()).replace(/\s+/g, ' ');
    expect(weather).toContain('answer-relevancy scorers/ file src/mastra/agents/weather/scorers/answer-relevancy.ts');
    expect(weather).toContain('relevance config.scorers src/mastra/agents/weather/config.ts ratio 0.25');

    // Where scorers run: the environment that imports the registry (the playground's server is Node's `ssr`).
    expect(state.runs).toEqual({ environment: 'ssr', runtime: 'node', how: 'runner', note: null });
    expect(await page.locator('#where').innerText()).toBe("Scorers run in the ssr environment (Node, in the dev server's process), where your app imports them.");

    const diagnostics = await page.locator('#diagnostics li').allInnerTexts();
    expect(diagnostics).toHaveLength(state.manifest.diagnostics.length);
    state.manifest.diagnostics.forEach((d: any, i: number) => {
      expect(diagnostics[i]).toContain(d.code);
      expect(diagnostics[i]).toContain(d.message);
    });
  });

  test.skipIf(!hasChromium)('runs the relevancy scorer (offlineJudge) on the server and shows the score the runtime computes', async () => {
    await page.getByLabel('Agent', { exact: true }).selectOption('weather');
    await page.getByLabel('Scorer', { exact: true }).selectOption('answer-relevancy');
    await page.getByLabel(/^Input/).fill(QUESTION);
    await page.getByLabel(/^Output/).fill(ANSWER);
    // Keyboard: focus the button and press Enter.
    await page.getByRole('button', { name: 'Run scorer' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#result-status').innerText(), { timeout: 20_000 }).toMatch(/^Score /);

    // The oracle: the same scorer from this package's runtime, run here with the same messages.
    const runtime = await import(pathToFileURL(path.join(REPO, 'dist/runtime/index.js')).href);
    const scorer = runtime.createAnswerRelevancyScorer({ model: runtime.offlineJudge(), options: { uncertaintyWeight: 0.3, scale: 1 } });
    const message = (role: string, text: string) => ({ role, content: { format: 2, parts: [{ type: 'text', text }], content: text } });
    const expected = await scorer.run({
      input: { inputMessages: [message('user', QUESTION)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: [message('assistant', ANSWER)],
    });

    expect(Number(await page.locator('#score').innerText())).toBe(expected.score);
    expect(await page.locator('#result-status').innerText()).toBe(`Score ${expected.score} for answer-relevancy of weather.`);
    expect(await page.locator('#reason').innerText()).toBe(expected.reason);
    const rows = await page.locator('#result table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.children, (cell) => (cell as any).innerText.trim())),
    );
    expect(rows.map((r) => r[1])).toEqual(expected.preprocessStepResult.statements);
    expect(rows.map((r) => r[2])).toEqual(expected.analyzeStepResult.results.map((v: any) => v.result));
    expect(expected.analyzeStepResult.results.map((v: any) => v.result)).toContain('no'); // the stamps
  });

  test.skipIf(!hasChromium)('resolves a function-form agent at run time, with a request context', async () => {
    await page.getByLabel('Agent', { exact: true }).selectOption('support');
    const options = () => page.getByLabel('Scorer', { exact: true }).locator('option').allInnerTexts();
    await expect.poll(options).toEqual(['empathy', 'next-step']);
    await page.getByLabel(/^Request context/).fill('{"tier": "premium"}');
    await page.getByLabel(/^Request context/).press('Tab'); // `change` fires on leaving the field
    await expect.poll(options).toEqual(['empathy', 'next-step', 'sla']);
    await page.getByLabel(/^Request context/).fill('');
  });

  test.skipIf(!hasChromium)('a scorer file added while the page is open appears live, runs, and disappears when deleted', async () => {
    const file = path.join(dir, 'src/mastra/agents/recipes/scorers/inspector-added.ts');
    fs.writeFileSync(
      file,
      "export default { scorer: { id: 'inspector-added', run: async () => ({ score: 0.42, reason: 'added while the page was open' }) }, sampling: { type: 'ratio', rate: 0.5 } };\n",
    );
    const card = page.locator('#agents article[data-agent="recipes"]');
    const row = card.locator('tbody tr', { has: page.locator('th', { hasText: 'inspector-added' }) });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect((await row.innerText()).replace(/\s+/g, ' ')).toContain('src/mastra/agents/recipes/scorers/inspector-added.ts ratio 0.5');

    // Its "Try" button (keyboard) selects it; the server runs the new file.
    await row.getByRole('button', { name: 'Try inspector-added of recipes' }).press('Enter');
    expect(await page.getByLabel('Scorer', { exact: true }).inputValue()).toBe('inspector-added');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('input');
    await page.getByRole('button', { name: 'Run scorer' }).click();
    await expect.poll(() => page.locator('#result-status').innerText(), { timeout: 20_000 }).toBe('Score 0.42 for inspector-added of recipes.');
    expect(await page.locator('#reason').innerText()).toBe('added while the page was open');

    fs.rmSync(file);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(0);
    // After a reload too (the state is read afresh).
    await page.reload();
    await expect.poll(() => page.locator('#agents article[data-agent="recipes"]').count()).toBe(1);
    expect(await page.locator('#agents article[data-agent="recipes"]').innerText()).not.toContain('inspector-added');
  });

  test.skipIf(!hasChromium)('hostile agent and scorer names are shown as text, never as markup, and run', async () => {
    // `toString` and `constructor` would find Object.prototype's members in a plain lookup table.
    const agents = ['toString', '<svg onload=window.pwned=2>'];
    const names = ['<img src=x onerror=window.pwned=1>', '${x}\'"\\ é🙂', 'constructor'];
    const folders = agents.map((agent) => path.join(dir, 'src/mastra/agents', agent));
    for (const folder of folders) {
      fs.mkdirSync(path.join(folder, 'scorers'), { recursive: true });
      for (const name of names) {
        fs.writeFileSync(path.join(folder, 'scorers', `${name}.ts`), "export default { scorer: { id: 'hostile', run: async () => ({ score: 0.7, reason: '<b>not bold</b>' }) } };\n");
      }
    }
    try {
      for (const agent of agents) {
        const card = page.locator('#agents article').filter({ has: page.locator('h3 code', { hasText: agent }) });
        await expect.poll(() => card.locator('tbody th').allInnerTexts(), { timeout: 20_000 }).toEqual([...names].sort());
        expect(await card.getAttribute('data-agent')).toBe(agent);
        expect(await card.locator('dl').innerText()).toContain('none: only the scorers/ files');
      }
      expect(await page.getByLabel('Agent', { exact: true }).locator('option').allInnerTexts()).toEqual(expect.arrayContaining(agents));

      for (const [agent, key] of [[agents[0], names[2]], [agents[1], names[0]]]) {
        const card = page.locator(`#agents article[data-agent="${agent.replace(/"/g, '\\"')}"]`);
        await card.getByRole('button', { name: `Try ${key} of ${agent}`, exact: true }).click();
        expect(await page.getByLabel('Scorer', { exact: true }).inputValue()).toBe(key);
        await page.getByRole('button', { name: 'Run scorer' }).click();
        await expect.poll(() => page.locator('#result-status').innerText(), { timeout: 20_000 }).toBe(`Score 0.7 for ${key} of ${agent}.`);
        expect(await page.locator('#reason').innerText()).toBe('<b>not bold</b>');
        expect(await page.locator('#result h3').innerText()).toBe(`Result: ${agent} › ${key}`);
      }
      expect(await page.locator('img, svg, b').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as any).pwned)).toBeUndefined();
    } finally {
      for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    }
    await expect.poll(() => page.locator('#agents article[data-agent="toString"]').count(), { timeout: 20_000 }).toBe(0);
  });

  test.skipIf(!hasChromium)('errors are messages on the page, and the API refuses bad requests with a status', async () => {
    await page.getByLabel('Agent', { exact: true }).selectOption('weather');
    await page.getByLabel('JSON', { exact: true }).check();
    await page.getByLabel(/^Input/).fill('{ not json');
    await page.getByRole('button', { name: 'Run scorer' }).click();
    await expect.poll(() => page.locator('#run-error').innerText()).toContain('input is not valid JSON');
    await page.getByLabel('Agent messages, as Mastra passes them').check();

    const post = (body: string, type = 'application/json') =>
      page.evaluate(
        async ([b, t]) => {
          const res = await fetch('api/run', { method: 'POST', headers: { 'Content-Type': t }, body: b });
          return { status: res.status, body: (await res.json()) as any };
        },
        [body, type] as const,
      );
    expect(await post('{ nope')).toMatchObject({ status: 400, body: { error: expect.stringContaining('not valid JSON') } });
    expect(await post(JSON.stringify({ agent: 'weather', input: 'q', output: 'a' }))).toMatchObject({ status: 400, body: { error: expect.stringContaining('"key"') } });
    expect(await post(JSON.stringify({ agent: 'nobody', key: 'x', input: 'q', output: 'a' }))).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining('known agents: "recipes", "support", "weather", "weather/planner"') },
    });
    expect(await post(JSON.stringify({ agent: 'weather', key: 'nope', input: 'q', output: 'a' }))).toMatchObject({ status: 404 });
    expect(await post('{}', 'text/plain')).toMatchObject({ status: 415 });
    // A scorer that throws: a message with the status, not a broken server.
    const file = path.join(dir, 'src/mastra/agents/recipes/scorers/inspector-throws.ts');
    fs.writeFileSync(file, "export default { id: 'inspector-throws', run: async () => { throw new Error('judge unavailable'); } };\n");
    try {
      const run = () => post(JSON.stringify({ agent: 'recipes', key: 'inspector-throws', input: 'q', output: 'a' }));
      await expect.poll(async () => (await run()).status, { timeout: 20_000 }).toBe(500);
      expect((await run()).body.error).toBe('Scorer "inspector-throws" failed: judge unavailable');
    } finally {
      fs.rmSync(file);
    }
  });

  test.skipIf(!hasChromium)('accessible: labelled controls, landmarks, keyboard focus that shows, readable contrast', async () => {
    await page.reload();
    await expect.poll(() => page.locator('#agents article').count()).toBeGreaterThan(0);
    for (const label of ['Agent', 'Scorer']) expect(await page.getByLabel(label, { exact: true }).count()).toBe(1);
    for (const label of [/^Input/, /^Output/, /^Request context/]) expect(await page.getByLabel(label).count()).toBe(1);
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('h1').innerText()).toContain('agent-scorers');
    expect(await page.locator('[aria-live="polite"]').count()).toBeGreaterThan(0);

    // The first Tab reaches the skip link, which moves to the form.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Skip to');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');

    const selector = 'p, dt, dd, th, td, label, legend, button, .badge, code, h1, h2, h3, h4, summary, footer';
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const ratios = await contrastRatios(page, selector);
      expect(ratios.length).toBeGreaterThan(20);
      expect(ratios.filter((r) => r.ratio < 4.5), colorScheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test.skipIf(!hasChromium)('the page made no request outside the dev server and logged no error', () => {
    const origin = new URL(base).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    // The error responses of the previous test are answers the page expected; nothing else failed.
    expect(consoleErrors.filter((text) => !/status of (400|404|415|500)/.test(text))).toEqual([]);
  });
});

describe('dev inspector on the playground (Vite 7)', () => {
  let playground: Playground | undefined;
  let dir: string;
  let inspector: string;
  let logs: string[] = [];

  beforeAll(async () => {
    playground = await openPlayground('inspector-vite7', await import('vite7'));
    ({ dir, inspector, logs } = playground);
  });

  afterAll(async () => {
    await playground?.close();
  });

  test('lists the URL, serves the state and runs a scorer on the server', async () => {
    expect(logs.join('\n')).toContain(`Scorers: ${inspector}`);
    const state: any = await (await fetch(new URL('api/state', inspector))).json();
    expect(Object.keys(state.manifest.agents).sort()).toEqual(agentKeysOnDisk(path.join(dir, 'src/mastra/agents')));

    const res = await fetch(new URL('api/run', inspector), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: 'weather', key: 'answer-relevancy', input: QUESTION, output: ANSWER }),
    });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    const runtime = await import(pathToFileURL(path.join(REPO, 'dist/runtime/index.js')).href);
    const expected = await runtime
      .createAnswerRelevancyScorer({ model: runtime.offlineJudge(), options: { uncertaintyWeight: 0.3, scale: 1 } })
      .run({ input: QUESTION, output: ANSWER });
    expect(body.score).toBe(expected.score);
    expect(body.steps.preprocess.statements).toEqual(expected.preprocessStepResult.statements);
    expect(body.steps.analyze.results).toEqual(expected.analyzeStepResult.results);

    // A cross-site form post cannot run scorers through the dev server.
    const cross = await fetch(new URL('api/run', inspector), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ agent: 'weather', key: 'answer-relevancy', input: QUESTION, output: ANSWER }),
    });
    expect(cross.status).toBe(403);
  });
});

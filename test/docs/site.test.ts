/**
 * The built docs site in a real browser: Debian's Chromium through playwright-core, served by a small
 * static server with VitePress's clean URLs. The home page and a guide page render with their title
 * and the whole sidebar, log no error, and request nothing outside localhost (the site must work with
 * no network). `npm test` builds the site before Vitest runs; run alone, this test builds it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** Getting started's host tabs, in page order. */
const HOST_TABS = ['Vite', 'SvelteKit', 'Nuxt', 'Hono', 'Astro', 'React-Router', 'TanStack', 'Cloudflare', 'Vitest', 'Rollup', 'Rolldown', 'Next.js', 'esbuild', 'Node/Bun'];
import { sidebar } from '../../docs/.vitepress/sidebar.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(REPO, 'docs/.vitepress/dist');
const SHOTS = path.join(REPO, 'test/.tmp', `docs-site-${process.pid}-${Date.now()}`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
// Flags for root in a container with a closed network (as the inspector's browser test).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

if (!hasChromium) console.warn(`docs site browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.txt': 'text/plain', '.md': 'text/markdown' };

/** `/guide/conventions` → `conventions.html`, `/guide/` → `guide/index.html`, as VitePress's clean URLs expect. */
function fileFor(urlPath: string): string | null {
  const rel = decodeURIComponent(urlPath.split(/[?#]/)[0]);
  const base = path.join(DIST, path.normalize(rel));
  if (!base.startsWith(DIST)) return null;
  for (const candidate of [base, `${base}.html`, path.join(base, 'index.html')]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

/** Every link of the configured sidebar: the site map the docs promise. */
const sidebarLinks = (): string[] =>
  sidebar.flatMap((group) => group.items.map((item) => item.link));

/** The page's text as a reader without a browser sees it: tags out, entities decoded, whitespace collapsed. */
const textOf = (html: string): string =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&(lt|gt|quot|amp|#39|#x27);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'", '#x27': "'" })[e]!)
    .replace(/\s+/g, ' ');

/** The first non-blank line of each fenced code block in `markdown`, whitespace collapsed. */
function codeBlockFirstLines(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | null = null;
  let first: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null) {
      if (marker) [fence, first] = [marker, null];
    } else if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      if (first !== null) found.push(first);
      fence = null;
    } else if (first === null && line.trim() !== '') {
      first = line.replace(/\s+/g, ' ').trim();
    }
  }
  return found;
}

describe('the built site, as curl and crawlers get it', () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(DIST, 'index.html'))) {
      execFileSync(process.execPath, [path.join(REPO, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], { cwd: REPO, stdio: 'inherit' });
    }
  });

  test('every tab of every :::tabs block is in the static HTML, each panel with every code block of its section', () => {
    const pages = fs.readdirSync(path.join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md') && !file.startsWith('.vitepress') && fs.readFileSync(path.join(REPO, 'docs', file), 'utf8').includes(':::tabs'));
    expect(pages).toContain('guide/getting-started.md');
    for (const page of pages) {
      const markdown = fs.readFileSync(path.join(REPO, 'docs', page), 'utf8');
      const html = fs.readFileSync(path.join(DIST, page.replace(/\.md$/, '.html')), 'utf8');
      // Each `== Label` section up to the next one or the end of the block, and the first line of each of its code blocks.
      const sections = [...markdown.matchAll(/^:::tabs.*\n([\s\S]*?)^:::$/gm)].flatMap((block) => block[1].split(/^== /m).slice(1));
      expect(sections.length, page).toBeGreaterThan(1);
      for (const section of sections) {
        const label = section.slice(0, section.indexOf('\n')).trim();
        const start = html.indexOf(`<div id="panel-${label}-`);
        expect(start, `${page}: no panel for the tab ${label}`).toBeGreaterThan(-1);
        const next = html.indexOf('class="plugin-tabs--content"', start + 40);
        const panel = textOf(html.slice(start, next === -1 ? undefined : next));
        const firstLines = codeBlockFirstLines(section);
        expect(firstLines.length, `${page}: ${label}`).toBeGreaterThan(0);
        for (const line of firstLines) expect(panel, `${page}: tab ${label}`).toContain(line);
      }
    }
    const start = fs.readFileSync(path.join(DIST, 'guide/getting-started.html'), 'utf8');
    expect(textOf(start)).toContain("import { sveltekit } from '@sveltejs/kit/vite';");
  });
});

describe.skipIf(!hasChromium)('docs site in Chromium', () => {
  let server: http.Server;
  let origin: string;
  let browser: import('playwright-core').Browser;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(DIST, 'index.html'))) {
      execFileSync(process.execPath, [path.join(REPO, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], { cwd: REPO, stdio: 'inherit' });
    }
    server = http.createServer((req, res) => {
      const file = fileFor(req.url ?? '/');
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/html' }).end(fs.readFileSync(path.join(DIST, '404.html')));
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    fs.mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens a page, recording console errors, page errors, failed loads and every request that leaves localhost. */
  async function open(urlPath: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin) return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(origin + urlPath, { waitUntil: 'networkidle' });
    return { page, problems, outside };
  }

  test('the home page shows the name, the tagline and a way into the guide, with nothing fetched from outside', async () => {
    const { page, problems, outside } = await open('/');
    await expect.poll(() => page.locator('.VPHero .name').first().isVisible()).toBe(true);
    expect(await page.locator('.VPHero .name').first().innerText()).toContain('agent-scorers');
    expect(await page.title()).toContain('agent-scorers');
    expect(await page.locator('.VPHero .actions a', { hasText: 'Get started' }).getAttribute('href')).toBe('/guide/getting-started');
    await page.screenshot({ path: path.join(SHOTS, 'home.png') });
    // The Markdown index for coding assistants lists the references.
    const llms = await (await fetch(`${origin}/llms.txt`)).text();
    expect(llms).toContain('[Options](/reference/options.md)');
    expect(await (await fetch(`${origin}/reference/options.md`)).text()).toContain('## agentsDir');
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  test('a guide page shows its title and every sidebar link of the site map, and the sidebar navigates', async () => {
    const { page, problems, outside } = await open('/guide/getting-started');
    const title = page.locator('.vp-doc h1').first();
    await expect.poll(() => title.isVisible()).toBe(true);
    expect(await title.innerText()).toContain('Getting started');
    const hrefs = await page.locator('.VPSidebar a.link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(sidebarLinks());
    await page.screenshot({ path: path.join(SHOTS, 'guide.png') });

    await page.locator('.VPSidebar a.link', { hasText: 'Options' }).click();
    await expect.poll(() => page.locator('.vp-doc h1').first().innerText()).toContain('Options');
    expect(new URL(page.url()).pathname).toBe('/reference/options');
    // The generated overview block is there, highlighted.
    expect(await page.locator('.vp-doc div[class*="language-ts"]').first().innerText()).toContain("agentsDir: 'src/mastra/agents'");
    await page.screenshot({ path: path.join(SHOTS, 'options.png') });

    await page.locator('.VPSidebar a.link', { hasText: 'Diagnostics' }).click();
    await expect.poll(() => page.locator('.vp-doc h1').first().innerText()).toContain('Diagnostics');
    expect(await page.locator('.vp-doc h2', { hasText: 'SCORER_KEY_COLLISION' }).count()).toBe(1);
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  test('getting started holds one tab per host; a click or the arrow keys show that host, and the choice survives a reload', async () => {
    const { page, problems, outside } = await open('/guide/getting-started');
    const tabs = page.locator('.vp-doc .plugin-tabs');
    await expect.poll(() => tabs.count()).toBe(1);
    const labels = HOST_TABS;
    expect(await tabs.getByRole('tab').allInnerTexts()).toEqual(labels);
    // Ids hold the label, and aria-controls / aria-labelledby are space-separated lists: a label with a space would break them.
    for (const label of labels) expect(label).not.toMatch(/\s/);
    const panel = tabs.locator('[role="tabpanel"]:visible');
    const selected = () => tabs.locator('[role="tab"][aria-selected="true"]').innerText();

    // Vite is first and open; every panel is in the page, only the open one shows.
    expect(await selected()).toBe('Vite');
    expect(await tabs.locator('[role="tabpanel"]').count()).toBe(labels.length);
    await expect.poll(() => panel.count()).toBe(1);
    expect(await panel.innerText()).toContain('vite build --ssr src/evals.ts');
    expect(await panel.innerText()).not.toContain('sveltekit()');

    await tabs.getByRole('tab', { name: 'SvelteKit' }).click();
    await expect.poll(selected).toBe('SvelteKit');
    const svelte = await panel.innerText();
    expect(svelte).toContain('plugins: [agentScorers(), sveltekit({ adapter: adapter() })]');
    expect(svelte).toContain('/// <reference types="agent-scorers/client" />');
    expect(svelte).toContain('curl http://localhost:3000/api/scorers');
    expect(svelte).toContain('["relevance","tone"]');
    expect(svelte).not.toContain('vite build --ssr src/evals.ts');
    // The panel is named by its tab.
    const svelteTabId = await tabs.getByRole('tab', { name: 'SvelteKit' }).getAttribute('id');
    expect(await panel.getAttribute('aria-labelledby')).toBe(svelteTabId);
    await page.screenshot({ path: path.join(SHOTS, 'getting-started-sveltekit.png'), fullPage: false });

    // Keyboard: the open tab is the one in the tab order; the arrow keys move and wrap.
    await tabs.getByRole('tab', { name: 'SvelteKit' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(selected).toBe('Nuxt');
    expect(await panel.innerText()).toContain("modules: ['agent-scorers/nuxt']");
    await page.keyboard.press('ArrowRight');
    await expect.poll(selected).toBe('Hono');
    expect(await page.locator(':focus').innerText()).toBe('Hono');
    expect(await panel.innerText()).toContain("import { serve } from '@hono/node-server';");
    for (const next of ['Astro', 'React-Router', 'TanStack', 'Cloudflare']) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(selected).toBe(next);
    }
    const worker = await panel.innerText();
    expect(worker).toContain('plugins: [agentScorers(), cloudflare()]');
    expect(worker).toContain("import 'agent-scorers/ai';");
    expect(worker).toContain('Scorers: http://localhost:5173/__agent-scorers/');
    for (let i = 0; i < HOST_TABS.indexOf('Cloudflare'); i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(selected).toBe('Vite');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(selected).toBe('Node/Bun');
    expect(await panel.innerText()).toContain('npx agent-scorers generate');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(selected).toBe('Next.js');
    expect(await panel.innerText()).toContain('export default withAgentScorers(nextConfig);');

    // The choice is remembered across a reload.
    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(selected).toBe('Next.js');
    expect(await panel.innerText()).toContain('export default withAgentScorers(nextConfig);');
    await page.screenshot({ path: path.join(SHOTS, 'getting-started-next.png') });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  test('without JavaScript, getting started shows every host under its label, and no tab buttons that would do nothing', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    await page.goto(`${origin}/guide/getting-started`);
    const tabs = page.locator('.vp-doc .plugin-tabs');
    expect(await tabs.locator('[role="tablist"]').isVisible()).toBe(false);
    const labels = await tabs.locator('.plugin-tabs--label:visible').allInnerTexts();
    expect(labels).toEqual(HOST_TABS);
    expect(await tabs.locator('[role="tabpanel"]:visible').count()).toBe(labels.length);
    expect(await tabs.innerText()).toContain('plugins: [agentScorers(), sveltekit({ adapter: adapter() })]');
    await page.screenshot({ path: path.join(SHOTS, 'getting-started-no-js.png') });
    await context.close();
  });

  test('a link to the host setup lands on its heading, and GitHub Actions expressions show literally', async () => {
    const { page, problems, outside } = await open('/guide/migrating-from-mastra');
    await page.locator('.vp-doc a[href$="getting-started#set-up-your-host"]').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/guide/getting-started');
    expect(new URL(page.url()).hash).toBe('#set-up-your-host');
    await expect.poll(() => page.locator('.vp-doc h2#set-up-your-host').isVisible()).toBe(true);

    await page.goto(`${origin}/guide/reports`, { waitUntil: 'networkidle' });
    const prose = page.locator('.vp-doc p', { hasText: 'publishes the results when the eval step failed too' });
    expect(await prose.locator('code').first().innerText()).toBe('if: ${{ !cancelled() }}');
    expect(await page.locator('.vp-doc div[class*="language-yaml"]').first().innerText()).toContain('if: ${{ !cancelled() }}');
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });
});

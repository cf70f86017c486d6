/**
 * Takes docs/public/inspector.png: starts the playground's dev server (its own vite.config.ts, this
 * repository's dist/), opens /__agent-scorers/ in headless Chromium, runs the answer relevancy
 * scorer with offlineJudge() on an example, and saves a screenshot of the page.
 *
 *   npm run build && node scripts/screenshot-inspector.mjs [out.png]
 *
 * Needs Debian's chromium (/usr/bin/chromium, or CHROMIUM_PATH) and playwright-core (a devDependency).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';

const REPO = path.resolve(import.meta.dirname, '..');
const OUT = path.resolve(process.argv[2] ?? path.join(REPO, 'docs/public/inspector.png'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(path.join(REPO, 'dist/plugin/vite.js'))) {
  console.error('screenshot-inspector: dist/ is missing; run `npm run build` first.');
  process.exit(1);
}
if (!fs.existsSync(CHROMIUM)) {
  console.error(`screenshot-inspector: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}

delete process.env.OPENAI_API_KEY; // offlineJudge(): deterministic, no network
const root = path.join(REPO, 'playground');
const server = await createServer({ root, configFile: path.join(root, 'vite.config.ts'), server: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' });
let browser;
try {
  await server.listen();
  const url = new URL('__agent-scorers/', server.resolvedUrls.local[0]).href;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // Tall enough for the whole result panel (it scrolls on its own in a shorter window).
  const page = await browser.newPage({ viewport: { width: 1360, height: 1640 }, colorScheme: 'light' });
  await page.goto(url);
  await page.locator('#agents article').first().waitFor();
  // The function-form agent: its keys come from config.scorers() at run time.
  await page.getByRole('button', { name: 'Resolve at run time: support' }).click();
  await page.getByRole('button', { name: 'Resolve again: support' }).waitFor();
  await page.getByLabel('Agent', { exact: true }).selectOption('weather');
  await page.getByLabel('Scorer', { exact: true }).selectOption('answer-relevancy');
  await page.getByLabel(/^Input/).fill('What will the weather be in Paris tomorrow?');
  await page.getByLabel(/^Output/).fill('Tomorrow Paris will be sunny, around 21 °C in the afternoon. Bring sunglasses. My cousin collects stamps.');
  await page.getByRole('button', { name: 'Run scorer' }).click();
  await page.locator('#score').waitFor();
  await page.locator('#live[data-on="true"]').waitFor();
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`screenshot-inspector: wrote ${path.relative(process.cwd(), OUT)} (${url})`);
} finally {
  await browser?.close();
  await server.close();
}

/**
 * The HTML report in real headless Chromium (Debian's `chromium` + playwright-core), opened over
 * file:// as a person opens it: no request but the file itself, no console error, the verdict in
 * view, hostile strings shown as text, and the controls work from the keyboard. The 1,000 items x
 * 5 scorers report is generated, measured (printed, never asserted) and used. Screenshots land in
 * test/.tmp/report-screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evalReport } from '../../src/report/index.js';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { REPO } from '../helpers/hosts.js';
import { HOSTILE, HOSTILE_ID, hostileResult, largeResult } from './results.js';

// Used only inside page.evaluate callbacks, which run in the browser (this tsconfig has no DOM lib).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
// Flags for root in a container with a closed network (as the inspector's browser test uses).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
if (!hasChromium) console.warn(`report browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);

const TMP = path.join(REPO, 'test/.tmp', `report-browser-${process.pid}`);
const SCREENSHOTS = path.join(REPO, 'test/.tmp/report-screenshots');

let browser: Browser;
let large: { file: string; failing: number; items: number };
let hostileFile: string;
let comparedFile: string;
let worseFile: string;
let workflowFile: string;
let shardFile: string;

/** A run compared with its baseline: multi-turn items whose first turn lost its temperature. */
async function comparedReport(dir: string): Promise<string> {
  const celsius = createScorer({ id: 'celsius', description: 'Gives °C' }).generateScore(({ run }) => (JSON.stringify(run.output).includes('°C') ? 1 : 0));
  const polite = createScorer({ id: 'polite', description: 'Says please' }).generateScore(({ run }) => (/please/.test(JSON.stringify(run.output)) ? 1 : 0.5));
  const cities = ['Oslo', 'Rome', 'Lima', 'Kyiv', 'Baku', 'Doha', 'Riga', 'Suva'];
  const data = cities.map((city) => ({ id: city.toLowerCase(), turns: [{ input: `Weather in ${city}?`, gates: [celsius] }, { input: 'And tomorrow, please?', scorers: [polite] }] }));
  const run = (degraded: boolean) => runEvals({ data, scorers: [polite], target: (input: string) => (degraded && input.startsWith('Weather') ? `${input} Sunny.` : `${input} Sunny, 20 °C, please.`) });
  return evalReport(await run(true), { baseline: await run(false), outDir: dir, title: 'Turns compared' }).files!.html!;
}

/** A run compared with its baseline where three of six answers lost their city: the worse items show both outputs. */
async function worseReport(dir: string): Promise<string> {
  const mentionsCity = createScorer({ id: 'mentions-city', description: 'Names the city' }).generateScore(({ run }) =>
    String(run.output).includes(String(run.input).replace(/^Weather in (\w+)\?$/, '$1')) ? 1 : 0,
  );
  const data = ['Oslo', 'Rome', 'Lima', 'Kyiv', 'Baku', 'Doha'].map((city) => ({ id: city.toLowerCase(), input: `Weather in ${city}?` }));
  const run = (degraded: boolean) =>
    runEvals({ data, scorers: [mentionsCity], target: (input: string) => (degraded && /Rome|Kyiv|Doha/.test(input) ? 'Sunny, 20 °C.' : `${input.slice(11, -1)}: sunny, 20 °C.`) });
  return evalReport(await run(true), { baseline: await run(false), outDir: dir, title: 'Worse items', generatedAt: null }).files!.html!;
}

/** A Mastra Workflow of two steps, with a scorer on each step and one on the result. */
async function workflowReport(dir: string): Promise<string> {
  const { createStep, createWorkflow } = await import('@mastra/core/workflows');
  const { z } = await import('zod');
  const lookup = createStep({
    id: 'lookup',
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), forecast: z.string() }),
    execute: async ({ inputData }) => ({ city: inputData.city, forecast: inputData.city === 'Oslo' ? 'rain, 9 degrees' : 'sunny, 24 degrees' }),
  });
  const summarize = createStep({
    id: 'summarize',
    inputSchema: z.object({ city: z.string(), forecast: z.string() }),
    outputSchema: z.object({ summary: z.string() }),
    execute: async ({ inputData }) => ({ summary: `${inputData.city}: ${inputData.forecast}` }),
  });
  const flow = createWorkflow({ id: 'forecast', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ summary: z.string() }) }).then(lookup).then(summarize).commit();
  const sunny = createScorer({ id: 'sunny', description: 'Forecast is sunny' }).generateScore(({ run }) => (JSON.stringify(run.output).includes('sunny') ? 1 : 0));
  const short = createScorer({ id: 'short', description: 'Short summary' }).generateScore(({ run }) => (JSON.stringify(run.output).length < 60 ? 1 : 0));
  const result = await runEvals({
    target: flow,
    data: [{ input: { city: 'Oslo' } }, { input: { city: 'Lima' } }],
    scorers: { workflow: [short], steps: { lookup: [sunny], summarize: [short] } },
  });
  return evalReport(result, { outDir: dir, title: 'Forecast workflow', generatedAt: null }).files!.html!;
}

/** Shard 2 of 3 of a run compared with shard 2 of 3 of its baseline. */
async function shardReport(dir: string): Promise<string> {
  const answers = createScorer({ id: 'answers', description: 'Answers' }).generateScore(({ run }) => (String(run.output).length > 5 ? 1 : 0));
  const data = Array.from({ length: 9 }, (_, i) => ({ id: `q${i}`, input: `Question ${i}?` }));
  const shard = (run: string) => runEvals({ data, scorers: [answers], target: (input: string) => `Answer to ${input}`, shard: { index: 2, count: 3, run } });
  return evalReport(await shard('pr-41'), { baseline: await shard('main-40'), outDir: dir, title: 'Shard two', generatedAt: null }).files!.html!;
}

beforeAll(async () => {
  const result = largeResult(1000);
  const started = performance.now();
  const report = evalReport(result, { outDir: path.join(TMP, 'large') });
  const ms = performance.now() - started;
  const size = (file: string) => `${(fs.statSync(file).size / 1024).toFixed(0)} KiB`;
  console.log(`report at 1,000 items x 5 scorers: evalReport (render + write) ${ms.toFixed(0)} ms; HTML ${size(report.files!.html!)}, JUnit ${size(report.files!.junit!)}`);
  const views = [
    { id: 'tool-call', miss: (s: number) => s < 1 },
    { id: 'answer-relevancy', miss: (s: number) => s < 0.7 },
    { id: 'hallucination', miss: (s: number) => s > 0.3 },
    { id: 'verbosity', miss: (s: number) => s < 0.4 || s > 0.8 },
  ];
  const score = (item: (typeof result.items)[number], id: string) => (id === 'tool-call' ? item.gates![id] : item.scores[id]).score;
  const failing = result.items.filter((item) => views.some((v) => typeof score(item, v.id) === 'number' && v.miss(score(item, v.id)!))).length;
  large = { file: report.files!.html!, failing, items: 1000 };
  hostileFile = evalReport(hostileResult(), { outDir: path.join(TMP, 'hostile') }).files!.html!;
  comparedFile = await comparedReport(path.join(TMP, 'compared'));
  worseFile = await worseReport(path.join(TMP, 'worse'));
  workflowFile = await workflowReport(path.join(TMP, 'workflow'));
  shardFile = await shardReport(path.join(TMP, 'shard'));
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  if (!hasChromium) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

/** Opens a report file, recording every request and every console error or page error. */
async function open(file: string, colorScheme: 'light' | 'dark' = 'light') {
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => void requests.push(request.url()));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => void errors.push(String(error)));
  const started = performance.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.locator('#status').filter({ hasText: 'Showing' }).waitFor();
  return { page, requests, errors, loadMs: performance.now() - started };
}

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Tabs forward until the element matching `test` has focus (at most 80 presses: a page holds 50 items). */
async function tabTo(page: Page, test: () => boolean): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(test)) return;
  }
  throw new Error('Tab never reached the control');
}

describe.skipIf(!hasChromium)('HTML report in Chromium', () => {
  test('1,000 items x 5 scorers: opens offline, verdict first and visible, one page of items rendered, usable from the keyboard', async () => {
    const { page, requests, errors, loadMs } = await open(large.file);
    try {
      const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      // The page's own clock: from navigation start to the end of its load event (the script renders before it).
      const pageMs = await page.evaluate(() => (window.performance.getEntriesByType('navigation')[0] as any).loadEventEnd);
      console.log(`report at 1,000 x 5 in Chromium: load event at ${pageMs.toFixed(0)} ms by the page's clock, ${loadMs.toFixed(0)} ms seen from the test; ${nodes} DOM elements`);
      expect(requests).toEqual([pathToFileURL(large.file).href]);
      expect(errors).toEqual([]);

      const verdict = page.locator('.verdict');
      expect(await verdict.isVisible()).toBe(true);
      expect(await verdict.locator('strong').innerText()).toMatch(/^failed$/i);
      expect((await verdict.boundingBox())!.y).toBeLessThan(200);
      expect(await page.locator('svg.hist[role="img"]').count()).toBe(5);
      expect(await page.locator('#items details').count()).toBe(50);
      expect(await page.locator('#status').innerText()).toBe('Showing 1–50 of 1000 items');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'large-light.png') });

      // The first Tab reaches the skip link, with a focus ring that shows.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement.textContent)).toBe('Skip to items');
      expect(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle)).not.toBe('none');

      // "Failing only" by keyboard: Enter toggles it, the list shows the items that miss a gate or threshold.
      await tabTo(page, () => document.activeElement?.id === 'failing');
      await page.keyboard.press('Enter');
      expect(await page.locator('#failing').getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('#status').innerText()).toBe(`Showing 1–50 of ${large.failing} of 1000 items`);
      await page.keyboard.press('Space');
      expect(await page.locator('#failing').getAttribute('aria-pressed')).toBe('false');

      // Tab on to the first item's summary; Space and Enter open and close it.
      await tabTo(page, () => document.activeElement?.tagName === 'SUMMARY');
      const first = page.locator('#items details').first();
      expect(await first.getAttribute('open')).toBeNull();
      await page.keyboard.press('Space');
      expect(await first.getAttribute('open')).toBe('');
      expect(await first.locator('pre').first().innerText()).toContain('What will the weather be in Paris on day 0?');
      expect(await first.locator('tbody tr').count()).toBe(5);
      expect(await first.locator('tbody').innerText()).toMatch(/cached|live/);
      expect(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle)).not.toBe('none');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'large-item-open.png') });
      await page.keyboard.press('Enter');
      expect(await first.getAttribute('open')).toBeNull();

      // Next page by keyboard.
      await tabTo(page, () => document.activeElement?.id === 'next');
      await page.keyboard.press('Enter');
      expect(await page.locator('#status').innerText()).toBe('Showing 51–100 of 1000 items');
      expect(await page.locator('#items details summary .idx').first().innerText()).toBe('#50');

      // A scorer's "worst first" button sorts the items by it and moves focus to the list.
      await page.locator('button[data-sort="0:asc"]').focus();
      await page.keyboard.press('Enter');
      expect(await activeId(page)).toBe('items-heading');
      expect(await page.locator('#sort').inputValue()).toBe('0:asc');
      const chips = await page.locator('#items details summary').evaluateAll((summaries: any[]) =>
        summaries.map((s) => Number(/answer-relevancy ([\d.]+)/.exec(s.textContent)?.[1] ?? NaN)));
      expect(chips.filter((n) => !Number.isNaN(n))).toHaveLength(50);
      expect(chips).toEqual([...chips].sort((a, b) => a - b));

      // Search narrows the list.
      await page.locator('#search').fill('Osaka on day 10?');
      await expect.poll(() => page.locator('#status').innerText()).toBe('Showing 1–1 of 1 of 1000 items');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('dark colour scheme: the page switches its colours', async () => {
    const { page, errors } = await open(large.file, 'dark');
    try {
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(13, 17, 23)');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'large-dark.png') });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('hostile inputs, outputs, reasons and scorer ids are shown as text, and nothing of theirs runs', async () => {
    const { page, requests, errors } = await open(hostileFile);
    try {
      expect(requests).toEqual([pathToFileURL(hostileFile).href]);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      expect(await page.locator('img, b').count()).toBe(0);
      expect(await page.locator('.scorer h3 .sid').first().evaluate((n: any) => n.textContent)).toBe(HOSTILE_ID);

      const item = page.locator('#items details').first();
      await item.locator('summary').click();
      const pres = await item.locator('pre').evaluateAll((nodes: any[]) => nodes.map((n) => n.textContent));
      expect(pres).toEqual([HOSTILE.script, HOSTILE.markup, HOSTILE.comment]);
      const reasons = await item.locator('tbody td:nth-child(3)').evaluateAll((cells: any[]) => cells.map((c) => c.textContent));
      expect(reasons).toEqual([HOSTILE.quotes, HOSTILE.unicode, HOSTILE.lines]);
      const judges = await item.locator('tbody td:nth-child(4)').evaluateAll((cells: any[]) => cells.map((c) => c.textContent));
      expect(judges).toEqual(['cached', '—', 'live']);
      expect(await page.locator('#items details summary .preview').nth(1).evaluate((n: any) => n.textContent)).toBe(HOSTILE.controls);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'hostile.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  test('a comparison with a baseline leads the page; a multi-turn item shows each turn with its own scores and the baseline beside them', async () => {
    const { page, requests, errors } = await open(comparedFile);
    try {
      expect(requests).toEqual([pathToFileURL(comparedFile).href]);
      expect(errors).toEqual([]);
      const comparison = page.locator('section.comparison');
      expect(await comparison.isVisible()).toBe(true);
      expect((await comparison.boundingBox())!.y).toBeLessThan((await page.locator('.verdict').boundingBox())!.y);
      expect(await comparison.locator('.headline').innerText()).toBe('1 scorer regressed: turn 0 › gate › celsius.');
      expect(await comparison.locator('tr.s-regressed th').innerText()).toBe('turn 0 › gate › celsius');
      expect(await comparison.locator('table.worse tbody tr').count()).toBe(8);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'compared.png') });

      // Open the first item from the keyboard.
      await tabTo(page, () => document.activeElement?.tagName === 'SUMMARY');
      await page.keyboard.press('Enter');
      const item = page.locator('#items details').first();
      expect(await item.locator('.ident').innerText()).toBe('Item id: oslo');
      const turns = item.locator('section.turn');
      expect(await turns.count()).toBe(2);
      expect(await turns.nth(0).locator('pre').allInnerTexts()).toEqual(['Weather in Oslo?', 'Weather in Oslo? Sunny.']);
      // The turn's own gate, its score now and in the baseline.
      const cells = await turns.nth(0).locator('tbody tr').first().locator('th, td').allInnerTexts();
      expect(cells.slice(0, 3)).toEqual(['turn 0 › gate › celsius', '0 (misses)', '1 (was higher)']);
      expect(await turns.nth(1).locator('tbody th').allInnerTexts()).toEqual(['turn 1 › polite']);
      // The whole conversation's scorer comes after the turns.
      expect(await item.locator('.body > table tbody th').allInnerTexts()).toEqual(['polite']);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'compared-item.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('with a baseline, an item that got worse shows the baseline output beside its own; an unchanged item shows its output alone', async () => {
    const { page, errors } = await open(worseFile);
    try {
      expect(await page.locator('table.worse tbody tr').count()).toBe(3);
      await page.locator('#expand').click();
      const items = page.locator('#items details');
      expect(await items.count()).toBe(6);
      // Oslo kept its answer: one output, no baseline column.
      const oslo = items.nth(0);
      expect(await oslo.locator('.ident').innerText()).toBe('Item id: oslo');
      expect(await oslo.locator('.side.outputs').count()).toBe(0);
      expect(await oslo.locator('h4').allTextContents()).toContain('Output');
      // Rome lost its city: this run's output and the baseline's, side by side.
      const rome = items.nth(1);
      expect(await rome.locator('.ident').innerText()).toBe('Item id: rome');
      const pair = rome.locator('.side.outputs');
      expect(await pair.locator('h4').allTextContents()).toEqual(['Output in this run', 'Output in the baseline']);
      expect(await pair.locator('pre').allInnerTexts()).toEqual(['Sunny, 20 °C.', 'Rome: sunny, 20 °C.']);
      const [left, right] = [await pair.locator('pre').nth(0).boundingBox(), await pair.locator('pre').nth(1).boundingBox()];
      expect(Math.abs(left!.y - right!.y), 'the two outputs sit on one row').toBeLessThan(2);
      expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
      expect(await rome.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual(['0', '1 (was higher)', '—', '—']);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'worse-beside-baseline.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('a workflow item shows each step with its input, its output and its own scores', async () => {
    const { page, errors } = await open(workflowFile);
    try {
      await page.locator('#expand').click();
      const oslo = page.locator('#items details').first();
      const steps = oslo.locator('section.step');
      expect(await steps.locator('h5').allInnerTexts()).toEqual(['Step lookup (success)', 'Step summarize (success)']);
      const lookup = steps.nth(0);
      expect(await lookup.locator('.side h4').allTextContents()).toEqual(['Input', 'Output']);
      expect((await lookup.locator('.side pre').allInnerTexts()).map((t) => JSON.parse(t))).toEqual([{ city: 'Oslo' }, { city: 'Oslo', forecast: 'rain, 9 degrees' }]);
      expect(await lookup.locator('tbody th').allInnerTexts()).toEqual(['steps › lookup › sunny']);
      expect(await lookup.locator('tbody td').first().innerText()).toBe('0');
      const summarize = steps.nth(1);
      // The second step's input is what the first returned.
      expect((await summarize.locator('.side pre').allInnerTexts()).map((t) => JSON.parse(t))).toEqual([{ city: 'Oslo', forecast: 'rain, 9 degrees' }, { summary: 'Oslo: rain, 9 degrees' }]);
      expect(await summarize.locator('tbody th').allInnerTexts()).toEqual(['steps › summarize › short']);
      // The workflow's own scorer stays in the item's table, outside the steps.
      expect(await oslo.locator('.body > table tbody th').allInnerTexts()).toEqual(['short']);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'workflow-steps.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test("a shard's page says which shard of how many it covers, above the comparison", async () => {
    const { page, errors } = await open(shardFile);
    try {
      const notice = page.locator('p.shard');
      expect(await notice.isVisible()).toBe(true);
      const count = await page.locator('#items details').count();
      expect(await notice.innerText()).toBe(
        `This page covers shard 2 of 3 (run pr-41): ${count} of the run's items, not the whole run. The run's result is its 3 shards merged with agent-scorers report merge. It is compared with the same shard of the baseline, shard 2 of 3 (run main-40), so only these items are compared.`,
      );
      expect((await notice.boundingBox())!.y).toBeLessThan((await page.locator('section.comparison').boundingBox())!.y);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/**
 * The comparison on the HTML page, in real headless Chromium (as the report's browser test opens it):
 * a scorer where lower is better says so, its rise is what got worse in the item list ("was lower"),
 * an inconclusive scorer is said in words with the number of shared items, and a warning about what
 * the runs share stands at the top of the comparison.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evalReport, type ReportInput, type ReportItem } from '../../src/report/index.js';
import { REPO } from '../helpers/hosts.js';

declare const document: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
if (!hasChromium) console.warn(`comparison page test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);

const TMP = path.join(REPO, 'test/.tmp', `compare-page-${process.pid}`);
let browser: Browser;

function run(id: string, scores: number[], ids = (i: number) => `q${i}`): ReportInput {
  const items: ReportItem[] = scores.map((score, i) => ({ index: i, id: ids(i), input: `question ${i}`, output: `answer ${i}`, scores: { [id]: { score, reason: `reason ${i}` } } }));
  return { scores: { [id]: scores.reduce((a, b) => a + b, 0) / scores.length }, summary: { totalItems: items.length }, items };
}

beforeAll(async () => {
  if (!hasChromium) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

async function open(result: ReportInput, baseline: ReportInput, name: string) {
  const file = evalReport(result, { baseline, outDir: path.join(TMP, name), generatedAt: null }).files!.html!;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => void errors.push(String(error)));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.locator('#status').filter({ hasText: 'Showing' }).waitFor();
  return { page, errors };
}

describe.skipIf(!hasChromium)('the comparison on the page', () => {
  test('hallucination-scorer rising on a third of the items: regressed, lower is better, and each rise marked "was lower"', async () => {
    const base = run('hallucination-scorer', Array.from({ length: 30 }, () => 0.1));
    const pr = run('hallucination-scorer', Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 0.6 : 0.1)));
    const { page, errors } = await open(pr, base, 'hallucination');
    try {
      const comparison = page.locator('section.comparison');
      expect(await comparison.locator('.headline').innerText()).toBe('1 scorer regressed: hallucination-scorer (lower is better).');
      expect(await comparison.locator('tr.s-regressed th').innerText()).toBe('hallucination-scorer (lower is better)');
      expect(await comparison.locator('table.worse tbody tr').count()).toBe(10);
      await page.evaluate(() => document.querySelector('#items details').setAttribute('open', ''));
      const rows = page.locator('#items details').first().locator('tbody tr');
      expect((await rows.first().locator('th, td').allInnerTexts()).slice(0, 3)).toEqual(['hallucination-scorer', '0.6', '0.1 (was lower)']);
      // An item whose score did not move is not marked.
      await page.evaluate(() => document.querySelectorAll('#items details')[1].setAttribute('open', ''));
      expect((await page.locator('#items details').nth(1).locator('tbody tr').first().locator('th, td').allInnerTexts()).slice(0, 3)).toEqual(['hallucination-scorer', '0.1', '0.1']);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('12 items, 3 dropped: inconclusive in words with the shared items; too few shared: the warning first', async () => {
    const twelve = (drop: number) => run('correct', Array.from({ length: 12 }, (_, i) => (i < drop ? 0 : 1)));
    const { page, errors } = await open(twelve(3), twelve(0), 'twelve');
    try {
      const comparison = page.locator('section.comparison.c-inconclusive');
      expect(await comparison.locator('.headline').innerText()).toBe('1 scorer inconclusive over 12 items in both runs: correct; a change for the worse beyond the tolerance can be neither shown nor ruled out.');
      expect(await comparison.locator('tr.s-inconclusive td').last().innerText()).toBe('? inconclusive');
      expect(await page.title()).toBe('1 inconclusive, No verdict: Eval report');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
    const renamed = await open(run('correct', Array.from({ length: 12 }, () => 0), (i) => `renamed-${i}`), twelve(0), 'renamed');
    try {
      const warning = renamed.page.locator('section.comparison .warning');
      expect(await warning.innerText()).toMatch(/^Warning: No item is in both runs \(12 items in this run, 12 items in the baseline\), so nothing can be compared and every scorer is inconclusive: 12 items of this run ask what a baseline item asks under another id: were the ids renamed\?$/);
      expect((await warning.boundingBox())!.y).toBeLessThan((await renamed.page.locator('section.comparison .headline').boundingBox())!.y);
      expect(await renamed.page.title()).toBe('1 inconclusive, No verdict: Eval report');
    } finally {
      await renamed.page.close();
    }
  });
});

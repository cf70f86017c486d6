/**
 * The simulation behind the table on the "Comparing runs in CI" page (bench/verdict-rates.ts), run
 * again on the sources with fewer trials: its claims hold loosely (no false regressions with no real
 * change, a drop of 5 times the tolerance found at 1,000 items, twelve items too few to tell), and
 * every cell of the page's tables is within a few points of what this shorter run draws (the same
 * seeds, so its trials are the first of the page's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { DROPS, MODELS, SIZES, simulate, type Cell } from '../../bench/verdict-rates.js';
import { compareRuns } from '../../src/report/index.js';
import { REPO } from '../helpers/hosts.js';

const TRIALS = 200;
const cells = simulate(compareRuns, TRIALS);
const cell = (model: string, items: number, drop: number): Cell => cells.find((c) => c.model === model && c.items === items && c.drop === drop)!;
const rate = (c: Cell, status: 'regressed' | 'inconclusive') => c[status] / c.trials;

test('with no real change, a regression is said in few trials, and an improvement as rarely', () => {
  // Nominally 2.5% each way. On twelve pass/fail items the t-interval is a little optimistic (about 3%
  // in the page's 1,000 trials), and 200 trials add about 1.2 points of their own spread.
  for (const model of Object.keys(MODELS)) {
    for (const items of SIZES) {
      const c = cell(model, items, 0);
      expect(rate(c, 'regressed'), `${model}, ${items} items`).toBeLessThanOrEqual(0.06);
      expect(c.improved / c.trials, `${model}, ${items} items`).toBeLessThanOrEqual(0.06);
    }
  }
});

test('a drop of 5 times the tolerance is found at 1,000 items; twelve pass/fail items cannot tell', () => {
  for (const model of Object.keys(MODELS)) expect(rate(cell(model, 1000, 5), 'regressed'), model).toBeGreaterThanOrEqual(0.9);
  expect(rate(cell('judge score', 1000, 2), 'regressed')).toBeGreaterThanOrEqual(0.9);
  for (const drop of DROPS) expect(rate(cell('pass/fail', 12, drop), 'inconclusive'), `drop ${drop}`).toBeGreaterThanOrEqual(0.8);
  // With no change, more items leave less in doubt (a little slack for the trials' own spread).
  const doubt = SIZES.map((items) => rate(cell('judge score', items, 0), 'inconclusive'));
  for (let k = 1; k < doubt.length; k++) expect(doubt[k], `${SIZES[k]} items`).toBeLessThanOrEqual(doubt[k - 1] + 0.05);
  expect(doubt.at(-1)).toBeLessThanOrEqual(0.1);
  // A drop of exactly the tolerance sits on the edge: called a regression rarely, left in doubt mostly.
  expect(rate(cell('judge score', 1000, 1), 'inconclusive')).toBeGreaterThanOrEqual(0.8);
});

test("the page's tables are this simulation's, within a few points in every cell", () => {
  const page = fs.readFileSync(path.join(REPO, 'docs/guide/comparing-runs.md'), 'utf8');
  let checked = 0;
  for (const model of Object.keys(MODELS)) {
    const start = page.indexOf(`**${model[0].toUpperCase()}${model.slice(1)}**:`);
    expect(start, model).toBeGreaterThan(0);
    for (const items of SIZES) {
      const row = new RegExp(`^\\| ${items.toLocaleString('en-US')} \\|(.*)\\|$`, 'm').exec(page.slice(start));
      expect(row, `${model}, ${items} items`).not.toBeNull();
      const shown = row![1].split('|').map((text) => /(\d+)% \/ (\d+)%/.exec(text)!.slice(1).map(Number));
      expect(shown).toHaveLength(DROPS.length);
      DROPS.forEach((drop, k) => {
        const c = cell(model, items, drop);
        // The page's 1,000 trials hold these 200: the two differ by about 3 points (one standard deviation); 12 is four.
        expect(Math.abs(shown[k][0] - 100 * rate(c, 'regressed')), `${model}, ${items} items, drop ${drop}: regressed`).toBeLessThanOrEqual(12);
        expect(Math.abs(shown[k][1] - 100 * rate(c, 'inconclusive')), `${model}, ${items} items, drop ${drop}: inconclusive`).toBeLessThanOrEqual(12);
        checked++;
      });
    }
  }
  expect(checked).toBe(Object.keys(MODELS).length * SIZES.length * DROPS.length);
});

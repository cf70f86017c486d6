/**
 * How often a comparison says `regressed` and `inconclusive`, by the size of the dataset and the
 * size of the true change: a deterministic simulation (a seeded generator, so every run prints the
 * same table) of pairs of runs drawn from two score models, compared with the default tolerance of
 * 0.02. The table is on docs/guide/comparing-runs.md, where a user sizes a dataset from it, and
 * test/report/verdict-rates.test.ts checks that table against a shorter run of this same code.
 *
 *   npm run build && node bench/verdict-rates.ts [--trials 1000]
 *
 * Node 24 runs this file as it is (it strips the types). `simulate` takes the comparison to use, so
 * the script runs the built package and the test runs the sources.
 */
import type { CompareOptions, Comparison, ReportInput } from '../src/report/index.js';

type CompareRuns = (result: ReportInput, baseline: ReportInput, options?: CompareOptions) => Comparison;

/** The dataset sizes and the true drops (as multiples of the tolerance) of the table. */
export const SIZES = [12, 30, 100, 1000] as const;
export const DROPS = [0, 1, 2, 5] as const;
export const TOLERANCE = 0.02;

/** mulberry32: a small seeded generator, uniform in [0, 1). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const normal = (next: () => number) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

/** Both runs' scores of `n` items, the new run worse by `drop` on average. */
type Model = (next: () => number, drop: number, n: number) => { before: number[]; after: number[] };

export const MODELS: Record<string, { describe: string; draw: Model }> = {
  'judge score': {
    describe: 'an LLM judge\'s score from 0 to 1: each item has its own difficulty (0.3 to 0.8), and the judge adds noise with a standard deviation of 0.1 on every run',
    draw: (next, drop, n) => {
      const before: number[] = [];
      const after: number[] = [];
      for (let i = 0; i < n; i++) {
        const difficulty = 0.3 + 0.5 * next();
        before.push(difficulty + 0.1 * normal(next));
        after.push(difficulty - drop + 0.1 * normal(next));
      }
      return { before, after };
    },
  },
  'pass/fail': {
    describe: 'a scorer that gives 0 or 1: each item passes with its own chance (25% to 75%), drawn again on every run, as an LLM that answers differently each time',
    draw: (next, drop, n) => {
      const before: number[] = [];
      const after: number[] = [];
      for (let i = 0; i < n; i++) {
        const p = 0.25 + 0.5 * next();
        before.push(next() < p ? 1 : 0);
        after.push(next() < p - drop ? 1 : 0);
      }
      return { before, after };
    },
  },
};

/** A result as `runEvals` saves it, of one scorer over items `q0..`. */
function result(scores: readonly number[]): ReportInput {
  const items = scores.map((score, i) => ({ index: i, id: `q${i}`, input: i, output: '', scores: { judge: { score, reason: null } } }));
  return { scores: { judge: scores.reduce((a, b) => a + b, 0) / scores.length }, summary: { totalItems: scores.length }, items };
}

export interface Cell {
  model: string;
  items: number;
  /** The true drop, in multiples of the tolerance. */
  drop: number;
  trials: number;
  regressed: number;
  inconclusive: number;
  improved: number;
  unchanged: number;
}

/**
 * Every cell of the table: `trials` pairs of runs each. A cell's draws depend only on its own seed,
 * so a shorter run draws the first trials of a longer one.
 */
export function simulate(compareRuns: CompareRuns, trials: number, seed = 1): Cell[] {
  const cells: Cell[] = [];
  Object.entries(MODELS).forEach(([model, { draw }], m) => {
    for (const items of SIZES) {
      for (const drop of DROPS) {
        const next = random(seed * 1_000_003 + m * 10_007 + items * 101 + drop);
        const cell: Cell = { model, items, drop, trials, regressed: 0, inconclusive: 0, improved: 0, unchanged: 0 };
        for (let t = 0; t < trials; t++) {
          const { before, after } = draw(next, drop * TOLERANCE, items);
          const [scorer] = compareRuns(result(after), result(before), { tolerance: TOLERANCE }).scorers;
          cell[scorer.status as 'regressed' | 'inconclusive' | 'improved' | 'unchanged']++;
        }
        cells.push(cell);
      }
    }
  });
  return cells;
}

const percent = (count: number, of: number) => `${Math.round((100 * count) / of)}%`;

/** The Markdown tables, one per model: a row per dataset size, a column per drop, each cell "regressed / inconclusive". */
export function tables(cells: readonly Cell[]): string {
  const out: string[] = [];
  for (const model of Object.keys(MODELS)) {
    out.push(`**${model[0].toUpperCase()}${model.slice(1)}**: ${MODELS[model].describe}.`, '');
    out.push(`| items | ${DROPS.map((d) => (d === 0 ? 'no change' : `drop of ${d * TOLERANCE} (${d}×)`)).join(' | ')} |`);
    out.push(`| ---: | ${DROPS.map(() => '---').join(' | ')} |`);
    for (const items of SIZES) {
      const row = DROPS.map((drop) => {
        const cell = cells.find((c) => c.model === model && c.items === items && c.drop === drop)!;
        return `${percent(cell.regressed, cell.trials)} / ${percent(cell.inconclusive, cell.trials)}`;
      });
      out.push(`| ${items.toLocaleString('en-US')} | ${row.join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--trials');
  const trials = at === -1 ? 1000 : Number(process.argv[at + 1]);
  const entry = new URL('../dist/report/index.js', import.meta.url).href;
  const { compareRuns } = (await import(entry)) as { compareRuns: CompareRuns };
  process.stdout.write(`${trials.toLocaleString('en-US')} trials per cell; each cell: regressed / inconclusive\n\n${tables(simulate(compareRuns, trials))}`);
}

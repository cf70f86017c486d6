/**
 * `agent-scorers/report`: `evalReport(result, options?)` turns a `runEvals` result (or the same
 * read back from JSON) into a self-contained HTML page for people, JUnit XML for CI systems and a
 * Markdown summary for a CI step summary or a pull-request comment; given a baseline run, it leads
 * all three with the comparison. `compareRuns` gives the comparison alone, and `mergeShards` joins
 * the results of a run split into shards. A separate entry, so a bundle that imports only the
 * runtime carries none of it.
 */
import path from 'node:path';
import { replaceFiles } from '../io/write-file.js';
import { checkScorerOptions, checkTolerance, compareDetailed, type CompareOptions, type Comparison, type ScorerCompareOptions } from './compare.js';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { readResult, type ReportInput } from './result.js';
import { renderSummary, SUMMARY_MAX_LENGTH } from './summary.js';
import { checkComparable } from './shards.js';

export type {
  ReportInput,
  ReportItem,
  ReportItemScore,
  ReportThreshold,
  ReportTurn,
  ReportScoreGroup,
  ReportGateResult,
  ReportThresholdResult,
  ReportNestedScores,
  ReportShard,
  ReportStepResult,
} from './result.js';
export { checkResult } from './result.js';
export type { Comparison, ComparisonStatus, CompareOptions, ScoreDirection, ScorerCompareOptions, ScorerComparison, WorseItem } from './compare.js';
export { DEFAULT_TOLERANCE } from './compare.js';
export { mergeShards, ShardMergeError } from './merge.js';
export { SUMMARY_MAX_LENGTH } from './summary.js';

export interface EvalReportOptions {
  /**
   * A folder to write both files into, as `eval-report.html` and `eval-report.junit.xml`. Created
   * if missing. `htmlFile` and `junitFile` override either path.
   */
  outDir?: string;
  /** Where to write the HTML page. Relative paths resolve against the current folder. */
  htmlFile?: string;
  /** Where to write the JUnit XML. Relative paths resolve against the current folder. */
  junitFile?: string;
  /** Where to write the Markdown summary (`summary`). Not written unless given. */
  summaryFile?: string;
  /**
   * The page's heading, the summary's heading and the JUnit `<testsuites name>`.
   * @default 'Eval report'
   */
  title?: string;
  /**
   * The time printed under the heading. `null` leaves it out, so two reports of one result are
   * byte-identical (handy when the report is committed or diffed).
   * @default new Date()
   */
  generatedAt?: Date | null;
  /**
   * An earlier run of the same dataset (a `runEvals` result, or the same read back from JSON) to
   * compare with: the page, the JUnit file and the summary lead with the comparison, and the report
   * returns it as `comparison`.
   */
  baseline?: ReportInput;
  /**
   * How far beyond zero, on the worse side, a scorer's whole 95% interval must lie for it to count
   * as regressed (on the better side: improved), in score units. Only with `baseline`.
   * @default 0.02
   */
  tolerance?: number;
  /**
   * Per scorer, keyed by slot (`relevance`, `gates/calls-tool`) or bare scorer id: which way is
   * better (`direction`, else the run's `{ max }` threshold says lower, else `@mastra/evals`'
   * `hallucination-scorer`, `toxicity-scorer` and `bias-scorer` are lower-is-better, else higher)
   * and its own `tolerance`. Only with `baseline`.
   */
  scorers?: Readonly<Record<string, ScorerCompareOptions>>;
}

export interface EvalReport {
  /** The HTML page: inline style and script, no request outside the file. */
  html: string;
  /** JUnit XML: a `<testsuite>` per scorer, a `<testcase>` per item and per gate or threshold. */
  junit: string;
  /**
   * Markdown for a CI step summary or a pull-request comment: the comparison (with a baseline), the
   * verdict and scorers, then the items that got worse; at most 60,000 characters.
   */
  summary: string;
  /**
   * With `baseline`: per scorer before, after, difference, interval, direction and status; the items
   * that got worse; the counts of items only one run has; warnings.
   */
  comparison?: Comparison;
  /** Absolute paths of the files written; present when `outDir`, `htmlFile`, `junitFile` or `summaryFile` was given. */
  files?: { html?: string; junit?: string; summary?: string };
}

export const DEFAULT_HTML_FILE = 'eval-report.html';
export const DEFAULT_JUNIT_FILE = 'eval-report.junit.xml';

/**
 * Renders the reports of an eval run and, given `outDir`, `htmlFile`, `junitFile` or `summaryFile`,
 * writes them. With `baseline`, compares the two runs first (see `compareRuns`).
 * Throws a `TypeError` naming the field when `result` or `baseline` does not have the shape
 * `runEvals` returns (the baseline's message starts with `baseline: `).
 *
 * @example
 * const result = await runEvals({ data, target, scorers, gates });
 * const { files } = evalReport(result, { outDir: 'eval-report' });
 *
 * @example
 * const base = JSON.parse(fs.readFileSync('baseline/result.json', 'utf8'));
 * const { comparison } = evalReport(result, { baseline: base, outDir: 'eval-report' });
 * if (comparison?.scorers.some((s) => s.status === 'regressed' || s.status === 'removed')) process.exitCode = 1;
 */
export function evalReport(result: ReportInput, options: EvalReportOptions = {}): EvalReport {
  const checked = readResult(result);
  const title = options.title ?? 'Eval report';
  const generatedAt = options.generatedAt === undefined ? new Date() : options.generatedAt;
  // Checked even without a baseline (a first run, before there is one), so a wrong value shows at once.
  const tolerance = checkTolerance(options.tolerance);
  const scorers = checkScorerOptions(options.scorers);
  const baseline = options.baseline === undefined ? undefined : readBaseline(options.baseline);
  if (baseline) checkComparable(checked, baseline);
  const detail = baseline === undefined ? undefined : compareDetailed(checked, baseline, { tolerance, scorers });
  const report: EvalReport = {
    html: renderHtml(checked, { title, generatedAt, comparison: detail, baselineShard: baseline?.shard }),
    junit: renderJUnit(checked, { name: title, comparison: detail }),
    summary: renderSummary(checked, { title, comparison: detail, maxLength: SUMMARY_MAX_LENGTH }),
  };
  if (detail) report.comparison = detail.comparison;
  const htmlFile = options.htmlFile ?? (options.outDir === undefined ? undefined : path.join(options.outDir, DEFAULT_HTML_FILE));
  const junitFile = options.junitFile ?? (options.outDir === undefined ? undefined : path.join(options.outDir, DEFAULT_JUNIT_FILE));
  if (htmlFile !== undefined || junitFile !== undefined || options.summaryFile !== undefined) {
    // All or none: each file goes beside its target first, and only when all are there are they renamed over.
    const files: EvalReport['files'] & object = {};
    if (htmlFile !== undefined) files.html = path.resolve(htmlFile);
    if (junitFile !== undefined) files.junit = path.resolve(junitFile);
    if (options.summaryFile !== undefined) files.summary = path.resolve(options.summaryFile);
    replaceFiles((['html', 'junit', 'summary'] as const).flatMap((kind) => (files[kind] === undefined ? [] : [{ file: files[kind], content: report[kind] }])));
    report.files = files;
  }
  return report;
}

function readBaseline(baseline: unknown) {
  try {
    return readResult(baseline);
  } catch (error) {
    throw new TypeError(`baseline: ${(error as Error).message}`);
  }
}

/**
 * Compares a run with a baseline run of the same dataset, item by item (items matched by
 * `items[i].id`). For each scorer slot (tracked scorers by id; gates as `gates/<id>`; a
 * structured form's `trajectory/<id>` and `steps/<step>/<id>`; a turn's own `turns/<n>/<id>` and
 * `turns/<n>/gates/<id>`): the means before and after over the items both runs scored, the mean
 * per-item difference with a paired 95% t-interval, the `direction` it is read in, and a status:
 * `regressed` when the whole interval lies beyond `tolerance` on the worse side, `improved` on the
 * better side, `inconclusive` when it reaches beyond `tolerance` on the worse side without lying
 * wholly there (or fewer than two items were scored by both), else `unchanged`; `added` or
 * `removed` for a scorer only one run has. Also every item that scored worse, largest change
 * first, the counts of items only one run has, and `warnings` when the runs share too little.
 *
 * Throws a `TypeError` naming the field when either is not a `runEvals` result with items (a score
 * that is not a finite number included), when `tolerance` is not a number of 0 or more, or when
 * `scorers` names no scorer of either run; and one that asks to merge the shards first when one run
 * is a shard and the other is not, or they are different shards (a shard compares only with the
 * same shard, index and count, of the baseline).
 *
 * @example
 * const comparison = compareRuns(result, baseline, { tolerance: 0.05 });
 * const regressed = comparison.scorers.filter((s) => s.status === 'regressed').map((s) => s.id);
 */
export function compareRuns(result: ReportInput, baseline: ReportInput, options: CompareOptions = {}): Comparison {
  const [now, before] = [readResult(result), readBaseline(baseline)];
  checkComparable(now, before);
  return compareDetailed(now, before, options).comparison;
}

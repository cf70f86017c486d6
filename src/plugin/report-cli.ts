/**
 * `agent-scorers report result.json [--baseline base.json] [--summary FILE] [--json FILE]
 * [--fail-on regression] [--tolerance N] [--out DIR] [--title TEXT]`: the HTML and JUnit reports of
 * a saved `runEvals` result (`JSON.stringify(result)`), compared with a baseline run when one is
 * given; and `agent-scorers report merge a.json b.json ... --out merged.json`, which joins the
 * results of a run split into shards. Prints one line per file written.
 *
 * Exit codes: 0 written; 1 a scorer regressed and `--fail-on regression` was given; 2 unusable
 * input (a bad flag, a file that is missing, not JSON or not a result, shards that do not make one
 * run, a file that cannot be written), always as one line naming the file and the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkResult, evalReport, mergeShards, ShardMergeError, type Comparison, type ReportInput } from '../report/index.js';
import type { RunEvalsResult } from '../runtime/run-evals-types.js';
import type { Log } from './generate.js';
import { replaceFile } from '../io/write-file.js';

export const REPORT_USAGE = `Usage: agent-scorers report <result.json> [options]
       agent-scorers report merge <shard.json>... --out <merged.json>

Writes eval-report.html and eval-report.junit.xml from a saved runEvals result. With
--baseline, compares it with an earlier run of the same dataset first: per scorer the means
before and after, the difference with a paired 95% interval, and regressed, improved or unchanged.

Options:
  --out DIR              folder to write both files into (default: the result file's folder)
  --title TEXT           heading of the page and the summary, and the JUnit suite name
                         (default: "Eval report")
  --baseline FILE        an earlier run's saved result to compare with (items matched by id)
  --tolerance N          how far below zero a scorer's whole interval must lie for it to
                         count as regressed, in score units (default: 0.02)
  --summary FILE         also write the report as Markdown, for a CI step summary or a
                         pull-request comment (at most 60,000 characters)
  --json FILE            also write the comparison as JSON (needs --baseline)
  --fail-on regression   exit 1 when any scorer regressed (needs --baseline)
  --help, -h             show this help

report merge joins the results of runEvals({ shard: { index, count } }) into the result of the
whole run, as one run would give it:
  --out FILE             where to write the merged result (required)

Exit codes: 0 written, 1 a scorer regressed (with --fail-on regression), 2 anything else
(a bad flag; a file that is missing, not JSON or not a runEvals result; shards that are not
one whole run; a file that cannot be written).`;

/** The flags `reportMain` accepts; each is described in `REPORT_USAGE` (the top-level help repeats it). */
export const REPORT_FLAGS = {
  out: { type: 'string' },
  title: { type: 'string' },
  baseline: { type: 'string' },
  tolerance: { type: 'string' },
  summary: { type: 'string' },
  json: { type: 'string' },
  'fail-on': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags of `report merge`, also in `REPORT_USAGE`. */
export const MERGE_FLAGS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** A failure to report as one line and exit 2. */
class Unusable extends Error {}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file'
      : code === 'EISDIR' ? 'is a folder, not a file'
      : code === 'EACCES' ? 'permission denied'
      : error instanceof SyntaxError ? `not JSON (${error.message})`
      : (error as Error).message;
    throw new Unusable(`${file}: ${reason}`);
  }
}

/** A saved result, checked (the value as read, so that a shard's every field reaches the merge). */
function readResultFile(file: string): ReportInput {
  const value = readJson(file);
  try {
    checkResult(value);
    return value as ReportInput;
  } catch (error) {
    throw new Unusable(`${file}: not a runEvals result: ${(error as Error).message}`);
  }
}

function writeFile(file: string, content: string): string {
  const target = path.resolve(file);
  replaceFile(target, content);
  return target;
}

/** `1 regressed (relevance), 2 unchanged`: the comparison in one line. */
function comparisonLine(comparison: Comparison): string {
  const parts: string[] = [];
  for (const status of ['regressed', 'improved', 'unchanged'] as const) {
    const ids = comparison.scorers.filter((s) => s.status === status).map((s) => s.id);
    if (ids.length === 0) continue;
    parts.push(status === 'unchanged' ? `${ids.length} unchanged` : `${ids.length} ${status} (${ids.join(', ')})`);
  }
  return parts.join(', ') || 'no scorer to compare';
}

/** A report subcommand's error printer: its name first, the usage after a wrong flag; returns exit code 2. */
const failWith =
  (command: string, log: Log) =>
  (message: string, usage = false): number => {
    log.error(`agent-scorers ${command}: ${message}${usage ? `\n\n${REPORT_USAGE}` : ''}`);
    return 2;
  };

/** A subcommand's parsed arguments, or its exit code: 0 after `--help` (the usage printed), 2 after a wrong flag. */
function readArgs<T extends { values: { help?: boolean | undefined } }>(parse: () => T, fail: (message: string, usage: boolean) => number, log: Log): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    return fail((error as Error).message, true);
  }
  if (parsed.values.help) {
    log.info(REPORT_USAGE);
    return 0;
  }
  return parsed;
}

export async function reportMain(argv: string[], { cwd, log }: { cwd: string; log: Log }): Promise<number> {
  if (argv[0] === 'merge') return mergeMain(argv.slice(1), { cwd, log });
  const fail = failWith('report', log);
  const parsed = readArgs(() => parseArgs({ args: argv, options: REPORT_FLAGS, allowPositionals: true, strict: true }), fail, log);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return fail(positionals.length === 0 ? 'no result file given.' : 'give one result file (or "report merge" to join shards).', true);
  if (values['fail-on'] !== undefined && values['fail-on'] !== 'regression') {
    return fail(`--fail-on takes "regression"; got ${JSON.stringify(values['fail-on'])}.`);
  }
  const needsBaseline = (['fail-on', 'json', 'tolerance'] as const).find((flag) => values[flag] !== undefined && values.baseline === undefined);
  if (needsBaseline) return fail(`--${needsBaseline} compares two runs: give --baseline FILE too.`);
  let tolerance: number | undefined;
  if (values.tolerance !== undefined) {
    tolerance = Number(values.tolerance);
    if (values.tolerance.trim() === '' || !Number.isFinite(tolerance) || tolerance < 0) {
      return fail(`--tolerance takes a number of 0 or more (in score units, such as 0.02); got ${JSON.stringify(values.tolerance)}.`);
    }
  }

  const file = path.resolve(cwd, positionals[0]);
  const baselineFile = values.baseline === undefined ? undefined : path.resolve(cwd, values.baseline);
  let report;
  try {
    const result = readResultFile(file);
    const baseline = baselineFile === undefined ? undefined : readResultFile(baselineFile);
    try {
      report = evalReport(result, {
        outDir: path.resolve(cwd, values.out ?? path.dirname(file)),
        title: values.title,
        baseline,
        tolerance,
        summaryFile: values.summary === undefined ? undefined : path.resolve(cwd, values.summary),
      });
    } catch (error) {
      // A shape problem names the field (and which run); a write problem (a FileError) names the path and the reason.
      if (!(error instanceof TypeError)) throw error;
      const message = error.message;
      if (message.startsWith('baseline: ')) throw new Unusable(`${baselineFile}: cannot be compared: ${message.slice('baseline: '.length)}`);
      throw new Unusable(`${file}: ${baselineFile ? 'cannot be compared' : 'not a runEvals result'}: ${message}`);
    }
    if (values.json !== undefined) writeFile(path.resolve(cwd, values.json), `${JSON.stringify(report.comparison, null, 2)}\n`);
  } catch (error) {
    return fail((error as Error).message);
  }
  log.info(`HTML report: ${report.files!.html}`);
  log.info(`JUnit report: ${report.files!.junit}`);
  if (report.files!.summary) log.info(`Summary: ${report.files!.summary}`);
  if (values.json !== undefined) log.info(`Comparison: ${path.resolve(cwd, values.json)}`);
  if (report.comparison) {
    log.info(`Compared with ${values.baseline}: ${comparisonLine(report.comparison)}`);
    for (const warning of report.comparison.warnings) log.warn(`agent-scorers report: ${warning}`);
    const regressed = report.comparison.scorers.filter((s) => s.status === 'regressed');
    if (values['fail-on'] === 'regression' && regressed.length > 0) {
      log.error(`agent-scorers report: ${regressed.length} ${regressed.length === 1 ? 'scorer' : 'scorers'} regressed against ${values.baseline}: ${regressed.map((s) => s.id).join(', ')}`);
      return 1;
    }
  }
  return 0;
}

async function mergeMain(argv: string[], { cwd, log }: { cwd: string; log: Log }): Promise<number> {
  const fail = failWith('report merge', log);
  const parsed = readArgs(() => parseArgs({ args: argv, options: MERGE_FLAGS, allowPositionals: true, strict: true }), fail, log);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) return fail('no shard results given.', true);
  if (values.out === undefined) return fail('give --out FILE, the merged result to write.', true);
  let merged;
  let written: string;
  try {
    const results: unknown[] = positionals.map((name) => readResultFile(path.resolve(cwd, name)));
    try {
      merged = mergeShards(results as RunEvalsResult<any>[], positionals);
    } catch (error) {
      if (error instanceof ShardMergeError) throw new Unusable(error.message);
      throw error;
    }
    written = writeFile(path.resolve(cwd, values.out), JSON.stringify(merged));
  } catch (error) {
    return fail((error as Error).message);
  }
  const shards = positionals.length;
  log.info(`Merged ${shards} ${shards === 1 ? 'shard' : 'shards'} (${merged.items.length} items${merged.verdict ? `, verdict ${merged.verdict}` : ''}) into ${written}`);
  return 0;
}

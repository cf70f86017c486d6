/**
 * `agent-scorers report result.json [--baseline base.json] [--summary FILE] [--json FILE]
 * [--fail-on regression,inconclusive] [--tolerance [ID=]N]... [--direction ID=DIR]... [--out DIR] [--title TEXT]`: the HTML and JUnit reports of
 * a saved `runEvals` result (`JSON.stringify(result)`), compared with a baseline run when one is
 * given; and `agent-scorers report merge a.json b.json ... --out merged.json`, which joins the
 * results of a run split into shards. Prints one line per file written.
 *
 * Exit codes: 0 written; 1 what `--fail-on` names happened (a scorer regressed or was removed, or
 * nothing could be compared; a scorer inconclusive); 2 unusable
 * input (a bad flag, a file that is missing, not JSON or not a result, shards that do not make one
 * run, a file that cannot be written), always as one line naming the file and the reason.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkResult, DEFAULT_HTML_FILE, DEFAULT_JUNIT_FILE, evalReport, mergeShards, ShardMergeError, type Comparison, type ReportInput, type ScorerCompareOptions } from '../report/index.js';
import type { RunEvalsResult } from '../runtime/evals/run-evals-types.js';
import type { Log } from './generate.js';
import { checkReportFiles, readInputFile, writeReportFiles, type ReportOutputFile } from '../io/report-files.js';
import { MAX_NESTING, tooDeep } from '../report/result.js';

export const REPORT_USAGE = `Usage: agent-scorers report <result.json> [options]
       agent-scorers report merge <shard.json>... --out <merged.json>

Writes eval-report.html and eval-report.junit.xml from a saved runEvals result. With
--baseline, compares it with an earlier run of the same dataset first: per scorer the means
before and after, the difference with a paired 95% interval, and regressed, improved, unchanged or
inconclusive, each read in the scorer's direction (added or removed for a scorer in one run only).

Options:
  --out DIR              folder to write both files into (default: the result file's folder)
  --title TEXT           heading of the page and the summary, and the JUnit suite name
                         (default: "Eval report")
  --baseline FILE        an earlier run's saved result to compare with (items matched by id)
  --tolerance N          how far beyond zero, on the worse side, a scorer's whole interval
                         must lie for it to count as regressed, in score units (default: 0.02)
  --tolerance ID=N       the same for one scorer (repeatable)
  --direction ID=DIR     which way is better for one scorer: higher-is-better or
                         lower-is-better (repeatable; default: from its { max } threshold
                         or its id, else higher-is-better)
  --summary FILE         also write the report as Markdown, for a CI step summary or a
                         pull-request comment (at most 60,000 characters)
  --json FILE            also write the comparison as JSON (needs --baseline)
  --fail-on regression[,inconclusive]
                         exit 1 on what the comma list names (needs --baseline):
                         regression: a scorer regressed or was removed, or nothing could be
                         compared; inconclusive: a scorer is inconclusive
  --help, -h             show this help

report merge joins the results of runEvals({ shard: { index, count } }) into the result of the
whole run, as one run would give it:
  --out FILE             where to write the merged result (required)

Exit codes: 0 written, 1 what --fail-on names happened, 2 anything else
(a bad flag; a file that is missing, not JSON or not a runEvals result; shards that are not
one whole run; a file that cannot be written).`;

/** The flags `reportMain` accepts; each is described in `REPORT_USAGE` (the top-level help repeats it). */
export const REPORT_FLAGS = {
  out: { type: 'string' },
  title: { type: 'string' },
  baseline: { type: 'string' },
  tolerance: { type: 'string', multiple: true },
  direction: { type: 'string', multiple: true },
  summary: { type: 'string' },
  json: { type: 'string' },
  'fail-on': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags of `report merge`, also in `REPORT_USAGE`. */
export const MERGE_FLAGS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** A failure to report as one line and exit 2. */
class Unusable extends Error {}

/** A JSON input, never opened unless it is a regular file, and refused when nested too deep to walk. */
function readJson(file: string): unknown {
  const text = readInputFile(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Unusable(`${file}: not JSON (${(error as Error).message})`);
  }
  const deep = tooDeep(value);
  if (deep !== undefined) throw new Unusable(`${file}: too deeply nested: ${deep} goes more than ${MAX_NESTING.toLocaleString('en-US')} levels of arrays and objects deep`);
  return value;
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

/** `1 regressed (relevance), 2 unchanged`: the comparison in one line. */
function comparisonLine(comparison: Comparison): string {
  const parts: string[] = [];
  for (const status of ['regressed', 'removed', 'inconclusive', 'improved', 'added', 'unchanged'] as const) {
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
  const failOn = new Set((values['fail-on'] ?? '').split(',').map((word) => word.trim()).filter(Boolean));
  const unknown = [...failOn].filter((word) => word !== 'regression' && word !== 'inconclusive');
  if (values['fail-on'] !== undefined && (failOn.size === 0 || unknown.length > 0)) {
    return fail(`--fail-on takes a comma list of "regression" and "inconclusive"; got ${JSON.stringify(values['fail-on'])}.`);
  }
  const needsBaseline = (['fail-on', 'json', 'tolerance', 'direction'] as const).find((flag) => values[flag] !== undefined && values.baseline === undefined);
  if (needsBaseline) return fail(`--${needsBaseline} compares two runs: give --baseline FILE too.`);
  const settings = scorerSettings(values.tolerance ?? [], values.direction ?? []);
  if (typeof settings === 'string') return fail(settings);
  const { tolerance, scorers } = settings;

  const file = path.resolve(cwd, positionals[0]);
  const baselineFile = values.baseline === undefined ? undefined : path.resolve(cwd, values.baseline);
  const outDir = path.resolve(cwd, values.out ?? path.dirname(file));
  const files = {
    html: path.join(outDir, DEFAULT_HTML_FILE),
    junit: path.join(outDir, DEFAULT_JUNIT_FILE),
    summary: values.summary === undefined ? undefined : path.resolve(cwd, values.summary),
    json: values.json === undefined ? undefined : path.resolve(cwd, values.json),
  };
  let report;
  try {
    // Every destination is checked before anything is read or written, and all are written together or none.
    const outputs: ReportOutputFile[] = [{ file: files.html, flag: '--out' }, { file: files.junit, flag: '--out' }];
    if (files.summary !== undefined) outputs.push({ file: files.summary, flag: '--summary' });
    if (files.json !== undefined) outputs.push({ file: files.json, flag: '--json' });
    checkReportFiles([{ file, label: 'the result file' }, ...(baselineFile === undefined ? [] : [{ file: baselineFile, label: 'the baseline' }])], outputs);
    const result = readResultFile(file);
    const baseline = baselineFile === undefined ? undefined : readResultFile(baselineFile);
    try {
      report = evalReport(result, { title: values.title, baseline, tolerance, scorers });
    } catch (error) {
      // A shape problem names the field (and which run).
      if (!(error instanceof TypeError)) throw error;
      const message = error.message;
      if (message.startsWith('baseline: ')) throw new Unusable(`${baselineFile}: cannot be compared: ${message.slice('baseline: '.length)}`);
      throw new Unusable(`${file}: ${baselineFile ? 'cannot be compared' : 'not a runEvals result'}: ${message}`);
    }
    writeReportFiles([
      { file: files.html, content: report.html },
      { file: files.junit, content: report.junit },
      ...(files.summary === undefined ? [] : [{ file: files.summary, content: report.summary }]),
      ...(files.json === undefined ? [] : [{ file: files.json, content: `${JSON.stringify(report.comparison, null, 2)}\n` }]),
    ]);
  } catch (error) {
    return fail((error as Error).message);
  }
  log.info(`HTML report: ${files.html}`);
  log.info(`JUnit report: ${files.junit}`);
  if (files.summary !== undefined) log.info(`Summary: ${files.summary}`);
  if (files.json !== undefined) log.info(`Comparison: ${files.json}`);
  if (report.comparison) {
    log.info(`Compared with ${values.baseline}: ${comparisonLine(report.comparison)}`);
    for (const warning of report.comparison.warnings) log.info(`Warning: ${warning}`);
    const failures = failuresOf(report.comparison, failOn, values.baseline!);
    for (const line of failures) log.error(`agent-scorers report: ${line}`);
    if (failures.length > 0) return 1;
  }
  return 0;
}

/** What `--fail-on` names that happened, one line each; empty when the job passes. */
function failuresOf(comparison: Comparison, failOn: ReadonlySet<string>, baseline: string): string[] {
  const ids = (status: string) => comparison.scorers.filter((s) => s.status === status).map((s) => s.id);
  const scorers = (n: number) => `${n} ${n === 1 ? 'scorer' : 'scorers'}`;
  const lines: string[] = [];
  if (failOn.has('regression')) {
    const regressed = ids('regressed');
    const removed = ids('removed');
    if (regressed.length > 0) lines.push(`${scorers(regressed.length)} regressed against ${baseline}: ${regressed.join(', ')}`);
    if (removed.length > 0) lines.push(`${scorers(removed.length)} in ${baseline} only, no longer checked: ${removed.join(', ')}`);
    // Nothing compared is no evidence of no regression: a job that asked for that check does not pass.
    // (An interval needs two items scored by both runs; a scorer in one run only has none.)
    if (!comparison.scorers.some((s) => s.interval !== null) && lines.length === 0) {
      lines.push(`nothing could be compared with ${baseline}: no scorer was scored by both runs on two items or more`);
    }
  }
  if (failOn.has('inconclusive')) {
    const inconclusive = ids('inconclusive');
    if (inconclusive.length > 0) lines.push(`${scorers(inconclusive.length)} inconclusive against ${baseline}: ${inconclusive.join(', ')}`);
  }
  return lines;
}

/** `--tolerance N`, `--tolerance ID=N` and `--direction ID=DIR`, read into the comparison's options; a string is what is wrong. */
function scorerSettings(tolerances: readonly string[], directions: readonly string[]): { tolerance?: number; scorers: Record<string, ScorerCompareOptions> } | string {
  let tolerance: number | undefined;
  const scorers: Record<string, ScorerCompareOptions> = Object.create(null);
  const entry = (id: string) => (scorers[id] ??= {});
  for (const value of tolerances) {
    // An id may hold "=" itself; a number never does, so the last one splits.
    const at = value.lastIndexOf('=');
    const id = at < 0 ? undefined : value.slice(0, at);
    const text = at < 0 ? value : value.slice(at + 1);
    const number = Number(text);
    if (id === '') return `--tolerance takes N or ID=N; got ${JSON.stringify(value)}.`;
    if (text.trim() === '' || !Number.isFinite(number) || number < 0) {
      return `--tolerance takes a number of 0 or more (in score units, such as 0.02)${id === undefined ? '' : ` after ${JSON.stringify(`${id}=`)}`}; got ${JSON.stringify(value)}.`;
    }
    if (id === undefined) {
      if (tolerance !== undefined) return `--tolerance N is given twice (${tolerance} and ${number}); give one, and ID=N for a scorer of its own.`;
      tolerance = number;
    } else {
      if (scorers[id]?.tolerance !== undefined) return `--tolerance ${id}=N is given twice.`;
      entry(id).tolerance = number;
    }
  }
  for (const value of directions) {
    const at = value.lastIndexOf('=');
    const id = value.slice(0, Math.max(0, at));
    const direction = value.slice(at + 1);
    if (at <= 0 || (direction !== 'higher-is-better' && direction !== 'lower-is-better')) {
      return `--direction takes ID=higher-is-better or ID=lower-is-better; got ${JSON.stringify(value)}.`;
    }
    if (scorers[id]?.direction !== undefined) return `--direction ${id}=... is given twice.`;
    entry(id).direction = direction;
  }
  // A plain object again: evalReport checks it key by key.
  return { tolerance, scorers: { ...scorers } };
}

async function mergeMain(argv: string[], { cwd, log }: { cwd: string; log: Log }): Promise<number> {
  const fail = failWith('report merge', log);
  const parsed = readArgs(() => parseArgs({ args: argv, options: MERGE_FLAGS, allowPositionals: true, strict: true }), fail, log);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) return fail('no shard results given.', true);
  if (values.out === undefined) return fail('give --out FILE, the merged result to write.', true);
  let merged;
  const written = path.resolve(cwd, values.out);
  try {
    const shardFiles = positionals.map((name) => path.resolve(cwd, name));
    checkReportFiles(shardFiles.map((file, i) => ({ file, label: `the shard ${positionals[i]}` })), [{ file: written, flag: '--out' }]);
    const results: unknown[] = shardFiles.map((file) => readResultFile(file));
    try {
      merged = mergeShards(results as RunEvalsResult<any>[], positionals);
    } catch (error) {
      if (error instanceof ShardMergeError) throw new Unusable(error.message);
      throw error;
    }
    writeReportFiles([{ file: written, content: JSON.stringify(merged) }]);
  } catch (error) {
    return fail((error as Error).message);
  }
  const shards = positionals.length;
  log.info(`Merged ${shards} ${shards === 1 ? 'shard' : 'shards'} (${merged.items.length} items${merged.verdict ? `, verdict ${merged.verdict}` : ''}) into ${written}`);
  return 0;
}

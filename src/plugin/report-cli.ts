/**
 * `agent-scorers report result.json [--out DIR] [--title TEXT]`: the HTML and JUnit reports of a
 * saved `runEvals` result (`JSON.stringify(result)`). Prints one line per file written. Exit codes:
 * 0 written, 2 bad usage or a result file that is missing, not JSON or not a result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evalReport } from '../report/index.js';
import type { Log } from './generate.js';

export const REPORT_USAGE = `Usage: agent-scorers report <result.json> [options]

Writes eval-report.html and eval-report.junit.xml from a saved runEvals result.

Options:
  --out DIR      folder to write both files into (default: the result file's folder)
  --title TEXT   the page's heading and the JUnit suite name (default: "Eval report")
  --help, -h     show this help`;

/** The flags `reportMain` accepts; each is described in `REPORT_USAGE` (the top-level help repeats it). */
export const REPORT_FLAGS = { out: { type: 'string' }, title: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export async function reportMain(argv: string[], { cwd, log }: { cwd: string; log: Log }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: REPORT_FLAGS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    log.error(`agent-scorers report: ${(error as Error).message}\n\n${REPORT_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    log.info(REPORT_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    log.error(`agent-scorers report: ${positionals.length === 0 ? 'no result file given' : 'give one result file'}.\n\n${REPORT_USAGE}`);
    return 2;
  }
  const file = path.resolve(cwd, positionals[0]);
  let result: unknown;
  try {
    result = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file'
      : (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a folder, not a file'
      : error instanceof SyntaxError ? `not JSON (${error.message})`
      : (error as Error).message;
    log.error(`agent-scorers report: ${file}: ${reason}`);
    return 2;
  }
  let files;
  try {
    ({ files } = evalReport(result as Parameters<typeof evalReport>[0], {
      outDir: path.resolve(cwd, values.out ?? path.dirname(file)),
      title: values.title,
    }));
  } catch (error) {
    // A shape problem names the field; a write problem (a FileError) names the path and the reason.
    const reason = error instanceof TypeError ? `not a runEvals result: ${error.message}` : (error as Error).message;
    log.error(`agent-scorers report: ${file}: ${reason}`);
    return 2;
  }
  log.info(`HTML report: ${files!.html}`);
  log.info(`JUnit report: ${files!.junit}`);
  return 0;
}

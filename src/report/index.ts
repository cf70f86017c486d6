/**
 * `agent-scorers/report`: `evalReport(result, options?)` turns a `runEvals` result (or the same
 * read back from JSON) into a self-contained HTML page for people and JUnit XML for CI systems.
 * A separate entry, so a bundle that imports only the runtime carries none of it.
 */
import path from 'node:path';
import { replaceFile } from '../io/write-file.js';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { checkResult, type ReportInput } from './result.js';

export type { ReportInput, ReportItem, ReportItemScore, ReportThreshold } from './result.js';
export { checkResult } from './result.js';

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
  /**
   * The page's heading and the JUnit `<testsuites name>`.
   * @default 'Eval report'
   */
  title?: string;
  /**
   * The time printed under the heading. `null` leaves it out, so two reports of one result are
   * byte-identical (handy when the report is committed or diffed).
   * @default new Date()
   */
  generatedAt?: Date | null;
}

export interface EvalReport {
  /** The HTML page: inline style and script, no request outside the file. */
  html: string;
  /** JUnit XML: a `<testsuite>` per scorer, a `<testcase>` per item and per gate or threshold. */
  junit: string;
  /** Absolute paths of the files written; present when `outDir`, `htmlFile` or `junitFile` was given. */
  files?: { html?: string; junit?: string };
}

export const DEFAULT_HTML_FILE = 'eval-report.html';
export const DEFAULT_JUNIT_FILE = 'eval-report.junit.xml';

/**
 * Renders both reports of an eval run and, given `outDir`, `htmlFile` or `junitFile`, writes them.
 * Throws a `TypeError` naming the field when `result` does not have the shape `runEvals` returns.
 *
 * @example
 * const result = await runEvals({ data, target, scorers, gates });
 * const { files } = evalReport(result, { outDir: 'eval-report' });
 */
export function evalReport(result: ReportInput, options: EvalReportOptions = {}): EvalReport {
  const checked = checkResult(result);
  const title = options.title ?? 'Eval report';
  const generatedAt = options.generatedAt === undefined ? new Date() : options.generatedAt;
  const report: EvalReport = {
    html: renderHtml(checked, { title, generatedAt }),
    junit: renderJUnit(checked, { name: title }),
  };
  const htmlFile = options.htmlFile ?? (options.outDir === undefined ? undefined : path.join(options.outDir, DEFAULT_HTML_FILE));
  const junitFile = options.junitFile ?? (options.outDir === undefined ? undefined : path.join(options.outDir, DEFAULT_JUNIT_FILE));
  if (htmlFile !== undefined || junitFile !== undefined) {
    report.files = {};
    if (htmlFile !== undefined) report.files.html = writeAtomic(htmlFile, report.html);
    if (junitFile !== undefined) report.files.junit = writeAtomic(junitFile, report.junit);
  }
  return report;
}

/** A reader (a browser tab, a CI uploader) never sees half a file: replaceFile writes beside it, then renames over. */
function writeAtomic(file: string, content: string): string {
  const target = path.resolve(file);
  replaceFile(target, content);
  return target;
}

/**
 * JUnit XML of an eval run, the format GitHub Actions reporters, GitLab and Jenkins read natively.
 * One `<testsuite>` per scorer (classname = scorer id). In each: one test case per item, which
 * fails only for a gate (a gate must score 1 on every item, so any item below 1 is a failure)
 * and is skipped when the run was not scorable; then, for a scorer with a gate or threshold,
 * one aggregate case on its mean, which fails when the result says the gate or threshold failed.
 * A threshold bounds the mean, so a single low item is not a failure on its own.
 */
import type { ReportInput } from './result.js';
import { asText, formatScore, formatThreshold, preview, scorerViews, sortedItems } from './model.js';

// XML 1.0 allows tab, newline, carriage return and these ranges; anything else (controls, lone
// surrogates, U+FFFE/FFFF) makes the whole file unreadable to a strict parser, so it is dropped.
// One pass over each string both drops those and escapes markup: reports hold thousands of them.
const TEXT = /[&<>]|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ATTR = /[&<>"'\n\r\t]|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// Newlines and tabs in attributes as character references, or parsers normalise them to spaces.
const ENTITIES: Record<string, string> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;',
};
const entity = (char: string): string => ENTITIES[char] ?? '';

/** Text content. */
export const xmlText = (text: string): string => text.replace(TEXT, entity);

/** Attribute values. */
export const xmlAttr = (text: string): string => text.replace(ATTR, entity);

export interface JUnitOptions {
  /** The `<testsuites name>`. */
  name: string;
}

export function renderJUnit(result: ReportInput, { name }: JUnitOptions): string {
  const items = sortedItems(result);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;

  // Each item's text is the same in every scorer's suite: escape it once.
  const texts = new Map(items.map((item) => [item, {
    name: xmlAttr(`#${item.index} ${preview(item.input)}`.trimEnd()),
    out: xmlText(`input: ${asText(item.input)}\noutput: ${asText(item.output)}\n`),
  }]));

  for (const view of scorerViews(result)) {
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteSkipped = 0;
    const id = xmlAttr(view.id);
    for (const item of items) {
      const run = Object.hasOwn(item.scores, view.id) ? item.scores[view.id] : undefined;
      if (run === undefined) continue;
      const text = texts.get(item)!;
      const source = run.cached === true ? 'cached' : run.cached === false ? 'live' : undefined;
      const lines = [`score: ${run.score === null ? 'not scorable' : formatScore(run.score)}${source ? ` (judge: ${source})` : ''}`];
      if (run.reason) lines.push(`reason: ${run.reason}`);
      if (run.error) lines.push(`threw: ${run.error}`);
      const out = `<system-out>${text.out}${xmlText(lines.join('\n'))}</system-out>`;
      let body: string;
      if (run.score === null || run.notScorable) {
        suiteSkipped++;
        body = `<skipped message="${xmlAttr(`not scorable${run.reason ? `: ${run.reason}` : ''}`)}"/>`;
      } else if (view.gate && run.score < 1) {
        suiteFailures++;
        const message = `gate ${view.id} scored ${formatScore(run.score)} on item #${item.index}; a gate must score 1`;
        body = `<failure message="${xmlAttr(message)}" type="gate">${xmlText(run.error ? `threw: ${run.error}` : (run.reason ?? ''))}</failure>`;
      } else {
        body = '';
      }
      cases.push(`    <testcase classname="${id}" name="${text.name}" time="0">${body}${out}</testcase>`);
    }

    if (view.gatePassed !== null || view.thresholdPassed !== null) {
      const mean = view.mean === null ? 'no scorable run' : formatScore(view.mean);
      const checks: Array<{ label: string; passed: boolean; message: string; type: string }> = [];
      if (view.gatePassed !== null) {
        checks.push({ label: 'gate: mean = 1', passed: view.gatePassed, type: 'gate', message: `gate ${view.id} averaged ${mean}; a gate must average 1` });
      }
      if (view.thresholdPassed !== null && view.threshold !== null) {
        const bound = formatThreshold(view.threshold);
        checks.push({ label: `threshold: mean ${bound}`, passed: view.thresholdPassed, type: 'threshold', message: `${view.id} averaged ${mean}; its threshold is ${bound}` });
      }
      for (const check of checks) {
        const failure = check.passed ? '' : `<failure message="${xmlAttr(check.message)}" type="${check.type}"/>`;
        if (!check.passed) suiteFailures++;
        cases.push(`    <testcase classname="${id}" name="${xmlAttr(check.label)}" time="0">${failure}</testcase>`);
      }
    }

    const properties = [
      `      <property name="mean" value="${view.mean === null ? '' : formatScore(view.mean)}"/>`,
      `      <property name="notScorable" value="${view.notScorable}"/>`,
    ];
    if (view.threshold !== null) properties.push(`      <property name="threshold" value="${xmlAttr(formatThreshold(view.threshold))}"/>`);
    if (view.gate) properties.push('      <property name="gate" value="true"/>');
    suites.push(
      `  <testsuite name="${id}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}" time="0">\n` +
        `    <properties>\n${properties.join('\n')}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
  }

  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xmlAttr(name)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="0">\n` +
    (suites.length > 0 ? `${suites.join('\n')}\n` : '') +
    '</testsuites>\n'
  );
}

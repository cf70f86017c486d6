/**
 * JUnit XML of an eval run, the format GitHub Actions reporters, GitLab and Jenkins read natively.
 * One `<testsuite>` per scorer slot (classname = its label: `relevance`, `steps › plan › accuracy`,
 * `turn 0 › helpful`). In each: one test case per item (per item and turn for a turn's own scorers),
 * which fails only for a gate (a gate must score 1 on every item, so any item below 1 is a failure)
 * and is skipped when the run was not scorable; then, for a slot with a gate or threshold, one
 * aggregate case on its mean, which fails when the result says the gate or threshold failed. A
 * threshold bounds the mean, so a single low item is not a failure on its own. With a baseline, one
 * more suite holds a case per compared scorer, failing when it regressed.
 */
import type { ComparisonDetail } from './compare.js';
import type { ReadResult, ReportItem } from './result.js';
import { asText, formatDifference, formatScore, formatThreshold, preview, runOf, scorerViews, sortedItems, type ScorerView } from './model.js';

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
  comparison?: ComparisonDetail;
}

export const COMPARISON_SUITE = 'compared with the baseline';

interface Texts {
  name: string;
  out: string;
}

export function renderJUnit(result: ReadResult, { name, comparison }: JUnitOptions): string {
  const items = sortedItems(result);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;

  // Each item's text is the same in every scorer's suite: escape it once (turns when first asked for).
  const itemTexts = new Map<ReportItem, Texts>();
  const turnTexts = new Map<ReportItem, Map<number, Texts>>();
  const textOf = (item: ReportItem, turn: number | null): Texts => {
    if (turn === null) {
      let text = itemTexts.get(item);
      if (!text) {
        text = {
          name: xmlAttr(`#${item.index} ${preview(item.input)}`.trimEnd()),
          out: xmlText(`input: ${asText(item.input)}\noutput: ${asText(item.output)}\n`),
        };
        itemTexts.set(item, text);
      }
      return text;
    }
    let byTurn = turnTexts.get(item);
    if (!byTurn) turnTexts.set(item, (byTurn = new Map()));
    let text = byTurn.get(turn);
    if (!text) {
      const t = item.turns?.find((x) => x.index === turn);
      text = {
        name: xmlAttr(`#${item.index} turn ${turn} ${preview(t?.input)}`.trimEnd()),
        out: xmlText(`turn ${turn} input: ${asText(t?.input)}\nturn ${turn} reply: ${asText(t?.output)}\n`),
      };
      byTurn.set(turn, text);
    }
    return text;
  };
  const onTurn = (view: ScorerView) => (view.turn === null ? '' : ` on turn ${view.turn}`);

  for (const view of scorerViews(result)) {
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteSkipped = 0;
    const label = xmlAttr(view.label);
    for (const item of items) {
      const run = runOf(item, view);
      if (run === undefined) continue;
      const text = textOf(item, view.turn);
      const source = run.cached === true ? 'cached' : run.cached === false ? 'live' : undefined;
      const lines = [`score: ${run.score === null || run.notScorable ? 'not scorable' : formatScore(run.score)}${source ? ` (judge: ${source})` : ''}`];
      if (run.reason) lines.push(`reason: ${run.reason}`);
      if (run.error) lines.push(`threw: ${run.error}`);
      const out = `<system-out>${text.out}${xmlText(lines.join('\n'))}</system-out>`;
      let body: string;
      if (run.score === null || run.notScorable) {
        suiteSkipped++;
        body = `<skipped message="${xmlAttr(`not scorable${run.reason ? `: ${run.reason}` : ''}`)}"/>`;
      } else if (view.gate && run.score < 1) {
        suiteFailures++;
        const where = view.turn === null ? `item #${item.index}` : `turn ${view.turn} of item #${item.index}`;
        const message = `gate ${view.id} scored ${formatScore(run.score)} on ${where}; a gate must score 1`;
        body = `<failure message="${xmlAttr(message)}" type="gate">${xmlText(run.error ? `threw: ${run.error}` : (run.reason ?? ''))}</failure>`;
      } else {
        body = '';
      }
      cases.push(`    <testcase classname="${label}" name="${text.name}" time="0">${body}${out}</testcase>`);
    }

    if (view.gatePassed !== null || view.thresholdPassed !== null) {
      const mean = view.mean === null ? 'no scorable run' : formatScore(view.mean);
      const checks: Array<{ label: string; passed: boolean; message: string; type: string }> = [];
      if (view.gatePassed !== null) {
        checks.push({ label: 'gate: mean = 1', passed: view.gatePassed, type: 'gate', message: `gate ${view.id} averaged ${mean}${onTurn(view)}; a gate must average 1` });
      }
      if (view.thresholdPassed !== null && view.threshold !== null) {
        const bound = formatThreshold(view.threshold);
        checks.push({ label: `threshold: mean ${bound}`, passed: view.thresholdPassed, type: 'threshold', message: `${view.id} averaged ${mean}${onTurn(view)}; its threshold is ${bound}` });
      }
      for (const check of checks) {
        const failure = check.passed ? '' : `<failure message="${xmlAttr(check.message)}" type="${check.type}"/>`;
        if (!check.passed) suiteFailures++;
        cases.push(`    <testcase classname="${label}" name="${xmlAttr(check.label)}" time="0">${failure}</testcase>`);
      }
    }

    const properties = [
      `      <property name="mean" value="${view.mean === null ? '' : formatScore(view.mean)}"/>`,
      `      <property name="notScorable" value="${view.notScorable}"/>`,
    ];
    if (view.threshold !== null) properties.push(`      <property name="threshold" value="${xmlAttr(formatThreshold(view.threshold))}"/>`);
    if (view.gate) properties.push('      <property name="gate" value="true"/>');
    if (view.key !== view.label) properties.push(`      <property name="key" value="${xmlAttr(view.key)}"/>`);
    suites.push(
      `  <testsuite name="${label}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}" time="0">\n` +
        `    <properties>\n${properties.join('\n')}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
  }

  if (comparison) {
    const suiteName = xmlAttr(COMPARISON_SUITE);
    const cases = comparison.comparison.scorers.map((s) => {
      const slot = comparison.slots.get(s.id);
      const label = `${slot?.label ?? s.id}${slot?.gate ? ' (gate)' : ''}`;
      const cell = (value: number | null) => (value === null ? 'none' : formatScore(value));
      const interval = s.interval === null ? 'no interval' : `95% interval ${formatDifference(s.interval[0])} to ${formatDifference(s.interval[1])}`;
      const text = `${label}: ${cell(s.before)} before, ${cell(s.after)} after, difference ${s.difference === null ? 'none' : formatDifference(s.difference)} (${interval}; tolerance ${formatScore(slot?.tolerance ?? comparison.tolerance)}; ${s.direction})`;
      // A removed scorer is no longer checked at all: as red as one that got worse.
      const body = s.status === 'regressed' || s.status === 'removed'
        ? `<failure message="${xmlAttr(`${label} ${s.status}: ${text.slice(label.length + 2)}`)}" type="${s.status === 'regressed' ? 'regression' : 'removed'}"/>`
        : '';
      return `    <testcase classname="${suiteName}" name="${xmlAttr(label)}" time="0">${body}<system-out>${xmlText(`${s.status}: ${text}`)}</system-out></testcase>`;
    });
    const regressed = comparison.comparison.scorers.filter((s) => s.status === 'regressed' || s.status === 'removed').length;
    suites.push(
      `  <testsuite name="${suiteName}" tests="${cases.length}" failures="${regressed}" errors="0" skipped="0" time="0">\n` +
        `    <properties>\n      <property name="tolerance" value="${formatScore(comparison.tolerance)}"/>\n      <property name="onlyInBaseline" value="${comparison.comparison.onlyInBaseline}"/>\n      <property name="onlyInResult" value="${comparison.comparison.onlyInResult}"/>\n    </properties>\n${cases.join('\n')}\n  </testsuite>`,
    );
    tests += cases.length;
    failures += regressed;
  }

  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xmlAttr(name)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="0">\n` +
    (suites.length > 0 ? `${suites.join('\n')}\n` : '') +
    '</testsuites>\n'
  );
}

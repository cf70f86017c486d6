/**
 * evalReport's HTML and JUnit content: hostile strings stay text, the page allows nothing but its
 * own style and script, the JUnit file is read by a real XML parser with the right counts and
 * messages, files are written whole, and the CLI reads a saved result.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { build } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { checkResult, evalReport, type ReportInput } from '../../src/report/index.js';
import { REPO } from '../helpers/hosts.js';
import { HOSTILE, HOSTILE_ID, hostileResult, hostileResultV1, largeResult } from './results.js';

const TMP = path.join(REPO, 'test/.tmp', `report-unit-${process.pid}`);
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

const dataBlock = (html: string) => {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]);
};

describe('HTML', () => {
  const result = hostileResult();
  const { html } = evalReport(result, { generatedAt: null, title: 'Weather <agent> "evals"' });

  test('hostile strings are escaped text: no markup, script or comment of theirs reaches the page', () => {
    // Exactly the page's own two script elements, each closed once.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('__pwned = 1</');
    // The hostile scorer id in the server-rendered card is escaped text.
    expect(html).toContain('tone&quot;&lt;b&gt;${id}&lt;/b&gt;');
    expect(html).toContain('<title>Failed: Weather &lt;agent&gt; &quot;evals&quot;</title>');
  });

  test('the data block gives back every string exactly, hostile ones included', () => {
    const data = dataBlock(html);
    expect(data.scorers.map((s: { id: string }) => s.id)).toEqual([HOSTILE_ID, '__proto__', 'correct']);
    expect(data.scorers[0]).toEqual({ id: HOSTILE_ID, gate: false, min: 0.7, max: null, turn: null, step: null });
    expect(data.scorers[1]).toEqual({ id: '__proto__', gate: false, min: 0.2, max: 0.8, turn: null, step: null });
    expect(data.scorers[2]).toEqual({ id: 'correct', gate: true, min: null, max: null, turn: null, step: null });
    expect(data.baseline).toBe(false);
    const [first, second] = data.items;
    expect(first[0]).toBe(0);
    expect(first[1]).toBe(HOSTILE.script);
    expect(first[3]).toBe(HOSTILE.markup);
    expect(first[4]).toBe(HOSTILE.comment);
    expect(first[5]).toEqual([[0.25, HOSTILE.quotes, 1], [null, HOSTILE.unicode, null], [0, HOSTILE.lines, 0]]);
    // No turns; the identity, hostile too, as given.
    expect(first[6]).toBeNull();
    expect(first[7]).toBe(HOSTILE.markup);
    // No baseline, so no baseline output; no workflow, so no steps.
    expect(first[8]).toBeNull();
    expect(first[9]).toBeNull();
    // A message list previews as its last message's text; the full input is its JSON.
    expect(second[2]).toBe(HOSTILE.controls);
    expect(JSON.parse(second[1])).toEqual([{ role: 'user', content: HOSTILE.controls }]);
    expect(JSON.parse(second[3])).toEqual({ text: HOSTILE.comment });
  });

  test('the CSP allows only this page style and script, by hash, and no request of any kind', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `style-src ${hash(style)}`,
      `script-src ${hash(script)}`,
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    // No inline style attribute (the CSP would block it) and no reference to another file or site.
    // The data block is JSON, not markup: a hostile "<img src=x" in it is text (checked above).
    const markup = html.replace(/<script type="application\/json" id="report-data">[\s\S]*?<\/script>/, '');
    expect(markup).not.toMatch(/\sstyle="/);
    expect(markup.match(/\s(?:src|href|action|srcset|xlink:href)=/g)).toEqual([' href=']);
    expect(html).toContain('href="#items-heading"');
    expect(html.match(/https?:\/\/[^"\s<]+/g)).toEqual(['http://www.w3.org/2000/svg', 'http://www.w3.org/2000/svg', 'http://www.w3.org/2000/svg']);
  });

  test('the verdict comes first, as a word and a colour, naming what failed', () => {
    const body = html.slice(html.indexOf('<body>'));
    const verdictAt = body.indexOf('class="verdict v-failed"');
    expect(verdictAt).toBeGreaterThan(0);
    expect(verdictAt).toBeLessThan(body.indexOf('<h2>Scorers</h2>'));
    expect(body).toContain('<strong id="verdict-label">Failed</strong>');
    expect(body).toContain(`Failed gates: correct. Missed thresholds: ${'tone&quot;&lt;b&gt;${id}&lt;/b&gt;'}.`);
    for (const [verdict, word] of [['passed', 'Passed'], ['scored', 'Scored'], [undefined, 'No verdict']] as const) {
      const page = evalReport({ ...result, verdict }, { generatedAt: null }).html;
      expect(page).toContain(`class="verdict v-${verdict ?? 'none'}"`);
      expect(page).toContain(`<strong id="verdict-label">${word}</strong>`);
    }
  });

  test('each scorer shows its mean, threshold, pass or fail, gate and not-scorable count, and a histogram with its counts', () => {
    const card = (id: string) => {
      const start = html.indexOf(`<span class="sid">${id}</span>`);
      return html.slice(start, html.indexOf('</section>', start));
    };
    const tone = card('tone&quot;&lt;b&gt;${id}&lt;/b&gt;');
    expect(tone).toContain('<span class="badge bad">threshold failed</span>');
    expect(tone).toContain('<dt>Mean</dt><dd>0.575</dd>');
    expect(tone).toContain('<dt>Threshold</dt><dd>≥ 0.7</dd>');
    expect(tone).toContain('<dt>Judge</dt><dd>1 cached, 0 live</dd>');
    expect(tone).toContain('0.2 to 0.3: 1,');
    expect(tone).toContain('0.9 to 1: 1.');
    const correct = card('correct');
    expect(correct).toContain('<span class="badge bad">gate failed</span>');
    expect(correct).toContain('<dt>Role</dt><dd>gate (must average 1)</dd>');
    const proto = card('__proto__');
    expect(proto).toContain('<span class="badge ok">threshold passed</span>');
    expect(proto).toContain('<dt>Threshold</dt><dd>0.2 – 0.8</dd>');
    expect(proto).toContain('<dt>Not scorable</dt><dd>1</dd>');
    expect(proto).toContain('aria-label="Distribution of 1 __proto__ scores (1 not scorable, not shown). 0 to 0.1: 0, ');
    expect(proto).toContain('role="img"');
  });

  test('two reports of one result with generatedAt: null are byte-identical', () => {
    expect(evalReport(hostileResult(), { generatedAt: null }).html).toBe(evalReport(hostileResult(), { generatedAt: null }).html);
  });

  test('a result without items shows the scorers and says so, with no script', () => {
    const { items: _, ...aggregates } = result;
    const page = evalReport(aggregates, { generatedAt: null }).html;
    expect(page).toContain('This result carries no per-item results');
    expect(page).toContain("script-src 'none'");
    expect(page.match(/<script\b/g)).toHaveLength(1);
  });
});

describe('JUnit', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) });
  type Case = { classname: string; name: string; failure?: { message: string; type: string; '#text'?: string } | ''; skipped?: { message: string }; 'system-out'?: string };
  type Suite = { name: string; tests: string; failures: string; skipped: string; errors: string; testcase: Case[]; properties: { property: Array<{ name: string; value: string }> } };
  const parse = (xml: string) => {
    expect(XMLValidator.validate(xml)).toBe(true);
    return parser.parse(xml).testsuites as { tests: string; failures: string; skipped: string; testsuite: Suite[] };
  };
  const failed = (c: Case) => c.failure !== undefined;

  test('hostile names survive as text, characters XML 1.0 forbids are dropped, counts match the cases', () => {
    const { junit } = evalReport(hostileResult(), { generatedAt: null, title: 'evals <"&">' });
    // eslint-disable-next-line no-control-regex
    expect(junit).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(junit).not.toMatch(/[\uD800-\uDFFF]/u);
    const root = parse(junit);
    expect(root.testsuite.map((s) => s.name)).toEqual([HOSTILE_ID, '__proto__', 'correct']);
    const [tone, proto, correct] = root.testsuite;
    expect(tone.testcase.map((c) => [c.classname, c.name])).toEqual([
      [HOSTILE_ID, `#0 ${HOSTILE.script}`],
      [HOSTILE_ID, '#1 bell nul lone end'],
      [HOSTILE_ID, 'threshold: mean ≥ 0.7'],
    ]);
    expect(tone.testcase[0]['system-out']).toBe(`input: ${HOSTILE.script}\noutput: ${HOSTILE.markup}\nscore: 0.25 (judge: cached)\nreason: ${HOSTILE.quotes}`);
    expect(tone.testcase.map(failed)).toEqual([false, false, true]);
    expect(tone.testcase[2].failure).toMatchObject({ type: 'threshold', message: `${HOSTILE_ID} averaged 0.575; its threshold is ≥ 0.7` });
    // A gate (now under the item's gates) fails on every item below 1, and on its mean.
    expect(correct.testcase.map(failed)).toEqual([true, false, true]);
    expect(correct.testcase[0].failure).toMatchObject({ type: 'gate', message: 'gate correct scored 0 on item #0; a gate must score 1', '#text': HOSTILE.lines.replace('\r\n', '\n') });
    expect(correct.testcase[2]).toMatchObject({ name: 'gate: mean = 1', failure: { message: 'gate correct averaged 0.5; a gate must average 1' } });
    expect(correct.properties.property).toEqual([
      { name: 'mean', value: '0.5' },
      { name: 'notScorable', value: '0' },
      { name: 'gate', value: 'true' },
      { name: 'key', value: 'gates/correct' },
    ]);
    expect(proto.testcase[0].skipped).toEqual({ message: `not scorable: ${HOSTILE.unicode}` });
    for (const suite of root.testsuite) {
      expect(Number(suite.tests)).toBe(suite.testcase.length);
      expect(Number(suite.failures)).toBe(suite.testcase.filter(failed).length);
      expect(Number(suite.skipped)).toBe(suite.testcase.filter((c) => c.skipped !== undefined).length);
    }
    expect([root.tests, root.failures, root.skipped]).toEqual(['9', '3', '1']);
  });

  test('a result saved by the first release (gates flagged among the scores) gives the same cases as today', () => {
    const { junit } = evalReport(hostileResultV1(), { generatedAt: null, title: 'evals <"&">' });
    // eslint-disable-next-line no-control-regex
    expect(junit).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(junit).not.toMatch(/[\uD800-\uDFFF]/u);
    const root = parse(junit);
    // Gates now come after the tracked scorers.
    expect(root.testsuite.map((s) => s.name)).toEqual([HOSTILE_ID, '__proto__', 'correct']);
    const [tone, proto, correct] = root.testsuite;
    expect(tone.testcase.map((c) => [c.classname, c.name])).toEqual([
      [HOSTILE_ID, `#0 ${HOSTILE.script}`],
      [HOSTILE_ID, '#1 bell nul lone end'],
      [HOSTILE_ID, 'threshold: mean ≥ 0.7'],
    ]);
    expect(tone.testcase[0]['system-out']).toBe(`input: ${HOSTILE.script}\noutput: ${HOSTILE.markup}\nscore: 0.25 (judge: cached)\nreason: ${HOSTILE.quotes}`);
    // A threshold is on the mean: a low item is not a failure, the aggregate case is.
    expect(tone.testcase.map(failed)).toEqual([false, false, true]);
    expect(tone.testcase[2].failure).toMatchObject({ type: 'threshold', message: `${HOSTILE_ID} averaged 0.575; its threshold is ≥ 0.7` });
    // A gate fails on every item below 1, and on its mean.
    expect(correct.testcase.map(failed)).toEqual([true, false, true]);
    expect(correct.testcase[0].failure).toMatchObject({ type: 'gate', message: 'gate correct scored 0 on item #0; a gate must score 1', '#text': HOSTILE.lines.replace('\r\n', '\n') });
    expect(correct.testcase[2]).toMatchObject({ name: 'gate: mean = 1', failure: { message: 'gate correct averaged 0.5; a gate must average 1' } });
    // Not scorable: skipped, with its reason; newlines in attributes kept as character references.
    expect(proto.testcase[0].skipped).toEqual({ message: `not scorable: ${HOSTILE.unicode}` });
    expect(proto.testcase.map(failed)).toEqual([false, false, false]);
    expect(proto.properties.property).toEqual([
      { name: 'mean', value: '0.5' },
      { name: 'notScorable', value: '1' },
      { name: 'threshold', value: '0.2 – 0.8' },
    ]);
    for (const suite of root.testsuite) {
      expect(Number(suite.tests)).toBe(suite.testcase.length);
      expect(Number(suite.failures)).toBe(suite.testcase.filter(failed).length);
      expect(Number(suite.skipped)).toBe(suite.testcase.filter((c) => c.skipped !== undefined).length);
    }
    expect([root.tests, root.failures, root.skipped]).toEqual(['9', '3', '1']);
  });

  test('1,000 items x 5 scorers: a case per item and scorer plus one per gate and threshold, counts from the data', () => {
    const result = largeResult(1000);
    const root = parse(evalReport(result, { generatedAt: null }).junit);
    expect(root.testsuite).toHaveLength(5);
    expect(Number(root.tests)).toBe(5000 + 4);
    const gateMisses = result.items.filter((item) => item.gates!['tool-call'].score! < 1).length;
    expect(gateMisses).toBeGreaterThan(0);
    const missedAggregates = (result.gateResults ?? []).concat([]).filter((g) => !g.passed).length + (result.thresholdResults ?? []).filter((t) => !t.passed).length;
    expect(Number(root.failures)).toBe(gateMisses + missedAggregates);
    const notScorable = Object.values(result.summary.notScorable ?? {}).reduce((a, b) => a + b, 0);
    expect(notScorable).toBeGreaterThan(0);
    expect(Number(root.skipped)).toBe(notScorable);
    const gate = root.testsuite.find((s) => s.name === 'tool-call')!;
    expect(gate.testcase.filter(failed).map((c) => c.failure && c.failure.message).slice(-1)).toEqual([`gate tool-call averaged ${Math.round(result.gateResults![0].score * 1000) / 1000}; a gate must average 1`]);
  });
});

describe('the runEvals result as runEvals gives it', () => {
  /** runEvals' result as its contract states it (readonly threshold bounds, `true`-typed flags, items always present). */
  interface ContractResult {
    scores: Record<string, number>;
    summary: { totalItems: number; notScorable?: Record<string, number>; sampledOut?: Record<string, number> };
    verdict?: 'passed' | 'scored' | 'failed';
    gateResults?: Array<{ id: string; passed: boolean; score: number }>;
    thresholdResults?: Array<{ id: string; passed: boolean; averageScore: number; threshold: number | { readonly min?: number; readonly max?: number } }>;
    items: Array<{
      index: number;
      input: unknown;
      output: unknown;
      groundTruth?: unknown;
      scores: Record<string, { score: number | null; reason: string | null; notScorable?: true; gate?: true; cached?: boolean; error?: string }>;
    }>;
  }

  test('is accepted as it is (no cast); a gate left out of scores shows its gate result as its mean; a gate that threw says what it threw', () => {
    const result: ContractResult = {
      scores: { relevance: 0.8 },
      summary: { totalItems: 2 },
      verdict: 'failed',
      gateResults: [{ id: 'calls-tool', passed: false, score: 0.5 }],
      thresholdResults: [{ id: 'relevance', passed: true, averageScore: 0.8, threshold: { min: 0.7 } }],
      items: [
        { index: 0, input: 'a', output: 'b', scores: { 'calls-tool': { score: 0, reason: null, gate: true, error: 'tool "x" <missing>' }, relevance: { score: 0.7, reason: 'ok', cached: true } } },
        { index: 1, input: 'c', output: 'd', scores: { 'calls-tool': { score: 1, reason: 'called', gate: true }, relevance: { score: 0.9, reason: 'ok', cached: false } } },
      ],
    };
    const { html, junit } = evalReport(result, { generatedAt: null });
    const gateCard = html.slice(html.indexOf('<span class="sid">calls-tool</span>'));
    expect(gateCard).toContain('<dt>Mean</dt><dd>0.5</dd>');
    expect(gateCard).toContain('<dt>Role</dt><dd>gate (must average 1)</dd>');
    expect(dataBlock(html).items[0][5][1]).toEqual([0, 'Threw: tool "x" <missing>', null]);
    expect(junit).toContain('<failure message="gate calls-tool scored 0 on item #0; a gate must score 1" type="gate">threw: tool "x" &lt;missing&gt;</failure>');
    expect(junit).toContain('<testcase classname="calls-tool" name="gate: mean = 1" time="0"><failure message="gate calls-tool averaged 0.5; a gate must average 1" type="gate"/></testcase>');
  });
});

describe('files and checks', () => {
  test('outDir writes both files whole, with no temporary file left; htmlFile and junitFile choose the paths', () => {
    const out = path.join(TMP, 'out "dir" ${x}');
    const report = evalReport(hostileResult(), { outDir: out });
    expect(report.files).toEqual({ html: path.join(out, 'eval-report.html'), junit: path.join(out, 'eval-report.junit.xml') });
    expect(fs.readFileSync(report.files!.html!, 'utf8')).toBe(report.html);
    expect(fs.readFileSync(report.files!.junit!, 'utf8')).toBe(report.junit);
    expect(fs.readdirSync(out).sort()).toEqual(['eval-report.html', 'eval-report.junit.xml']);

    const only = evalReport(hostileResult(), { htmlFile: path.join(TMP, 'nested/page.html') });
    expect(only.files).toEqual({ html: path.join(TMP, 'nested/page.html') });
    expect(fs.readdirSync(path.join(TMP, 'nested'))).toEqual(['page.html']);
    expect(evalReport(hostileResult()).files).toBeUndefined();
  });

  test('a value that is not a runEvals result is refused with the field it gets wrong', () => {
    const good = hostileResult();
    const cases: Array<[unknown, string]> = [
      [null, 'the result must be an object'],
      [{ ...good, scores: [] }, 'scores must be an object'],
      [{ ...good, scores: { a: '1' } }, 'scores["a"] must be a number'],
      [{ ...good, summary: {} }, 'summary.totalItems must be a whole number'],
      [{ ...good, verdict: 'ok' }, "verdict must be 'passed', 'scored' or 'failed'"],
      [{ ...good, gateResults: [{ id: 'g', passed: 'yes', score: 1 }] }, 'gateResults[0].passed must be a boolean'],
      [{ ...good, thresholdResults: [{ id: 't', passed: true, averageScore: 1, threshold: 'high' }] }, 'thresholdResults[0].threshold must be a number or { min?, max? }'],
      [{ ...good, items: {} }, 'items must be an array'],
      [{ ...good, items: [{ index: 0, scores: { x: { score: '1' } } }] }, 'items[0].scores["x"].score must be a number or null'],
      [{ ...good, items: [{ index: 0, scores: { x: { score: 1, cached: 'yes' } } }] }, 'items[0].scores["x"].cached must be a boolean'],
    ];
    for (const [value, message] of cases) expect(() => checkResult(value)).toThrow(new TypeError(message + (message.startsWith('the result') ? ' (what runEvals resolves to)' : message.startsWith('scores must') ? ' of mean scores keyed by scorer id' : '')));
    // A result read back from JSON is accepted as it is.
    const roundTrip: ReportInput = JSON.parse(JSON.stringify(good));
    expect(evalReport(roundTrip, { generatedAt: null }).html).toBe(evalReport(good, { generatedAt: null }).html);
  });

  test('a bundle of the runtime entry carries nothing of the report entry', async () => {
    const built = await build({ entryPoints: [path.join(REPO, 'dist/runtime/index.js')], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
    const inputs = Object.keys(built.metafile.inputs);
    expect(inputs.some((file) => file.includes('dist/runtime/'))).toBe(true);
    expect(inputs.filter((file) => file.includes('dist/report/'))).toEqual([]);
  });
});

describe('agent-scorers report', () => {
  const BIN = path.join(REPO, 'dist/plugin/bin.js');
  const cli = (args: string[]) => {
    const run = spawnSync(process.execPath, [BIN, 'report', ...args], { cwd: TMP, encoding: 'utf8' });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  test('writes both files from a saved result and prints where, one line each', () => {
    fs.mkdirSync(TMP, { recursive: true });
    const saved = path.join(TMP, 'result.json');
    fs.writeFileSync(saved, JSON.stringify(hostileResult()));
    const run = cli(['result.json', '--out', 'reports']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = path.join(TMP, 'reports/eval-report.html');
    const junit = path.join(TMP, 'reports/eval-report.junit.xml');
    expect(run.stdout).toBe(`HTML report: ${html}\nJUnit report: ${junit}\n`);
    expect(fs.readFileSync(junit, 'utf8')).toBe(evalReport(hostileResult(), { generatedAt: null }).junit);
    expect(fs.readFileSync(html, 'utf8')).toContain('<strong id="verdict-label">Failed</strong>');
    // Without --out, beside the result file.
    expect(cli([saved]).stdout).toBe(`HTML report: ${path.join(TMP, 'eval-report.html')}\nJUnit report: ${path.join(TMP, 'eval-report.junit.xml')}\n`);
  });

  test('a missing, malformed or wrongly shaped file exits 2 with one line naming the path and the reason', () => {
    fs.mkdirSync(TMP, { recursive: true });
    fs.writeFileSync(path.join(TMP, 'broken.json'), '{"scores": ');
    fs.writeFileSync(path.join(TMP, 'shape.json'), JSON.stringify({ scores: {}, summary: { totalItems: 1 }, items: [{ index: 0, scores: { relevance: { score: 'high' } } }] }));
    const cases: Array<[string, RegExp]> = [
      ['missing.json', /: no such file$/],
      ['broken.json', /: not JSON \(.+\)$/],
      ['shape.json', /: not a runEvals result: items\[0\]\.scores\["relevance"\]\.score must be a number or null$/],
    ];
    for (const [file, reason] of cases) {
      const run = cli([file]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0].startsWith(`agent-scorers report: ${path.join(TMP, file)}: `)).toBe(true);
      expect(lines[0]).toMatch(reason);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(cli([]).code).toBe(2);
  });

  test('--summary without a baseline writes the run alone; flags that compare need --baseline; bad values and a bad baseline exit 2 naming it', () => {
    fs.mkdirSync(TMP, { recursive: true });
    fs.writeFileSync(path.join(TMP, 'result.json'), JSON.stringify(hostileResult()));
    const { items: _, ...aggregates } = hostileResult();
    fs.writeFileSync(path.join(TMP, 'no-items.json'), JSON.stringify(aggregates));
    const ok = cli(['result.json', '--summary', 'alone.md', '--out', 'alone']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`Summary: ${path.join(TMP, 'alone.md')}\n`);
    const summary = fs.readFileSync(path.join(TMP, 'alone.md'), 'utf8');
    expect(summary.startsWith('## Eval report: Failed\n\n**Verdict: Failed.** Failed gates: `correct`.')).toBe(true);
    expect(summary).not.toContain('baseline');

    const cases: Array<[string[], string]> = [
      [['result.json', '--fail-on', 'regression'], 'agent-scorers report: --fail-on compares two runs: give --baseline FILE too.'],
      [['result.json', '--json', 'c.json'], 'agent-scorers report: --json compares two runs: give --baseline FILE too.'],
      [['result.json', '--baseline', 'result.json', '--fail-on', 'failed'], 'agent-scorers report: --fail-on takes a comma list of "regression" and "inconclusive"; got "failed".'],
      [['result.json', '--baseline', 'result.json', '--tolerance=-1'], 'agent-scorers report: --tolerance takes a number of 0 or more (in score units, such as 0.02); got "-1".'],
      [['result.json', '--baseline', 'result.json', '--tolerance', 'x'], 'agent-scorers report: --tolerance takes a number of 0 or more (in score units, such as 0.02); got "x".'],
      [['result.json', '--baseline', 'gone.json'], `agent-scorers report: ${path.join(TMP, 'gone.json')}: no such file`],
      [['result.json', '--baseline', 'no-items.json'], `agent-scorers report: ${path.join(TMP, 'no-items.json')}: cannot be compared: the result has no "items", so it cannot be compared item by item`],
      [['no-items.json', '--baseline', 'result.json'], `agent-scorers report: ${path.join(TMP, 'no-items.json')}: cannot be compared: the result has no "items", so it cannot be compared item by item`],
    ];
    for (const [args, line] of cases) {
      const run = cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${line}\n`);
    }
    // --help lists every flag.
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--out', '--title', '--baseline', '--tolerance', '--summary', '--json', '--fail-on regression', 'report merge']) expect(help.stdout).toContain(flag);
  });
});

/**
 * Comparing real runs, end to end: `runEvals` over a function target and over a Mastra Agent (its
 * model a mock), saved as JSON, then `agent-scorers report --baseline` run as a child process. A run
 * that lost one scorer on a third of its items is `regressed` on that scorer alone, fails the job
 * with `--fail-on regression` and names it in the summary; the same run twice is `unchanged`
 * everywhere and passes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { afterAll, describe, expect, test } from 'vitest';
import { compareRuns, evalReport } from '../../src/report/index.js';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { REPO } from '../helpers/hosts.js';
import { answeringModel, userText } from '../runtime/helpers.js';

const TMP = path.join(REPO, 'test/.tmp', `compare-runs-${process.pid}`);
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));
const BIN = path.join(REPO, 'dist/plugin/bin.js');

function cli(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [BIN, 'report', ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const CITIES = [
  'Paris', 'Lagos', 'Osaka', 'Lima', 'Oslo', 'Quito', 'Perth', 'Cairo', 'Delhi', 'Hanoi',
  'Dakar', 'Seoul', 'Rome', 'Riga', 'Kyiv', 'Doha', 'Baku', 'Minsk', 'Sofia', 'Tunis',
  'Bern', 'Accra', 'Dhaka', 'Suva', 'Apia', 'Male', 'Nuuk', 'Lome', 'Juba', 'Oran',
];
const question = (city: string) => `What is the weather in ${city}?`;
const cityOf = (text: string) => /weather in ([A-Za-z]+)\?/.exec(text)?.[1] ?? '';
/** The degraded answers drop the city on a third of the questions (every third city). */
const dropsCity = (city: string) => CITIES.indexOf(city) % 3 === 0;
const answer = (city: string, degraded: boolean) => (degraded && dropsCity(city) ? 'Sunny, 21 °C.' : `Sunny in ${city}, 21 °C.`);

const text = (value: unknown) => JSON.stringify(value);
// Deterministic scorers reading both a function's string output and an Agent's messages.
const mentionsCity = createScorer({ id: 'mentions-city', description: 'The answer names the city asked about' }).generateScore(({ run }) =>
  text(run.output).includes(cityOf(text(run.input))) ? 1 : 0,
);
const celsius = createScorer({ id: 'celsius', description: 'Gives the temperature in °C' }).generateScore(({ run }) => (text(run.output).includes('°C') ? 1 : 0));
const brief = createScorer({ id: 'brief', description: 'Short answers' }).generateScore(({ run }) => (text(run.output).length < 400 ? 1 : 0.5));

const config = { gates: [celsius], scorers: [{ scorer: mentionsCity, threshold: 0.5 }, brief] };

function functionRuns() {
  const data = CITIES.map((city) => ({ input: question(city) }));
  return {
    good: () => runEvals({ data, target: (q: string) => answer(cityOf(q), false), ...config }),
    degraded: () => runEvals({ data, target: (q: string) => answer(cityOf(q), true), ...config }),
  };
}

function agentRuns() {
  const data = CITIES.map((city) => ({ input: question(city) }));
  const agent = (degraded: boolean) => {
    const model = answeringModel((call: any) => answer(cityOf(userText(call)), degraded));
    return { model, agent: new Agent({ id: 'weather', name: 'weather', instructions: 'Answer briefly.', model }) };
  };
  return {
    good: async () => {
      const { model, agent: target } = agent(false);
      const result = await runEvals({ data, target, ...config });
      expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(CITIES.length);
      return result;
    },
    degraded: async () => {
      const { model, agent: target } = agent(true);
      const result = await runEvals({ data, target, ...config });
      expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(CITIES.length);
      return result;
    },
  };
}

describe.each([
  ['a function target', functionRuns],
  ['a Mastra Agent', agentRuns],
])('comparing runs of %s', (name, runs) => {
  const dir = path.join(TMP, name.replace(/\W+/g, '-'));

  test('one scorer worse on a third of the items: regressed on that scorer alone, exit 1 with --fail-on regression, named in the summary', async () => {
    const { good, degraded } = runs();
    const base = await good();
    const pr = await degraded();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'base.json'), JSON.stringify(base));
    fs.writeFileSync(path.join(dir, 'pr.json'), JSON.stringify(pr));

    const comparison = compareRuns(pr, base);
    expect(comparison.scorers.map((s) => [s.id, s.status])).toEqual([
      ['mentions-city', 'regressed'],
      ['brief', 'unchanged'],
      ['gates/celsius', 'unchanged'],
    ]);
    const [city] = comparison.scorers;
    expect(city.before).toBe(1);
    expect(city.after).toBeCloseTo(2 / 3, 12);
    expect(city.difference).toBeCloseTo(-1 / 3, 12);
    expect(city.interval![1]).toBeLessThan(-0.02);
    // The worse items are exactly the third that lost the city, in data order (equal drops).
    const dropped = pr.items.filter((item) => dropsCity(cityOf(text(item.input)))).map((item) => item.id);
    expect(dropped).toHaveLength(10);
    expect(comparison.worse).toEqual(dropped.map((item) => ({ item, scorer: 'mentions-city', before: 1, after: 0 })));
    expect([comparison.onlyInBaseline, comparison.onlyInResult]).toEqual([0, 0]);

    const run = cli(['pr.json', '--baseline', 'base.json', '--fail-on', 'regression', '--summary', 'summary.md', '--json', 'comparison.json', '--out', 'report'], dir);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('agent-scorers report: 1 scorer regressed against base.json: mentions-city\n');
    expect(run.stdout.split('\n')).toEqual([
      `HTML report: ${path.join(dir, 'report/eval-report.html')}`,
      `JUnit report: ${path.join(dir, 'report/eval-report.junit.xml')}`,
      `Summary: ${path.join(dir, 'summary.md')}`,
      `Comparison: ${path.join(dir, 'comparison.json')}`,
      'Compared with base.json: 1 regressed (mentions-city), 2 unchanged',
      '',
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'comparison.json'), 'utf8'))).toEqual(comparison);
    const summary = fs.readFileSync(path.join(dir, 'summary.md'), 'utf8');
    expect(summary.split('\n').slice(0, 3)).toEqual([
      '## Eval report: Passed, 1 regressed',
      '',
      '**1 scorer regressed** against the baseline: `mentions-city` (−0.333).',
    ]);
    expect(summary).toContain('| `mentions-city` | 1 | 0.667 | −0.333 |');
    expect(summary).toMatch(/\| `brief` \| 1 \| 1 \| 0 \| 0 to 0 \| 30 \| unchanged \|/);
    expect(summary).toContain(`| ${'`'}${dropped[0]}${'`'} | ${'`'}mentions-city${'`'} | 1 | 0 | ${'`'}What is the weather in Paris?${'`'} |`);
    // The JUnit file fails the regressed scorer's case in the comparison suite, and only it.
    const junit = fs.readFileSync(path.join(dir, 'report/eval-report.junit.xml'), 'utf8');
    expect(junit.match(/type="regression"/g)).toHaveLength(1);
    expect(junit).toContain('<testcase classname="compared with the baseline" name="mentions-city" time="0"><failure message="mentions-city regressed: 1 before, 0.667 after, difference −0.333');
    // The page leads with the comparison.
    const html = fs.readFileSync(path.join(dir, 'report/eval-report.html'), 'utf8');
    expect(html.indexOf('id="comparison-heading"')).toBeGreaterThan(0);
    expect(html.indexOf('id="comparison-heading"')).toBeLessThan(html.indexOf('class="verdict'));
    expect(html).toContain('<title>1 regressed, Passed: Eval report</title>');
    // Without --fail-on, a regression is reported but the command succeeds.
    expect(cli(['pr.json', '--baseline', 'base.json', '--out', 'report'], dir).code).toBe(0);
  });

  test('the same run twice: every scorer unchanged, nothing worse, exit 0', async () => {
    const { good } = runs();
    const first = await good();
    const second = await good();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'first.json'), JSON.stringify(first));
    fs.writeFileSync(path.join(dir, 'second.json'), JSON.stringify(second));
    const comparison = compareRuns(second, first);
    expect(comparison.scorers.map((s) => [s.id, s.status, s.difference, s.interval])).toEqual([
      ['mentions-city', 'unchanged', 0, [0, 0]],
      ['brief', 'unchanged', 0, [0, 0]],
      ['gates/celsius', 'unchanged', 0, [0, 0]],
    ]);
    expect(comparison.worse).toEqual([]);
    const run = cli(['second.json', '--baseline', 'first.json', '--fail-on', 'regression', '--summary', 'same.md', '--out', 'same'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Compared with first.json: 3 unchanged\n');
    const summary = fs.readFileSync(path.join(dir, 'same.md'), 'utf8');
    expect(summary).toContain('No scorer regressed against the baseline.');
    expect(summary).not.toContain('Items that got worse');
    expect(evalReport(second, { baseline: first, generatedAt: null }).summary).toBe(summary);
  });
});

/**
 * The verdicts of `agent-scorers report --baseline`, from the package as users install it (its
 * `npm pack` tarball, installed into an empty project), on results of real runs: a Mastra Agent
 * (its model a mock) scored by `@mastra/evals`' own hallucination scorer (its judge a mock), whose
 * rise is a regression; a `{ max }` threshold; twelve items too few to tell; `--direction`,
 * `--tolerance ID=N` and `--fail-on regression,inconclusive`; and every input that cannot carry a
 * verdict (renamed ids, a renamed scorer, a score of -1e999, one shared item, a scorer not scorable
 * anywhere) never reading "No scorer regressed" with exit 0.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createHallucinationScorer } from '@mastra/evals/scorers/prebuilt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createScorer, notScorable, runEvals } from '../../src/runtime/index.js';
import { packPackage, npm } from '../helpers/pack.js';
import { answeringModel, userText } from '../runtime/helpers.js';

let project: string;
let bin: string;

beforeAll(async () => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-verdicts-')));
  const { tarball } = await packPackage(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
  expect(installed.code, installed.output).toBe(0);
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/agent-scorers/package.json'), 'utf8'));
  bin = path.join(project, 'node_modules/agent-scorers', pkg.bin['agent-scorers']);
}, 180_000);
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [bin, 'report', ...args], { cwd: project, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
const save = (name: string, value: unknown) => fs.writeFileSync(path.join(project, name), typeof value === 'string' ? value : JSON.stringify(value));
const read = (name: string) => fs.readFileSync(path.join(project, name), 'utf8');

const CITIES = [
  'Paris', 'Lagos', 'Osaka', 'Lima', 'Oslo', 'Quito', 'Perth', 'Cairo', 'Delhi', 'Hanoi',
  'Dakar', 'Seoul', 'Rome', 'Riga', 'Kyiv', 'Doha', 'Baku', 'Minsk', 'Sofia', 'Tunis',
  'Bern', 'Accra', 'Dhaka', 'Suva', 'Apia', 'Male', 'Nuuk', 'Lome', 'Juba', 'Oran',
];
const question = (city: string) => `What is the weather in ${city}?`;
const cityOf = (text: string) => /weather in ([A-Za-z]+)\?/.exec(text)?.[1] ?? '';

describe("@mastra/evals' hallucination scorer on a Mastra Agent", () => {
  /**
   * Ten sentences per answer. The context supports the ones about the forecast; a "rumour" is not
   * supported. A good answer carries one rumour (score 0.1); a worse one carries six (0.6).
   */
  const answer = (city: string, rumours: number) =>
    Array.from({ length: 10 }, (_, k) => (k < rumours ? `A rumour says ${city} gets snow number ${k}.` : `The forecast for ${city} says sunny, point ${k}.`)).join(' ');
  const between = (text: string, start: string, end: string) => text.slice(text.lastIndexOf(start) + start.length, text.indexOf(end, text.lastIndexOf(start))).trim();
  /** The judge, answering each of the scorer's three prompts by what it asks. */
  const judge = () =>
    answeringModel((call) => {
      const ask = userText(call);
      if (ask.startsWith('Extract all claims')) return JSON.stringify({ claims: between(ask, '===== OUTPUT =====', '===== END OF OUTPUT').split(/(?<=\.)\s+/) });
      if (ask.startsWith('Verify if the claims')) {
        const claims = between(ask, 'Claims to verify:', 'Number of claims:').split('\n');
        return JSON.stringify({ verdicts: claims.map((statement) => ({ statement, verdict: statement.includes('rumour') ? 'yes' : 'no', reason: 'Checked against the forecast.' })) });
      }
      if (ask.startsWith('Explain the hallucination score')) return 'The score is the share of unsupported claims.';
      throw new Error(`unexpected judge prompt: ${ask.slice(0, 80)}`);
    });

  /** One run: the agent answers with one rumour, or six on every third city when `worse`. */
  async function agentRun(worse: boolean) {
    const model = answeringModel((call) => {
      const city = cityOf(userText(call));
      return answer(city, worse && CITIES.indexOf(city) % 3 === 0 ? 6 : 1);
    });
    const agent = new Agent({ id: 'weather', name: 'weather', instructions: 'Answer briefly.', model });
    const judgeModel = judge();
    const hallucination = createHallucinationScorer({ model: judgeModel, options: { context: ['The forecast is sunny everywhere.'] } });
    const result = await runEvals({ data: CITIES.map((city) => ({ id: city.toLowerCase(), input: question(city) })), target: agent, scorers: [hallucination] });
    expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(30);
    // Claims, verdicts and a reason, per item.
    expect(judgeModel.doGenerateCalls.length + judgeModel.doStreamCalls.length).toBe(90);
    return result;
  }

  test('its score rising from 0.1 to 0.6 on a third of the items regressed (exit 1); the mirror improved (exit 0)', async () => {
    const base = await agentRun(false);
    const pr = await agentRun(true);
    expect(base.scores['hallucination-scorer']).toBeCloseTo(0.1, 12);
    expect(pr.scores['hallucination-scorer']).toBeCloseTo(0.1 + 0.5 / 3, 12);
    save('hall-base.json', base);
    save('hall-pr.json', pr);

    const run = cli('hall-pr.json', '--baseline', 'hall-base.json', '--fail-on', 'regression', '--summary', 'hall.md', '--json', 'hall.json', '--out', 'hall');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('agent-scorers report: 1 scorer regressed against hall-base.json: hallucination-scorer\n');
    expect(run.stdout).toContain('Compared with hall-base.json: 1 regressed (hallucination-scorer)\n');
    const comparison = JSON.parse(read('hall.json'));
    expect(comparison.scorers).toEqual([expect.objectContaining({ id: 'hallucination-scorer', direction: 'lower-is-better', status: 'regressed' })]);
    // The items that got worse are the ten whose score rose, with the baseline's score and the new one.
    expect(comparison.worse.map((w: { item: string }) => w.item)).toEqual(CITIES.filter((_, i) => i % 3 === 0).map((c) => c.toLowerCase()));
    expect(comparison.worse[0]).toEqual({ item: 'paris', scorer: 'hallucination-scorer', before: 0.1, after: 0.6 });
    const summary = read('hall.md');
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 regressed');
    expect(summary).toContain('**1 scorer regressed** against the baseline: `hallucination-scorer` (lower is better) (+0.167).');
    expect(read('hall/eval-report.html')).toContain('<title>1 regressed, No verdict: Eval report</title>');
    expect(read('hall/eval-report.junit.xml')).toContain('type="regression"');

    const mirror = cli('hall-base.json', '--baseline', 'hall-pr.json', '--fail-on', 'regression', '--summary', 'mirror.md', '--out', 'mirror');
    expect(mirror.stderr).toBe('');
    expect(mirror.code).toBe(0);
    expect(mirror.stdout).toContain('Compared with hall-pr.json: 1 improved (hallucination-scorer)\n');
    expect(read('mirror.md')).toContain('No scorer regressed against the baseline; 1 improved: `hallucination-scorer` (lower is better) (−0.167).');

    // The comparison's own setting wins: read the other way, the rise improved.
    const told = cli('hall-pr.json', '--baseline', 'hall-base.json', '--fail-on', 'regression', '--direction', 'hallucination-scorer=higher-is-better', '--out', 'told');
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toContain('1 improved (hallucination-scorer)');
  }, 120_000);
});

// Deterministic scorers over a function target: fast, and exact.
const mentionsCity = (id = 'mentions-city') =>
  createScorer({ id, description: 'The answer names the city asked about' }).generateScore(({ run }) => (String(run.output).includes(cityOf(String(run.input))) ? 1 : 0));
const brief = createScorer({ id: 'brief', description: 'Short answers' }).generateScore(({ run }) => (String(run.output).length < 400 ? 1 : 0.5));
const unsure = createScorer({ id: 'mentions-city', description: 'Cannot tell without a city' }).preprocess(() => notScorable('no city to check')).generateScore(() => 1);
/** Drops the city on every third question when `worse`. */
const target = (worse: boolean) => (q: string) => (worse && CITIES.indexOf(cityOf(q)) % 3 === 0 ? 'Sunny, 21 °C.' : `Sunny in ${cityOf(q)}, 21 °C.`);
const data = (cities = CITIES, id = (city: string) => city.toLowerCase()) => cities.map((city) => ({ id: id(city), input: question(city) }));

describe('a { max } threshold, per-scorer flags and too few items', () => {
  test('a scorer held to { max } regressed when its score rose; --tolerance ID=N beats --tolerance N', async () => {
    const words = createScorer({ id: 'filler-words', description: 'Share of filler words' }).generateScore(({ run }) => (String(run.output).includes('um') ? 0.5 : 0));
    const config = { scorers: [{ scorer: words, threshold: { max: 0.3 } }] };
    const base = await runEvals({ data: data(), target: (q: string) => `Sunny in ${cityOf(q)}.`, ...config });
    const pr = await runEvals({ data: data(), target: (q: string) => (CITIES.indexOf(cityOf(q)) % 3 === 0 ? `Um, sunny in ${cityOf(q)}, um.` : `Sunny in ${cityOf(q)}.`), ...config });
    save('max-base.json', base);
    save('max-pr.json', pr);
    const run = cli('max-pr.json', '--baseline', 'max-base.json', '--fail-on', 'regression', '--json', 'max.json', '--out', 'max');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('agent-scorers report: 1 scorer regressed against max-base.json: filler-words\n');
    expect(JSON.parse(read('max.json')).scorers[0]).toMatchObject({ id: 'filler-words', direction: 'lower-is-better', status: 'regressed', difference: 0.5 / 3 });
    // A tolerance of 0.5 for this scorer alone hides the rise of 0.167; the global one does not apply to it.
    const lenient = cli('max-pr.json', '--baseline', 'max-base.json', '--fail-on', 'regression', '--tolerance', '0', '--tolerance', 'filler-words=0.5', '--out', 'max');
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stdout).toContain('Compared with max-base.json: 1 unchanged\n');
  });

  test('12 items, 3 dropped from 1 to 0: inconclusive, said with the number of items; --fail-on regression,inconclusive fails on it', async () => {
    const twelve = CITIES.slice(0, 12);
    const base = await runEvals({ data: data(twelve), target: target(false), scorers: [mentionsCity()] });
    // Every third of twelve: Paris, Lima, Perth, Hanoi.
    const pr = await runEvals({ data: data(twelve), target: (q: string) => (['Paris', 'Lima', 'Perth'].includes(cityOf(q)) ? 'Sunny, 21 °C.' : `Sunny in ${cityOf(q)}, 21 °C.`), scorers: [mentionsCity()] });
    save('twelve-base.json', base);
    save('twelve-pr.json', pr);
    const lenient = cli('twelve-pr.json', '--baseline', 'twelve-base.json', '--fail-on', 'regression', '--summary', 'twelve.md', '--out', 'twelve');
    expect(lenient.stderr).toBe('');
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('Compared with twelve-base.json: 1 inconclusive (mentions-city)\n');
    const summary = read('twelve.md');
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 inconclusive');
    expect(summary).toContain('**1 scorer inconclusive** over 12 items in both runs: `mentions-city` (−0.25, 95% interval −0.537 to +0.037).');
    expect(summary).not.toContain('No scorer regressed');
    expect(read('twelve/eval-report.html')).toContain('1 scorer inconclusive over 12 items in both runs: mentions-city;');
    const strict = cli('twelve-pr.json', '--baseline', 'twelve-base.json', '--fail-on', 'regression,inconclusive', '--out', 'twelve');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe('agent-scorers report: 1 scorer inconclusive against twelve-base.json: mentions-city\n');
  });

  test.each([
    [['--fail-on', 'regression,flaky'], '--fail-on takes a comma list of "regression" and "inconclusive"; got "regression,flaky".'],
    [['--direction', 'mentions-city=down'], '--direction takes ID=higher-is-better or ID=lower-is-better; got "mentions-city=down".'],
    [['--direction', 'lower-is-better'], '--direction takes ID=higher-is-better or ID=lower-is-better; got "lower-is-better".'],
    [['--tolerance', 'mentions-city=-1'], '--tolerance takes a number of 0 or more (in score units, such as 0.02) after "mentions-city="; got "mentions-city=-1".'],
    [['--tolerance', '0.1', '--tolerance', '0.2'], '--tolerance N is given twice (0.1 and 0.2); give one, and ID=N for a scorer of its own.'],
  ])('%j is refused, exit 2', (flags, message) => {
    const run = cli('twelve-pr.json', '--baseline', 'twelve-base.json', ...flags, '--out', 'refused');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`agent-scorers report: ${message}\n`);
  });

  test('--direction naming no scorer of either run exits 2, naming the scorers there are', () => {
    const run = cli('twelve-pr.json', '--baseline', 'twelve-base.json', '--direction', 'mentions-cty=lower-is-better', '--out', 'refused');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`agent-scorers report: ${path.join(project, 'twelve-pr.json')}: cannot be compared: scorers["mentions-cty"] names no scorer of either run; the scorers are "mentions-city"\n`);
  });
});

describe('input that cannot carry a verdict is never a pass with --fail-on regression', () => {
  const scorers = [mentionsCity(), brief];
  const bad = () => runEvals({ data: data(), target: target(true), scorers });
  // Each row: the worse run's result as saved, the exit code, and what stderr says.
  const ROWS: Array<[string, () => Promise<string>, number, string | RegExp]> = [
    ['its item ids renamed', async () => JSON.stringify(await runEvals({ data: data(CITIES, (c) => `city-${c}`), target: target(true), scorers })), 1,
      'agent-scorers report: nothing could be compared with base.json: no scorer was scored by both runs on two items or more\n'],
    ['a scorer renamed', async () => JSON.stringify(await runEvals({ data: data(), target: target(true), scorers: [mentionsCity('names-city'), brief] })), 1,
      'agent-scorers report: 1 scorer in base.json only, no longer checked: mentions-city\n'],
    ['one score of -1e999', async () => {
      const result = await bad();
      (result.items[4].scores['mentions-city'] as { score: number }).score = 123.456;
      return JSON.stringify(result).replace('"score":123.456', '"score":-1e999');
    }, 2, /: not a runEvals result: items\[4\]\.scores\["mentions-city"\]\.score must be a number or null, and finite: got -Infinity\n$/],
    ['one shared item', async () => JSON.stringify(await runEvals({ data: data(CITIES, (c) => (c === 'Paris' ? 'paris' : `other-${c}`)).map((item, i) => (i === 0 ? item : { ...item, input: `${item.input} Tomorrow?` })), target: target(true), scorers })), 1,
      'agent-scorers report: nothing could be compared with base.json: no scorer was scored by both runs on two items or more\n'],
  ];

  test.each(ROWS)('%s', async (_, worse, code, stderr) => {
    save('base.json', await runEvals({ data: data(), target: target(false), scorers }));
    save('pr.json', await worse());
    fs.rmSync(path.join(project, 'pr.md'), { force: true });
    const run = cli('pr.json', '--baseline', 'base.json', '--fail-on', 'regression', '--summary', 'pr.md', '--out', 'pr');
    expect(run.code).toBe(code);
    if (typeof stderr === 'string') expect(run.stderr).toBe(stderr);
    else expect(run.stderr).toMatch(stderr);
    if (code === 2) expect(fs.existsSync(path.join(project, 'pr.md'))).toBe(false);
    else expect(read('pr.md')).not.toContain('No scorer regressed');
  });

  test('ids renamed and one shared item: the summary opens with the warning saying why', () => {
    // pr.json is the last row's: one shared item.
    expect(read('pr.md').split('\n')[0]).toBe('> **Warning:** Only 1 item is in both runs (30 items in this run, 30 items in the baseline), so nothing can be compared and every scorer is inconclusive: no item of this run asks what a baseline item asks: is the baseline a run of a different dataset?');
  });

  test('a scorer not scorable on any item: inconclusive, never "No scorer regressed"; nothing compared at all fails the job', async () => {
    save('base.json', await runEvals({ data: data(), target: target(false), scorers }));
    save('pr.json', await runEvals({ data: data(), target: target(true), scorers: [unsure, brief] }));
    const run = cli('pr.json', '--baseline', 'base.json', '--fail-on', 'regression', '--summary', 'pr.md', '--out', 'pr');
    // `brief` still compares (unchanged), so the job's regression check passes, and the summary says what it could not tell.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Compared with base.json: 1 inconclusive (mentions-city), 1 unchanged\n');
    const summary = read('pr.md');
    expect(summary.split('\n')[0]).toBe('## Eval report: No verdict, 1 inconclusive');
    expect(summary).toContain('`mentions-city` (no item scored by both runs)');
    expect(summary).not.toContain('No scorer regressed');
    expect(cli('pr.json', '--baseline', 'base.json', '--fail-on', 'regression,inconclusive', '--out', 'pr').code).toBe(1);
    // With it the only scorer, nothing was compared: the job fails.
    save('base-one.json', await runEvals({ data: data(), target: target(false), scorers: [mentionsCity()] }));
    save('pr-one.json', await runEvals({ data: data(), target: target(true), scorers: [unsure] }));
    const alone = cli('pr-one.json', '--baseline', 'base-one.json', '--fail-on', 'regression', '--out', 'pr');
    expect(alone.code).toBe(1);
    expect(alone.stderr).toBe('agent-scorers report: nothing could be compared with base-one.json: no scorer was scored by both runs on two items or more\n');
  });
});

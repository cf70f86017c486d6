/**
 * One run, whole: shards know their run, and a shard is never taken for a whole run. The package is
 * packed and installed into a project outside any git checkout, as a user gets it; an eval script
 * there runs `runEvals({ shard })` in child processes whose environment is a CI's (`GITHUB_RUN_ID`,
 * `CI_PIPELINE_ID`, ...), and the installed `agent-scorers` CLI merges and compares the results.
 * Refused, with one line and exit 2: shards of two runs merged (same configuration), a forged empty
 * "shard 7 of 3", two items with one index, a shard compared with a whole run or with another shard.
 * Allowed, and said: a shard compared with the same shard of a baseline.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareRuns, evalReport, mergeShards, ShardMergeError } from '../../src/report/index.js';
import { resolveShardRun } from '../../src/runtime/evals/eval-run-id.js';
import type { RunEvalsResult } from '../../src/runtime/index.js';
import { npm, packPackage } from '../helpers/pack.js';

let project: string;
afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/** The eval script a user would write: its shard from argv, the run from the CI's environment (or RUN). */
const EVAL_SCRIPT = `
import fs from 'node:fs';
import { createScorer, runEvals } from 'agent-scorers';

const [shardArg, out, variant] = process.argv.slice(2);
const [index, count] = shardArg.split('/').map(Number);
const CITIES = ['Paris', 'Oslo', 'Lima', 'Cairo', 'Perth', 'Quito', 'Seoul', 'Dakar', 'Riga', 'Hanoi', 'Sofia', 'Minsk'];
const data = CITIES.map((city) => ({ id: city.toLowerCase(), input: 'What is the weather in ' + city + '?' }));
const cityOf = (text) => /in ([A-Z][a-z]+)\\?/.exec(String(text))?.[1] ?? '';
const mentionsCity = createScorer({ id: 'mentions-city', description: 'Names the city' })
  .generateScore(({ run }) => (String(run.output).includes(cityOf(run.input)) ? 1 : 0));
// The "worse" variant drops the city from every answer whose city has an "i".
const answer = (q) => (variant === 'worse' && cityOf(q).includes('i') ? 'Sunny, 21 C.' : 'Sunny in ' + cityOf(q) + ', 21 C.');
const result = await runEvals({
  data,
  target: answer,
  scorers: [{ scorer: mentionsCity, threshold: 0.5 }],
  ...(index ? { shard: { index, count, ...(process.env.RUN ? { run: process.env.RUN } : {}) } } : {}),
});
fs.writeFileSync(out, JSON.stringify(result));
`;

/** The environment of a machine with none of the CI variables a shard reads, plus `extra`. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const name of ['GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT', 'CI_PIPELINE_ID', 'BUILDKITE_BUILD_ID', 'GITHUB_SHA', 'RUN', 'GIT_DIR', 'GIT_CEILING_DIRECTORIES']) delete clean[name];
  // git must not find a checkout above the project (os.tmpdir() is outside any, but say so).
  return { ...clean, GIT_CEILING_DIRECTORIES: path.dirname(project), ...extra };
}

function evalRun(shard: string, out: string, extra: Record<string, string> = {}, variant = 'same') {
  const ran = spawnSync(process.execPath, ['eval.mjs', shard, out, variant], { cwd: project, env: env(extra), encoding: 'utf8' });
  return { code: ran.status, stderr: ran.stderr };
}

function cli(args: string[]) {
  const ran = spawnSync(process.execPath, [path.join(project, 'node_modules/agent-scorers/dist/plugin/bin.js'), ...args], { cwd: project, env: env(), encoding: 'utf8' });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

const read = (file: string): RunEvalsResult => JSON.parse(fs.readFileSync(path.join(project, file), 'utf8'));
const write = (file: string, value: unknown) => fs.writeFileSync(path.join(project, file), JSON.stringify(value));

/** Exit 2 with one line that starts with `message`, and nothing written to `--out`. */
function expectRefused(run: { code: number | null; stdout: string; stderr: string }, message: string) {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0].startsWith(message), `${lines[0]}\n  should start with\n${message}`).toBe(true);
}

beforeAll(async () => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-shards-')));
  const { tarball } = await packPackage(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
  expect(installed.code, installed.output).toBe(0);
  fs.writeFileSync(path.join(project, 'eval.mjs'), EVAL_SCRIPT);
  // Run A (main's), three shards and the whole run; run B (a pull request's, worse answers), three shards.
  for (const n of [1, 2, 3]) {
    expect(evalRun(`${n}/3`, `a${n}.json`, { GITHUB_RUN_ID: '7001', GITHUB_RUN_ATTEMPT: String(n) })).toMatchObject({ code: 0 });
    expect(evalRun(`${n}/3`, `b${n}.json`, { GITHUB_RUN_ID: '7002' }, 'worse')).toMatchObject({ code: 0 });
  }
  expect(evalRun('0/0', 'whole.json', { GITHUB_RUN_ID: '7001' })).toMatchObject({ code: 0 });
}, 120_000);

describe('a shard records the run it belongs to', () => {
  test('from GITHUB_RUN_ID, not the attempt: every shard of run A says 7001, of run B 7002', () => {
    for (const n of [1, 2, 3]) {
      expect(read(`a${n}.json`).shard).toEqual({ index: n, count: 3, run: '7001', dataset: read('a1.json').shard!.dataset });
      expect(read(`b${n}.json`).shard).toMatchObject({ index: n, count: 3, run: '7002' });
    }
    expect(read('whole.json').shard).toBeUndefined();
  });

  test('else CI_PIPELINE_ID or BUILDKITE_BUILD_ID, else GITHUB_SHA; shard.run wins over all of them', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ CI_PIPELINE_ID: '55', BUILDKITE_BUILD_ID: 'bk-1', GITHUB_SHA: 'a'.repeat(40) }, '55'],
      [{ BUILDKITE_BUILD_ID: '0190f1a2-bk', GITHUB_SHA: 'a'.repeat(40) }, '0190f1a2-bk'],
      [{ GITHUB_SHA: 'b'.repeat(40) }, 'b'.repeat(40)],
      [{ GITHUB_RUN_ID: '9', RUN: 'nightly-2026-12-06' }, 'nightly-2026-12-06'],
    ];
    for (const [extra, run] of cases) {
      expect(evalRun('2/3', 'env.json', extra)).toMatchObject({ code: 0 });
      expect(read('env.json').shard!.run, JSON.stringify(extra)).toBe(run);
    }
  });

  test('outside CI and outside a git checkout, a shard without shard.run fails before any item, asking for it', () => {
    const run = evalRun('1/3', 'none.json');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('runEvals: a shard records the run it belongs to, so that report merge never mixes two runs, and none was found');
    expect(run.stderr).toContain('git rev-parse HEAD failed: fatal: not a git repository');
    expect(run.stderr).toContain('Pass shard: { index, count, run } with the same run on every shard');
    expect(fs.existsSync(path.join(project, 'none.json'))).toBe(false);
  });

  test('the commit from git rev-parse HEAD where there is no CI variable; the order of the sources', async () => {
    const head = 'c'.repeat(40);
    const commit = async () => head;
    expect(await resolveShardRun(undefined, { env: {}, commit })).toBe(head);
    expect(await resolveShardRun(undefined, { env: { GITHUB_SHA: 'd'.repeat(40) }, commit })).toBe('d'.repeat(40));
    expect(await resolveShardRun(undefined, { env: { GITHUB_RUN_ID: '1', CI_PIPELINE_ID: '2' }, commit })).toBe('1');
    expect(await resolveShardRun(undefined, { env: { GITHUB_RUN_ID: '', CI_PIPELINE_ID: '2' }, commit })).toBe('2');
    expect(await resolveShardRun('mine', { env: { GITHUB_RUN_ID: '1' }, commit })).toBe('mine');
    await expect(resolveShardRun('', { env: {}, commit })).rejects.toThrow('runEvals: shard.run must be a non-empty string on one line');
    await expect(resolveShardRun('a\nb', { env: {}, commit })).rejects.toThrow('runEvals: shard.run must be a non-empty string on one line');
    await expect(resolveShardRun(undefined, { env: {}, commit: async () => 'not a commit' })).rejects.toThrow('git rev-parse HEAD printed "not a commit"');
  });
});

describe('agent-scorers report merge joins one run only', () => {
  test("run A's three shards merge into run A's whole result", () => {
    const merged = cli(['report', 'merge', 'a3.json', 'a1.json', 'a2.json', '--out', 'a.json']);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    const whole = read('whole.json');
    const result = read('a.json');
    for (const field of ['scores', 'summary', 'verdict', 'thresholdResults', 'items', 'config'] as const) expect(result[field], field).toEqual(whole[field]);
    expect(Object.keys(result).sort()).toEqual(Object.keys(whole).sort());
  });

  test("shard 1 of run A with shards 2 and 3 of run B (same configuration, same dataset) is refused", () => {
    expect(read('a1.json').config).toEqual(read('b2.json').config);
    expect(read('a1.json').shard!.dataset).toBe(read('b2.json').shard!.dataset);
    expectRefused(cli(['report', 'merge', 'a1.json', 'b2.json', 'b3.json', '--out', 'mixed.json']), 'agent-scorers report merge: a1.json belongs to run "7001", but b2.json to run "7002": shards of different runs');
    expect(fs.existsSync(path.join(project, 'mixed.json'))).toBe(false);
  });

  test('a forged empty "shard 7 of 3" is refused, by the CLI and by mergeShards', () => {
    const a1 = read('a1.json');
    write('forged.json', { ...a1, items: [], shard: { ...a1.shard, index: 7 } });
    expectRefused(
      cli(['report', 'merge', 'a1.json', 'a2.json', 'a3.json', 'forged.json', '--out', 'forged-merge.json']),
      `agent-scorers report merge: ${path.join(project, 'forged.json')}: not a runEvals result: shard.index must be a whole number from 1 to shard.count (3); got 7`,
    );
    const forged = { ...a1, items: [], shard: { ...a1.shard!, index: 7 } };
    expect(() => mergeShards([a1, read('a2.json'), read('a3.json'), forged], ['a1', 'a2', 'a3', 'forged'])).toThrow(
      new ShardMergeError('forged is not a shard of a run: shard.index must be a whole number from 1 to shard.count (3); got 7'),
    );
    // An empty shard 3 of 3 in place of the real one: the items are no longer the dataset.
    write('empty3.json', { ...read('a3.json'), items: [] });
    expectRefused(cli(['report', 'merge', 'a1.json', 'a2.json', 'empty3.json', '--out', 'forged-merge.json']), 'agent-scorers report merge: the shards hold ');
    expect(fs.existsSync(path.join(project, 'forged-merge.json'))).toBe(false);
  });

  test('two items with one index are refused', () => {
    const a1 = read('a1.json');
    const a2 = read('a2.json');
    const taken = a1.items[0]!.index;
    write('same-index.json', { ...a2, items: a2.items.map((item, k) => (k === 0 ? { ...item, index: taken } : item)) });
    expectRefused(
      cli(['report', 'merge', 'a1.json', 'same-index.json', 'a3.json', '--out', 'same-index-merge.json']),
      `agent-scorers report merge: items ${JSON.stringify(a1.items[0]!.id)} (a1.json) and ${JSON.stringify(a2.items[0]!.id)} (same-index.json) both have index ${taken}`,
    );
    // An item moved into another shard's file (with its shard's own item taken out) is in the wrong shard.
    const a3 = read('a3.json');
    write('moved-2.json', { ...a2, items: a2.items.slice(1) });
    write('moved-3.json', { ...a3, items: [...a3.items, a2.items[0]] });
    expectRefused(
      cli(['report', 'merge', 'a1.json', 'moved-2.json', 'moved-3.json', '--out', 'same-index-merge.json']),
      `agent-scorers report merge: item ${JSON.stringify(a2.items[0]!.id)} belongs to shard 2 of 3, but moved-3.json (shard 3) holds it`,
    );
  });
});

describe('agent-scorers report compares whole runs, or one shard with the same shard', () => {
  test('one shard compared with the whole baseline, a whole run with a shard, or two different shards: exit 2, merge first', () => {
    const cases: Array<[string, string, string]> = [
      ['b1.json', 'whole.json', 'the result is shard 1 of 3 and the baseline a whole run'],
      ['a.json', 'b1.json', 'the result is a whole run and the baseline shard 1 of 3'],
      ['b2.json', 'a1.json', 'the result is shard 2 of 3 and the baseline shard 1 of 3'],
    ];
    for (const [result, baseline, what] of cases) {
      expectRefused(
        cli(['report', result, '--baseline', baseline, '--fail-on', 'regression', '--out', 'refused-report']),
        `agent-scorers report: ${path.join(project, result)}: cannot be compared: ${what}, so most items would go uncompared: merge the shards of each run first (agent-scorers report merge), then compare the merged results`,
      );
    }
    expect(fs.existsSync(path.join(project, 'refused-report'))).toBe(false);
    // The API refuses the same pairs before comparing anything.
    expect(() => compareRuns(read('b1.json'), read('whole.json'))).toThrow(new TypeError(`${cases[0][2]}, so most items would go uncompared: merge the shards of each run first (agent-scorers report merge), then compare the merged results`));
    expect(() => evalReport(read('b2.json'), { baseline: read('a1.json') })).toThrow('the result is shard 2 of 3 and the baseline shard 1 of 3');
    expect(compareRuns(read('b1.json'), read('a1.json')).scorers).toHaveLength(1);
  });

  test('a shard compared with the same shard of a baseline is compared, and the summary and the page say it is a shard', () => {
    const run = cli(['report', 'b1.json', '--baseline', 'a1.json', '--summary', 'shard-summary.md', '--json', 'shard-comparison.json', '--out', 'shard-report']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const comparison = JSON.parse(fs.readFileSync(path.join(project, 'shard-comparison.json'), 'utf8'));
    expect(comparison.onlyInBaseline).toBe(0);
    expect(comparison.onlyInResult).toBe(0);
    expect(comparison.scorers.map((s: { id: string }) => s.id)).toEqual(['mentions-city']);
    const summary = fs.readFileSync(path.join(project, 'shard-summary.md'), 'utf8');
    expect(summary).toContain('This is shard 1 of 3 of run `7002`, not the whole run, compared with the same shard of the baseline.');
    const html = fs.readFileSync(path.join(project, 'shard-report/eval-report.html'), 'utf8');
    expect(html).toContain(
      `<p class="shard" id="shard">This page covers shard 1 of 3 (run 7002): ${read('b1.json').items.length} of the run&#39;s items, not the whole run. The run&#39;s result is its 3 shards merged with agent-scorers report merge. It is compared with the same shard of the baseline, shard 1 of 3 (run 7001), so only these items are compared.</p>`,
    );
    // The merged whole runs compare as well, and the merged page is no shard's.
    expect(cli(['report', 'merge', 'b1.json', 'b2.json', 'b3.json', '--out', 'b.json']).code).toBe(0);
    const whole = cli(['report', 'b.json', '--baseline', 'a.json', '--out', 'whole-report']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(fs.readFileSync(path.join(project, 'whole-report/eval-report.html'), 'utf8')).not.toContain('class="shard"');
  });
});

/**
 * The GitHub Actions workflow on "Comparing runs in CI", run locally as GitHub would run it: the YAML
 * is read from the page (a real YAML parser), the page's own `ts` files make the project, and every
 * job runs in a fresh copy of it, each `run:` with bash on Node 24 (which runs the `.ts` eval script
 * as it is) and the real `agent-scorers` CLI. What GitHub itself provides is played by this test:
 * `${{ }}` values and `if:` conditions from a table (an expression not in it fails the test), the
 * artifact actions as folders, and `gh` as a stub that serves an earlier run's artifact and records
 * comments. `npm ci` is the one command not run: the copy already has its `node_modules`.
 *
 * Runs: a pull request before main has any result (nothing to compare), a push to main (the baseline
 * is kept), a pull request whose code drops the city from two thirds of the answers (regressed: the compare
 * step exits 1, the summary is still posted), and one that changes nothing (passes).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { DIST, REPO } from '../helpers/hosts.js';
import { extractSamples } from '../helpers/samples.js';

const PAGE = 'docs/guide/comparing-runs.md';
const TMP = path.join(REPO, 'test/.tmp', `comparing-runs-workflow-${process.pid}`);
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

const markdown = fs.readFileSync(path.join(REPO, PAGE), 'utf8');

/** The page's `yaml` blocks. */
function yamlBlocks(text: string): string[] {
  const blocks: string[] = [];
  const re = /^```ya?ml\s*\n([\s\S]*?)^```\s*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) blocks.push(m[1]);
  return blocks;
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  needs?: string | string[];
  strategy?: { matrix: Record<string, Array<string | number>> };
  steps: Step[];
}

/** Node 24 runs TypeScript files as they are; this machine's own node may be older. */
function node24Dir(): string {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return path.dirname(process.execPath);
  const found = spawnSync('npx', ['-y', 'node@24', '-p', 'process.execPath'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`npx -y node@24 failed: ${found.stderr}`);
  return path.dirname(found.stdout.trim());
}

/** `gh`, as far as the workflow uses it: run list, run download, pr comment. Anything else fails. */
const GH_STUB = `#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
const store = process.env.GH_STUB_STORE;
const runs = JSON.parse(fs.readFileSync(path.join(store, 'runs.json'), 'utf8'));
const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i === -1 ? undefined : args[i + 1]; };
const fail = (why) => { console.error('gh stub: ' + why + ': ' + args.join(' ')); process.exit(1); };
if (!process.env.GH_TOKEN) fail('GH_TOKEN is not set');
if (args[0] === 'run' && args[1] === 'list') {
  const found = runs.filter((r) => r.workflow === flag('--workflow') && r.branch === flag('--branch') && r.event === flag('--event') && r.conclusion === flag('--status'))
    .sort((a, b) => b.id - a.id).slice(0, Number(flag('--limit') ?? 20));
  if (flag('--json') !== 'databaseId') fail('unexpected --json');
  const jq = flag('--jq');
  if (jq === '.[].databaseId') { for (const r of found) console.log(r.id); }
  else if (jq === '.[0].databaseId') console.log(found.length ? found[0].id : 'null');
  else fail('unexpected --jq');
} else if (args[0] === 'run' && args[1] === 'download') {
  const from = path.join(store, 'artifacts', String(args[2]), flag('--name') ?? fail('no --name'));
  if (!fs.existsSync(from)) fail('no such artifact');
  fs.cpSync(from, path.resolve(flag('--dir') ?? '.'), { recursive: true });
} else if (args[0] === 'pr' && args[1] === 'comment') {
  if (!args.includes('--edit-last') || !args.includes('--create-if-none')) fail('expected --edit-last --create-if-none');
  const body = fs.readFileSync(flag('--body-file') ?? fail('no --body-file'), 'utf8');
  fs.appendFileSync(path.join(store, 'comments.jsonl'), JSON.stringify({ pr: args[2], body }) + '\\n');
} else fail('unknown command');
`;

interface StepRecord {
  job: string;
  name: string;
  ran: boolean;
  code?: number | null;
  stdout?: string;
  stderr?: string;
}

interface RunRecord {
  id: number;
  success: boolean;
  steps: StepRecord[];
  summaries: string[];
}

describe('the GitHub Actions workflow of "Comparing runs in CI", run locally', () => {
  const blocks = yamlBlocks(markdown);
  let workflow: { on: unknown; permissions: Record<string, string>; jobs: Record<string, Job> };
  let workflowFile: string;
  let template: string;
  let store: string;
  let stubBin: string;
  let nodeDir: string;
  let nextRun = 1000;

  beforeAll(() => {
    expect(blocks, 'the page holds exactly one YAML block: the workflow').toHaveLength(1);
    workflowFile = /^# \.github\/workflows\/(\S+)$/m.exec(blocks[0])![1];
    workflow = parse(blocks[0]);
    nodeDir = node24Dir();

    // The project: the page's own files, an ES module package, agent-scorers installed.
    template = path.join(TMP, 'project');
    for (const sample of extractSamples(PAGE, markdown)) {
      fs.mkdirSync(path.dirname(path.join(template, sample.file)), { recursive: true });
      fs.writeFileSync(path.join(template, sample.file), sample.code);
    }
    fs.writeFileSync(path.join(template, 'package.json'), JSON.stringify({ name: 'weather-app', private: true, type: 'module' }));
    fs.mkdirSync(path.join(template, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(REPO, path.join(template, 'node_modules/agent-scorers'), 'dir');
    fs.writeFileSync(path.join(template, 'node_modules/.bin/agent-scorers'), `#!/bin/sh\nexec node ${JSON.stringify(path.join(DIST, 'plugin/bin.js'))} "$@"\n`, { mode: 0o755 });

    store = path.join(TMP, 'github');
    fs.mkdirSync(path.join(store, 'artifacts'), { recursive: true });
    fs.writeFileSync(path.join(store, 'runs.json'), '[]');
    stubBin = path.join(TMP, 'bin');
    fs.mkdirSync(stubBin, { recursive: true });
    fs.writeFileSync(path.join(stubBin, 'gh'), GH_STUB, { mode: 0o755 });
  });

  /** Runs the whole workflow for one event, with the project's `src/weather.ts` as `weather` (the pull request's code). */
  function runWorkflow(event: 'push' | 'pull_request', weather?: string): RunRecord {
    const id = ++nextRun;
    const record: RunRecord = { id, success: true, steps: [], summaries: [] };
    const artifacts = path.join(store, 'artifacts', String(id));
    const done = new Set<string>();
    for (const [jobName, job] of Object.entries(workflow.jobs)) {
      for (const need of [job.needs ?? []].flat()) expect(done.has(need), `${jobName} needs ${need}, which runs before it`).toBe(true);
      const matrix = job.strategy?.matrix ?? {};
      const keys = Object.keys(matrix);
      expect(keys.length, 'a matrix of one dimension at most').toBeLessThanOrEqual(1);
      const values: Array<Record<string, string | number>> = keys.length === 0 ? [{}] : matrix[keys[0]].map((v) => ({ [keys[0]]: v }));
      for (const values_ of values) {
        const label = keys.length === 0 ? jobName : `${jobName} (${Object.values(values_).join(', ')})`;
        if (!runJob(label, job, values_, event, artifacts, weather, record)) record.success = false;
      }
      done.add(jobName);
    }
    const runs = JSON.parse(fs.readFileSync(path.join(store, 'runs.json'), 'utf8'));
    runs.push({ id, workflow: workflowFile, event, branch: event === 'push' ? 'main' : 'feature', conclusion: record.success ? 'success' : 'failure' });
    fs.writeFileSync(path.join(store, 'runs.json'), JSON.stringify(runs));
    return record;
  }

  function runJob(label: string, job: Job, matrix: Record<string, string | number>, event: string, artifacts: string, weather: string | undefined, record: RunRecord): boolean {
    const dir = path.join(TMP, `run-${nextRun}`, label.replace(/\W+/g, '-'));
    let failed = false;
    const expression = (text: string): string => {
      const key = text.trim();
      if (key.startsWith('matrix.')) {
        const value = matrix[key.slice('matrix.'.length)];
        if (value === undefined) throw new Error(`${label}: no ${key}`);
        return String(value);
      }
      const known: Record<string, string> = { 'github.token': 'test-token', 'github.event.pull_request.number': '42' };
      if (!(key in known)) throw new Error(`${label}: the test does not know the expression \${{ ${key} }}; add it to the table`);
      return known[key];
    };
    const substitute = (text: string) => text.replace(/\$\{\{\s*([\s\S]+?)\s*\}\}/g, (_, inner: string) => expression(inner));
    const condition = (text: string | undefined): boolean => {
      if (text === undefined) return !failed;
      const inner = text.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
      let statusCheck = false;
      const value = inner.split('&&').every((term) => {
        const t = term.trim();
        if (t === '!cancelled()' || t === 'always()') return (statusCheck = true);
        if (t === "github.ref == 'refs/heads/main'") return event === 'push';
        if (t === "github.event_name == 'pull_request'") return event === 'pull_request';
        const hash = /^hashFiles\('([^']+)'\) != ''$/.exec(t);
        if (hash) return fs.existsSync(path.join(dir, hash[1]));
        throw new Error(`${label}: the test does not know the condition ${JSON.stringify(t)}; add it`);
      });
      return value && (statusCheck || !failed);
    };

    job.steps.forEach((step, position) => {
      const name = step.name ?? step.uses ?? step.run!.split('\n')[0];
      if (!condition(step.if)) {
        record.steps.push({ job: label, name, ran: false });
        return;
      }
      if (step.uses) {
        const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, typeof v === 'string' ? substitute(v) : v]));
        const [action] = step.uses.split('@');
        expect(step.uses, `${label}: ${step.uses} is a pinned major version`).toMatch(/@v\d+$/);
        if (action === 'actions/checkout') {
          expect(position, 'checkout comes first').toBe(0);
          fs.cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
          if (weather !== undefined) fs.writeFileSync(path.join(dir, 'src/weather.ts'), weather);
        } else if (action === 'actions/setup-node') {
          expect(inputs['node-version']).toBe(24);
        } else if (action === 'actions/upload-artifact') {
          const from = path.join(dir, String(inputs.path));
          expect(fs.existsSync(from), `${label}: ${name} uploads ${inputs.path}, which exists`).toBe(true);
          const to = path.join(artifacts, String(inputs.name));
          expect(fs.existsSync(to), `${label}: artifact ${inputs.name} is uploaded once`).toBe(false);
          // A file is stored by its name; a folder by its contents.
          fs.cpSync(from, fs.statSync(from).isDirectory() ? to : path.join(to, path.basename(from)), { recursive: true });
        } else if (action === 'actions/download-artifact') {
          const pattern = new RegExp(`^${String(inputs.pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
          const names = fs.existsSync(artifacts) ? fs.readdirSync(artifacts).filter((n) => pattern.test(n)) : [];
          expect(names.length, `${label}: ${inputs.pattern} matches artifacts of this run`).toBeGreaterThan(0);
          for (const n of names) fs.cpSync(path.join(artifacts, n), inputs['merge-multiple'] === true ? path.join(dir, String(inputs.path)) : path.join(dir, String(inputs.path), n), { recursive: true });
        } else {
          throw new Error(`${label}: the test does not play ${step.uses}`);
        }
        record.steps.push({ job: label, name, ran: true, code: 0 });
        return;
      }
      const script = substitute(step.run!);
      if (script.trim() === 'npm ci') {
        record.steps.push({ job: label, name, ran: false });
        return;
      }
      const summaryFile = path.join(dir, `.step-summary-${position}`);
      fs.writeFileSync(summaryFile, '');
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v))]));
      const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        cwd: dir,
        encoding: 'utf8',
        // GitHub names the workflow run in GITHUB_RUN_ID, the same in every job of it: the shards' run.
        env: { ...process.env, ...env, PATH: [stubBin, nodeDir, process.env.PATH].join(path.delimiter), CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: String(nextRun), GITHUB_RUN_ATTEMPT: '1', GITHUB_STEP_SUMMARY: summaryFile, GH_STUB_STORE: store },
      });
      record.steps.push({ job: label, name, ran: true, code: ran.status, stdout: ran.stdout, stderr: ran.stderr });
      const summary = fs.readFileSync(summaryFile, 'utf8');
      if (summary) record.summaries.push(summary);
      if (ran.status !== 0) failed = true;
    });
    return !failed;
  }

  const step = (run: RunRecord, job: string, name: string | RegExp) => {
    const found = run.steps.filter((s) => s.job === job && (typeof name === 'string' ? s.name === name : name.test(s.name)));
    expect(found, `${job}: ${String(name)}`).toHaveLength(1);
    return found[0];
  };
  const comments = () =>
    fs.existsSync(path.join(store, 'comments.jsonl'))
      ? fs.readFileSync(path.join(store, 'comments.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { pr: string; body: string })
      : [];
  const dropsCities = (code: string) => code.replace('return `Sunny in ${city} today, 21 °C.`;', "return city.includes('i') ? 'Sunny today, 21 °C.' : `Sunny in ${city} today, 21 °C.`;");

  test('the workflow asks only for the permissions its steps use', () => {
    expect(workflow.permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
    expect(Object.keys(workflow.jobs)).toEqual(['shard', 'merge']);
    expect(workflow.jobs.shard.strategy!.matrix.shard).toEqual([1, 2, 3]);
  });

  test('runs: a first pull request, main keeping the baseline, a pull request that regressed, one that did not', () => {
    // Before main has a result: everything runs, nothing is compared or posted.
    const first = runWorkflow('pull_request');
    expect(first.success, JSON.stringify(first.steps, null, 2)).toBe(true);
    expect(step(first, 'merge', "Download the main branch's result").stdout).toBe('No result of the main branch yet: nothing to compare with.\n');
    expect(step(first, 'merge', 'Compare with the main branch').ran).toBe(false);
    expect(step(first, 'merge', 'Post the summary').ran).toBe(false);

    // Main: three shards, merged, kept as eval-baseline.
    const main = runWorkflow('push');
    expect(main.success, JSON.stringify(main.steps, null, 2)).toBe(true);
    for (const n of [1, 2, 3]) expect(step(main, `shard (${n})`, /^node evals\/weather\.eval\.ts/).stdout).toMatch(new RegExp(`^shard ${n} of 3: 4 items\\n$`));
    expect(step(main, 'merge', /^npx agent-scorers report merge/).stdout).toMatch(/^Merged 3 shards \(12 items, verdict passed\) into .*\/eval-results\/result\.json\n$/);
    // Each shard recorded the workflow run it belongs to, from GITHUB_RUN_ID.
    for (const n of [1, 2, 3]) {
      const shard = JSON.parse(fs.readFileSync(path.join(store, 'artifacts', String(main.id), `eval-shard-${n}`, `shard-${n}.json`), 'utf8')).shard;
      expect(shard).toMatchObject({ index: n, count: 3, run: String(main.id) });
    }
    expect(step(main, 'merge', "Download the main branch's result").ran).toBe(false);
    const baseline = JSON.parse(fs.readFileSync(path.join(store, 'artifacts', String(main.id), 'eval-baseline/result.json'), 'utf8'));
    expect(baseline.items.map((i: { id: string }) => i.id)).toHaveLength(12);
    expect(baseline.shard).toBeUndefined();

    // A pull request whose answers drop the city for half the cities.
    const template = fs.readFileSync(path.join(TMP, 'project/src/weather.ts'), 'utf8');
    const degraded = dropsCities(template);
    expect(degraded).not.toBe(template);
    const regressed = runWorkflow('pull_request', degraded);
    expect(regressed.success).toBe(false);
    const compare = step(regressed, 'merge', 'Compare with the main branch');
    expect(compare.code, compare.stderr).toBe(1);
    expect(compare.stderr).toBe('agent-scorers report: 1 scorer regressed against baseline/result.json: mentions-city\n');
    expect(step(regressed, 'merge', 'Post the summary')).toMatchObject({ ran: true, code: 0 });
    expect(step(regressed, 'merge', 'HTML report')).toMatchObject({ ran: true });
    const [comment] = comments();
    expect(comment.pr).toBe('42');
    expect(comment.body).toContain('**1 scorer regressed** against the baseline: `mentions-city`');
    expect(regressed.summaries).toEqual([comment.body]);
    const comparison = JSON.parse(fs.readFileSync(path.join(TMP, `run-${regressed.id}`, 'merge', 'eval-results/comparison.json'), 'utf8'));
    expect(comparison.scorers.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['mentions-city', 'regressed'],
      ['gates/celsius', 'unchanged'],
    ]);
    expect(comparison.worse.map((w: { item: string }) => w.item).sort()).toEqual(['cairo', 'hanoi', 'lima', 'minsk', 'paris', 'quito', 'riga', 'sofia']);

    // A pull request that changes nothing: compared, posted, passes.
    const same = runWorkflow('pull_request');
    expect(same.success, JSON.stringify(same.steps, null, 2)).toBe(true);
    expect(step(same, 'merge', 'Compare with the main branch')).toMatchObject({ ran: true, code: 0 });
    expect(comments()).toHaveLength(2);
    expect(comments()[1].body).toContain('No scorer regressed against the baseline.');
  });
});

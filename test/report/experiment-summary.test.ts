/**
 * Mastra's `ExperimentSummary` as a result: two runs of Mastra's own `startExperiment` (an Agent on a
 * mock model, a real LibSQL file), saved as JSON as a team saves them, then `agent-scorers report`
 * from the packed package: the worse run fails `--fail-on regression` naming the scorer, and the item
 * edited between the runs (a new dataset version) is named in a warning. In process: a summary
 * compared with a `runEvals` run of the same dataset pairs every item.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { LibSQLStore } from '@mastra/libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns, evalReport } from '../../src/report/index.js';
import { runEvals } from '../../src/runtime/index.js';
import { REPO } from '../helpers/hosts.js';
import { packPackage } from '../helpers/pack.js';
import { answeringModel, userText } from '../runtime/helpers.js';

const TMP = path.join(REPO, 'test/.tmp', `experiment-summary-${process.pid}`);
fs.mkdirSync(TMP, { recursive: true });
let storage: LibSQLStore;
afterAll(async () => {
  await storage?.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

const CITIES = ['Paris', 'Lagos', 'Osaka', 'Lima', 'Oslo', 'Quito', 'Perth', 'Cairo', 'Delhi', 'Hanoi', 'Dakar', 'Seoul'];
const question = (city: string) => `What is the weather in ${city}?`;
const cityOf = (text: string) => /weather in ([A-Za-z]+)\?/.exec(text)?.[1] ?? '';
// The worse agent drops the city from every other answer.
const answer = (city: string, worse: boolean) => (worse && CITIES.indexOf(city) % 2 === 0 ? 'Sunny, 21 °C.' : `Sunny in ${city}, 21 °C.`);
const mentionsCity = createMastraScorer({ id: 'mentions-city', description: 'Names the city asked about', type: 'agent' }).generateScore(({ run }) =>
  JSON.stringify(run.output).includes(cityOf(JSON.stringify(run.input))) ? 1 : 0,
);
const celsius = createMastraScorer({ id: 'celsius', description: 'Gives °C', type: 'agent' }).generateScore(({ run }) => (JSON.stringify(run.output).includes('°C') ? 1 : 0));

let mastra: Mastra;
let dataset: any;
let base: any;
let worse: any;
let edited: string;
const agents = {
  good: answeringModel((call: any) => answer(cityOf(userText(call)), false)),
  worse: answeringModel((call: any) => answer(cityOf(userText(call)), true)),
};

beforeAll(async () => {
  storage = new LibSQLStore({ id: 'summary', url: `file:${path.join(TMP, 'mastra.db')}` });
  mastra = new Mastra({
    agents: {
      good: new Agent({ id: 'good', name: 'good', instructions: 'Answer briefly.', model: agents.good }),
      worse: new Agent({ id: 'worse', name: 'worse', instructions: 'Answer briefly.', model: agents.worse }),
    },
    scorers: { mentionsCity, celsius },
    storage,
    logger: false,
  });
  dataset = await mastra.datasets.create({ name: 'weather' });
  await dataset.addItems({ items: CITIES.map((city) => ({ input: question(city), groundTruth: city })) });
  base = await dataset.startExperiment({ targetType: 'agent', targetId: 'good', scorers: [mentionsCity, celsius] });
  // An item edited between the two runs: the dataset's next version.
  const items = (await dataset.listItems({ version: (await dataset.getDetails()).version })) as any[];
  edited = items.find((item) => item.input === question('Lima')).id;
  await dataset.updateItem({ itemId: edited, groundTruth: 'Lima, Peru' });
  worse = await dataset.startExperiment({ targetType: 'agent', targetId: 'worse', scorers: [mentionsCity, celsius] });
  fs.writeFileSync(path.join(TMP, 'base.json'), JSON.stringify(base));
  fs.writeFileSync(path.join(TMP, 'current.json'), JSON.stringify(worse));
}, 60_000);

describe('an ExperimentSummary as a result', () => {
  it('reads as the result it describes, and compares with a runEvals run of the same dataset', async () => {
    expect(agents.good.doStreamCalls.length + agents.good.doGenerateCalls.length).toBe(CITIES.length);
    const report = evalReport(worse);
    expect(report.summary).toContain('mentions-city');
    expect(report.junit).toContain('testcase');
    expect(report.html).toContain('Sunny, 21 °C.');

    const ours = await runEvals({ data: dataset, target: mastra.getAgent('good'), scorers: [mentionsCity, celsius] });
    const comparison = compareRuns(ours, base);
    expect(comparison.onlyInBaseline).toBe(0);
    expect(comparison.onlyInResult).toBe(0);
    expect(comparison.scorers.map((s) => [s.id, s.status, s.before, s.after])).toEqual([
      ['mentions-city', 'unchanged', 1, 1],
      ['celsius', 'unchanged', 1, 1],
    ]);
    // This run's item at the new version beside the baseline's at the old one: named.
    expect(comparison.warnings).toEqual([`1 item was run at different versions of the dataset: ${JSON.stringify(edited)} (version 1 in the baseline, 2 in this run).`]);
    // Two runEvals results of different dataset versions: said at the run level.
    const pinned = await runEvals({ data: { dataset, version: 1 }, target: mastra.getAgent('good'), scorers: [mentionsCity] });
    expect(compareRuns(ours, pinned).warnings).toEqual(['The runs used different versions of the dataset: the baseline version 1, this run version 2.']);
    expect(compareRuns(ours, ours).warnings).toEqual([]);
  });

  it('agent-scorers report (packed): exit 1 with --fail-on regression naming the scorer; the version change warned', async () => {
    const { tarball } = await packPackage(TMP);
    const unpacked = path.join(TMP, 'unpacked');
    fs.mkdirSync(unpacked);
    expect(spawnSync('tar', ['-xzf', tarball, '-C', unpacked]).status).toBe(0);
    const bin = path.join(unpacked, 'package/dist/plugin/bin.js');
    const run = spawnSync(process.execPath, [bin, 'report', 'current.json', '--baseline', 'base.json', '--fail-on', 'regression', '--json', 'comparison.json', '--summary', 'summary.md'], {
      cwd: TMP,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('agent-scorers report: 1 scorer regressed against base.json: mentions-city\n');
    expect(run.stdout).toContain(`Warning: 1 item was run at different versions of the dataset: ${JSON.stringify(edited)}`);
    const comparison = JSON.parse(fs.readFileSync(path.join(TMP, 'comparison.json'), 'utf8'));
    const byId = Object.fromEntries(comparison.scorers.map((s: any) => [s.id, s]));
    expect(byId['mentions-city']).toMatchObject({ status: 'regressed', before: 1, after: 0.5 });
    expect(byId.celsius).toMatchObject({ status: 'unchanged', before: 1, after: 1 });
    expect(comparison.worse).toHaveLength(CITIES.length / 2);
    expect(comparison.warnings).toHaveLength(1);
    expect(fs.readFileSync(path.join(TMP, 'summary.md'), 'utf8')).toContain('mentions-city');
    expect(fs.readFileSync(path.join(TMP, 'eval-report.html'), 'utf8')).toContain('mentions-city');
    expect(fs.readFileSync(path.join(TMP, 'eval-report.junit.xml'), 'utf8')).toContain('mentions-city');

    // The same run twice: passes.
    const same = spawnSync(process.execPath, [bin, 'report', 'base.json', '--baseline', 'base.json', '--fail-on', 'regression'], { cwd: TMP, encoding: 'utf8' });
    expect(same.status, same.stderr).toBe(0);
  }, 120_000);
});

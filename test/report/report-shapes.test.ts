/**
 * The report of every result shape `runEvals` gives, from real runs: a Workflow's structured form
 * (its own, step and trajectory scorers as rows of their own), multi-turn items (`inputs`, and
 * `turns` with their own gates and thresholds, shown per turn, with `turnResults`), and the
 * comparison of each; `checkResult` names the bad field in each new part of the shape.
 */
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { checkResult, compareRuns, evalReport } from '../../src/report/index.js';
import { createScorer, runEvals, type RunEvalsResult } from '../../src/runtime/index.js';

const dataBlock = (html: string) => JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) });
type Case = { classname: string; name: string; failure?: { message: string; type: string } | ''; 'system-out'?: string };
const junitSuites = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml).testsuites.testsuite as Array<{ name: string; tests: string; failures: string; testcase: Case[] }>;
};
const text = (value: unknown) => JSON.stringify(value);

describe('a Workflow with workflow, step and trajectory scorers', () => {
  /** A two-step workflow; `sloppy` makes the plan step drop the input on a third of the items. */
  function workflow(sloppy: boolean) {
    const plan = createStep({
      id: 'plan',
      inputSchema: z.object({ input: z.string() }),
      outputSchema: z.object({ output: z.string() }),
      execute: async ({ inputData }) => ({ output: sloppy && inputData.input.length % 3 === 0 ? 'plan:?' : `plan:${inputData.input}` }),
    });
    const answer = createStep({
      id: 'answer',
      inputSchema: z.object({ output: z.string() }),
      outputSchema: z.object({ output: z.string() }),
      execute: async ({ inputData }) => ({ output: `answer:${inputData.output}` }),
    });
    return createWorkflow({ id: 'trip', inputSchema: z.object({ input: z.string() }), outputSchema: z.object({ output: z.string() }), options: { validateInputs: false } })
      .then(plan)
      .then(answer)
      .commit();
  }
  const keepsInput = createScorer({ id: 'keeps-input', description: 'The output carries the input' }).generateScore(({ run }) =>
    text(run.output).includes((run.input as { input: string }).input) ? 1 : 0,
  );
  const twoSteps = createMastraScorer({ id: 'two-steps', description: 'Both steps ran', type: 'trajectory' }).generateScore(({ run }: any) => (run.output.steps.length >= 2 ? 1 : 0));
  const DATA = ['Rome', 'Oslo', 'Lima', 'Kyiv', 'Baku', 'Doha', 'Paris', 'Seoul', 'Quito', 'Cairo', 'Minsk', 'Dakar', 'Hanoi', 'Perth', 'Sofia'].map((city) => ({
    input: { input: `a trip to ${city}` },
  }));
  const run = (sloppy: boolean) =>
    runEvals({ data: DATA, target: workflow(sloppy), scorers: { workflow: [keepsInput], steps: { plan: [keepsInput] }, trajectory: [twoSteps] } });

  test('each group is a row of its own: cards, JUnit suites and comparison ids', async () => {
    const good = await run(false);
    const sloppy = await run(true);
    const { html, junit, comparison } = evalReport(sloppy, { baseline: good, generatedAt: null });
    const labels = ['keeps-input', 'steps › plan › keeps-input', 'trajectory › two-steps'];
    expect(dataBlock(html).scorers.map((s: { id: string }) => s.id)).toEqual(labels);
    for (const label of labels) expect(html).toContain(`<span class="sid">${label}</span>`);
    const dropped = DATA.filter((d) => d.input.input.length % 3 === 0).length;
    expect(dropped).toBeGreaterThanOrEqual(4);
    const suites = junitSuites(junit);
    expect(suites.map((s) => s.name)).toEqual([...labels, 'compared with the baseline']);
    expect(suites[1].testcase).toHaveLength(DATA.length);
    // The sloppy plan step loses the input, and the workflow's output with it; the trajectory is whole.
    expect(comparison!.scorers.map((c) => [c.id, c.status])).toEqual([
      ['keeps-input', 'regressed'],
      ['steps/plan/keeps-input', 'regressed'],
      ['trajectory/two-steps', 'unchanged'],
    ]);
    expect(comparison!.worse.filter((w) => w.scorer === 'steps/plan/keeps-input')).toHaveLength(dropped);
    const card = html.slice(html.indexOf('<span class="sid">steps › plan › keeps-input</span>'));
    expect(card).toContain(`<dt>Mean</dt><dd>${Math.round(((DATA.length - dropped) / DATA.length) * 1000) / 1000}</dd>`);
  });
});

describe('multi-turn items: inputs, and turns with their own gates and thresholds', () => {
  const celsius = createScorer({ id: 'celsius', description: 'Gives °C' }).generateScore(({ run }) => (text(run.output).includes('°C') ? 1 : 0));
  const echoes = createScorer({ id: 'echoes', description: 'Repeats a word of the question' }).generateScore(({ run }) => {
    const words = text(run.input).match(/[A-Za-z]{4,}/g) ?? [];
    return words.some((w) => text(run.output).includes(w)) ? 1 : 0;
  });
  const length = createScorer({ id: 'length', description: 'Length' }).generateScore(({ run }) => Math.min(1, text(run.output).length / 100));
  const data = [
    { input: 'Weather in Oslo?' },
    { inputs: ['Plan Rome', 'And the evening?'] },
    { turns: [{ input: 'Sofia today?', gates: [celsius], scorers: [{ scorer: echoes, threshold: 0.8 }] }, { input: 'Tomorrow?' }] },
    { turns: [{ input: 'Minsk today?', gates: [celsius], scorers: [{ scorer: echoes, threshold: 0.8 }] }, { input: 'Sunday?', scorers: [length] }] },
  ];
  // Replies: Sofia's first turn has no °C, so the turn gate fails on one of two items.
  const target = (input: string) => (input === 'Sofia today?' ? 'Sofia: sunny.' : `${input} 20 °C`);

  test('each turn shows its input, reply and own scores; turnResults and per-turn rows; JUnit fails the missed turn gate', async () => {
    const result = await runEvals({ data, target, scorers: [length] });
    expect(result.turnResults).toBeDefined();
    const { html, junit } = evalReport(result, { generatedAt: null });
    const data_ = dataBlock(html);
    expect(data_.scorers.map((s: { id: string; turn: number | null; gate: boolean }) => [s.id, s.turn, s.gate])).toEqual([
      ['length', null, false],
      ['turn 0 › echoes', 0, false],
      ['turn 0 › gate › celsius', 0, true],
      ['turn 1 › length', 1, false],
    ]);
    // Items: no turns, inputs (turns without scores), turns with their scores.
    expect(data_.items[0][6]).toBeNull();
    expect(data_.items[1][6]).toEqual([['Plan Rome', 'Plan Rome 20 °C'], ['And the evening?', 'And the evening? 20 °C']]);
    expect(data_.items[2][6]).toEqual([['Sofia today?', 'Sofia: sunny.'], ['Tomorrow?', 'Tomorrow? 20 °C']]);
    // Item 2's runs: length on the whole, echoes 1 and the gate 0 on turn 0, nothing on turn 1.
    expect(data_.items[2][5].map((run: unknown[] | null) => run && run[0])).toEqual([expect.any(Number), 1, 0, null]);
    // The turns section: turn 0's gate failed (0.5), its threshold met (echoes 1); turn 1's tracked mean.
    const turns = html.slice(html.indexOf('<h2>Turns</h2>'), html.indexOf('<h2>Scorers</h2>'));
    expect(turns).toContain('<tr><th scope="row">0</th><td><span class="sid">celsius</span></td><td>gate (must average 1)</td><td>0.5</td><td><span class="badge bad">failed</span></td></tr>');
    expect(turns).toContain('<tr><th scope="row">0</th><td><span class="sid">echoes</span></td><td>threshold ≥ 0.8</td><td>1</td><td><span class="badge ok">passed</span></td></tr>');
    expect(turns).toContain('<td><span class="sid">length</span></td><td>tracked</td>');
    expect(html).toContain('Failed gates: turn 0 › gate › celsius.');

    const suites = junitSuites(junit);
    const gate = suites.find((s) => s.name === 'turn 0 › gate › celsius')!;
    expect(gate.testcase.map((c) => [c.name, c.failure === undefined ? 'ok' : (c.failure as { message: string }).message])).toEqual([
      ['#2 turn 0 Sofia today?', 'gate celsius scored 0 on turn 0 of item #2; a gate must score 1'],
      ['#3 turn 0 Minsk today?', 'ok'],
      ['gate: mean = 1', 'gate celsius averaged 0.5 on turn 0; a gate must average 1'],
    ]);
    expect(gate.testcase[0]['system-out']).toBe('turn 0 input: Sofia today?\nturn 0 reply: Sofia: sunny.\nscore: 0');
    const echo = suites.find((s) => s.name === 'turn 0 › echoes')!;
    expect(echo.testcase.map((c) => c.name)).toEqual(['#2 turn 0 Sofia today?', '#3 turn 0 Minsk today?', 'threshold: mean ≥ 0.8']);
    expect(echo.testcase.every((c) => c.failure === undefined)).toBe(true);
  });

  test('per-turn scorers and gates are compared as turns/<n>/<id> and turns/<n>/gates/<id>', async () => {
    const before = await runEvals({ data, target: (input: string) => `${input} 20 °C`, scorers: [length] });
    const after = await runEvals({ data, target, scorers: [length] });
    const ids = compareRuns(after, before).scorers.map((c) => c.id);
    expect(ids).toEqual(['length', 'turns/0/echoes', 'turns/0/gates/celsius', 'turns/1/length']);
    expect(compareRuns(after, before).worse).toContainEqual({ item: after.items[2].id, scorer: 'turns/0/gates/celsius', before: 1, after: 0 });
  });
});

describe('checkResult names the bad field in every part of the shape', () => {
  const good = (): RunEvalsResult<any> => ({
    scores: { a: 1 },
    summary: { totalItems: 1 },
    turnResults: [{ index: 0, gateResults: [{ id: 'g', passed: true, score: 1 }], scores: { t: 1 } }],
    items: [{ index: 0, id: 'x', input: 'q', output: 'r', scores: { a: { score: 1, reason: null } }, gates: { g: { score: 1, reason: null } }, turns: [{ index: 0, input: 'q', output: 'r', scores: { t: { score: 1, reason: null } } }] }],
    config: { form: 'list', gates: ['g'], scorers: ['a'], thresholds: [] },
  });
  const cases: Array<[string, (r: any) => void, string]> = [
    ['a gate run', (r) => (r.items[0].gates.g.score = 'yes'), 'items[0].gates["g"].score must be a number or null'],
    ['a turn run', (r) => (r.items[0].turns[0].scores.t.cached = 1), 'items[0].turns[0].scores["t"].cached must be a boolean'],
    ['a turn index', (r) => (r.items[0].turns[0].index = -1), 'items[0].turns[0].index must be a whole number'],
    ['a step run', (r) => (r.items[0].steps = { plan: { a: { score: NaN } } }), 'items[0].steps["plan"]["a"].score must be a number or null'],
    ['a trajectory group', (r) => (r.items[0].trajectory = []), 'items[0].trajectory must be an object keyed by scorer id'],
    ['a threshold on a run', (r) => (r.items[0].scores.a.threshold = 'high'), 'items[0].scores["a"].threshold must be a number or { min?, max? }'],
    ['an item id', (r) => (r.items[0].id = 7), 'items[0].id must be a string'],
    ['a repeated item id', (r) => r.items.push({ ...r.items[0], index: 1 }), 'items[1].id must be unique, but "x" is also the id of items[0]'],
    ['sampledOut', (r) => (r.items[0].sampledOut = 'a'), 'items[0].sampledOut must be an array of strings'],
    ['a turn gate result', (r) => (r.turnResults[0].gateResults[0].passed = 'yes'), 'turnResults[0].gateResults[0].passed must be a boolean'],
    ['turn means', (r) => (r.turnResults[0].scores.t = 'one'), 'turnResults[0].scores["t"] must be a number'],
    ['nested means', (r) => (r.scores = { agent: { a: 1 }, trajectory: { b: 'x' } }), 'scores.trajectory["b"] must be a number'],
    ['a foreign nested key', (r) => (r.scores = { agent: { a: 1 }, extra: { b: 1 } }), 'scores["extra"] must be a number (or scores must be the structured form { agent?, workflow?, steps?, trajectory? })'],
    ['config.form', (r) => (r.config.form = 'array'), "config.form must be 'list', 'agent' or 'workflow'"],
    ['config.gates', (r) => (r.config.gates = 'g'), 'config.gates must be an array of strings'],
    ['a shard', (r) => (r.shard = { index: 1, count: 'three', run: 'r', dataset: 'd' }), 'shard.count must be a whole number of 1 or more'],
    ['a forged shard 7 of 3', (r) => (r.shard = { index: 7, count: 3, run: 'r', dataset: 'd' }), 'shard.index must be a whole number from 1 to shard.count (3); got 7'],
    ['a shard 0 of 3', (r) => (r.shard = { index: 0, count: 3, run: 'r', dataset: 'd' }), 'shard.index must be a whole number from 1 to shard.count (3); got 0'],
    ['a shard run', (r) => (r.shard = { index: 1, count: 3, run: 12, dataset: 'd' }), 'shard.run must be a non-empty string'],
    ['a shard dataset', (r) => (r.shard = { index: 1, count: 3, run: 'r' }), 'shard.dataset must be a string'],
    ['a step result', (r) => (r.items[0].stepResults = { plan: { input: 1 } }), 'items[0].stepResults["plan"].status must be a string'],
    ['step results', (r) => (r.items[0].stepResults = ['plan']), 'items[0].stepResults must be an object keyed by step id'],
  ];
  test.each(cases)('%s', (_name, spoil, message) => {
    const result = good();
    expect(() => checkResult(result)).not.toThrow();
    spoil(result);
    expect(() => checkResult(result)).toThrow(new TypeError(message));
  });

  test('a saved result keeps NaN means as null (a run that gave no number): accepted, shown as missed', () => {
    // As JSON.stringify writes NaN.
    const result: any = good();
    result.thresholdResults = [{ id: 'a', passed: false, averageScore: null, threshold: 0.5 }];
    result.turnResults[0] = { index: 0, scores: { t: null } };
    const { html } = evalReport(JSON.parse(JSON.stringify(result)), { generatedAt: null });
    expect(html).toContain('Missed thresholds: a.');
  });
});

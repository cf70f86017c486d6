/**
 * Shards merged equal the whole run, field by field: `runEvals` run unsharded and as three shards
 * (`shard: { index, count }`) on a function target and on a Mastra Agent whose model is a mock, with
 * gates, thresholds, `inputs` items and `turns` items with their own gates and thresholds; the
 * shards merged by `mergeShards` and by `agent-scorers report merge` (a child process). Sets that
 * are not one whole run are refused by the CLI with one line and exit 2.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { afterAll, describe, expect, test } from 'vitest';
import { mergeShards, ShardMergeError } from '../../src/report/index.js';
import { createScorer, runEvals, type EvalItem, type RunEvalsResult } from '../../src/runtime/index.js';
import { REPO } from '../helpers/hosts.js';
import { answeringModel, userText } from '../runtime/helpers.js';

const TMP = path.join(REPO, 'test/.tmp', `merge-${process.pid}`);
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));
const BIN = path.join(REPO, 'dist/plugin/bin.js');

function cli(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [BIN, 'report', 'merge', ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const text = (value: unknown) => JSON.stringify(value);
/** The reply to a question: its words reversed, plus a temperature for some. */
const reply = (question: string) => `${question.split(' ').reverse().join(' ')}${question.length % 3 === 0 ? ' 20 °C' : ''}`;

const celsius = createScorer({ id: 'celsius', description: 'Gives °C' }).generateScore(({ run }) => (text(run.output).includes('°C') ? 1 : 0));
const length = createScorer({ id: 'length', description: 'Longer is better, up to 200 characters' }).generateScore(({ run }) => Math.min(1, text(run.output).length / 200));
const polite = createScorer({ id: 'polite', description: 'Says please back' }).generateScore(({ run }) => (/please/i.test(text(run.output)) ? 1 : 0.4));
// A turn's own assertions: the reply repeats a word of the turn's question.
const echoes = createScorer({ id: 'echoes', description: 'Reply repeats the question' }).generateScore(({ run }) => {
  const words = text(run.input).match(/[A-Za-z]{4,}/g) ?? [];
  return words.some((w) => text(run.output).includes(w)) ? 1 : 0;
});
const short = createScorer({ id: 'short', description: 'Short reply' }).generateScore(({ run }) => (text(run.output).length < 120 ? 1 : 0.5));

const QUESTIONS = [
  'What is the weather in Paris please?',
  'Will it rain in Oslo tomorrow?',
  'How warm is Lima in June?',
  'Is Cairo hot in summer?',
  'Should I pack a coat for Riga please?',
  'When does the sun set in Perth?',
  'Does it snow in Seoul?',
  'Is Quito windy?',
  'What should I wear in Dakar please?',
];

const DATA: EvalItem<string>[] = [
  ...QUESTIONS.map((input) => ({ input })),
  { inputs: ['Plan a day in Rome please', 'And the evening?'] },
  { id: 'trip', inputs: ['Two days in Baku?', 'Any museums?', 'Where to eat please?'] },
  {
    turns: [
      { input: 'Hello there, weather in Sofia?', gates: [celsius], scorers: [{ scorer: echoes, threshold: 0.6 }] },
      { input: 'And tomorrow please?', scorers: [short] },
    ],
  },
  {
    id: 'checkin',
    turns: [
      { input: 'Is Minsk cold today?', gates: [celsius], scorers: [{ scorer: echoes, threshold: 0.6 }] },
      { input: 'What about Sunday evening?', scorers: [short, { scorer: polite, threshold: 0.5 }] },
    ],
  },
];

const CONFIG = { gates: [celsius], scorers: [{ scorer: length, threshold: 0.2 }, { scorer: polite, threshold: { min: 0.5, max: 0.95 } }] };

type Run = (shard?: { index: number; count: number }) => Promise<RunEvalsResult>;

/** Every shard of these runs names one run, as the shards of one CI run do. */
const RUN = 'merge-test';
const functionTarget: Run = (shard) => runEvals({ data: DATA, target: (input: string) => reply(input), ...CONFIG, ...(shard ? { shard: { ...shard, run: RUN } } : {}) });

const agentTarget: Run = async (shard) => {
  const model = answeringModel((call: any) => reply(userText(call)));
  const agent = new Agent({ id: 'travel', name: 'travel', instructions: 'Answer briefly.', model });
  const result = await runEvals({ data: DATA, target: agent, ...CONFIG, ...(shard ? { shard: { ...shard, run: RUN } } : {}) });
  // One model call per turn of the items this run holds.
  const turns = result.items.reduce((sum, item) => sum + (item.turns?.length ?? 1), 0);
  expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(turns);
  return result;
};

describe.each([
  ['a function target', functionTarget],
  ['a Mastra Agent', agentTarget],
])('three shards of %s merged', (name, run) => {
  const dir = path.join(TMP, name.replace(/\W+/g, '-'));

  test('equal the unsharded run field by field, through mergeShards and through agent-scorers report merge', async () => {
    const whole = await run();
    const shards = [await run({ index: 1, count: 3 }), await run({ index: 2, count: 3 }), await run({ index: 3, count: 3 })];

    // The run exercises what the merge must rebuild.
    expect(whole.verdict).toBeDefined();
    expect(whole.gateResults!.map((g) => g.id)).toEqual(['celsius']);
    expect(whole.thresholdResults!.map((t) => t.id)).toEqual(['length', 'polite']);
    expect(whole.turnResults!.length).toBe(2);
    expect(whole.turnResults![0].gateResults).toBeDefined();
    expect(whole.turnResults![1].thresholdResults).toBeDefined();
    expect(whole.items.filter((item) => item.turns).length).toBe(4);

    // Each item in exactly one shard; every shard holds some; each records its place.
    const held = shards.map((s) => s.items.map((item) => item.id));
    expect(held.every((ids) => ids.length >= 3)).toBe(true);
    expect(held.flat().sort()).toEqual(whole.items.map((item) => item.id).sort());
    shards.forEach((s, i) => expect(s.shard).toEqual({ index: i + 1, count: 3, run: RUN, dataset: shards[0].shard!.dataset }));
    // A shard alone is not the whole: its aggregates are its own items'.
    expect(shards.some((s) => JSON.stringify(s.scores) !== JSON.stringify(whole.scores))).toBe(true);

    const fields = ['scores', 'gateResults', 'thresholdResults', 'turnResults', 'verdict', 'summary', 'items', 'config'] as const;
    const expectWhole = (merged: Record<string, unknown>) => {
      for (const field of fields) expect(merged[field], field).toEqual(JSON.parse(JSON.stringify(whole[field] ?? null)) ?? undefined);
      expect(Object.keys(merged).sort()).toEqual(Object.keys(whole).sort());
      expect(merged.shard).toBeUndefined();
    };
    // In any order of the shards.
    expectWhole(mergeShards([shards[2], shards[0], shards[1]]) as unknown as Record<string, unknown>);

    fs.mkdirSync(dir, { recursive: true });
    shards.forEach((s, i) => fs.writeFileSync(path.join(dir, `shard-${i + 1}.json`), JSON.stringify(s)));
    const merged = cli(['shard-2.json', 'shard-3.json', 'shard-1.json', '--out', 'merged.json'], dir);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(`Merged 3 shards (${DATA.length} items, verdict ${whole.verdict}) into ${path.join(dir, 'merged.json')}\n`);
    expectWhole(JSON.parse(fs.readFileSync(path.join(dir, 'merged.json'), 'utf8')));
  });
});

describe('agent-scorers report merge refuses what is not one whole run', () => {
  const dir = path.join(TMP, 'refusals');

  test('each refusal is one line naming the files and the problem, exit 2, and writes nothing', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const write = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), typeof value === 'string' ? value : JSON.stringify(value));
    const [one, two, three] = [await functionTarget({ index: 1, count: 3 }), await functionTarget({ index: 2, count: 3 }), await functionTarget({ index: 3, count: 3 })];
    write('one.json', one);
    write('two.json', two);
    write('three.json', three);
    write('whole.json', await functionTarget());
    // Another configuration: the same data with another threshold.
    write('other.json', await runEvals({ data: DATA, target: (input: string) => reply(input), gates: [celsius], scorers: [{ scorer: length, threshold: 0.3 }, polite], shard: { index: 3, count: 3, run: RUN } }));
    write('half.json', await functionTarget({ index: 2, count: 2 }));
    // Another dataset split the same way.
    write('fewer.json', await runEvals({ data: DATA.slice(1), target: (input: string) => reply(input), ...CONFIG, shard: { index: 3, count: 3, run: RUN } }));
    // An item of shard one copied into shard three (as a hand edit or a bad concatenation would).
    write('overlap.json', { ...three, items: [...three.items, one.items[0]] });
    write('broken.json', '{"items": [');
    write('shape.json', { ...three, items: [{ ...three.items[0], scores: { length: { score: 'high' } } }] });

    const cases: Array<[string[], string]> = [
      [['one.json', 'two.json', 'whole.json'], `whole.json is not a shard's result (it has no "shard"; run it with runEvals({ shard: { index, count } }))`],
      [['one.json', 'two.json', 'two.json'], 'shard 2 of 3 is given twice: two.json and two.json'],
      [['one.json', 'three.json'], 'shard 2 of 3 is missing'],
      [['one.json', 'two.json', 'other.json'], 'one.json and other.json ran different configurations (gates, scorers or thresholds differ): shards of different runs'],
      [['one.json', 'half.json', 'three.json'], 'one.json is shard 1 of 3, but half.json is shard 2 of 2: shards of different runs'],
      [['one.json', 'two.json', 'fewer.json'], 'one.json and fewer.json ran different datasets (their items differ): shards of different runs'],
      [['one.json', 'two.json', 'overlap.json'], `item ${JSON.stringify(one.items[0].id)} is in both one.json and overlap.json`],
      [['one.json', 'two.json', 'broken.json'], `${path.join(dir, 'broken.json')}: not JSON (`],
      [['one.json', 'two.json', 'shape.json'], `${path.join(dir, 'shape.json')}: not a runEvals result: items[0].scores["length"].score must be a number or null`],
      [['one.json', 'two.json', 'gone.json'], `${path.join(dir, 'gone.json')}: no such file`],
    ];
    for (const [files, message] of cases) {
      const run = cli([...files, '--out', 'merged.json'], dir);
      expect(run.code, files.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0].startsWith(`agent-scorers report merge: ${message}`), `${lines[0]}\n  should start with\nagent-scorers report merge: ${message}`).toBe(true);
      expect(fs.existsSync(path.join(dir, 'merged.json'))).toBe(false);
    }
    // Bad usage: no --out, no files.
    expect(cli(['one.json', 'two.json', 'three.json'], dir)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^agent-scorers report merge: give --out FILE/) });
    expect(cli(['--out', 'merged.json'], dir)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^agent-scorers report merge: no shard results given/) });
    // The same checks through the API throw ShardMergeError.
    expect(() => mergeShards([one, two])).toThrow(new ShardMergeError('shard 3 of 3 is missing'));
  });
});

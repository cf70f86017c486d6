/**
 * Mastra's datasets and experiments, on a real LibSQL file: `runEvals({ data: dataset })` runs the
 * dataset's items (known by their dataset item ids), and `runEvals({ experiment })` records the run
 * as an experiment that Mastra's own APIs read back exactly as they read what Mastra's own
 * `startExperiment` records for the same dataset, Agent (a mock model) and scorers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { LibSQLStore } from '@mastra/libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { answeringModel, userText } from './helpers.js';

const TMP = path.resolve(import.meta.dirname, '../.tmp', `mastra-experiments-${process.pid}`);
fs.mkdirSync(TMP, { recursive: true });
const stores: LibSQLStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

const ANSWERS: Record<string, string> = {
  'What is the capital of France?': 'Paris is the capital of France.',
  'What is the capital of Japan?': 'Tokyo.',
  'What is the weather in Paris?': 'Sunny in Paris.',
  'What is the weather in Oslo?': 'Cold and grey.',
};
const ITEMS = [
  { input: 'What is the capital of France?', groundTruth: 'Paris', metadata: { topic: 'capitals' } },
  { input: 'What is the capital of Japan?', groundTruth: 'Tokyo' },
  { input: 'What is the weather in Paris?', groundTruth: { city: 'Paris' }, metadata: { topic: 'weather' } },
  { input: 'What is the weather in Oslo?' },
];

const text = (value: unknown) => JSON.stringify(value);
// A Mastra scorer and one of this package's, both deterministic, both reading Mastra's agent shapes.
const mentionsParis = createMastraScorer({ id: 'mentions-paris', name: 'Mentions Paris', description: 'd', type: 'agent' })
  .generateScore(({ run }) => (text(run.output).includes('Paris') ? 1 : 0))
  .generateReason(({ score }) => (score === 1 ? 'names Paris' : 'no Paris'));
const short = createScorer({ id: 'short', description: 'Short answers', type: 'agent' }).generateScore(({ run }) => Math.min(1, 40 / text(run.output).length));

async function setup(name: string) {
  const storage = new LibSQLStore({ id: name, url: `file:${path.join(TMP, `${name}.db`)}` });
  stores.push(storage);
  const model = answeringModel((call: any) => ANSWERS[userText(call)] ?? `no answer for ${userText(call)}`);
  const agent = new Agent({ id: 'geo', name: 'Geo', instructions: 'Answer briefly.', model });
  const mastra = new Mastra({ agents: { geo: agent }, scorers: { mentionsParis, short: short as any }, storage, logger: false });
  const dataset = await mastra.datasets.create({ name: 'questions' });
  await dataset.addItems({ items: ITEMS });
  return { storage, model, agent, mastra, dataset };
}

async function scoresOf(storage: LibSQLStore, runId: string) {
  const store = (await storage.getStore('scores'))!;
  const { scores } = await store.listScoresByRunId({ runId, pagination: { page: 0, perPage: 100 } });
  return scores;
}

async function rowsOf(dataset: any, experimentId: string) {
  const { results } = await dataset.listExperimentResults({ experimentId, page: 0, perPage: 100 });
  return results as any[];
}

describe('a Mastra Dataset as data', () => {
  it('runs the items at the latest or a pinned version, each known by its dataset item id', async () => {
    const { dataset, agent, model } = await setup('data');
    const v1 = (await dataset.getDetails()).version;
    const listed = (await dataset.listItems({ version: v1 })) as any[];
    await dataset.addItem({ input: 'What is the capital of Peru?' });
    const latest = await runEvals({ data: dataset, target: agent, scorers: [mentionsParis] });
    expect(latest.dataset).toEqual({ id: dataset.id, version: v1 + 1 });
    expect(latest.items).toHaveLength(5);
    expect(latest.experiment).toBeUndefined();

    const calls = model.doStreamCalls.length + model.doGenerateCalls.length;
    const pinned = await runEvals({ data: { dataset, version: v1 }, target: agent, scorers: [mentionsParis] });
    expect(model.doStreamCalls.length + model.doGenerateCalls.length - calls).toBe(4);
    expect(pinned.dataset).toEqual({ id: dataset.id, version: v1 });
    expect(new Set(pinned.items.map((i) => i.id))).toEqual(new Set(listed.map((i) => i.id)));
    const byId = new Map(listed.map((i) => [i.id, i]));
    for (const item of pinned.items) {
      expect(item.input).toBe(byId.get(item.id).input);
      expect(item.groundTruth).toEqual(byId.get(item.id).groundTruth ?? undefined);
      expect(item.scores['mentions-paris']!.score).toBe(ANSWERS[item.input as string]!.includes('Paris') ? 1 : 0);
    }
    // Shards choose by the dataset item ids: every item in exactly one shard.
    const shards = await Promise.all([1, 2, 3].map((index) => runEvals({ data: { dataset, version: v1 }, target: agent, scorers: [mentionsParis], shard: { index, count: 3 } })));
    expect(shards.flatMap((s) => s.items.map((i) => i.id)).sort()).toEqual(listed.map((i) => i.id).sort());
  });

  it('refuses an experiment without a dataset, and a bad version', async () => {
    const { dataset, agent } = await setup('refusals');
    await expect(runEvals({ data: [{ input: 'x' }], target: agent, scorers: [mentionsParis], experiment: {} })).rejects.toThrow(
      'runEvals: experiment records the run as an experiment of a Mastra dataset; give a Mastra Dataset as data',
    );
    await expect(runEvals({ data: { dataset, version: 0 }, target: agent, scorers: [mentionsParis] })).rejects.toThrow('runEvals: data.version must be a dataset version');
    expect(await dataset.listExperiments()).toMatchObject({ experiments: [] });
  });
});

describe('runEvals({ experiment }) beside Mastra’s own startExperiment', () => {
  it('stores the same input, output, ground truth and scores per item; compareExperiments pairs every item', async () => {
    const { dataset, agent, model, mastra, storage } = await setup('differential');
    const native = await dataset.startExperiment({ targetType: 'agent', targetId: 'geo', scorers: [mentionsParis, short as any], name: 'native' });
    expect(native.status).toBe('completed');
    const nativeCalls = model.doStreamCalls.length + model.doGenerateCalls.length;
    expect(nativeCalls).toBe(4);

    const ours = await runEvals({ data: dataset, target: agent, scorers: [mentionsParis, short], experiment: { name: 'ci', metadata: { branch: 'main' } } });
    expect(model.doStreamCalls.length + model.doGenerateCalls.length - nativeCalls).toBe(4);
    const prompts = [...model.doStreamCalls, ...model.doGenerateCalls].map((call) => userText(call as any)).sort();
    expect(prompts).toEqual([...Object.keys(ANSWERS), ...Object.keys(ANSWERS)].sort());
    const id = ours.experiment!.id;
    expect(ours.dataset).toEqual({ id: dataset.id, version: (await dataset.getDetails()).version });

    const experiment = (await dataset.getExperiment({ experimentId: id }))!;
    expect(experiment).toMatchObject({
      name: 'ci',
      status: 'completed',
      targetType: null,
      totalItems: 4,
      succeededCount: 4,
      failedCount: 0,
      skippedCount: 0,
      datasetVersion: ours.dataset!.version,
      metadata: { target: { type: 'agent', id: 'geo' }, runner: 'agent-scorers', branch: 'main' },
    });

    const nativeRows = new Map((await rowsOf(dataset, native.experimentId)).map((r) => [r.itemId, r]));
    const ourRows = await rowsOf(dataset, id);
    expect(ourRows).toHaveLength(4);
    for (const row of ourRows) {
      const twin = nativeRows.get(row.itemId);
      expect(twin, row.itemId).toBeDefined();
      expect(row.input).toEqual(twin.input);
      expect(row.output).toEqual(twin.output);
      expect(row.output.text).toBe(ANSWERS[row.input]);
      expect(row.groundTruth).toEqual(twin.groundTruth);
      expect(row.error).toBeNull();
      expect(twin.error).toBeNull();
    }

    const key = (s: any) => `${s.entityId} ${s.scorerId}`;
    const nativeScores = new Map((await scoresOf(storage, native.experimentId)).map((s: any) => [key(s), s]));
    const ourScores = await scoresOf(storage, id);
    expect(ourScores).toHaveLength(8);
    expect(nativeScores.size).toBe(8);
    for (const score of ourScores as any[]) {
      const twin = nativeScores.get(key(score));
      expect(twin, key(score)).toBeDefined();
      for (const field of ['score', 'reason', 'input', 'output', 'additionalContext', 'source', 'scorerId'] as const) expect(score[field], field).toEqual(twin[field]);
      expect(score.scorer.name).toBe(twin.scorer.name);
      // What Mastra's submitExperimentResult stores for a target-less experiment: an external entity.
      expect(score.entityType).toBe('EXTERNAL');
      expect(twin.entityType).toBe('AGENT');
    }

    const compared = await mastra.datasets.compareExperiments({ experimentIds: [native.experimentId, id] });
    expect(compared.items).toHaveLength(4);
    for (const item of compared.items) {
      const a = item.results[native.experimentId]!;
      const b = item.results[id]!;
      expect(Object.keys(b.scores).sort()).toEqual(['mentions-paris', 'short']);
      expect(b.scores).toEqual(a.scores);
      for (const value of Object.values(b.scores)) expect(typeof value).toBe('number');
    }
  });

  it('a Workflow target: the same stored output (the workflow’s result) and scores as Mastra’s runner', async () => {
    const storage = new LibSQLStore({ id: 'workflow', url: `file:${path.join(TMP, 'workflow.db')}` });
    stores.push(storage);
    const shout = createStep({
      id: 'shout',
      inputSchema: z.object({ word: z.string() }),
      outputSchema: z.object({ result: z.string() }),
      execute: async ({ inputData }) => ({ result: `${inputData.word.toUpperCase()}!` }),
    });
    const flow = createWorkflow({ id: 'flow', inputSchema: z.object({ word: z.string() }), outputSchema: z.object({ result: z.string() }) }).then(shout).commit();
    const loud = createMastraScorer({ id: 'loud', description: 'd' }).generateScore(({ run }) => (text(run.output).includes('!') ? 1 : 0));
    const mastra = new Mastra({ workflows: { flow }, scorers: { loud }, storage, logger: false });
    const dataset = await mastra.datasets.create({ name: 'words' });
    await dataset.addItems({ items: [{ input: { word: 'hello' }, groundTruth: 'HELLO!' }, { input: { word: 'quiet' } }] });
    const native = await dataset.startExperiment({ targetType: 'workflow', targetId: 'flow', scorers: [loud] });
    const ours = await runEvals({ data: dataset, target: mastra.getWorkflow('flow'), scorers: [loud], experiment: {} });
    expect((await dataset.getExperiment({ experimentId: ours.experiment!.id }))!.metadata).toMatchObject({ target: { type: 'workflow', id: 'flow' } });
    const nativeRows = new Map((await rowsOf(dataset, native.experimentId)).map((r) => [r.itemId, r]));
    const ourRows = await rowsOf(dataset, ours.experiment!.id);
    expect(ourRows).toHaveLength(2);
    for (const row of ourRows) {
      const twin = nativeRows.get(row.itemId);
      expect(row.output).toEqual({ result: `${row.input.word.toUpperCase()}!` });
      expect([row.input, row.output, row.groundTruth]).toEqual([twin.input, twin.output, twin.groundTruth]);
    }
    const nativeScores = (await scoresOf(storage, native.experimentId)).map((s: any) => [s.entityId, s.score, s.output]).sort();
    const ourScores = (await scoresOf(storage, ours.experiment!.id)).map((s: any) => [s.entityId, s.score, s.output]).sort();
    expect(ourScores).toEqual(nativeScores);
    expect(ourScores).toHaveLength(2);
  });

  it('records a failing item with its error, and does not finalize a run that stopped', async () => {
    const { dataset } = await setup('failing');
    const failing = (input: string) => {
      if (input.includes('Japan')) throw new Error('the target gave up');
      return ANSWERS[input];
    };
    await expect(runEvals({ data: dataset, target: failing, scorers: [mentionsParis], experiment: { id: 'failing-run' } })).rejects.toThrow(/failed in the target: the target gave up/);
    const rows = await rowsOf(dataset, 'failing-run');
    const failed = rows.find((r) => r.input.includes('Japan'));
    expect(failed.error).toEqual({ message: 'the target gave up' });
    expect(failed.output).toBeNull();
    expect((await dataset.getExperiment({ experimentId: 'failing-run' }))!.status).toBe('running');
  });

  it('a retried run converges on the same rows, before and after the experiment is finished', async () => {
    const { dataset, storage } = await setup('retry');
    const answer = (input: string) => ANSWERS[input];
    const config = { data: dataset, target: answer, scorers: [mentionsParis], experiment: { id: 'ci-42' } };
    const first = await runEvals({ ...config, shard: { index: 1, count: 2 } });
    expect((await dataset.getExperiment({ experimentId: 'ci-42' }))!.status).toBe('running');
    const again = await runEvals({ ...config, shard: { index: 1, count: 2 } });
    expect(again.items).toEqual(first.items);
    expect(await rowsOf(dataset, 'ci-42')).toHaveLength(first.items.length);
    await runEvals({ ...config, shard: { index: 2, count: 2 } });
    const done = (await dataset.getExperiment({ experimentId: 'ci-42' }))!;
    expect(done).toMatchObject({ status: 'completed', succeededCount: 4, totalItems: 4 });
    const rowsBefore = await rowsOf(dataset, 'ci-42');
    // After finishing: the same results are not an error and change nothing.
    await runEvals({ ...config, shard: { index: 2, count: 2 } });
    expect(await rowsOf(dataset, 'ci-42')).toEqual(rowsBefore);
    expect(await dataset.getExperiment({ experimentId: 'ci-42' })).toEqual(done);
    expect(await scoresOf(storage, 'ci-42')).toHaveLength(4);
    // Different results for a finished experiment are.
    await expect(runEvals({ ...config, target: (input: string) => `${answer(input)}!` })).rejects.toThrow(
      /experiment "ci-42" is already finished, and this run's results differ from the stored ones for items /,
    );
  });
});

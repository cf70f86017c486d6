/**
 * Shards of one run recording into one Mastra experiment, on one real LibSQL file: three shard
 * processes (the built package) starting at the same moment store every item exactly once, and the
 * last one finalizes the experiment with the full counts; a shard run again changes nothing. Then the
 * worst interleaving of two creates, forced: both shards pass Mastra's check before either inserts;
 * and a shard with no items, run after the experiment finished, does not reopen it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Mastra } from '@mastra/core/mastra';
import { LibSQLStore } from '@mastra/libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeShards } from '../../src/report/merge.js';
import { shardOf } from '../../src/runtime/evals/eval-identity.js';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { REPO } from '../helpers/hosts.js';

const TMP = path.join(REPO, 'test/.tmp', `experiment-shards-${process.pid}`);
fs.mkdirSync(TMP, { recursive: true });
const stores: LibSQLStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});
const SHARD = path.join(REPO, 'test/fixtures/experiment-shard/shard.mjs');

function shard(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SHARD, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function newDataset(name: string, size: number) {
  const file = path.join(TMP, `${name}.db`);
  const storage = new LibSQLStore({ id: name, url: `file:${file}` });
  stores.push(storage);
  const mastra = new Mastra({ storage, logger: false });
  const dataset = await mastra.datasets.create({ name });
  await dataset.addItems({ items: Array.from({ length: size }, (_, i) => ({ input: `question ${i + 1}`, groundTruth: `answer ${i + 1}` })) });
  return { file, storage, mastra, dataset };
}

async function allRows(dataset: any, experimentId: string) {
  const rows: any[] = [];
  for (let page = 0; ; page++) {
    const { results, pagination } = await dataset.listExperimentResults({ experimentId, page, perPage: 100 });
    rows.push(...results);
    if (!pagination.hasMore) break;
  }
  return rows;
}

describe('three shard processes, one experiment', () => {
  it('stores every item once, finalizes after the last, and a shard run again changes nothing', async () => {
    const { file, dataset, storage } = await newDataset('three', 30);
    const go = path.join(TMP, 'go');
    const running = [1, 2, 3].map((index) => shard([file, dataset.id, String(index), '3', go]));
    // Every process loaded and waiting, then all start at once.
    while (![1, 2, 3].every((index) => fs.existsSync(`${go}.ready-${index}`))) await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(go, '');
    const done = await Promise.all(running);
    for (const run of done) expect(run.code, run.stderr).toBe(0);
    const results = done.map((run) => JSON.parse(run.stdout));
    const ids = new Set(results.map((r) => r.experiment.id));
    expect(ids.size).toBe(1);
    const [id] = ids as Set<string>;
    expect(results.flatMap((r) => r.items).length).toBe(30);
    // Merged, the shards' results still name the dataset and the experiment they recorded.
    const merged = mergeShards(results);
    expect(merged.items).toHaveLength(30);
    expect(merged.experiment).toEqual({ id });
    expect(merged.dataset).toEqual({ id: dataset.id, version: (await dataset.getDetails()).version });

    const rows = await allRows(dataset, id);
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.itemId)).size).toBe(30);
    for (const row of rows) expect(row.output).toBe(`answer to ${row.input}`);
    const experiment = (await dataset.getExperiment({ experimentId: id }))!;
    expect(experiment).toMatchObject({ name: 'nightly', status: 'completed', totalItems: 30, succeededCount: 30, failedCount: 0, skippedCount: 0 });
    const { scores } = await (await storage.getStore('scores'))!.listScoresByRunId({ runId: id, pagination: { page: 0, perPage: 100 } });
    expect(scores).toHaveLength(30);
    expect((await dataset.listExperiments({ perPage: 100 })).experiments).toHaveLength(1);

    // A retried job of shard 2: same rows, same experiment, no error.
    const again = await shard([file, dataset.id, '2', '3', go]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).experiment.id).toBe(id);
    expect(await allRows(dataset, id)).toEqual(rows);
    expect(await dataset.getExperiment({ experimentId: id })).toEqual(experiment);
  }, 60_000);
});

describe('creating at the same moment', () => {
  const long = createScorer({ id: 'long', description: 'd' }).generateScore(({ run }) => Math.min(1, String(run.output).length / 20));
  const target = (input: string) => `answer to ${input}`;

  it('two shards both passing the check before either inserts converge on one complete experiment', async () => {
    const { file, dataset } = await newDataset('race', 6);
    // Shard 2 has its own process's view of the file: its own store, whose insert waits for shard 1.
    const second = new LibSQLStore({ id: 'race-2', url: `file:${file}` });
    stores.push(second);
    const mastra2 = new Mastra({ storage: second, logger: false });
    const dataset2 = await mastra2.datasets.get({ id: dataset.id });
    const experiments2: any = await second.getStore('experiments');
    let release!: () => void;
    const firstDone = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atInsert = new Promise<void>((resolve) => (reached = resolve));
    const insert = experiments2.createExperiment.bind(experiments2);
    experiments2.createExperiment = async (input: any) => {
      reached();
      await firstDone;
      return insert(input);
    };
    const config = { target, scorers: [long], experiment: {} };
    const two = runEvals({ ...config, data: dataset2, shard: { index: 2, count: 2, run: 'race-run' } });
    // Shard 2 has passed Mastra's check (the experiment is absent) and waits at its insert; shard 1 now
    // creates the experiment, submits its items and finds shard 2's missing.
    await atInsert;
    expect(await dataset.listExperiments()).toMatchObject({ experiments: [] });
    const one = await runEvals({ ...config, data: dataset, shard: { index: 1, count: 2, run: 'race-run' } });
    const id = one.experiment!.id;
    expect((await dataset.getExperiment({ experimentId: id }))!.status).toBe('running');
    release();
    await two;
    const rows = await allRows(dataset, id);
    expect(rows.map((r) => r.itemId).sort()).toEqual([...one.items, ...(await two).items].map((i) => i.id).sort());
    expect(rows).toHaveLength(6);
    expect(await dataset.getExperiment({ experimentId: id })).toMatchObject({ status: 'completed', totalItems: 6, succeededCount: 6, metadata: { run: 'race-run' } });
  });

  it('a shard with no items creates nothing, so it cannot reopen a finished experiment', async () => {
    const { file, dataset } = await newDataset('empty-shard', 2);
    const ids = ((await dataset.listItems({ version: (await dataset.getDetails()).version })) as any[]).map((item) => item.id);
    const assigned = shardOf(ids, 3);
    const empty = [1, 2, 3].find((index) => !assigned.includes(index))!;
    // The empty shard's own store: were it to create, its insert would wait until the others finished.
    const own = new LibSQLStore({ id: 'empty-shard-own', url: `file:${file}` });
    stores.push(own);
    const ownDataset = await new Mastra({ storage: own, logger: false }).datasets.get({ id: dataset.id });
    const experiments: any = await own.getStore('experiments');
    let release!: () => void;
    const othersDone = new Promise<void>((resolve) => (release = resolve));
    const inserts: string[] = [];
    const insert = experiments.createExperiment.bind(experiments);
    experiments.createExperiment = async (input: any) => {
      inserts.push(input.id);
      await othersDone;
      return insert(input);
    };
    const run = (data: any, index: number) => runEvals({ data, target, scorers: [long], experiment: {}, shard: { index, count: 3, run: 'small' } });
    const emptyRun = run(ownDataset, empty);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const results = [];
    for (const index of [1, 2, 3].filter((i) => i !== empty)) results.push(await run(dataset, index));
    const id = results[0]!.experiment!.id;
    const finished = (await dataset.getExperiment({ experimentId: id }))!;
    expect(finished).toMatchObject({ status: 'completed', succeededCount: 2, totalItems: 2 });
    release();
    expect((await emptyRun).items).toEqual([]);
    expect(inserts).toEqual([]);
    expect(await dataset.getExperiment({ experimentId: id })).toEqual(finished);
    // Run again after the others finished: still nothing changes.
    await run(ownDataset, empty);
    expect(await dataset.getExperiment({ experimentId: id })).toEqual(finished);
  });
});

/**
 * Item identity and shards: an item is known by its `id` or a hash of its inputs (checked against
 * node:crypto), every item lands in exactly one shard whatever the data order, and the shards of a run
 * merged give the unsharded run field by field; a set that cannot be one run is refused by name.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { datasetHash, itemIdentities, shardOf } from '../../src/runtime/evals/eval-identity.js';
import { createScorer, runEvals } from '../../src/runtime/index.js';
import { mergeShards, ShardMergeError } from '../../src/report/merge.js';

const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

describe('item identities', () => {
  it('an id as given, else a hash of the inputs with keys sorted; repeats numbered in data order', () => {
    const ids = itemIdentities([
      { input: 'a' },
      { id: 7, input: 'a' },
      { input: { b: 1, a: [2, { d: 3, c: 4 }] } },
      { inputs: ['x', 'y'], groundTruth: 'not part of it' },
      { turns: [{ input: 'x', gates: [] }, { input: 'y' }] },
      { input: 'a', groundTruth: 'other' },
    ]);
    expect(ids).toEqual([
      sha({ input: 'a' }),
      '7',
      sha({ input: { a: [2, { c: 4, d: 3 }], b: 1 } }),
      sha({ inputs: ['x', 'y'] }),
      sha({ turns: ['x', 'y'] }),
      `${sha({ input: 'a' })}#2`,
    ]);
  });

  it('refuses two items with one id, and an id that is neither a string nor a number', () => {
    expect(() => itemIdentities([{ id: 'q', input: 1 }, { id: 'q', input: 2 }])).toThrow('runEvals: data items 0 and 1 have the same id "q"; ids must be unique');
    expect(() => itemIdentities([{ id: { no: 1 }, input: 1 }])).toThrow('runEvals: data item 0: "id" must be a string or a number');
  });
});

describe('shards', () => {
  const ids = Array.from({ length: 101 }, (_, i) => `item-${i}`);

  it('every item in exactly one shard, sizes within one, the same choice in any order', () => {
    for (const count of [1, 2, 3, 7]) {
      const shards = shardOf(ids, count);
      expect(shards.every((s) => s >= 1 && s <= count)).toBe(true);
      const sizes = Array.from({ length: count }, (_, i) => shards.filter((s) => s === i + 1).length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      const reversed = [...ids].reverse();
      const again = shardOf(reversed, count);
      reversed.forEach((id, i) => expect(again[i]).toBe(shards[ids.indexOf(id)]));
    }
    expect(datasetHash(ids)).toBe(datasetHash([...ids].reverse()));
    expect(datasetHash(ids)).not.toBe(datasetHash(ids.slice(1)));
  });

  const exact = createScorer({ id: 'exact', description: 'd' }).generateScore(({ run }) => (JSON.stringify(run.output).includes(String(run.groundTruth)) ? 1 : 0));
  const long = createScorer({ id: 'long', description: 'd' }).generateScore(({ run }) => Math.min(1, JSON.stringify(run.output).length / 40));
  const present = createScorer({ id: 'present', description: 'd' }).generateScore(({ run }) => (JSON.stringify(run.output).length > 2 ? 1 : 0));
  const data = [
    ...Array.from({ length: 12 }, (_, i) => ({ input: `q${i}`, groundTruth: i % 3 === 0 ? 'nope' : `q${i}` })),
    { inputs: ['a', 'b'], groundTruth: 'b' },
    { turns: [{ input: 'c', gates: [present] }, { input: 'dd', scorers: [{ scorer: long, threshold: 0.1 }] }] },
  ];
  const config = { data, scorers: [{ scorer: exact, threshold: 0.7 }, long], gates: [present], target: (input: string) => `answer to ${input}` };

  it('three shards merged equal the unsharded run, field by field', async () => {
    const whole = await runEvals(config);
    const shards = await Promise.all([1, 2, 3].map((index) => runEvals({ ...config, shard: { index, count: 3 } })));
    expect(shards.map((s) => s.items.length).reduce((a, b) => a + b)).toBe(data.length);
    expect(shards.every((s) => s.shard?.count === 3 && s.shard.run === shards[0]!.shard!.run && s.shard.dataset === datasetHash(itemIdentities(data)))).toBe(true);
    // Each shard's items keep their place in the whole dataset.
    for (const shard of shards) for (const item of shard.items) expect(item).toEqual(whole.items[item.index]);
    const merged = mergeShards([shards[2]!, shards[0]!, shards[1]!]);
    expect(merged).toEqual(whole);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(JSON.parse(JSON.stringify(whole)));
    expect(whole.verdict).toBe('scored');
    expect(whole.turnResults).toHaveLength(2);
  });

  it('refuses what cannot be one run, naming the shards', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((index) => runEvals({ ...config, shard: { index, count: 3 } })));
    const names = ['a.json', 'b.json', 'c.json'];
    expect(() => mergeShards([a!, b!], names)).toThrow('shard 3 of 3 is missing');
    expect(() => mergeShards([a!, a!, c!], names)).toThrow('shard 1 of 3 is given twice: a.json and b.json');
    const other = await runEvals({ ...config, scorers: [long], shard: { index: 2, count: 3 } });
    expect(() => mergeShards([a!, other, c!], names)).toThrow('a.json and b.json ran different configurations');
    const fewer = await runEvals({ ...config, data: data.slice(1), shard: { index: 2, count: 3 } });
    expect(() => mergeShards([a!, fewer, c!], names)).toThrow('a.json and b.json ran different datasets');
    const twoWay = await runEvals({ ...config, shard: { index: 2, count: 2 } });
    expect(() => mergeShards([a!, twoWay], names)).toThrow('a.json is shard 1 of 3, but b.json is shard 2 of 2');
    const unsharded = await runEvals(config);
    expect(() => mergeShards([unsharded], names)).toThrow("a.json is not a shard's result");
    const overlapping = { ...b!, items: [...b!.items, a!.items[0]!] };
    expect(() => mergeShards([a!, overlapping, c!], names)).toThrow(ShardMergeError);
    expect(() => mergeShards([a!, overlapping, c!], names)).toThrow(`item ${JSON.stringify(a!.items[0]!.id)} is in both a.json and b.json`);
  });

  it('refuses a shard that is not one of the count', async () => {
    for (const shard of [{ index: 0, count: 3 }, { index: 4, count: 3 }, { index: 1.5, count: 3 }, { index: 1, count: 0 }]) {
      await expect(runEvals({ ...config, shard })).rejects.toThrow('runEvals: shard must be { index, count } with whole numbers and 1 <= index <= count');
    }
  });
});

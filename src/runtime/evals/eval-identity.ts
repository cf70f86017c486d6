/**
 * Item identity and shards. An item is known by its `id` when it has one, else by a hash of what it
 * asks (its `input`, `inputs` or turn inputs), so two runs of one dataset match item for item whatever
 * their order, and a shard holds the same items on every machine.
 */
import { sha256Hex } from '../sha256.js';

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  const seen = new Set<unknown>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk((v as { toJSON: () => unknown }).toJSON());
    if (seen.has(v)) throw new TypeError('an item input refers to itself, so it has no JSON form; give the item an "id"');
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map(walk);
    else {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) sorted[key] = walk((v as Record<string, unknown>)[key]);
      out = sorted;
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'undefined';
}

const hash16 = (text: string) => sha256Hex(text).slice(0, 16);

/** What identifies an item without an `id`: its inputs only (not its assertions or ground truth). */
function asked(item: Record<string, unknown>): unknown {
  if (Array.isArray(item.turns)) return { turns: item.turns.map((turn: any) => turn?.input) };
  if (Array.isArray(item.inputs)) return { inputs: item.inputs };
  return { input: item.input };
}

/**
 * Every item's identity, in data order: `String(id)` for an item with an `id` (two equal ids are an
 * error), else 16 hex digits of a SHA-256 of its inputs; a repeated question gets `#2`, `#3`, ... in
 * data order, so repeated items stay distinct.
 */
export function itemIdentities(data: ReadonlyArray<Record<string, unknown>>, where = 'runEvals'): string[] {
  const byId = new Map<string, number>();
  const ids = data.map((item, index) => {
    const id = item.id;
    if (id === undefined) return undefined;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
      throw new TypeError(`${where}: data item ${index}: "id" must be a string or a number`);
    }
    const text = String(id);
    const first = byId.get(text);
    if (first !== undefined) throw new TypeError(`${where}: data items ${first} and ${index} have the same id ${JSON.stringify(text)}; ids must be unique`);
    byId.set(text, index);
    return text;
  });
  const repeats = new Map<string, number>();
  return data.map((item, index) => {
    if (ids[index] !== undefined) return ids[index]!;
    const hash = hash16(canonicalJson(asked(item)));
    const seen = (repeats.get(hash) ?? 0) + 1;
    repeats.set(hash, seen);
    const identity = seen === 1 ? hash : `${hash}#${seen}`;
    if (byId.has(identity)) throw new TypeError(`${where}: data item ${index}'s hash ${identity} equals data item ${byId.get(identity)}'s id; give item ${index} an "id"`);
    return identity;
  });
}

/** A fingerprint of the whole dataset: every identity, order aside. */
export const datasetHash = (identities: readonly string[]): string => hash16([...identities].sort().join('\n'));

/**
 * Which shard (1-based) each item goes to: the items sorted by a hash of their identity, dealt out in
 * turn. Every item lands in exactly one shard, shards differ in size by at most one, and the choice
 * depends on the set of items, not on their order.
 */
export function shardOf(identities: readonly string[], count: number): number[] {
  const order = identities.map((identity, index) => ({ key: sha256Hex(identity), index })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const shards = new Array<number>(identities.length);
  order.forEach(({ index }, position) => (shards[index] = (position % count) + 1));
  return shards;
}

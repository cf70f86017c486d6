/**
 * Which scorer run a judge cache reply belongs to, so that `runEvals` can mark an item's score
 * `cached` for every scorer judged through `cachedJudge`: this package's (whose results also count
 * their judge calls), Mastra's `createScorer` and `@mastra/evals`' prebuilt scorers (whose results say
 * nothing of where a reply came from).
 *
 * `runEvals` runs each scorer inside `tracked()`, which gives the run an async context (Node's
 * `AsyncLocalStorage`) holding a tally; the judge cache reports each reply it gives (a hit, or a live
 * call it recorded) to the tally of the context it is called in. The context follows the scorer
 * through Mastra's own steps, agents and streams, and two items scored at once keep apart. The tally
 * is kept beside the result object the scorer returned (Mastra's `runEvals` stores that very object),
 * and read back when the item's result is built.
 *
 * The storage is shared through `globalThis`, so a judge made by one copy of this module (Vite's SSR
 * copy) reports to a run started by another (Node's). `node:async_hooks` is loaded on the first tracked
 * run only; where it does not exist (a browser), nothing is tracked and `cached` is read from what the
 * scorer's result reports, as before.
 */

export interface JudgeCacheTally {
  /** Replies answered from the file (or shared with an identical request in flight). */
  hits: number;
  /** Replies the model was asked for (and recorded). */
  misses: number;
}

interface Context extends JudgeCacheTally {
  /** The run this one is nested in (a scorer that runs another): it counts the same replies. */
  parent?: Context;
}

interface Storage {
  run<R>(store: Context, fn: () => R): R;
  getStore(): Context | undefined;
}

const SHARED_KEY = Symbol.for('agent-scorers.judge-cache.tracker');
const shared: { storage?: Storage; loading?: Promise<Storage | undefined> } = ((globalThis as any)[SHARED_KEY] ??= {});

// Built at run time so that no bundler follows it (see judge-cache-store.ts).
const node = (name: string): Promise<any> => import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ `node:${name}`);

function storage(): Promise<Storage | undefined> {
  if (shared.storage) return Promise.resolve(shared.storage);
  return (shared.loading ??= node('async_hooks').then(
    (hooks) => (shared.storage = new hooks.AsyncLocalStorage() as Storage),
    () => undefined,
  ));
}

/** Called by the judge cache for each reply it gives: counted for the scorer run it is part of, if any. */
export function reportJudgeReply(hit: boolean): void {
  for (let context = shared.storage?.getStore(); context; context = context.parent) {
    if (hit) context.hits++;
    else context.misses++;
  }
}

const tallies = new WeakMap<object, JudgeCacheTally>();

/** Runs a scorer (`run` calls its `run`), counting the judge cache replies it was given. */
export async function tracked<T>(run: () => Promise<T> | T): Promise<T> {
  const als = await storage();
  if (!als) return run();
  const context: Context = { hits: 0, misses: 0, parent: als.getStore() };
  const result = await als.run(context, run);
  if (result !== null && typeof result === 'object' && context.hits + context.misses > 0) {
    tallies.set(result, { hits: context.hits, misses: context.misses });
  }
  return result;
}

/** The judge cache replies counted while the scorer that returned `result` ran, if any. */
export function judgeCacheTally(result: unknown): JudgeCacheTally | undefined {
  return result !== null && typeof result === 'object' ? tallies.get(result) : undefined;
}

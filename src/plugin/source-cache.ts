/**
 * Memoises the static reading of config and scorer files by size and modification time, so a
 * watch rebuild or a dev-server rescan only parses what changed.
 */
import fs from 'node:fs';
import { analysersFor, type Analysers } from '../core/plan.js';

export function createSourceCache() {
  const known = new Set<string>();
  const cache = new Map<string, { stamp: string; value: unknown }>();
  /** Off in one-shot builds: each file is read once anyway, and a stat per file costs ~5 µs. */
  let enabled = true;

  function memo<T>(kind: string, compute: (p: string) => T): (p: string) => T {
    return (p) => {
      if (!enabled) return compute(p);
      const stat = fs.statSync(p);
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      const key = `${kind}\0${p}`;
      const hit = cache.get(key);
      if (hit && hit.stamp === stamp) return hit.value as T;
      const value = compute(p);
      cache.set(key, { stamp, value });
      return value;
    };
  }

  const raw = analysersFor((p) => fs.readFileSync(p, 'utf8'));
  /** The static reading of configs and scorer files, memoised while caching is on. */
  const analysers: Analysers = { config: memo('config', raw.config), scorer: memo('scorer', raw.scorer) };

  return {
    /** Caching pays only when files are read again: dev servers and watch mode. */
    setCaching(on: boolean): void {
      enabled = on;
      if (!on) cache.clear();
    },
    analysers,
    /** Files our generated modules import: resolved by us without asking the host. */
    rememberFile(p: string): void {
      known.add(p);
    },
    isKnownFile: (p: string): boolean => known.has(p),
  };
}

/**
 * The generated code carries the manifest in a compact form (src/core/manifest.ts `compactManifest`)
 * that the registry helper expands (`manifestOf`): the expansion is the very manifest the build wrote,
 * key for key and in order, for hostile names, `__proto__` keys, config-only and overridden keys,
 * subagents, function forms and literal sampling.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compactManifest, manifestJson } from '../../src/core/manifest.js';
import { checkOptions, withRoot } from '../../src/core/options.js';
import { analysersFor, plan } from '../../src/core/plan.js';
import { scan } from '../../src/core/scan.js';
import { manifestOf } from '../../src/runtime/registry.js';
import { FIXTURES, prepare } from '../helpers/hosts.js';
import { AGENT, writeHostile } from '../helpers/names.js';

function manifestOfTree(root: string) {
  const o = withRoot(checkOptions({ dts: false }), root, () => false);
  const scanned = scan({ root: o.root, agentsDirs: o.agentsDirs, extensions: o.extensions, isExcluded: o.isExcluded });
  return plan(scanned, analysersFor((p) => fs.readFileSync(p, 'utf8')), o.levels).manifest;
}

/** Keys in order at every level, and values: what JSON text would show, with no prototype games. */
const text = (value: unknown) => manifestJson(value as never);

describe('the compact manifest', () => {
  const names = prepare('names', 'manifest');
  writeHostile(names, ['hostile', AGENT, '100% what?#x']);
  test.each([
    ['basic', path.join(FIXTURES, 'basic')],
    ['config-shapes', path.join(FIXTURES, 'config-shapes')],
    ['mastra-parity', path.join(FIXTURES, 'mastra-parity')],
    ['hostile names', names],
  ])('expands to the manifest itself: %s', (_name, root) => {
    const manifest = manifestOfTree(root);
    const expanded = manifestOf(compactManifest(manifest));
    expect(text(expanded)).toBe(text(manifest));
    expect(JSON.parse(text(expanded))).toEqual(JSON.parse(text(manifest)));
    // Plain objects, as JSON.parse makes them; `__proto__` an own key where it is one.
    expect(Object.getPrototypeOf(expanded.agents)).toBe(Object.prototype);
    for (const key of Object.keys(manifest.agents)) expect(Object.keys((expanded.agents as any)[key].scorers)).toEqual(Object.keys(manifest.agents[key].scorers));
  });

  test('carries far less text than the manifest', () => {
    const manifest = manifestOfTree(names);
    expect(compactManifest(manifest).length).toBeLessThan(JSON.stringify(manifest).length / 2);
  });

  test('a __proto__ key is an ordinary key, not a prototype', () => {
    const manifest = manifestOfTree(path.join(FIXTURES, 'names'));
    const expanded = manifestOf(compactManifest(manifest)) as any;
    expect(Object.keys(expanded.agents.cfgkeys.scorers)).toEqual(['other', '__proto__', 'toString', 'constructor']);
    expect(Object.getPrototypeOf(expanded.agents.cfgkeys.scorers)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(expanded.agents.cfgkeys.scorers, '__proto__')?.value).toEqual({ source: 'config', file: null, sampling: null });
  });
});

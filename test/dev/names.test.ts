/**
 * Hostile names in a dev server: the dev registry imports each agent's module by its resolved id
 * (src/core/codegen.ts), so agent folder names with quotes, `${`, backslashes, `%`, `?` and `#`, and
 * hostile file names, must each reach the right key through Vite's import analysis and module runner.
 * Files whose path holds `?` or `#` are read by the plugin: Vite would read the path up to that
 * character (src/plugin/index.ts, `load`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { poll, prepare } from '../helpers/hosts.js';
import { AGENT, byCodeUnit, KEYS, writeHostile } from '../helpers/names.js';
import { importPlugin, importVite, watcherSettled, type ViteName } from './helpers.js';

/** `%`, `?` and `#` are escaped in our ids (codegen.ts); `%u0041` would unescape wrongly if taken verbatim. */
const URLISH = '100% what?#x %u0041';

describe.each<ViteName>(['vite8', 'vite7'])('hostile names in a dev server on %s', (viteName) => {
  let server: any;
  let keys: string[];
  beforeAll(async () => {
    const dir = prepare('names', `dev-${viteName}`);
    // Vite 7's module runner ends the `//# sourceURL=` comment it appends to every module at a line
    // break or U+2028 in the path, and the rest of the name runs as code ("separator is not defined"),
    // for any file so named, imported by hand or by us: a host limit, measured; Vite 8 loads them.
    keys = writeHostile(dir, ['hostile', AGENT, URLISH], viteName === 'vite7' ? KEYS.filter((key) => !/[\n\u2028]/.test(key)) : KEYS);
    expect(keys.length).toBeGreaterThanOrEqual(12);
    const vite = await importVite(viteName);
    const agentScorers = await importPlugin();
    server = await vite.createServer({ configFile: false, root: dir, logLevel: 'silent', appType: 'custom', plugins: [agentScorers({ dts: false })], optimizeDeps: { noDiscovery: true, include: [] } });
    await watcherSettled(server.watcher, dir);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('every agent and file keeps its verbatim key, holding its own scorer, in the registry and its own module', async () => {
    const registry = (await server.ssrLoadModule('virtual:agent-scorers')).default;
    expect(Object.keys(registry)).toEqual(expect.arrayContaining(['hostile', AGENT, URLISH]));
    for (const agent of ['hostile', AGENT, URLISH]) {
      expect(Object.keys(registry[agent])).toEqual([...keys].sort(byCodeUnit));
      for (const key of keys) expect(registry[agent][key].scorer.id).toBe(`${agent}:${key}`);
      expect((await server.ssrLoadModule(`virtual:agent-scorers/${agent}`)).default).toBe(registry[agent]);
    }
    expect((globalThis as any).PWNED).toBeUndefined();
  });

  test('an edit of a file whose path holds ? and # shows in the next import', async () => {
    const file = path.join(server.config.root, 'src/mastra/agents', URLISH, 'scorers/hash#tag.ts');
    expect((await server.ssrLoadModule('virtual:agent-scorers')).default[URLISH]['hash#tag'].scorer.id).toBe(`${URLISH}:hash#tag`);
    fs.writeFileSync(file, `export default { id: 'edited', run: async () => ({ score: 1 }) };\n`);
    const edited = await poll(
      async () => (await server.ssrLoadModule('virtual:agent-scorers')).default[URLISH]['hash#tag'].scorer.id,
      (id) => id === 'edited',
    );
    expect(edited).toBe('edited');
  });
});

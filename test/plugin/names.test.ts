/**
 * Hostile file and folder names, created at test time (git and some file systems cannot hold them
 * all): every one yields its verbatim key and nothing else, on every host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { age, build, HOSTS, prepare, storeFolder, type BuildResult } from '../helpers/hosts.js';
import { AGENT, byCodeUnit, writeHostile } from '../helpers/names.js';


describe.each(HOSTS)('hostile names on %s', (host) => {
  let result: BuildResult;
  let m: any;
  let keys: string[];

  beforeAll(async () => {
    const dir = prepare('names', host);
    keys = writeHostile(dir);
    expect(keys.length).toBeGreaterThanOrEqual(12);
    result = await build(host, 'names', { dir });
    expect(result.code, result.output).toBe(0);
    m = await result.load();
  });

  test('every file gives its verbatim key, in code-unit order, holding its own scorer', () => {
    expect(Object.keys(m.registry.hostile)).toEqual([...keys].sort(byCodeUnit));
    for (const key of keys) expect(m.registry.hostile[key].scorer.id).toBe(`hostile:${key}`);
    expect(Object.getPrototypeOf(m.registry.hostile)).toBe(null);
  });

  test('an agent folder with quotes, backslash and ${ keeps its name as its key', () => {
    expect(Object.keys(m.registry)).toContain(AGENT);
    expect(Object.keys(m.registry[AGENT])).toEqual([...keys].sort(byCodeUnit));
    expect(m.registry[AGENT]['x${y}'].scorer.id).toBe(`${AGENT}:x\${y}`);
  });

  test('no name injects code', () => {
    expect((globalThis as any).PWNED).toBeUndefined();
  });

  test('config keys __proto__, toString and constructor are ordinary keys, with no false collision', () => {
    expect(Object.keys(m.registry.cfgkeys)).toEqual(['other', '__proto__', 'toString', 'constructor']);
    expect(m.registry.cfgkeys.__proto__.scorer.id).toBe('cfg-proto');
    expect(m.registry.cfgkeys.toString.scorer.id).toBe('cfg-tostring');
    expect(m.registry.cfgkeys.constructor.scorer.id).toBe('cfg-constructor');
    expect(result.output).not.toContain('SCORER_KEY_COLLISION');
  });

  test('a non-computed __proto__ in config.scorers sets the prototype and adds no key', () => {
    expect(Object.keys(m.registry.protoset)).toEqual(['other', 'own']);
  });

  test('the manifest holds the same keys', () => {
    expect(Object.keys(m.manifest.agents.hostile.scorers)).toEqual(Object.keys(m.registry.hostile));
    expect(m.manifest.agents.hostile.scorers['x${y}'].file).toBe('src/mastra/agents/hostile/scorers/x${y}.ts');
    expect(Object.keys(m.manifest.agents.cfgkeys.scorers)).toEqual(['other', '__proto__', 'toString', 'constructor']);
  });
});

/** The same tree built twice, settled: the second build serves the first one's kept outcome (src/plugin/outcome-store.ts). */
describe.each(HOSTS)('hostile names from a kept outcome on %s', (host) => {
  test('the second build serves the kept registry, with every key and import intact', async () => {
    const dir = prepare('names', host);
    const keys = writeHostile(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "names-kept", "private": true }\n');
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.writeFileSync(path.join(dir, 'src/main.ts'), "import registry from 'virtual:agent-scorers';\nexport { registry };\n");
    age(path.join(dir, 'src'));
    const ids = (registry: any) => Object.fromEntries(Object.keys(registry).map((agent) => [agent, Object.keys(registry[agent]).map((k) => [k, registry[agent][k].scorer.id])]));

    const first = await build(host, 'names', { dir, pluginOptions: '{ dts: false, cache: true }' });
    expect(first.code, first.output).toBe(0);
    const folder = storeFolder(dir, host);
    const [outcome] = fs.readdirSync(folder).filter((f) => f.startsWith('outcome-'));
    expect(outcome).toBeDefined();
    const keptAt = fs.statSync(path.join(folder, outcome)).mtimeMs;
    const expected = ids((await first.load()).registry);
    expect(Object.keys(expected.hostile)).toHaveLength(keys.length);

    const second = await build(host, 'names', { dir, pluginOptions: '{ dts: false, cache: true }' });
    expect(second.code, second.output).toBe(0);
    expect(fs.statSync(path.join(folder, outcome)).mtimeMs).toBe(keptAt); // served, not planned and kept again
    expect(ids((await second.load()).registry)).toEqual(expected);
  });
});

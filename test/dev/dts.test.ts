/**
 * The `dts` option: the generator's exact output and escaping, when the plugin writes the file
 * (default on with a tsconfig.json, rewritten only on change, recreated if deleted, kept up to date
 * by the dev server), and `tsc --noEmit` on a project that uses the literal keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, prepare, REPO, run } from '../helpers/hosts.js';
import { DIST, scorerSource, startDev, type Dev } from './helpers.js';

const { generateDts, DTS_HEADER } = (await import(pathToFileURL(path.join(DIST, 'core/dts.js')).href)) as typeof import('../../src/core/dts.js');

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
const DTS = 'agent-scorers.d.ts';

describe('generateDts', () => {
  test('exact output: header, literal keys, open records, function and unknown forms, per-agent modules', () => {
    const text = generateDts([
      { key: 'a', form: 'record', keys: ['x', 'y'], open: false },
      { key: 'b', form: 'function', keys: [], open: false },
      { key: 'c', form: 'record', keys: ['k'], open: true },
      { key: 'd', form: 'unknown', keys: ['f'], open: true },
      { key: 'e', form: 'record', keys: [], open: false },
    ]);
    expect(text).toBe(
      [
        ...DTS_HEADER,
        '',
        'declare module "virtual:agent-scorers" {',
        '  import type { Manifest, ScorerEntry, ScorerRecord, ScorersFunction } from "agent-scorers";',
        '',
        '  /** What the registry holds per agent: a record of scorer entries, or the config.scorers function. */',
        '  export interface AgentScorers {',
        '    readonly "a": {',
        '      readonly "x": ScorerEntry;',
        '      readonly "y": ScorerEntry;',
        '    };',
        '    readonly "b": ScorersFunction;',
        '    readonly "c": {',
        '      readonly "k": ScorerEntry;',
        '      readonly [key: string]: ScorerEntry;',
        '    };',
        '    readonly "d": {',
        '      readonly "f": ScorerEntry;',
        '      readonly [key: string]: ScorerEntry;',
        '    } | ScorersFunction;',
        '    readonly "e": {};',
        '  }',
        '',
        '  /** What `resolveScorers` resolves to per agent: always a record. */',
        '  export interface ResolvedAgentScorers {',
        '    readonly "a": AgentScorers["a"];',
        '    readonly "b": ScorerRecord;',
        '    readonly "c": AgentScorers["c"];',
        '    readonly "d": {',
        '      readonly "f": ScorerEntry;',
        '      readonly [key: string]: ScorerEntry;',
        '    };',
        '    readonly "e": AgentScorers["e"];',
        '  }',
        '',
        '  export type AgentKey = keyof AgentScorers;',
        '  const registry: AgentScorers;',
        '  export default registry;',
        '  export const manifest: Manifest;',
        '  export function resolveScorers<K extends AgentKey>(agentKey: K, options?: { requestContext?: unknown }): Promise<ResolvedAgentScorers[K]>;',
        '}',
        ...['a', 'b', 'c', 'd', 'e'].flatMap((k) => [
          '',
          `declare module "virtual:agent-scorers/${k}" {`,
          '  import type { AgentScorers } from "virtual:agent-scorers";',
          `  const scorers: AgentScorers["${k}"];`,
          '  export default scorers;',
          '}',
        ]),
        '',
      ].join('\n'),
    );
    expect(DTS_HEADER[0]).toContain('DO NOT EDIT');
  });

  test('names are escaped as JSON string literals; a `*` agent gets no per-agent module (it would be a pattern)', () => {
    const weird = 'q"b\\s${x}\nl\u2028é ';
    const text = generateDts([
      { key: weird, form: 'record', keys: [weird, '__proto__'], open: false },
      { key: 'star*', form: 'function', keys: [], open: false },
    ]);
    expect(text).toContain(`    readonly ${JSON.stringify(weird)}: {\n      readonly ${JSON.stringify(weird)}: ScorerEntry;\n      readonly "__proto__": ScorerEntry;\n    };`);
    expect(text).toContain(`declare module ${JSON.stringify(`virtual:agent-scorers/${weird}`)} {`);
    expect(text).not.toContain('declare module "virtual:agent-scorers/star*"');
    expect(text).toContain('    readonly "star*": ScorersFunction;');
    // No raw newline inside a literal: the name shows on exactly the five lines that use it
    // (registry key, record key, resolved key, module name, module type).
    expect(text.split('\n').filter((l) => l.includes('q\\"b\\\\s${x}\\nl'))).toHaveLength(5);
  });

  test('deterministic: the same input gives the same text', () => {
    const input = [{ key: 'a', form: 'record' as const, keys: ['b', 'a'], open: false }];
    expect(generateDts(input)).toBe(generateDts(structuredClone(input)));
  });
});

describe('the plugin writes the declaration file', () => {
  let dir: string;
  const file = () => path.join(dir, DTS);
  const rolldown = (pluginOptions = '{}') => build('rolldown', 'dev-types', { pluginOptions, dir });

  beforeAll(() => {
    // The generated file imports types from the installed package.
    dir = prepare('dev-types', 'dts', { linkSelf: true });
  });

  test('by default when root has a tsconfig.json; not with dts: false; not by default without a tsconfig.json', async () => {
    const off = await rolldown('{ dts: false }');
    expect(off.code).toBe(0);
    expect(fs.existsSync(file())).toBe(false);

    const noTsconfig = prepare('dev-types', 'dts-none');
    fs.rmSync(path.join(noTsconfig, 'tsconfig.json'));
    const plain = await build('rolldown', 'dev-types', { pluginOptions: '{}', dir: noTsconfig });
    expect(plain.code).toBe(0);
    expect(fs.existsSync(path.join(noTsconfig, DTS))).toBe(false);

    const on = await rolldown();
    expect(on.code).toBe(0);
    const text = fs.readFileSync(file(), 'utf8');
    expect(text.startsWith(`${DTS_HEADER.join('\n')}\n`)).toBe(true);
    expect(text).toContain('    readonly "weather": {\n      readonly "relevance": ScorerEntry;\n      readonly "tone": ScorerEntry;\n      readonly "extra": ScorerEntry;\n    };');
    expect(text).toContain('    readonly "news": ScorersFunction;');
  });

  test('a path option writes there instead', async () => {
    const result = await rolldown("{ dts: 'types/registry.d.ts' }");
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'types/registry.d.ts'), 'utf8')).toBe(fs.readFileSync(file(), 'utf8'));
    fs.rmSync(path.join(dir, 'types'), { recursive: true });
  });

  test('rewritten only when the content changes; recreated when deleted', async () => {
    const before = fs.readFileSync(file(), 'utf8');
    const old = new Date('2001-01-01T00:00:00Z');
    fs.utimesSync(file(), old, old);
    expect((await rolldown()).code).toBe(0);
    expect(fs.statSync(file()).mtimeMs).toBe(old.getTime());

    fs.writeFileSync(path.join(dir, 'src/mastra/agents/weather/scorers/added.ts'), scorerSource('added'));
    expect((await rolldown()).code).toBe(0);
    expect(fs.statSync(file()).mtimeMs).not.toBe(old.getTime());
    expect(fs.readFileSync(file(), 'utf8')).toContain('      readonly "added": ScorerEntry;\n      readonly "relevance": ScorerEntry;');
    fs.rmSync(path.join(dir, 'src/mastra/agents/weather/scorers/added.ts'));

    fs.rmSync(file());
    expect((await rolldown()).code).toBe(0);
    expect(fs.readFileSync(file(), 'utf8')).toBe(before);
  });

  test('tsc --noEmit passes for valid agent and scorer keys (with agent-scorers/client loaded too)', async () => {
    const { code, output } = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  test('tsc --noEmit fails for an unknown agent key and an unknown scorer key, naming them', async () => {
    const { code, output } = await run(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], dir);
    expect(code).not.toBe(0);
    expect(output).toContain("src/bad-agent.ts(3,30): error TS2339: Property 'nope' does not exist on type 'AgentScorers'.");
    expect(output).toContain(`src/bad-agent.ts(4,40): error TS2345: Argument of type '"nope-agent"' is not assignable to parameter of type 'keyof AgentScorers'.`);
    expect(output).toMatch(/src\/bad-scorer\.ts\(4,35\): error TS2339: Property 'nope' does not exist on type '\{ readonly relevance: /);
    expect(output).toMatch(/src\/bad-scorer\.ts\(5,18\): error TS7053: [^\n]*'"missing-key"'/);
    expect(output.match(/error TS/g)).toHaveLength(4);
  });

  test('control: without the generated file, the general client types accept any agent key', async () => {
    fs.renameSync(file(), `${file()}.off`);
    try {
      const { code, output } = await run(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], dir);
      expect(output).not.toContain('bad-agent.ts');
      // tsc did check the files: with the general types, only bad-scorer.ts's lookups on the union fail.
      expect(code).not.toBe(0);
      expect(output).toContain("src/bad-scorer.ts(4,35): error TS2339: Property 'nope' does not exist on type 'ResolvedScorers'.");
    } finally {
      fs.renameSync(`${file()}.off`, file());
    }
  });
});

describe('the dev server keeps the declaration file up to date', () => {
  let dev: Dev;
  const file = () => path.join(dev.dir, DTS);
  const read = async () => (fs.existsSync(file()) ? fs.readFileSync(file(), 'utf8') : '');

  beforeAll(async () => {
    dev = await startDev('vite8', 'dev-types', { pluginOptions: {} });
  });
  afterAll(async () => {
    await dev?.close();
  });

  test('written at start, before any import', async () => {
    const text = await dev.until(read, (t) => t.includes('readonly "weather"'));
    expect(text).toContain('      readonly "relevance": ScorerEntry;\n      readonly "tone": ScorerEntry;\n      readonly "extra": ScorerEntry;');
  });

  test('a created scorer file and a new agent update it without an import', async () => {
    await dev.write('weather/scorers/added.ts', scorerSource('added'));
    await dev.write('fresh/scorers/first.ts', scorerSource('first'));
    const text = await dev.until(read, (t) => t.includes('"added"') && t.includes('"fresh"'));
    expect(text).toContain('    readonly "fresh": {\n      readonly "first": ScorerEntry;\n    };');
    expect(text).toContain('declare module "virtual:agent-scorers/fresh" {');
  });

  test('deleted, it is written again', async () => {
    const before = await read();
    fs.rmSync(file());
    expect(await dev.until(read, (t) => t !== '')).toBe(before);
  });

  test('edited by hand, it is restored (twice: the plan stays cached in between)', async () => {
    const before = await read();
    for (const round of [1, 2]) {
      // Past the watcher's per-path throttle, counted from the last `change` it reported (the
      // plugin's own restore may be reported later than the test sees the restored text).
      await dev.write(file(), `// hand edit ${round}\n`);
      expect(await dev.until(read, (t) => t === before)).toBe(before);
    }
  });
});

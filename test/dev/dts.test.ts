/**
 * The `dts` option: the generator's exact output and escaping, when the plugin writes the file
 * (default on with a tsconfig.json, rewritten only on change, recreated if deleted, kept up to date
 * by the dev server), and `tsc --noEmit` on a project that uses the literal keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, pluginEntry, prepare, REPO, run } from '../helpers/hosts.js';
import { DIST, scorerSource, startDev, type Dev } from './helpers.js';

const { generateDts, isAgentExportName, DTS_HEADER } = (await import(pathToFileURL(path.join(DIST, 'core/dts.js')).href)) as typeof import('../../src/core/dts.js');
type DtsAgent = import('../../src/core/dts.js').DtsAgent;

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
/** The default place: under src/, which the fixture has (every framework's tsconfig covers it). */
const DTS = 'src/agent-scorers.d.ts';
const AGENTS = 'src/mastra/agents';
/** The type of a source's default export, as the generator writes it. */
const T = (file: string) => `typeof import(${JSON.stringify(file)}, { with: { "resolution-mode": "import" } }).default`;
/** The import path of a root-relative file, as the declaration file at DTS writes it. */
const from = (file: string) => {
  const rel = path.posix.relative(path.posix.dirname(DTS), file);
  return rel.startsWith('../') ? rel : `./${rel}`;
};
const fileLine = (agent: string, key: string, ext = 'ts') => `readonly "${key}": FileEntry<${T(from(`${AGENTS}/${agent}/scorers/${key}.${ext}`))}>;`;
const configLine = (agent: string, key: string) => `readonly "${key}": ConfigEntry<${T(from(`${AGENTS}/${agent}/config.ts`))}, "${key}">;`;
const WEATHER = [configLine('weather', 'relevance'), fileLine('weather', 'tone'), configLine('weather', 'extra')];

const IMPORTS = '  import type { AgentScorersFunction, ConfigEntry, ConfigFunction, FileEntry, LooseScorerEntry, LooseScorersFunction, Manifest, ResolvedEntries } from "agent-scorers";';
const JS_IGNORE = '// @ts-ignore: typed when TypeScript reads JavaScript (allowJs), else any';

describe('generateDts', () => {
  const A = '/p/src/mastra/agents';
  const agents: DtsAgent[] = [
    {
      key: 'a',
      form: 'record',
      config: `${A}/a/config.ts`,
      scorers: [
        { key: 'x', source: 'file', file: `${A}/a/scorers/x.ts` },
        { key: 'y', source: 'config' },
        { key: 'z', source: 'file', file: `${A}/a/scorers/z.mjs` },
        { key: 'w', source: 'config' },
      ],
      open: false,
    },
    { key: 'b', form: 'function', config: `${A}/b/config.mts`, scorers: [], open: false },
    { key: 'c', form: 'record', config: `${A}/c/config.js`, scorers: [{ key: 'k', source: 'config' }], open: true },
    { key: 'd', form: 'unknown', config: `${A}/d/config.ts`, scorers: [{ key: 'f', source: 'file', file: `${A}/d/scorers/f.ts` }], open: true },
    { key: 'e', form: 'record', config: null, scorers: [], open: false },
  ];

  test('exact output (ambient): header, each key typed from its file or config, function and unknown forms, per-agent modules', () => {
    const text = generateDts(agents, { file: '/p/agent-scorers.d.ts' });
    expect(text).toBe(
      [
        ...DTS_HEADER,
        '',
        'declare module "virtual:agent-scorers" {',
        IMPORTS,
        '',
        '  /** What the registry holds per agent, typed from its scorer files and config: a record of entries, or the config.scorers function. */',
        '  export interface AgentScorers {',
        '    readonly "a": {',
        `      readonly "x": FileEntry<${T('./src/mastra/agents/a/scorers/x.ts')}>;`,
        `      readonly "y": ConfigEntry<${T('./src/mastra/agents/a/config.ts')}, "y">;`,
        `      ${JS_IGNORE}`,
        `      readonly "z": FileEntry<${T('./src/mastra/agents/a/scorers/z.mjs')}>;`,
        `      readonly "w": ConfigEntry<${T('./src/mastra/agents/a/config.ts')}, "w">;`,
        '    };',
        `    readonly "b": ConfigFunction<${T('./src/mastra/agents/b/config.mts')}>;`,
        '    readonly "c": {',
        `      ${JS_IGNORE}`,
        `      readonly "k": ConfigEntry<${T('./src/mastra/agents/c/config.js')}, "k">;`,
        '      readonly [key: string]: LooseScorerEntry;',
        '    };',
        '    readonly "d": {',
        `      readonly "f": FileEntry<${T('./src/mastra/agents/d/scorers/f.ts')}>;`,
        '      readonly [key: string]: LooseScorerEntry;',
        '    } | LooseScorersFunction;',
        '    readonly "e": {};',
        '  }',
        '',
        '  /** What `resolveScorers` resolves to per agent: always a record. */',
        '  export type ResolvedAgentScorers = { readonly [K in keyof AgentScorers]: ResolvedEntries<AgentScorers[K]> };',
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

  test('exact output (module): the same declarations at top level, paths from the file, named exports for identifier keys', () => {
    const text = generateDts(
      [
        { key: 'weather', form: 'record', config: null, scorers: [{ key: 'tone', source: 'file', file: `${A}/weather/scorers/tone.ts` }], open: false },
        { key: 'weather/planner', form: 'record', config: null, scorers: [], open: false },
        { key: 'default', form: 'record', config: null, scorers: [], open: false },
        { key: 'manifest', form: 'record', config: null, scorers: [], open: false },
      ],
      { file: '/p/src/agent-scorers.gen.d.mts', form: 'module' },
    );
    expect(text).toBe(
      [
        ...DTS_HEADER,
        '',
        IMPORTS.slice(2),
        '',
        '/** What the registry holds per agent, typed from its scorer files and config: a record of entries, or the config.scorers function. */',
        'export interface AgentScorers {',
        '  readonly "weather": {',
        `    readonly "tone": FileEntry<${T('./mastra/agents/weather/scorers/tone.ts')}>;`,
        '  };',
        '  readonly "weather/planner": {};',
        '  readonly "default": {};',
        '  readonly "manifest": {};',
        '}',
        '',
        '/** What `resolveScorers` resolves to per agent: always a record. */',
        'export type ResolvedAgentScorers = { readonly [K in keyof AgentScorers]: ResolvedEntries<AgentScorers[K]> };',
        '',
        'export type AgentKey = keyof AgentScorers;',
        'declare const registry: AgentScorers;',
        'export default registry;',
        'export declare const manifest: Manifest;',
        'export declare function resolveScorers<K extends AgentKey>(agentKey: K, options?: { requestContext?: unknown }): Promise<ResolvedAgentScorers[K]>;',
        'export declare const weather: AgentScorers["weather"];',
        '',
      ].join('\n'),
    );
  });

  test('the agent form (config.ts exports a new Agent()): a function typed from that Agent', () => {
    const text = generateDts([{ key: 'built', form: 'agent', config: `${A}/built/config.ts`, scorers: [], open: false }], { file: '/p/agent-scorers.d.ts' });
    expect(text).toContain(`    readonly "built": AgentScorersFunction<${T('./src/mastra/agents/built/config.ts')}>;`);
  });

  test('paths outside the file’s folder go up with ../', () => {
    const text = generateDts([agents[1]!], { file: '/p/types/deep/registry.d.ts' });
    expect(text).toContain(`    readonly "b": ConfigFunction<${T('../../src/mastra/agents/b/config.mts')}>;`);
  });

  test('isAgentExportName: identifiers that are no reserved word and no other export', () => {
    for (const yes of ['weather', '_x', '$y', 'été', 'a1', '__proto__', 'undefined']) expect(isAgentExportName(yes), yes).toBe(true);
    for (const no of ['weather/planner', 'a-b', '1a', 'default', 'class', 'await', 'eval', 'arguments', 'let', 'manifest', 'resolveScorers', '', 'a b']) {
      expect(isAgentExportName(no), no).toBe(false);
    }
  });

  test('names are escaped as JSON string literals; a backslash file gets the loose type; a `*` agent gets no per-agent module', () => {
    const weird = 'q"b\\s${x}\nl\u2028é ';
    const text = generateDts(
      [
        {
          key: weird,
          form: 'record',
          config: null,
          scorers: [
            { key: weird, source: 'file', file: `/p/${weird}/scorers/${weird}.ts` },
            { key: '__proto__', source: 'file', file: '/p/x/scorers/__proto__.ts' },
          ],
          open: false,
        },
        { key: 'star*', form: 'function', config: '/p/star*/config.ts', scorers: [], open: false },
      ],
      { file: '/p/agent-scorers.d.ts' },
    );
    expect(text).toContain(
      `    readonly ${JSON.stringify(weird)}: {\n      readonly ${JSON.stringify(weird)}: LooseScorerEntry;\n      readonly "__proto__": FileEntry<${T('./x/scorers/__proto__.ts')}>;\n    };`,
    );
    expect(text).toContain(`declare module ${JSON.stringify(`virtual:agent-scorers/${weird}`)} {`);
    expect(text).not.toContain('declare module "virtual:agent-scorers/star*"');
    expect(text).toContain(`    readonly "star*": ConfigFunction<${T('./star*/config.ts')}>;`);
    // No raw newline inside a literal: the name shows on exactly the four lines that use it
    // (registry key, record key, module name, module type).
    expect(text.split('\n').filter((l) => l.includes('q\\"b\\\\s${x}\\nl'))).toHaveLength(4);
  });

  test('deterministic: the same input gives the same text', () => {
    expect(generateDts(agents, { file: '/p/a.d.ts' })).toBe(generateDts(structuredClone(agents), { file: '/p/a.d.ts' }));
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
    expect(text).toContain(`    readonly "weather": {\n${WEATHER.map((l) => `      ${l}`).join('\n')}\n    };`);
    expect(text).toContain(`    readonly "news": ConfigFunction<${T(from(`${AGENTS}/news/config.ts`))}>;`);
  });

  test('by default at the root when <root>/src is not a folder (here a file named src)', async () => {
    const flat = prepare('dev-types', 'dts-flat');
    fs.renameSync(path.join(flat, 'src'), path.join(flat, 'app'));
    fs.writeFileSync(path.join(flat, 'src'), 'not a folder\n');
    const config = `import agentScorers from ${pluginEntry('rolldown')};
export default { input: 'app/main.ts', external: [/^agent-scorers/], plugins: [agentScorers({ agentsDir: 'app/mastra/agents' })], output: { file: 'dist/main.js' } };
`;
    const result = await build('rolldown', 'dev-types', { dir: flat, config });
    expect(result.code, result.output).toBe(0);
    expect(fs.readFileSync(path.join(flat, 'agent-scorers.d.ts'), 'utf8')).toContain('    readonly "weather": {');
    expect(fs.readFileSync(path.join(flat, 'src'), 'utf8')).toBe('not a folder\n');
    expect(fs.existsSync(path.join(flat, 'app/agent-scorers.d.ts'))).toBe(false);
  });

  test('a path option writes there instead, with import paths relative to it', async () => {
    const result = await rolldown("{ dts: 'types/registry.d.ts' }");
    expect(result.code).toBe(0);
    const text = fs.readFileSync(path.join(dir, 'types/registry.d.ts'), 'utf8');
    expect(text).toContain(`FileEntry<${T(`../${AGENTS}/weather/scorers/tone.ts`)}>`);
    expect(text).toBe(fs.readFileSync(file(), 'utf8').replaceAll(`typeof import("${from(AGENTS)}/`, `typeof import("../${AGENTS}/`));
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
    expect(fs.readFileSync(file(), 'utf8')).toContain(`      ${fileLine('weather', 'added')}\n      ${WEATHER[0]}`);
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
      expect(output).toContain("src/bad-scorer.ts(4,35): error TS2339: Property 'nope' does not exist on type 'LooseAgentScorers'.");
    } finally {
      fs.renameSync(`${file()}.off`, file());
    }
  });
});

// Created at test time (git and some file systems cannot hold them all), as in test/plugin/names.test.ts.
const HOSTILE_KEYS = [`a'b"`, 'x${y}', 'back\\slash', 'ünïcødé', 'with space', '__proto__', 'constructor', 'new\nline', 'line\u2028sep', '😀', '100%', 'what?', 'hash#tag'];
const HOSTILE_AGENT = `qu"o'te $\{x} ü`;

describe('hostile names in the declaration file', () => {
  test('every key is there, typed from its source (a backslash name loosely: TypeScript cannot import it), and tsc passes', async () => {
    const dir = prepare('dev-types', 'dts-names', { linkSelf: true });
    const written: string[] = [];
    for (const key of HOSTILE_KEYS) {
      for (const agent of ['hostile', HOSTILE_AGENT]) {
        const scorers = path.join(dir, AGENTS, agent, 'scorers');
        fs.mkdirSync(scorers, { recursive: true });
        try {
          fs.writeFileSync(path.join(scorers, `${key}.ts`), `export default { id: ${JSON.stringify(key)}, run: async () => ({ score: 1 }) };\n`);
          if (agent === 'hostile') written.push(key);
        } catch {
          // A file system that refuses a name has no such scorer.
        }
      }
    }
    expect(written.length).toBeGreaterThanOrEqual(10);
    const built = await build('rolldown', 'dev-types', { pluginOptions: '{}', dir });
    expect(built.code, built.output).toBe(0);
    const text = fs.readFileSync(path.join(dir, DTS), 'utf8');
    const lines: string[] = [
      "import registry from 'virtual:agent-scorers';",
      `import other from ${JSON.stringify(`virtual:agent-scorers/${HOSTILE_AGENT}`)};`,
      "import type { LooseScorerEntry } from 'agent-scorers';",
    ];
    written.forEach((key, i) => {
      const k = JSON.stringify(key);
      if (key.includes('\\')) {
        expect(text).toContain(`      readonly ${k}: LooseScorerEntry;`);
        lines.push(`export const loose${i}: LooseScorerEntry = registry.hostile[${k}];`);
      } else {
        expect(text).toContain(`      readonly ${k}: FileEntry<${T(from(`${AGENTS}/hostile/scorers/${key}.ts`))}>;`);
        // Typed from the file: its `id` is a string, so the assignment to number must fail.
        lines.push(`export const id${i}: string = registry.hostile[${k}].scorer.id;`, '// @ts-expect-error typed from source, not any', `export const n${i}: number = other[${k}].scorer;`);
      }
    });
    fs.writeFileSync(path.join(dir, 'src/use-hostile.ts'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'tsconfig.names.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src/use-hostile.ts', DTS] }));
    const { code, output } = await run(process.execPath, [TSC, '-p', 'tsconfig.names.json'], dir);
    expect(output).toBe('');
    expect(code).toBe(0);
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
    expect(text).toContain(WEATHER.map((l) => `      ${l}`).join('\n'));
  });

  test('a created scorer file and a new agent update it without an import', async () => {
    await dev.write('weather/scorers/added.ts', scorerSource('added'));
    await dev.write('fresh/scorers/first.ts', scorerSource('first'));
    const text = await dev.until(read, (t) => t.includes('"added"') && t.includes('"fresh"'));
    expect(text).toContain(`    readonly "fresh": {\n      ${fileLine('fresh', 'first')}\n    };`);
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
      // `write` waits out the watcher's per-path throttle after the plugin's restore of round 1 (its
      // report can arrive after the test already sees the restored text).
      await dev.write(file(), `// hand edit ${round}\n`);
      expect(await dev.until(read, (t) => t === before)).toBe(before);
    }
  });
});

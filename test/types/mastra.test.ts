/**
 * Types from source (SPEC 5, "Types"): a project with the real `@mastra/core` and `@mastra/evals`,
 * whose declaration file a real Vite build writes, type-checked by `tsc` in strict mode (the repo's
 * TypeScript). The registry, the per-agent modules and `resolveScorers` go into Mastra's
 * `new Agent({ scorers })` with no cast; unknown keys stay errors; this package's own scorers reach
 * Mastra's `Agent` and `runEvals` through `agent-scorers/mastra`. Each positive project also holds
 * `@ts-expect-error` lines that fail (TS2578) if a type were `any`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { build, DIST, prepare, REPO, run } from '../helpers/hosts.js';

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
const core = async <T>(name: string): Promise<T> => (await import(pathToFileURL(path.join(DIST, `core/${name}.js`)).href)) as T;

let dir: string;
/** The file the plugin wrote: `dts: true` picks `src/` or the root, depending on the version of the default. */
let dtsFile: string;
const tsc = (project: string) => run(process.execPath, [TSC, '-p', project], dir);

beforeAll(async () => {
  dir = prepare('types-mastra', 'types', { linkSelf: true });
  const built = await build('vite8', 'types-mastra', { pluginOptions: '{}', dir });
  expect(built.code, built.output).toBe(0);
  dtsFile = [path.join(dir, 'src/agent-scorers.d.ts'), path.join(dir, 'agent-scorers.d.ts')].find((f) => fs.existsSync(f))!;
  expect(dtsFile).toBeDefined();
});

describe('the declaration file of a Mastra project', () => {
  test('types each key from its source: a file by its default export, a config key by the config', () => {
    const text = fs.readFileSync(dtsFile, 'utf8');
    const from = (file: string) => {
      let rel = path.relative(path.dirname(dtsFile), path.join(dir, file)).split(path.sep).join('/');
      if (!rel.startsWith('../')) rel = `./${rel}`;
      return `typeof import(${JSON.stringify(rel)}, { with: { "resolution-mode": "import" } }).default`;
    };
    const weather = 'src/mastra/agents/weather';
    expect(text).toContain(
      [
        '    readonly "weather": {',
        `      readonly "answer-relevancy": FileEntry<${from(`${weather}/scorers/answer-relevancy.ts`)}>;`,
        `      readonly "relevance": ConfigEntry<${from(`${weather}/config.ts`)}, "relevance">;`,
        `      readonly "tone": FileEntry<${from(`${weather}/scorers/tone.ts`)}>;`,
        `      readonly "extra": ConfigEntry<${from(`${weather}/config.ts`)}, "extra">;`,
        '    };',
      ].join('\n'),
    );
    expect(text).toContain(`    readonly "support": ConfigFunction<${from('src/mastra/agents/support/config.ts')}>;`);
    // config.ts exports a new Agent(): a function form typed from that Agent.
    expect(text).toContain(`    readonly "built": AgentScorersFunction<${from('src/mastra/agents/built/config.ts')}>;`);
    expect(text).toContain('    readonly "empty": {};');
    // A JavaScript file: typed when TypeScript reads it, and no error when it does not.
    expect(text).toContain(
      `      // @ts-ignore: typed when TypeScript reads JavaScript (allowJs), else any\n      readonly "legacy": FileEntry<${from('src/mastra/agents/js/scorers/legacy.js')}>;`,
    );
  });

  test.each(['tsconfig.json', 'tsconfig.NodeNext.json', 'tsconfig.Node16.json'])(
    '%s: strict tsc passes: registry, per-agent modules and resolveScorers into new Agent({ scorers }), no cast',
    async (project) => {
      const { code, output } = await tsc(project);
      expect(output).toBe('');
      expect(code).toBe(0);
    },
  );

  test('with allowJs, a JavaScript scorer file is typed from its source too', async () => {
    const { code, output } = await tsc('tsconfig.allowjs.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  test('unknown agent and scorer keys are errors, naming the key', async () => {
    const { code, output } = await tsc('tsconfig.bad.json');
    expect(code).not.toBe(0);
    expect(output).toContain("src/bad-keys.ts(4,38): error TS2339: Property 'nope' does not exist on type 'AgentScorers'.");
    expect(output).toContain(`src/bad-keys.ts(5,47): error TS2345: Argument of type '"nope-agent"' is not assignable to parameter of type 'keyof AgentScorers'.`);
    expect(output).toMatch(/src\/bad-keys\.ts\(6,47\): error TS2339: Property 'nope' does not exist on type '\{ readonly "answer-relevancy": \{ readonly scorer: MastraScorer</);
    expect(output).toMatch(/src\/bad-keys\.ts\(7,32\): error TS7053: [^\n]*'"missing-key"'/);
    expect(output.match(/error TS/g)).toHaveLength(4);
  });

  test('control: without agent-scorers/mastra, this package’s scorers do not fit Mastra’s types (TS2740, TS2769), and the message names the fix', async () => {
    const { code, output } = await tsc('tsconfig.nobridge.json');
    expect(code).not.toBe(0);
    expect(output).toContain(`src/use-own.ts(19,26): error TS2740: Type 'Scorer<"mentions", any, any> & AddAgentScorersMastraToTsconfigTypes' is missing the following properties from type 'MastraScorer<any, any, any, any>': #private`);
    expect(output).toContain('src/use-own.ts(25,73): error TS2769: No overload matches this call.');
  });

  test('client only (no generated file): registry values still go into new Agent({ scorers }) with no cast', async () => {
    const { code, output } = await tsc('tsconfig.client.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  test('the module form: declarations beside a generated ES module, with named per-agent exports', async () => {
    const [{ scan }, { plan, analysersFor }, { dtsFor }] = await Promise.all([
      core<typeof import('../../src/core/scan.js')>('scan'),
      core<typeof import('../../src/core/plan.js')>('plan'),
      core<typeof import('../../src/core/dts.js')>('dts'),
    ]);
    const scanned = scan({
      root: dir,
      agentsDirs: [path.join(dir, 'src/mastra/agents')],
      extensions: ['.ts', '.mts', '.js', '.mjs'],
      isExcluded: () => false,
    });
    const file = path.join(dir, 'src/agent-scorers.gen.d.mts');
    const text = dtsFor(plan(scanned, analysersFor((p) => fs.readFileSync(p, 'utf8'))), file, 'module');
    expect(text).toContain(`  readonly "built": AgentScorersFunction<typeof import("./mastra/agents/built/config.ts", { with: { "resolution-mode": "import" } }).default>;`);
    fs.writeFileSync(file, text);
    expect(text).toContain('import type { AgentScorersFunction, ConfigEntry, ConfigFunction, FileEntry, LooseScorerEntry, LooseScorersFunction, Manifest, ResolvedEntries } from "agent-scorers";');
    expect(text).toContain('export declare const weather: AgentScorers["weather"];');
    expect(text).not.toContain('declare module');
    // Paths are relative to the written file.
    expect(text).toContain('FileEntry<typeof import("./mastra/agents/weather/scorers/tone.ts", { with: { "resolution-mode": "import" } }).default>');
    const { code, output } = await tsc('tsconfig.gen.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });
});

/**
 * `agent-scorers/esbuild` with the real esbuild 0.28 (what wrangler and tsup run): the registry and
 * per-agent modules, warnings and errors as esbuild prints them (with the file), the manifest, a
 * rebuild seeing a new file, and a wrangler-style bundle with no Node built-in in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { describe, expect, test } from 'vitest';
import { count, DIST, importFresh, prepare, run } from '../helpers/hosts.js';

const PLUGIN = path.join(DIST, 'plugin/esbuild.js');
const load = async () => (await import(pathToFileURL(PLUGIN).href)) as { default: (o?: object) => esbuild.Plugin; agentScorers: (o?: object) => esbuild.Plugin };
const write = (dir: string, file: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
};
const importOutput = importFresh;

/** A child process running esbuild with the plugin, so the test sees exactly what esbuild prints. */
async function printedBuild(dir: string, options = '{}') {
  write(dir, 'build.mjs', `import * as esbuild from 'esbuild';
import agentScorers from ${JSON.stringify(PLUGIN)};
await esbuild.build({ entryPoints: ['src/main.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'out/main.js', logLevel: 'warning', plugins: [agentScorers(${options})] });
`);
  // esbuild comes from the repository's node_modules, found by walking up from the copy.
  return run(process.execPath, ['build.mjs'], dir);
}

/** The options of a Node bundle of the fixture's `src/main.ts` with the built plugin (output options are the caller's). */
const nodeBundle = async (dir: string, pluginOptions?: object): Promise<esbuild.BuildOptions> => ({
  absWorkingDir: dir,
  entryPoints: ['src/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'silent',
  plugins: [(await load()).default(pluginOptions)],
});

describe('esbuild builds', () => {
  test('the default export and the named export are the same factory', async () => {
    const m = await load();
    expect(m.default).toBe(m.agentScorers);
    expect(m.default().name).toBe('agent-scorers');
    expect(() => m.default({ agentDir: 'x' })).toThrow('unknown option "agentDir"');
  });

  test('registry, manifest and resolveScorers; the manifest file in the output folder', async () => {
    const dir = prepare('hosts-app', 'esbuild-registry', { linkSelf: true });
    const result = await esbuild.build({ ...(await nodeBundle(dir, { manifest: true })), outdir: 'out' });
    expect(result.errors).toEqual([]);
    const described = await (await importOutput(path.join(dir, 'out/main.js'))).result();
    expect(described.keys).toEqual(['constructor', 'support', 'weather', 'weather/planner']);
    expect(described.agents.weather.scorers[1]).toEqual(['tone', 'tone', { type: 'ratio', rate: 0.5 }]);
    expect(described.score).toBe(0.75);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out/agent-scorers.manifest.json'), 'utf8'))).toEqual(described.manifest);
  });

  test('the registry inlines every agent; a per-agent module beside it gives the very same record, and each warning prints once', async () => {
    const dir = prepare('basic', 'esbuild-both');
    const result = await esbuild.build({ ...(await nodeBundle(dir, { dts: false })), outfile: 'out/main.js' });
    expect(result.errors).toEqual([]);
    const m = await importOutput(path.join(dir, 'out/main.js'));
    expect(m.weather).toBe(m.registry.weather);
    expect(m.planner).toBe(m.registry['weather/planner']);
    const texts = result.warnings.map((w) => w.text);
    expect(texts.filter((t) => t.startsWith('[SCORER_KEY_COLLISION] Agent "weather"'))).toHaveLength(1);
    expect(texts).toHaveLength(new Set(texts).size);
    expect(texts.map((t) => t.slice(1, t.indexOf(']'))).sort()).toEqual(['CONFIG_SCORERS_FUNCTION', 'SCORER_KEY_COLLISION', 'SUBAGENT_TOO_DEEP']);
  });

  test('a per-agent module bundles only that agent', async () => {
    const dir = prepare('hosts-app', 'esbuild-agent', { linkSelf: true });
    write(dir, 'src/planner.ts', `import planner from 'virtual:agent-scorers/weather/planner';\nexport default planner;\n`);
    const result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ['src/planner.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: 'out/planner.js',
      logLevel: 'silent',
      plugins: [(await load()).default()],
    });
    expect(result.errors).toEqual([]);
    const bundle = fs.readFileSync(path.join(dir, 'out/planner.js'), 'utf8');
    expect(bundle).toContain('planner:brevity');
    for (const other of ['hostile:', 'tone', 'support:', 'config:relevance', 'constructor:__proto__']) expect(bundle).not.toContain(other);
    expect(Object.keys((await importOutput(path.join(dir, 'out/planner.js'))).default)).toEqual(['brevity']);
    // Its agent's warnings only: this bundle has none.
    expect(result.warnings).toEqual([]);
  });

  test('warnings are printed once each by esbuild, with the file in the text and no made-up location', async () => {
    const dir = prepare('hosts-app', 'esbuild-warn', { linkSelf: true });
    const result = await printedBuild(dir);
    expect(result.code, result.output).toBe(0);
    expect(count(result.output, '[SCORER_KEY_COLLISION]'), result.output).toBe(1);
    expect(count(result.output, '[CONFIG_SCORERS_FUNCTION]'), result.output).toBe(1);
    expect(result.output).toContain('[WARNING] [SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts) [plugin agent-scorers]');
    // Our diagnostics know a file, not a line: esbuild would print `file:0:0` and an empty code frame.
    expect(result.output).not.toContain(':0:0');
  });

  test('errors fail the build, each printed with its file and no made-up location', async () => {
    const dir = prepare('err-no-default', 'esbuild-err');
    const result = await printedBuild(dir);
    expect(result.code).not.toBe(0);
    expect(count(result.output, '[ERROR] [SCORER_NO_DEFAULT_EXPORT]'), result.output).toBe(1);
    expect(result.output).toContain('[ERROR] [SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "relevance" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/weather/scorers/relevance.ts) [plugin agent-scorers]');
    expect(result.output).not.toContain(':0:0');
  });

  test('an error is printed once when the registry and that agent\'s module are both imported', async () => {
    const dir = prepare('err-no-default', 'esbuild-err-both');
    write(dir, 'src/main.ts', `import registry from 'virtual:agent-scorers';\nimport weather from 'virtual:agent-scorers/weather';\n\nexport { registry, weather };\n`);
    const result = await printedBuild(dir);
    expect(result.code).not.toBe(0);
    expect(count(result.output, '[ERROR] [SCORER_NO_DEFAULT_EXPORT]'), result.output).toBe(1);
  });

  test('with root elsewhere, the manifest still lands in the output folder esbuild writes to', async () => {
    const dir = prepare('hosts-app', 'esbuild-root');
    fs.mkdirSync(path.join(dir, 'site'));
    fs.renameSync(path.join(dir, 'src'), path.join(dir, 'site/src'));
    write(dir, 'build.mjs', `import * as esbuild from 'esbuild';
import agentScorers from ${JSON.stringify(PLUGIN)};
await esbuild.build({ entryPoints: ['site/src/main.ts'], bundle: true, platform: 'node', format: 'esm', outdir: 'out', logLevel: 'error', external: ['agent-scorers', '@mastra/*', 'ai'], plugins: [agentScorers({ root: 'site', manifest: true, dts: false })] });
`);
    const result = await run(process.execPath, ['build.mjs'], dir);
    expect(result.code, result.output).toBe(0);
    expect(fs.existsSync(path.join(dir, 'out/main.js'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out/agent-scorers.manifest.json'), 'utf8')).agents).toHaveProperty('weather');
    expect(fs.existsSync(path.join(dir, 'site/out'))).toBe(false);
  });

  test('strict turns a warning into an error', async () => {
    const dir = prepare('hosts-app', 'esbuild-strict', { linkSelf: true });
    const result = await printedBuild(dir, '{ strict: true }');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('[ERROR] [SCORER_KEY_COLLISION]');
  });

  test('the diagnostics option: off is silent, error fails the build', async () => {
    const dir = prepare('hosts-app', 'esbuild-levels', { linkSelf: true });
    const result = await printedBuild(dir, "{ diagnostics: { SCORER_KEY_COLLISION: 'off', CONFIG_SCORERS_FUNCTION: 'error' } }");
    expect(result.code).not.toBe(0);
    expect(result.output).not.toContain('SCORER_KEY_COLLISION');
    expect(count(result.output, '[ERROR] [CONFIG_SCORERS_FUNCTION]'), result.output).toBe(1);
  });

  test('a rebuild of a context sees an added scorer file', async () => {
    const dir = prepare('hosts-app', 'esbuild-rebuild', { linkSelf: true });
    const context = await esbuild.context({ ...(await nodeBundle(dir)), outfile: 'out/main.js' });
    try {
      await context.rebuild();
      write(dir, 'src/mastra/agents/weather/subagents/planner/scorers/added.ts', `export default { id: 'added', run: async () => ({ score: 1 }) };\n`);
      await context.rebuild();
      const described = await (await importOutput(path.join(dir, 'out/main.js'))).result();
      expect(described.agents['weather/planner'].scorers.map((s: string[]) => s[0])).toEqual(['added', 'brevity']);
    } finally {
      await context.dispose();
    }
  });
  test('AGENT_UNKNOWN: an import of an agent that does not exist fails the build, listing the known agents; resolveScorers throws it', async () => {
    const dir = prepare('warn-missing-dir', 'esbuild-unknown');
    write(dir, 'src/main.ts', `import planner from 'virtual:agent-scorers/weather/planner';\nexport { planner };\n`);
    const failed = await printedBuild(dir, '{ dts: false }');
    expect(failed.code).not.toBe(0);
    expect(count(failed.output, '[ERROR] [AGENT_UNKNOWN] Unknown agent "weather/planner" in "virtual:agent-scorers/weather/planner"; known agents: "weather".'), failed.output).toBe(1);
    expect(failed.output).not.toContain(':0:0');

    write(dir, 'src/main.ts', `export { resolveScorers } from 'virtual:agent-scorers';\n`);
    const result = await esbuild.build({ ...(await nodeBundle(dir, { dts: false })), outfile: 'out/main.js' });
    expect(result.errors).toEqual([]);
    const { resolveScorers } = await importOutput(path.join(dir, 'out/main.js'));
    await expect(resolveScorers('nope')).rejects.toThrow(/^\[AGENT_UNKNOWN\] Unknown agent "nope"; known agents: "weather"\.$/);
  });

  test('AGENTS_DIR_MISSING: an error for an agentsDir set explicitly, a warning for the default; the declaration file is kept either way', async () => {
    const committed = '// committed\n';
    const dir = prepare('warn-missing-dir', 'esbuild-missing');
    write(dir, 'src/agent-scorers.d.ts', committed);
    const explicit = await printedBuild(dir, `{ dts: 'src/agent-scorers.d.ts', agentsDir: 'src/agnets' }`);
    expect(explicit.code).not.toBe(0);
    expect(count(explicit.output, '[ERROR] [AGENTS_DIR_MISSING] agentsDir "src/agnets" does not exist; no agents are registered from it. (src/agnets)'), explicit.output).toBe(1);
    fs.rmSync(path.join(dir, 'src/mastra'), { recursive: true });
    const fallback = await printedBuild(dir, `{ dts: 'src/agent-scorers.d.ts' }`);
    expect(fallback.code, fallback.output).toBe(0);
    expect(count(fallback.output, '[WARNING] [AGENTS_DIR_MISSING] agentsDir "src/mastra/agents" does not exist'), fallback.output).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'src/agent-scorers.d.ts'), 'utf8')).toBe(committed);
  });
});

describe.each(['neutral', 'browser'] as const)('a wrangler-style bundle (platform %s, format esm)', (platform) => {
  test('imports no Node built-in and holds the registry', async () => {
    const dir = prepare('hosts-app', `esbuild-${platform}`, { linkSelf: true });
    const result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ['src/main.ts'],
      bundle: true,
      platform,
      format: 'esm',
      // wrangler's conditions for Workers
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      outfile: 'out/worker.js',
      metafile: true,
      logLevel: 'silent',
      plugins: [(await load()).default()],
    });
    expect(result.errors).toEqual([]);
    const output = result.metafile!.outputs['out/worker.js'];
    expect(output.imports.filter((i) => i.external)).toEqual([]);
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.some((i) => i.startsWith('node:') || /^(fs|path|crypto|url)$/.test(i))).toBe(false);
    const bundle = fs.readFileSync(path.join(dir, 'out/worker.js'), 'utf8');
    expect(bundle).not.toMatch(/from\s*["']node:|require\(["']/);
    expect((await (await importOutput(path.join(dir, 'out/worker.js'))).result()).keys).toEqual(['constructor', 'support', 'weather', 'weather/planner']);
  });

});

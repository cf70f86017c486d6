/**
 * Option `cache`: each file's static reading kept on disk between builds (src/plugin/reading-store.ts),
 * on every real host. The fixture's files are aged first: files modified in the last seconds are never
 * kept, which is also why every other test (fresh copies) reads every file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { age, build as buildIn, count, DIST, HOSTS, poll, prepare, REPO, run, storeFolder, type Host } from '../helpers/hosts.js';

const TONE = 'src/mastra/agents/weather/scorers/tone.ts';
const COLLISION = '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance"';
const HOUR_AGO = new Date(Date.now() - 3600_000);
const IN_AN_HOUR = new Date(Date.now() + 3600_000);
/** Outside CI, where `cache` is on by default (`run` sets `CI=1` for every other test). */
const LOCAL = { CI: '' };
const build = (host: Host, fixture: string, options: Parameters<typeof buildIn>[2] = {}) => buildIn(host, fixture, { ...options, env: LOCAL });
/** A store entry: kind, root-relative path, stamp, index into `values`. */
type Stored = [string, string, string, number];


/**
 * A project with its own package.json and node_modules, so the store lands inside it on every host
 * (Vite's cacheDir is the nearest package's node_modules/.vite).
 */
function project(host: Host, { aged = true } = {}): string {
  const dir = prepare('basic', host);
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "cache-test", "private": true }\n');
  fs.mkdirSync(path.join(dir, 'node_modules'));
  if (!aged) return dir;
  age(path.join(dir, 'src'));
  return dir;
}


function storeFiles(dir: string, host: Host): string[] {
  const folder = storeFolder(dir, host);
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => /^readings-.*\.json$/.test(f)).map((f) => path.join(folder, f)) : [];
}

function outcomeFiles(dir: string, host: Host): string[] {
  const folder = storeFolder(dir, host);
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => /^outcome-.*\.json$/.test(f)).map((f) => path.join(folder, f)) : [];
}

const manifestOf = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'agent-scorers.manifest.json'), 'utf8')) as {
    agents: Record<string, { scorers: Record<string, { sampling: unknown }> }>;
  };

const OPTIONS = '{ dts: false, manifest: true }';

describe.each(HOSTS)('readings kept between builds on %s', (host) => {
  test('a second build of an unchanged tree reuses them; an edited file is read again, and its problems stop the build', async () => {
    const dir = project(host);
    const first = await build(host, 'basic', { dir, pluginOptions: OPTIONS });
    expect(first.code, first.output).toBe(0);
    expect(count(first.output, COLLISION)).toBe(1);
    const [store, ...others] = storeFiles(dir, host);
    expect(others).toEqual([]);
    const kept = JSON.parse(fs.readFileSync(store, 'utf8')) as { entries: Stored[] };
    const files = kept.entries.map(([kind, file]) => `${kind} ${file}`);
    expect(files).toContain(`scorer ${TONE}`);
    expect(files).toContain('config src/mastra/agents/weather/config.ts');
    expect(files.every((f) => !f.includes(dir))).toBe(true); // root-relative, no machine path
    const storeTime = fs.statSync(store).mtimeMs;
    const firstManifest = manifestOf(dir);
    const firstRegistry = JSON.stringify(await first.load().then((m) => m.registry));

    const second = await build(host, 'basic', { dir, pluginOptions: OPTIONS });
    expect(second.code, second.output).toBe(0);
    expect(count(second.output, COLLISION)).toBe(1); // warnings still print on every build
    expect(manifestOf(dir)).toEqual(firstManifest);
    const loaded = await second.load();
    expect(JSON.stringify(loaded.registry)).toBe(firstRegistry);
    // This fixture imports per-agent modules beside the registry: however the host orders their loads
    // (the registry served from the kept outcome, the agents planned), one bundle has one record per agent.
    expect(loaded.weather).toBe(loaded.registry.weather);
    expect(loaded.planner).toBe(loaded.registry['weather/planner']);
    expect(fs.statSync(store).mtimeMs).toBe(storeTime); // nothing changed, nothing written
    expect(files).toContain('folder src/mastra/agents/weather/scorers');

    // Proof that a build reads from the store: a reading tampered with in the store is what it uses.
    const tamper = (change: (values: unknown[], entries: Stored[]) => void) => {
      const data = JSON.parse(fs.readFileSync(store, 'utf8')) as { values: unknown[]; entries: Stored[] };
      change(data.values, data.entries);
      fs.writeFileSync(store, JSON.stringify(data));
    };
    const entryOf = (entries: Stored[], kind: string, file: string) => entries.find((e) => e[0] === kind && e[1] === file)!;
    tamper((values, entries) => {
      values.push({ hasDefault: true, problem: null, sampling: { kind: 'valid', value: { type: 'ratio', rate: 0.9 } }, shape: 'entry' });
      entryOf(entries, 'scorer', TONE)[3] = values.length - 1;
    });
    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.9 });
    const SCORERS = 'src/mastra/agents/weather/scorers';
    tamper((values, entries) => {
      const listing = entryOf(entries, 'folder', SCORERS);
      values.push((values[listing[3]] as Array<{ name: string }>).filter((e) => e.name !== 'accuracy.js'));
      listing[3] = values.length - 1;
    });
    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    expect(Object.keys(manifestOf(dir).agents.weather.scorers)).not.toContain('accuracy');

    // What changes a stamp is read again: touching the file (even setting its old time back, which
    // moves its change time), adding a file to the folder.
    const tone = path.join(dir, TONE);
    fs.utimesSync(tone, HOUR_AGO, HOUR_AGO);
    fs.writeFileSync(path.join(dir, SCORERS, 'fresh.ts'), `export default { id: 'fresh', run: async () => ({ score: 1 }) };\n`);
    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.5 });
    expect(Object.keys(manifestOf(dir).agents.weather.scorers)).toEqual(expect.arrayContaining(['accuracy', 'fresh']));
    fs.rmSync(path.join(dir, SCORERS, 'fresh.ts'));
    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    expect(Object.keys(manifestOf(dir).agents.weather.scorers)).not.toContain('fresh');

    // An edit is read again; a file modified just before it was read is not kept (a time ahead of the
    // clock stands for "just now", whatever the machine's load).
    const source = fs.readFileSync(tone, 'utf8');
    fs.writeFileSync(tone, source.replace('rate: 0.5', 'rate: 0.7'));
    fs.utimesSync(tone, IN_AN_HOUR, IN_AN_HOUR);
    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.7 });
    const afterEdit = JSON.parse(fs.readFileSync(store, 'utf8')) as typeof kept;
    expect(afterEdit.entries.map(([, file]) => file)).not.toContain(TONE);
    expect(afterEdit.entries.map(([kind, file]) => `${kind} ${file}`)).toContain(`config src/mastra/agents/weather/config.ts`);

    fs.writeFileSync(tone, 'export default 42;\n');
    const broken = await build(host, 'basic', { dir, pluginOptions: OPTIONS });
    expect(broken.code).not.toBe(0);
    expect(broken.output).toContain('[SCORER_INVALID_EXPORT]');
    expect(broken.output).toContain(TONE);
  });

  test('cache: false keeps nothing; a corrupt or foreign store is ignored and replaced', async () => {
    const dir = project(host);
    const off = await build(host, 'basic', { dir, pluginOptions: '{ dts: false, cache: false }' });
    expect(off.code, off.output).toBe(0);
    expect(storeFiles(dir, host)).toEqual([]);

    expect((await build(host, 'basic', { dir, pluginOptions: OPTIONS })).code).toBe(0);
    const [store] = storeFiles(dir, host);
    const good = fs.readFileSync(store, 'utf8');
    for (const bad of ['{"version":', '{"version":"other","values":[],"entries":[]}', good.replace('"entries":[[', '"entries":[["x",')]) {
      fs.writeFileSync(store, bad);
      const result = await build(host, 'basic', { dir, pluginOptions: OPTIONS });
      expect(result.code, result.output).toBe(0);
      expect(count(result.output, COLLISION)).toBe(1);
      expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.5 });
      expect(fs.readFileSync(store, 'utf8')).toBe(good);
    }
  });
});

describe.each(HOSTS)('in CI on %s', (host) => {
  test('the default keeps nothing (a fresh checkout could never reuse it); cache: true still keeps', async () => {
    const dir = project(host);
    const ci = await buildIn(host, 'basic', { dir, pluginOptions: OPTIONS, env: { CI: 'true' } });
    expect(ci.code, ci.output).toBe(0);
    expect(count(ci.output, COLLISION)).toBe(1);
    expect(fs.existsSync(storeFolder(dir, host))).toBe(false);
    const kept = await buildIn(host, 'basic', { dir, pluginOptions: '{ dts: false, manifest: true, cache: true }', env: { CI: 'true' } });
    expect(kept.code, kept.output).toBe(0);
    expect(storeFiles(dir, host)).toHaveLength(1);
    expect(outcomeFiles(dir, host)).toHaveLength(1);
  });
});

test('cache: a folder keeps the store there (relative to root)', async () => {
  const dir = project('vite8');
  const result = await build('vite8', 'basic', { dir, pluginOptions: "{ dts: false, cache: 'var/readings' }" });
  expect(result.code, result.output).toBe(0);
  const kept = fs.readdirSync(path.join(dir, 'var/readings')).filter((f) => f.endsWith('.json'));
  expect(kept.map((f) => f.replace(/-.*/, ''))).toEqual(['outcome', 'readings']);
  expect(storeFiles(dir, 'vite8')).toEqual([]);
});

test('a project edited just now keeps nothing until its files settle', async () => {
  const dir = project('rolldown', { aged: false });
  age(path.join(dir, 'src'), IN_AN_HOUR); // "just now", whatever the machine's load
  const result = await build('rolldown', 'basic', { dir, pluginOptions: OPTIONS });
  expect(result.code, result.output).toBe(0);
  expect(storeFiles(dir, 'rolldown')).toEqual([]);
  expect(outcomeFiles(dir, 'rolldown')).toEqual([]);
});

describe.each(HOSTS)('a one-shot build of an unchanged tree on %s', (host) => {
  test("serves the last build's registry, diagnostics, manifest and declarations as they are, until any input changes", async () => {
    const dir = project(host);
    // The registry alone: a per-agent module loaded first would plan the tree anyway.
    fs.writeFileSync(path.join(dir, 'src/main.ts'), "import registry, { manifest } from 'virtual:agent-scorers';\nexport { registry, manifest };\n");
    const options = "{ dts: 'types/agent-scorers.d.ts', manifest: true }";
    const dts = path.join(dir, 'types/agent-scorers.d.ts');
    const agents = async (result: Awaited<ReturnType<typeof build>>) => Object.keys((await result.load()).registry);
    const first = await build(host, 'basic', { dir, pluginOptions: options });
    expect(first.code, first.output).toBe(0);
    const [outcome, ...others] = outcomeFiles(dir, host);
    expect(others).toEqual([]);
    const firstAgents = await agents(first);
    expect(firstAgents).toContain('support');
    const declarations = fs.readFileSync(dts, 'utf8');

    // Proof that the kept outcome is what a build serves: tampered with, the tampering shows.
    const tamper = () => {
      const data = JSON.parse(fs.readFileSync(outcome, 'utf8')) as { code: string; diagnostics: Array<{ message: string }>; manifest: string };
      expect(data.code).toContain('"support"');
      data.code = data.code.replaceAll('"support"', '"kept"');
      for (const d of data.diagnostics) d.message = d.message.replace('config.scorers wins', 'the kept outcome wins');
      data.manifest = data.manifest.replace(/"rate": ?0\.5/, '"rate": 0.9');
      fs.writeFileSync(outcome, JSON.stringify(data));
    };
    tamper();
    fs.rmSync(dts);
    const second = await build(host, 'basic', { dir, pluginOptions: options });
    expect(second.code, second.output).toBe(0);
    expect(await agents(second)).toEqual(firstAgents.map((a) => (a === 'support' ? 'kept' : a)));
    expect(count(second.output, 'scorers/; the kept outcome wins.')).toBe(1);
    expect(count(second.output, COLLISION)).toBe(1);
    expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.9 });
    expect(fs.readFileSync(dts, 'utf8')).toBe(declarations);

    // A touched scorer file (its change time moves even with the old mtime set back) is a new input.
    const tone = path.join(dir, TONE);
    fs.utimesSync(tone, HOUR_AGO, HOUR_AGO);
    const touched = await build(host, 'basic', { dir, pluginOptions: options });
    expect(touched.code, touched.output).toBe(0);
    expect(await agents(touched)).toEqual(firstAgents);
    expect(count(touched.output, 'the kept outcome wins')).toBe(0);
    expect(manifestOf(dir).agents.weather.scorers.tone.sampling).toEqual({ type: 'ratio', rate: 0.5 });

    // So is a file added to a listed folder, a rewritten readings store, other options.
    tamper();
    fs.writeFileSync(path.join(dir, 'src/mastra/agents/support/scorers/added.ts'), `export default { id: 'added', run: async () => ({ score: 1 }) };\n`);
    age(path.join(dir, 'src/mastra/agents/support')); // settled, so the new outcome is kept too
    const added = await build(host, 'basic', { dir, pluginOptions: options });
    expect(added.code, added.output).toBe(0);
    expect(await agents(added)).toEqual(firstAgents);
    expect(Object.keys(manifestOf(dir).agents.support.scorers)).toContain('added');
    tamper();
    const [store] = storeFiles(dir, host);
    fs.writeFileSync(store, `${fs.readFileSync(store, 'utf8')}\n`);
    const restored = await build(host, 'basic', { dir, pluginOptions: options });
    expect(await agents(restored)).toEqual(firstAgents);
    tamper();
    const other = await build(host, 'basic', { dir, pluginOptions: "{ dts: 'types/agent-scorers.d.ts', manifest: true, exclude: ['**/_draft.ts'] }" });
    expect(other.code, other.output).toBe(0);
    expect(await agents(other)).toEqual(firstAgents);
    expect(Object.keys(manifestOf(dir).agents.weather.scorers)).not.toContain('_draft');

    // A kept outcome never hides a problem: with one kept for these very options, the edited file is
    // read and the build stops; the failed plan leaves no outcome behind, so the next build stops too.
    const again = await build(host, 'basic', { dir, pluginOptions: options });
    expect(again.code, again.output).toBe(0);
    expect(outcomeFiles(dir, host)).toEqual([outcome]);
    fs.writeFileSync(tone, 'export default 42;\n');
    fs.utimesSync(tone, HOUR_AGO, HOUR_AGO);
    for (const round of [1, 2]) {
      const broken = await build(host, 'basic', { dir, pluginOptions: options });
      expect(broken.code, `round ${round}`).not.toBe(0);
      expect(broken.output).toContain('[SCORER_INVALID_EXPORT]');
      expect(broken.output).toContain(TONE);
      expect(outcomeFiles(dir, host)).toEqual([]);
    }
  });
});

test('watch mode never serves a kept outcome: it must watch the folders itself', async () => {
  const dir = project('rollup');
  fs.writeFileSync(path.join(dir, 'src/main.ts'), "import registry from 'virtual:agent-scorers';\nexport { registry };\n");
  const once = await build('rollup', 'basic', { dir, pluginOptions: OPTIONS });
  expect(once.code, once.output).toBe(0);
  expect(outcomeFiles(dir, 'rollup')).toHaveLength(1);
  const main = path.join(dir, 'dist/main.js');
  fs.rmSync(main);
  // The same config, so the same options and the same kept outcome, with --watch.
  const child = spawn(process.execPath, [path.join(REPO, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.config.mjs', '--watch'], { cwd: dir, env: { ...process.env, ...LOCAL }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => void (output += chunk));
  child.stderr.on('data', (chunk) => void (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await poll(async () => fs.existsSync(main), (built) => built, { timeout: 45_000, context: () => `\nrollup --watch printed:\n${output}` });
    // A file added to a folder only the plugin watches (Rollup watches imported modules by itself).
    // Under a new name every second: one made while the watcher still scans counts as there from the start.
    const scorers = path.join(dir, 'src/mastra/agents/support/scorers');
    let round = 0;
    let last = 0;
    await poll(
      async () => {
        if (Date.now() - last > 1000) {
          last = Date.now();
          fs.writeFileSync(path.join(scorers, `added-in-watch-${round++}.ts`), `export default { id: 'added-in-watch', run: async () => ({ score: 1 }) };\n`);
        }
        return fs.readFileSync(main, 'utf8').includes('"added-in-watch-');
      },
      (rebuilt) => rebuilt,
      { timeout: 45_000, context: () => `\nrollup --watch printed:\n${output}` },
    );
  } finally {
    child.kill();
    await exited;
  }
});

/** The other adapters keep the same store: a reading tampered with in the store shows it is used. */
describe('the esbuild plugin and agent-scorers generate keep readings too', () => {
  const TONE_APP = 'src/mastra/agents/weather/scorers/tone.ts';
  /** hosts-app, aged, with a package.json and node_modules (linked to this package) of its own. */
  function app(name: string): string {
    const dir = prepare('hosts-app', name, { linkSelf: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "cache-app", "private": true }\n');
    age(path.join(dir, 'src'));
    return dir;
  }
  /** Points tone.ts's stored reading at a sampling of 0.9: a build that uses the store says 0.9. */
  function tamperTone(dir: string): void {
    const folder = store(dir);
    const file = path.join(folder, fs.readdirSync(folder)[0]);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { values: unknown[]; entries: Stored[] };
    data.values.push({ hasDefault: true, problem: null, sampling: { kind: 'valid', value: { type: 'ratio', rate: 0.9 } }, shape: 'entry' });
    data.entries.find((e) => e[0] === 'scorer' && e[1] === TONE_APP)![3] = data.values.length - 1;
    fs.writeFileSync(file, JSON.stringify(data));
  }
  const store = (dir: string) => path.join(dir, 'node_modules/.cache/agent-scorers');

  test('esbuild', async () => {
    const esbuild = await import('esbuild');
    const { default: agentScorers } = (await import(pathToFileURL(path.join(DIST, 'plugin/esbuild.js')).href)) as { default: (o?: object) => import('esbuild').Plugin };
    const dir = app('cache-esbuild');
    const bundle = () =>
      esbuild.build({ absWorkingDir: dir, entryPoints: ['src/main.ts'], bundle: true, platform: 'node', format: 'esm', outdir: 'out', logLevel: 'silent', plugins: [agentScorers({ manifest: true, dts: false, cache: true })] });
    const sampling = () => JSON.parse(fs.readFileSync(path.join(dir, 'out/agent-scorers.manifest.json'), 'utf8')).agents.weather.scorers.tone.sampling;
    expect((await bundle()).errors).toEqual([]);
    expect(fs.readdirSync(store(dir))).toHaveLength(1);
    tamperTone(dir);
    expect((await bundle()).errors).toEqual([]);
    expect(sampling()).toEqual({ type: 'ratio', rate: 0.9 });
    fs.utimesSync(path.join(dir, TONE_APP), HOUR_AGO, HOUR_AGO); // a new stamp: read again
    expect((await bundle()).errors).toEqual([]);
    expect(sampling()).toEqual({ type: 'ratio', rate: 0.5 });
  });

  test('agent-scorers generate', async () => {
    const dir = app('cache-generate');
    const generate = () => run(process.execPath, [path.join(DIST, 'plugin/bin.js'), 'generate', '--dts', 'false'], dir, LOCAL);
    const manifestOfGenerated = () => fs.readFileSync(path.join(dir, 'src/agent-scorers.gen.mjs'), 'utf8');
    expect((await generate()).code).toBe(0);
    expect(fs.readdirSync(store(dir))).toHaveLength(1);
    tamperTone(dir);
    expect((await generate()).code).toBe(0);
    expect(manifestOfGenerated()).toContain('\\"rate\\":0.9');
    fs.utimesSync(path.join(dir, TONE_APP), HOUR_AGO, HOUR_AGO); // a new stamp: read again
    expect((await generate()).code).toBe(0);
    expect(manifestOfGenerated()).toContain('\\"rate\\":0.5');
  });
});

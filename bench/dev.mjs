/**
 * Dev-server benchmark (run after `npm run build`; imports the plugin from dist/):
 *
 *   node bench/dev.mjs [--agents 100] [--scorers 10] [--rounds 8]
 *
 * 1. In one Vite 8 dev server on a generated tree: how long a CREATED scorer file takes to show in
 *    the next import of `virtual:agent-scorers`, against how long an EDIT of an existing scorer takes
 *    to show (Vite's HMR path, no rescan). Both include the file watcher's own latency.
 * 2. A rescan (`scan()` from dist/core/scan.js) against a raw recursive `fs.readdirSync` walk of the
 *    same tree, and the first load of the registry module in a fresh server against that walk: with
 *    nothing kept (`cache: false`), and after a restart with the readings kept (option `cache`).
 *
 * Medians over `--rounds` repetitions; prints a small table. Numbers only, no pass/fail.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const AGENTS = arg('agents', 100);
const SCORERS = arg('scorers', 10);
const ROUNDS = arg('rounds', 8);

const dist = (p) => import(pathToFileURL(path.join(REPO, 'dist', p)).href);
const { default: agentScorers } = await dist('plugin/vite.js');
const { scan } = await dist('core/scan.js');
const { createServer } = await import('vite');

// ---- the tree -------------------------------------------------------------------------------
const root = path.join(REPO, 'bench/.tmp/dev');
const agentsDir = path.join(root, 'src/mastra/agents');
fs.rmSync(root, { recursive: true, force: true });
const agentKey = (i) => `agent-${String(i).padStart(4, '0')}`;
const scorerSource = (id) => `import { makeScorer } from '../../../helpers.ts';\n\nexport default makeScorer(${JSON.stringify(id)});\n`;
fs.mkdirSync(path.join(root, 'src/mastra'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'src/mastra/helpers.ts'),
  'export const makeScorer = (id: string) => ({ id, name: id, description: id, run: async () => ({ score: 1 }) });\n',
);
for (let a = 0; a < AGENTS; a++) {
  const dir = path.join(agentsDir, agentKey(a));
  fs.mkdirSync(path.join(dir, 'scorers'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'instructions.md'), `Agent ${a}.\n`);
  fs.writeFileSync(path.join(dir, 'config.ts'), `export default { name: ${JSON.stringify(agentKey(a))} };\n`);
  for (let s = 0; s < SCORERS; s++) fs.writeFileSync(path.join(dir, 'scorers', `s${s}.ts`), scorerSource(`${agentKey(a)}-s${s}-v0`));
}

const serverOptions = {
  configFile: false,
  root,
  logLevel: 'silent',
  appType: 'custom',
  cacheDir: path.join(root, 'node_modules/.vite'),
  optimizeDeps: { noDiscovery: true, include: [] },
};
const startServer = async (cache) => {
  const server = await createServer({ ...serverOptions, plugins: [agentScorers({ dts: false, cache })] });
  await new Promise((resolve) => server.watcher.once('ready', resolve));
  return server;
};
/** The registry module alone (discovery, the static reading of every file, code generation); its imports are not followed. */
const loadRegistryModule = (server) =>
  (server.environments?.ssr ?? server).transformRequest('virtual:agent-scorers', ...(server.environments ? [] : [{ ssr: true }]));

// ---- 0. first load of the registry in a fresh process: nothing kept, and a restart with the readings kept
// Files modified in the last 3 s are never kept (reading-store.ts): let the fresh tree age first.
await new Promise((done) => setTimeout(done, 3500));
const firstLoadInChild = (cache) => {
  const script = `
    const { createServer } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'node_modules/vite/dist/node/index.js')).href)});
    const { default: agentScorers } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist/plugin/vite.js')).href)});
    const server = await createServer({ ...${JSON.stringify(serverOptions)}, plugins: [agentScorers({ dts: false, cache: ${cache} })] });
    await new Promise((resolve) => server.watcher.once('ready', resolve));
    const start = performance.now();
    await server.environments.ssr.transformRequest('virtual:agent-scorers');
    console.log(performance.now() - start);
    await server.close();`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n').pop());
};
const coldLoads = [];
const keptLoads = [];
firstLoadInChild(true); // writes the store
for (let r = 0; r < Math.min(ROUNDS, 5); r++) {
  coldLoads.push(firstLoadInChild(false));
  keptLoads.push(firstLoadInChild(true));
}

// ---- 1. created file vs edited scorer in a dev server -----------------------------------------
const server = await startServer(true);
const load = async () => (await server.ssrLoadModule('virtual:agent-scorers')).default;
await loadRegistryModule(server);
let t = performance.now();
await load();
const firstImport = performance.now() - t;

async function timeUntil(change, shows) {
  const start = performance.now();
  change();
  for (;;) {
    if (shows(await load())) return performance.now() - start;
    if (performance.now() - start > 30_000) throw new Error('change did not show within 30 s');
    await new Promise((r) => setTimeout(r, 1));
  }
}

const created = [];
const edited = [];
for (let r = 0; r < ROUNDS; r++) {
  // A different agent each round, so no path is touched twice within the watcher's throttle window.
  const agent = agentKey((r * 7) % AGENTS);
  const key = `new-${r}`;
  created.push(
    await timeUntil(
      () => fs.writeFileSync(path.join(agentsDir, agent, 'scorers', `${key}.ts`), scorerSource(key)),
      (registry) => key in registry[agent],
    ),
  );
  const id = `${agent}-s1-v${r + 1}`;
  edited.push(
    await timeUntil(
      () => fs.writeFileSync(path.join(agentsDir, agent, 'scorers', 's1.ts'), scorerSource(id)),
      (registry) => registry[agent].s1.scorer.id === id,
    ),
  );
}
await server.close();

// ---- 2. rescan vs raw walk -----------------------------------------------------------------
function rawWalk(dir) {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    count++;
    if (entry.isDirectory()) count += rawWalk(path.join(dir, entry.name));
  }
  return count;
}
const scanInput = { root, agentsDirs: [agentsDir], extensions: ['.ts', '.mts', '.js', '.mjs'], isExcluded: () => false };
const timeIt = (fn) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};
for (let i = 0; i < 5; i++) {
  scan(scanInput);
  rawWalk(agentsDir);
}
const scans = [];
const walks = [];
for (let i = 0; i < Math.max(ROUNDS, 20); i++) {
  scans.push(timeIt(() => scan(scanInput)));
  walks.push(timeIt(() => rawWalk(agentsDir)));
}
const found = scan(scanInput).agents.reduce((n, a) => n + a.scorers.length, 0);

// ---- report ---------------------------------------------------------------------------------
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const rows = [
  ['created file → next import', ms(median(created)), ''],
  ['edited scorer → next import (HMR)', ms(median(edited)), ''],
  ['ratio created / edited', '', `${(median(created) / median(edited)).toFixed(2)}×`],
  ['rescan: scan()', ms(median(scans)), ''],
  ['raw fs.readdirSync walk', ms(median(walks)), ''],
  ['ratio scan / raw walk', '', `${(median(scans) / median(walks)).toFixed(2)}×`],
];
console.log(`agent-scorers dev benchmark: ${AGENTS} agents × ${SCORERS} scorers (${found} files), Vite 8, median of ${ROUNDS} (scan: ${scans.length}) rounds`);
const walk = median(walks);
const cold = median(coldLoads);
const kept = median(keptLoads);
console.log(`first load of the registry module in a fresh process, nothing kept (cache: false): ${ms(cold)} (${(cold / walk).toFixed(1)}× the raw walk)`);
console.log(`the same after a restart, readings kept (cache: true): ${ms(kept)} (${(kept / walk).toFixed(1)}× the raw walk); first import with every scorer module: ${ms(firstImport)}`);
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
fs.rmSync(root, { recursive: true, force: true });

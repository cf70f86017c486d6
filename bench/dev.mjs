/**
 * Dev-server benchmark (run after `npm run build`; imports the plugin from dist/):
 *
 *   node bench/dev.mjs [--agents 100] [--scorers 10] [--rounds 8]
 *
 * 1. In one Vite 8 dev server on a generated tree: how long a CREATED scorer file takes to show in
 *    the next import of `virtual:agent-scorers`, against how long an EDIT of an existing scorer takes
 *    to show (Vite's HMR path, no rescan). Both include the file watcher's own latency.
 * 2. A rescan (`scan()` from dist/core/scan.js) against a raw recursive `fs.readdirSync` walk of the
 *    same tree.
 * 0. The first load of the entry module in a fresh server (Vite's transform of it, its imports not
 *    followed), against that walk and against the modules a user would write instead, in the same
 *    run: `virtual:agent-scorers` with the readings kept (at once, and when the server is idle after
 *    start-up), with nothing kept (`cache: false`), a hand-written registry (one import per scorer
 *    file) and an `import.meta.glob` one. Then, once each, the whole first import of the plugin's and
 *    the hand-written registry (every scorer module transformed and run).
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

// ---- 0. first load of the registry module in a fresh process, against the modules a user would write
// instead (same tree, same server options): one static import per scorer file by hand (b), and
// `import.meta.glob` (c). Each is the entry module alone, transformed by Vite; its imports are not followed.
fs.writeFileSync(
  path.join(root, 'src/hand.ts'),
  [
    ...Array.from({ length: AGENTS }, (_, a) => Array.from({ length: SCORERS }, (_, s) => `import a${a}s${s} from './mastra/agents/${agentKey(a)}/scorers/s${s}.ts';`)).flat(),
    `export default {${Array.from({ length: AGENTS }, (_, a) => `${JSON.stringify(agentKey(a))}: {${Array.from({ length: SCORERS }, (_, s) => `s${s}: { scorer: a${a}s${s} }`).join(', ')}}`).join(',\n')}};`,
  ].join('\n'),
);
fs.writeFileSync(
  path.join(root, 'src/glob.ts'),
  `const files = import.meta.glob('./mastra/agents/*/scorers/*.ts', { eager: true, import: 'default' });
const registry: Record<string, Record<string, { scorer: unknown }>> = {};
for (const [file, scorer] of Object.entries(files)) {
  const [agent, , name] = file.slice('./mastra/agents/'.length).split('/');
  (registry[agent] ??= {})[name.slice(0, -'.ts'.length)] = { scorer };
}
export default registry;
`,
);
// Files modified in the last 3 s are never kept (reading-store.ts): let the fresh tree age first.
await new Promise((done) => setTimeout(done, 3500));
/**
 * `variant`: `a` the plugin (readings kept), `n` the plugin keeping nothing, `b` hand-written, `c` glob.
 * `settle`: request the module 3 s after the watcher is ready, when the server is idle, as a first request
 * usually comes (the plugin plans the tree during start-up; Vite's watcher is still busy for a second or
 * two after `ready` on 13,000 files), rather than at once, as under Vitest. `whole`: also time the import of the whole graph.
 */
const firstLoadInChild = (variant, { settle = false, whole = false } = {}) => {
  const plugin = variant === 'a' || variant === 'n';
  const id = plugin ? 'virtual:agent-scorers' : `/src/${variant === 'b' ? 'hand' : 'glob'}.ts`;
  const script = `
    const { createServer } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'node_modules/vite/dist/node/index.js')).href)});
    const { default: agentScorers } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist/plugin/vite.js')).href)});
    const plugins = ${plugin} ? [agentScorers({ dts: false, cache: ${variant === 'a'} })] : [];
    const server = await createServer({ ...${JSON.stringify(serverOptions)}, plugins });
    await new Promise((resolve) => server.watcher.once('ready', resolve));
    if (${settle}) await new Promise((resolve) => setTimeout(resolve, 3000));
    let start = performance.now();
    await server.environments.ssr.transformRequest(${JSON.stringify(id)});
    console.log(performance.now() - start);
    if (${whole}) {
      start = performance.now();
      await server.ssrLoadModule(${JSON.stringify(id)});
      console.log(performance.now() - start);
    }
    await server.close();`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n').map(Number);
};
const firstLoads = { a: [], n: [], b: [], c: [], settled: [] };
firstLoadInChild('a'); // writes the store
for (let r = 0; r < Math.min(ROUNDS, 5); r++) {
  // Interleaved, so the machine's noise falls on every variant alike.
  for (const variant of ['a', 'n', 'b', 'c']) firstLoads[variant].push(firstLoadInChild(variant)[0]);
  firstLoads.settled.push(firstLoadInChild('a', { settle: true })[0]);
}
// The whole first import (every scorer module transformed and run): once each, it takes seconds.
const [, wholeA] = firstLoadInChild('a', { settle: true, whole: true });
const [, wholeB] = firstLoadInChild('b', { settle: true, whole: true });

// ---- 1. created file vs edited scorer in a dev server -----------------------------------------
const server = await startServer(true);
const load = async () => (await server.ssrLoadModule('virtual:agent-scorers')).default;
await loadRegistryModule(server);
await load();

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
const line = (label, value, base, baseName) => console.log(`${label}: ${ms(value)} (${(value / walk).toFixed(1)}× the raw walk${base ? `, ${(value / base).toFixed(2)}× ${baseName}` : ''})`);
const [a, n, b, c, settled] = ['a', 'n', 'b', 'c', 'settled'].map((v) => median(firstLoads[v]));
console.log('first load of the entry module in a fresh dev server (transformRequest; imports not followed):');
line('  a  virtual:agent-scorers, readings kept, at once', a, b, 'hand-written');
line('  a  the same, 3 s after start-up', settled, b, 'hand-written');
line('  n  virtual:agent-scorers, nothing kept (cache: false)', n, b, 'hand-written');
line('  b  hand-written registry (one import per scorer file)', b);
line('  c  import.meta.glob registry', c, b, 'hand-written');
console.log(`whole first import (every module transformed and run), once: a ${ms(wholeA)}, b ${ms(wholeB)} (a/b ${(wholeA / wholeB).toFixed(2)})`);
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
fs.rmSync(root, { recursive: true, force: true });

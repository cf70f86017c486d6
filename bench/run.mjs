/**
 * Build benchmark (`npm run bench`). Generated Mastra-style projects (bench/generate.mjs) of N agents ×
 * 10 scorers, in the shapes users write, each built three ways with Vite 8 (SSR, everything bundled
 * but @mastra/core, no minification):
 *   a  this plugin                `import scorers from 'virtual:agent-scorers'`
 *   b  hand-written registry      one static import per bundled file: the physical floor
 *   c  import.meta.glob (eager)   the same registry assembled in user code
 * and timed two ways:
 *   cli  the whole `vite build --config vite.config.<v>.ts` process, spawn to exit: Node start, Vite's
 *        import, config bundling and loading, the plugin's import, the build (what a user waits for)
 *   api  `build()` alone, in its own process (bench/build-one.mjs), Vite and the plugin imported first
 * Every build runs in a fresh process. Variants and modes are interleaved in rotating order after a
 * discarded warm-up round, so machine noise falls on all alike; tables show medians and ratios of
 * medians measured in the same run. Before timing, the three bundles are imported and checked to hold
 * the same registry (bench/verify.mjs).
 *
 * Quick default: sizes 20,200, every shape, cli mode, the current Node. `--full`: sizes 20,200,1000,
 * both modes, Node 20 (this one) and Node 24 (`npx -y node@24`).
 * Options: --sizes 20,200  --shapes object,mastra  --modes cli,api  --nodes current,24  --runs <n>
 *   --variants abce (e: the hand-written registry imported by the entry)  --plugin <dir or file>  (another build of the plugin: a dist/ folder or its
 *   plugin/vite.js)  --compare <dir or file>  (also build with that plugin build, variant o, and
 *   report a/o, and k/p with k in --variants, p being that build cold: the way to measure one change)  --profile (a CPU profile of one plugin `vite build` per project, bench/.tmp/prof)
 *   --no-write (leave bench/results.json alone)
 *   --instructions (count each build's instructions under valgrind's callgrind instead of timing it:
 *   repeatable to ~1% whatever else the machine runs, ~50x slower; 3 runs unless --runs; bench/instructions.json)
 *   --both (time and count in one run, one table: --runs timed runs, 9 unless given, then --counted counted
 *   runs, 1 unless given; bench/both.json)
 * Variant k is the plugin cold in a CI job: its cache folder emptied before every build, as in a fresh clone,
 * and CI=true (so the plugin keeps nothing by default); f is the same outside CI, where the plugin writes its
 * cache (a is warm: the cache of the build before kept). Every other build runs with CI unset, whatever the
 * shell has. Variant s is the stand-in: a plugin that only serves the text the plugin generated for the same
 * tree (captured by bench/capture.mjs, cold, in the warm-up round), so k/s is the plugin's own work and s/b the
 * host's cost of the generated code. The default variants are a, k, s, b and c.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { cacheDirOf, generate, SHAPES, VARIANTS } from './generate.mjs';
import { CALLGRIND, median, splitValgrind } from './stats.mjs';
import { compareRegistries } from './verify.mjs';

const BENCH = import.meta.dirname;
const REPO = path.dirname(BENCH);
const TMP = path.join(BENCH, '.tmp');
const VITE_CLI = path.join(REPO, 'node_modules/vite/bin/vite.js');
const RUNS = { 20: 9, 200: 7, 1000: 5 };
// 9, not fewer: on a shared 2-core machine a 5-run median moved by ±0.15 between runs (bench/README.md).
const QUICK_RUNS = 9;
/** The performance targets (bench/README.md): warm a/b and a/c; k, the cold build, against the same floors. */
const TARGET = { ab: 1.1, cpuAB: 1.1, ac: 1.0, rssAB: 1.05, rssKB: 1.1 };

function parseArgs(argv) {
  const args = { sizes: null, shapes: null, modes: null, nodes: null, runs: null, variants: ['a', 'k', 's', 'b', 'c'], profile: false, plugin: null, compare: null, write: true, full: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    const list = () => value().split(',');
    if (arg === '--full') args.full = true;
    else if (arg === '--sizes') args.sizes = list().map(Number);
    else if (arg === '--shapes') args.shapes = list();
    else if (arg === '--modes') args.modes = list();
    else if (arg === '--nodes') args.nodes = list();
    else if (arg === '--runs') args.runs = Number(value());
    else if (arg === '--variants') args.variants = value().split('');
    else if (arg === '--profile') args.profile = true;
    else if (arg === '--plugin') args.plugin = path.resolve(value());
    else if (arg === '--compare') args.compare = path.resolve(value());
    else if (arg === '--no-write') args.write = false;
    else if (arg === '--instructions') args.instructions = true;
    else if (arg === '--both') args.both = true;
    else if (arg === '--counted') args.counted = Number(value());
    else throw new Error(`unknown option ${arg}`);
  }
  args.sizes ??= args.full ? [20, 200, 1000] : [20, 200];
  args.shapes ??= Object.keys(SHAPES);
  args.modes ??= args.full ? ['cli', 'api'] : ['cli'];
  args.nodes ??= args.full ? ['current', '24'] : ['current'];
  if (args.sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes takes positive integers');
  if (args.shapes.some((s) => !SHAPES[s])) throw new Error(`--shapes takes ${Object.keys(SHAPES).join(', ')}`);
  if (args.modes.some((m) => m !== 'cli' && m !== 'api')) throw new Error('--modes takes cli, api');
  const letters = Object.keys(VARIANTS).filter((v) => v !== 'o' && v !== 'p'); // o and p come only with --compare
  if (args.variants.some((v) => !letters.includes(v)) || args.variants.length === 0) throw new Error(`--variants takes letters ${letters.join(', ')}`);
  if (args.runs !== null && !(args.runs >= 1)) throw new Error('--runs takes a positive integer');
  // o: the other build warm, against a; p: cold in CI, against k.
  if (args.compare && !args.variants.includes('a') && !args.variants.includes('k')) throw new Error('--compare needs a or k in --variants: it measures against them');
  if (args.compare) args.variants.push(...(args.variants.includes('a') ? ['o'] : []), ...(args.variants.includes('k') ? ['p'] : []));
  return args;
}

/** `current` is this Node; a major version is fetched once through `npx -y node@<major>`. */
function nodeBinary(which) {
  if (which === 'current') return process.execPath;
  return execFileSync('npx', ['-y', `node@${which}`, '-p', 'process.execPath'], { encoding: 'utf8' }).trim();
}

/**
 * Links `agent-scorers` under bench/.tmp/node_modules to the plugin build under test, so the projects'
 * configs import it by its package name, as users do (Vite keeps bare imports of a config external).
 */
function linkPlugin(pluginDir, name = 'agent-scorers') {
  const pkg = path.join(TMP, 'node_modules', name);
  fs.rmSync(pkg, { recursive: true, force: true });
  fs.mkdirSync(pkg, { recursive: true });
  const entry = pathToFileURL(path.join(pluginDir, 'plugin/vite.js')).href;
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name, type: 'module', exports: { './vite': './vite.js' } }));
  fs.writeFileSync(path.join(pkg, 'vite.js'), `export { default, agentScorers } from ${JSON.stringify(entry)};\n`);
}

let outputSeq = 0;
/**
 * Runs one process and returns its exit code, output and wall time. Output goes to a file, not a
 * pipe: a build that prints 1,000 warnings into a pipe blocks whenever this (busy, single-threaded)
 * parent is slow to drain it, which would time the harness rather than the build.
 */
function spawnTimed(node, argv, cwd, extraEnv) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...extraEnv };
    const file = path.join(TMP, `output-${process.pid}-${outputSeq++}.txt`);
    const fd = fs.openSync(file, 'w');
    const started = performance.now();
    const child = spawn(node, argv, { cwd, env, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = performance.now() - started;
      const out = fs.readFileSync(file, 'utf8');
      fs.rmSync(file);
      resolve({ code, out, wall });
    });
  });
}

let usageSeq = 0;
/** One build in a fresh process; returns `{ ms, cpuMs, rssKb, ins, noise }` (`ins` under `count` only). */
async function buildOnce(node, project, variant, mode, { profileDir, count = false } = {}) {
  // A cold build is a fresh clone's: nothing kept from any build before (every cache folder empty).
  if (VARIANTS[variant].cold) fs.rmSync(path.join(project.dir, cacheDirOf(variant)), { recursive: true, force: true });
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${project.shape}-${project.agents}-${variant}-${mode}.cpuprofile`] : [];
  const spawnBuild = async (argv, extraEnv) => {
    const env = { CI: '', ...VARIANTS[variant].env, ...extraEnv };
    if (!count) return { ...(await spawnTimed(node, argv, project.dir, env)), ins: null };
    const r = await spawnTimed('valgrind', [...CALLGRIND, node, ...argv], project.dir, env);
    const { ins, out } = splitValgrind(r.out);
    if (r.code === 0 && ins === null) throw new Error(`no instruction count in valgrind's output:\n${r.out}`);
    return { ...r, out, ins };
  };
  if (mode === 'api') {
    const r = await spawnBuild([...prof, path.join(BENCH, 'build-one.mjs'), project.dir, variant], {});
    const last = r.out.trim().split('\n').pop() ?? '';
    if (r.code !== 0 || !last.startsWith('{')) throw new Error(`build() of ${project.shape}-${project.agents} (${variant}) failed (exit ${r.code}):\n${r.out}`);
    const { ms, cpuMs, maxRssKb } = JSON.parse(last);
    return { ms, cpuMs, rssKb: maxRssKb, ins: r.ins, noise: r.out.slice(0, r.out.lastIndexOf(last)).trim() };
  }
  const usage = path.join(TMP, `usage-${process.pid}-${usageSeq++}.json`);
  const argv = [...prof, '--import', pathToFileURL(path.join(BENCH, 'usage.mjs')).href, VITE_CLI, 'build', '--config', `vite.config.${variant}.ts`];
  const r = await spawnBuild(argv, { BENCH_USAGE: usage });
  if (r.code !== 0) throw new Error(`vite build of ${project.shape}-${project.agents} (${variant}) failed (exit ${r.code}):\n${r.out}`);
  const { cpuMs, maxRssKb } = JSON.parse(fs.readFileSync(usage, 'utf8'));
  fs.rmSync(usage);
  // Vite prints its banner and file list at `info`; the configs use `warn`, so anything left is a warning.
  return { ms: r.wall, cpuMs, rssKb: maxRssKb, ins: r.ins, noise: r.out.trim() };
}

const round = (x, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r, ri) => {
      const line = r.map((cell, i) => (i < 3 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ');
      return ri === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

/** Builds each variant once, checks the registries agree, and returns the bundles' sizes. */
async function warmUpAndVerify(node, project, variants, modes) {
  const bytes = {};
  const noise = new Set();
  if (variants.includes('s')) {
    // The stand-in serves the text of the plugin under test, as a cold CI build (k) generates it.
    const r = await spawnTimed(node, [path.join(BENCH, 'capture.mjs'), project.dir], project.dir, { CI: 'true' });
    if (r.code !== 0) throw new Error(`capturing the registry of ${project.shape}-${project.agents} failed (exit ${r.code}):\n${r.out}`);
  }
  for (const mode of modes) {
    for (const v of variants) {
      const r = await buildOnce(node, project, v, mode);
      // Only the plugin's own warnings are expected (the shapes with collisions); each once per agent.
      if (r.noise) noise.add(`[${v} ${mode}] ${r.noise.split('\n').length} lines, e.g. ${r.noise.split('\n')[0].slice(0, 160)}`);
    }
  }
  const loaded = {};
  for (const v of variants) {
    const file = path.join(project.dir, `dist-${v}`, 'main.js');
    const code = fs.readFileSync(file);
    bytes[v] = { raw: code.length, gzip: zlib.gzipSync(code).length };
    loaded[v] = (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)).default;
  }
  for (const v of variants.slice(1)) {
    const problem = compareRegistries(loaded[variants[0]], loaded[v]);
    if (problem) throw new Error(`${project.shape}-${project.agents}: variant ${v} differs from ${variants[0]}: ${problem}`);
  }
  return { bytes, noise: [...noise] };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const distOf = (p) => (p.endsWith('.js') ? path.dirname(path.dirname(p)) : p);
  const pluginDir = args.plugin ? distOf(args.plugin) : path.join(REPO, 'dist');
  for (const dir of [pluginDir, ...(args.compare ? [distOf(args.compare)] : [])]) {
    if (!fs.existsSync(path.join(dir, 'plugin/vite.js'))) throw new Error(`${path.join(dir, 'plugin/vite.js')} is missing: run \`npm run build\` first (npm run bench does).`);
  }
  fs.mkdirSync(TMP, { recursive: true });
  linkPlugin(pluginDir);
  if (args.compare) linkPlugin(distOf(args.compare), 'agent-scorers-other');
  const t0 = performance.now();
  const profileDir = path.join(TMP, 'prof');
  if (args.profile) fs.rmSync(profileDir, { recursive: true, force: true });
  const loadBefore = os.loadavg().map((x) => round(x, 2));

  const results = [];
  for (const which of args.nodes) {
    const node = nodeBinary(which);
    const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    for (const shape of args.shapes) {
      for (const agents of args.sizes) {
        const project = generate(TMP, agents, shape);
        // Files modified in the last seconds are never kept (reading-store.ts): let a fresh tree age
        // first, so variant a measures what a user's second build of an unchanged tree does.
        if (project.writtenAt !== undefined) await new Promise((done) => setTimeout(done, Math.max(0, project.writtenAt + 3500 - Date.now())));
        const runs = args.runs ?? (args.instructions ? 3 : args.full ? (RUNS[agents] ?? 3) : QUICK_RUNS);
        // --both: `runs` timed runs, then `counted` counted ones; --instructions: counted runs only.
        const timedRuns = args.instructions ? 0 : runs;
        const countedRuns = args.instructions ? runs : args.both ? (args.counted ?? 1) : 0;
        process.stdout.write(`${nodeVersion} ${shape} ${agents} agents: warm-up`);
        const { bytes, noise } = await warmUpAndVerify(node, project, args.variants, args.modes);
        const samples = {};
        for (const mode of args.modes) for (const v of args.variants) samples[`${mode}:${v}`] = { ms: [], cpuMs: [], rssKb: [], ins: [] };
        const slots = args.modes.flatMap((mode) => args.variants.map((v) => [mode, v]));
        for (let run = 0; run < timedRuns + countedRuns; run++) {
          const count = run >= timedRuns;
          process.stdout.write(`, ${count ? 'counted ' : ''}${run + 1}`);
          // Rotate the order each run so no variant always follows the same one.
          for (let k = 0; k < slots.length; k++) {
            const [mode, v] = slots[(k + run) % slots.length];
            const r = await buildOnce(node, project, v, mode, { count });
            const s = samples[`${mode}:${v}`];
            if (count) {
              s.ins.push(r.ins);
              continue;
            }
            s.ms.push(r.ms);
            s.cpuMs.push(r.cpuMs);
            s.rssKb.push(r.rssKb);
          }
        }
        if (args.profile && (args.variants.includes('a') || args.variants.includes('k'))) {
          process.stdout.write(', profile');
          await buildOnce(node, project, args.variants.includes('a') ? 'a' : 'k', 'cli', { profileDir });
        }
        process.stdout.write('\n');
        for (const line of noise) console.log(`  printed: ${line}`);
        for (const mode of args.modes) {
          const m = (v, field) => (samples[`${mode}:${v}`] ? median(samples[`${mode}:${v}`][field]) : null);
          const ratio = (x, y) => (x !== null && y !== null ? round(x / y, 2) : null);
          const variants = {};
          for (const v of args.variants) {
            const s = samples[`${mode}:${v}`];
            variants[v] = args.instructions
              ? { medianIns: m(v, 'ins'), samplesIns: s.ins, bytes: bytes[v].raw, gzipBytes: bytes[v].gzip }
              : { medianMs: round(m(v, 'ms')), minMs: round(Math.min(...s.ms)), medianCpuMs: round(m(v, 'cpuMs')), medianRssMb: round(m(v, 'rssKb') / 1024, 1), samplesMs: s.ms.map((x) => round(x)), bytes: bytes[v].raw, gzipBytes: bytes[v].gzip };
          }
          const ins = (x, y) => (samples[`${mode}:${x}`] && samples[`${mode}:${y}`] ? round(m(x, 'ins') / m(y, 'ins'), 3) : null);
          const counted = Object.fromEntries(INS_PAIRS.map(([x, y]) => [insKey(x, y), ins(x, y)]));
          if (args.instructions) {
            results.push({ node: nodeVersion, shape, agents, scorers: project.scorers, mode, runs, variants, ...counted });
            continue;
          }
          if (args.both) for (const v of args.variants) variants[v].medianIns = m(v, 'ins');
          results.push({
            node: nodeVersion,
            shape,
            agents,
            scorers: project.scorers,
            mode,
            runs,
            variants,
            ab: ratio(m('a', 'ms'), m('b', 'ms')),
            kb: ratio(m('k', 'ms'), m('b', 'ms')),
            fb: ratio(m('f', 'ms'), m('b', 'ms')),
            cpuKB: ratio(m('k', 'cpuMs'), m('b', 'cpuMs')),
            kc: ratio(m('k', 'ms'), m('c', 'ms')),
            ks: ratio(m('k', 'ms'), m('s', 'ms')),
            cpuKS: ratio(m('k', 'cpuMs'), m('s', 'cpuMs')),
            sb: ratio(m('s', 'ms'), m('b', 'ms')),
            rssKB: ratio(m('k', 'rssKb'), m('b', 'rssKb')),
            nb: ratio(m('n', 'ms'), m('b', 'ms')),
            cpuNB: ratio(m('n', 'cpuMs'), m('b', 'cpuMs')),
            ac: ratio(m('a', 'ms'), m('c', 'ms')),
            cpuAB: ratio(m('a', 'cpuMs'), m('b', 'cpuMs')),
            cpuAC: ratio(m('a', 'cpuMs'), m('c', 'cpuMs')),
            rssAB: ratio(m('a', 'rssKb'), m('b', 'rssKb')),
            ae: ratio(m('a', 'ms'), m('e', 'ms')),
            cpuAE: ratio(m('a', 'cpuMs'), m('e', 'cpuMs')),
            ao: ratio(m('a', 'ms'), m('o', 'ms')),
            cpuAO: ratio(m('a', 'cpuMs'), m('o', 'cpuMs')),
            kp: ratio(m('k', 'ms'), m('p', 'ms')),
            cpuKP: ratio(m('k', 'cpuMs'), m('p', 'cpuMs')),
            minAB: variants.a && variants.b ? round(variants.a.minMs / variants.b.minMs, 2) : null,
            ...(args.both ? { countedRuns, ...counted } : {}),
          });
        }
      }
    }
  }

  const has = (v) => args.variants.includes(v);
  if (args.instructions) return reportInstructions(args, results, { loadBefore, t0 });
  if (args.both) return reportBoth(args, results, { loadBefore, t0 });
  const header = ['node', 'shape', 'mode', 'agents', ...args.variants.map((v) => `${v} ms`)];
  if (has('a') && has('b')) header.push('a/b', 'a/b min', 'cpu a/b');
  if (has('a') && has('c')) header.push('a/c', 'cpu a/c');
  if (has('k') && has('b')) header.push('k/b', 'cpu k/b', 'rss k/b');
  if (has('k') && has('c')) header.push('k/c');
  if (has('k') && has('s')) header.push('k/s', 'cpu k/s');
  if (has('s') && has('b')) header.push('s/b');
  if (has('n') && has('b')) header.push('n/b', 'cpu n/b');
  if (has('a') && has('e')) header.push('a/e', 'cpu a/e');
  if (has('a') && has('b')) header.push('rss a/b', 'a rss MB', 'gz a-b');
  if (has('o')) header.push('a/o', 'cpu a/o');
  if (has('p')) header.push('k/p', 'cpu k/p');
  const rows = [header];
  for (const r of results) {
    const row = [r.node, r.shape, r.mode, r.agents, ...args.variants.map((v) => r.variants[v].medianMs)];
    if (has('a') && has('b')) row.push(r.ab.toFixed(2), r.minAB.toFixed(2), r.cpuAB.toFixed(2));
    if (has('a') && has('c')) row.push(r.ac.toFixed(2), r.cpuAC.toFixed(2));
    if (has('k') && has('b')) row.push(r.kb.toFixed(2), r.cpuKB.toFixed(2), r.rssKB.toFixed(2));
    if (has('k') && has('c')) row.push(r.kc.toFixed(2));
    if (has('k') && has('s')) row.push(r.ks.toFixed(2), r.cpuKS.toFixed(2));
    if (has('s') && has('b')) row.push(r.sb.toFixed(2));
    if (has('n') && has('b')) row.push(r.nb.toFixed(2), r.cpuNB.toFixed(2));
    if (has('a') && has('e')) row.push(r.ae.toFixed(2), r.cpuAE.toFixed(2));
    if (has('a') && has('b')) row.push(r.rssAB.toFixed(2), r.variants.a.medianRssMb, r.variants.a.gzipBytes - r.variants.b.gzipBytes);
    if (has('o')) row.push(r.ao.toFixed(2), r.cpuAO.toFixed(2));
    if (has('p')) row.push(r.kp.toFixed(2), r.cpuKP.toFixed(2));
    rows.push(row);
  }
  const loadAfter = os.loadavg().map((x) => round(x, 2));
  console.log(`\nVite ${viteVersion()}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${loadBefore[0]} at start, ${loadAfter[0]} at end`);
  console.log('a = plugin, warm (its cache kept from the build before), k = plugin, cold in CI (its cache folder emptied before every build: a fresh clone; CI=true),');
  if (args.variants.includes('f')) console.log('f = plugin, cold outside CI (as k, CI unset: it writes its cache for the next build),');
  console.log('n = plugin keeping nothing between builds (cache: false), s = stand-in (serves the plugin\'s captured text, nothing else),');
  console.log('b = hand-written static imports (floor), c = import.meta.glob eager, e = b imported by the entry; medians of interleaved runs');
  console.log('cli = whole `vite build` process (spawn to exit); api = build() alone; cpu = CPU time of all threads; rss = peak RSS\n');
  console.log(table(rows));

  const worst = (key, filter = () => true) => {
    const xs = results.filter(filter).map((r) => r[key]).filter((x) => x !== null);
    return xs.length ? Math.max(...xs) : null;
  };
  const summary = {
    targets: TARGET,
    worstAB: worst('ab'),
    worstCpuAB: worst('cpuAB'),
    worstAC: worst('ac'),
    worstRssAB1000: worst('rssAB', (r) => r.agents >= 1000),
    worstKB: worst('kb'),
    worstCpuKB: worst('cpuKB'),
    worstKC: worst('kc', (r) => r.agents >= 200),
    worstRssKB1000: worst('rssKB', (r) => r.agents >= 1000),
    worstNB: worst('nb'),
    worstCpuNB: worst('cpuNB'),
    worstAE: worst('ae'),
    worstCpuAE: worst('cpuAE'),
  };
  if (summary.worstAB !== null) {
    const verdict = (x, t, strict = false) => (x === null ? 'n/a' : `${x.toFixed(2)} ${strict ? (x < t ? 'met' : 'MISSED') : x <= t ? 'met' : 'MISSED'}`);
    console.log(`\nworst a/b ${verdict(summary.worstAB, TARGET.ab)} (target <= ${TARGET.ab}); worst cpu a/b ${verdict(summary.worstCpuAB, TARGET.cpuAB)} (<= ${TARGET.cpuAB})`);
    console.log(`worst a/c ${verdict(summary.worstAC, TARGET.ac, true)} (target < ${TARGET.ac}); worst rss a/b at 1,000 agents ${verdict(summary.worstRssAB1000, TARGET.rssAB)} (<= ${TARGET.rssAB})`);
    if (summary.worstAE !== null) console.log(`against e (the registry imported, as in an app): worst a/e ${verdict(summary.worstAE, TARGET.ab)}; worst cpu a/e ${verdict(summary.worstCpuAE, TARGET.cpuAB)}`);
    if (summary.worstKB !== null) console.log(`cold (k): worst k/b ${verdict(summary.worstKB, TARGET.ab)}; worst cpu k/b ${verdict(summary.worstCpuKB, TARGET.cpuAB)}; worst k/c at 200+ agents ${verdict(summary.worstKC, TARGET.ac, true)}; worst rss k/b at 1,000 agents ${verdict(summary.worstRssKB1000, TARGET.rssKB)}`);
    if (summary.worstNB !== null) console.log(`nothing kept (n): worst n/b ${verdict(summary.worstNB, TARGET.ab)}; worst cpu n/b ${verdict(summary.worstCpuNB, TARGET.cpuAB)}`);
  }
  const elapsed = round((performance.now() - t0) / 1000, 1);
  console.log(`\nbench took ${elapsed} s${args.profile ? `; CPU profiles in ${path.relative(REPO, profileDir)} (node bench/profile.mjs <file>)` : ''}`);

  if (args.write) {
    const out = {
      date: new Date().toISOString(),
      machine: { vite: viteVersion(), cpus: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), loadavgStart: loadBefore, loadavgEnd: loadAfter },
      method:
        'Vite 8 SSR build (ssr.noExternal: true but @mastra/core, minify: false), one fresh process per build; cli = wall time of the whole `vite build` process, spawn to exit, with CPU time and peak RSS from process.resourceUsage() at exit; api = build() alone (bench/build-one.mjs); medians of interleaved runs after a warm-up round; ratios of medians from the same run.',
      plugin: path.relative(REPO, pluginDir) || '.',
      seconds: elapsed,
      summary,
      results,
    };
    fs.writeFileSync(path.join(BENCH, 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
    console.log('wrote bench/results.json');
  }
}

/** The ratios of instruction counts an `--instructions` run reports where both builds ran; each result holds them as `insXY`. */
const INS_PAIRS = [['a', 'b'], ['k', 'b'], ['k', 'c'], ['k', 's'], ['s', 'b'], ['f', 'b'], ['n', 'b'], ['a', 'c'], ['a', 'e'], ['a', 'o'], ['k', 'p']];
const insKey = (x, y) => `ins${x.toUpperCase()}${y.toUpperCase()}`;

/** The table, summary and file of an `--instructions` run: medians of instruction counts, in millions. */
function reportInstructions(args, results, { loadBefore, t0 }) {
  const has = (v) => args.variants.includes(v);
  const pairs = INS_PAIRS.filter(([x, y]) => has(x) && has(y)).map(([x, y]) => [x, y, insKey(x, y)]);
  const rows = [['node', 'shape', 'mode', 'agents', ...args.variants.map((v) => `${v} Mi`), ...pairs.map(([x, y]) => `ins ${x}/${y}`)]];
  for (const r of results) rows.push([r.node, r.shape, r.mode, r.agents, ...args.variants.map((v) => round(r.variants[v].medianIns / 1e6)), ...pairs.map(([, , key]) => r[key].toFixed(3))]);
  console.log(`\nVite ${viteVersion()}, instructions counted by valgrind's callgrind (all threads), medians of ${results[0]?.runs ?? 0} interleaved runs; Mi = millions`);
  console.log(table(rows));
  const worst = (key) => Math.max(...results.map((r) => r[key]).filter((x) => x !== null));
  const summary = Object.fromEntries(pairs.map(([x, y, key]) => [`worst ${x}/${y}`, worst(key)]));
  console.log(`\n${Object.entries(summary).map(([k, v]) => `${k} ${v.toFixed(3)}`).join('; ')}`);
  const elapsed = round((performance.now() - t0) / 1000, 1);
  console.log(`bench took ${elapsed} s`);
  if (!args.write) return;
  const out = {
    date: new Date().toISOString(),
    machine: { vite: viteVersion(), cpus: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), loadavgStart: loadBefore },
    method: 'Each build under `valgrind --tool=callgrind` in a fresh process; instructions of all threads; medians of interleaved runs after an untimed warm-up round; ratios of medians.',
    seconds: elapsed,
    summary,
    results,
  };
  fs.writeFileSync(path.join(BENCH, 'instructions.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log('wrote bench/instructions.json');
}

/**
 * The table of a `--both` run: counted and timed ratios of each project side by side, warm (a) and
 * cold (k) against the hand-written registry (b) and `import.meta.glob` (c).
 */
function reportBoth(args, results, { loadBefore, t0 }) {
  const has = (v) => args.variants.includes(v);
  const cols = [];
  const add = (when, title, get) => when && cols.push([title, get]);
  const fix = (x, d) => (x === null || x === undefined ? '-' : x.toFixed(d));
  add(has('a') && has('b'), 'ins a/b', (r) => fix(r.insAB, 3));
  add(has('k') && has('b'), 'ins k/b', (r) => fix(r.insKB, 3));
  add(has('k') && has('c'), 'ins k/c', (r) => fix(r.insKC, 3));
  add(has('k') && has('s'), 'ins k/s', (r) => fix(r.insKS, 3));
  add(has('s') && has('b'), 'ins s/b', (r) => fix(r.insSB, 3));
  add(has('f') && has('b'), 'ins f/b', (r) => fix(r.insFB, 3));
  add(has('a') && has('b'), 'a/b', (r) => fix(r.ab, 2));
  add(has('k') && has('b'), 'k/b', (r) => fix(r.kb, 2));
  add(has('f') && has('b'), 'f/b', (r) => fix(r.fb, 2));
  add(has('k') && has('b'), 'cpu k/b', (r) => fix(r.cpuKB, 2));
  add(has('k') && has('c'), 'k/c', (r) => fix(r.kc, 2));
  add(has('k') && has('s'), 'k/s', (r) => fix(r.ks, 2));
  add(has('s') && has('b'), 's/b', (r) => fix(r.sb, 2));
  add(has('k') && has('b'), 'rss k/b', (r) => fix(r.rssKB, 2));
  add(has('o'), 'ins a/o', (r) => fix(r.insAO, 3));
  add(has('p'), 'ins k/p', (r) => fix(r.insKP, 3));
  add(has('p'), 'k/p', (r) => fix(r.kp, 2));
  add(has('p'), 'cpu k/p', (r) => fix(r.cpuKP, 2));
  const rows = [['node', 'shape', 'mode', 'agents', ...args.variants.map((v) => `${v} ms`), ...cols.map(([title]) => title)]];
  for (const r of results) rows.push([r.node, r.shape, r.mode, r.agents, ...args.variants.map((v) => r.variants[v].medianMs), ...cols.map(([, get]) => get(r))]);
  const loadAfter = os.loadavg().map((x) => round(x, 2));
  console.log(`\nVite ${viteVersion()}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${loadBefore[0]} at start, ${loadAfter[0]} at end`);
  console.log('a = plugin, warm (its cache kept from the build before); k = plugin, cold in CI (its cache folder emptied before every build: a fresh clone; CI=true);');
  if (has('f')) console.log('f = plugin, cold outside CI (as k, CI unset: it writes its cache for the next build);');
  if (has('s')) console.log("s = stand-in (a plugin serving the plugin's captured text, nothing else);");
  console.log('b = hand-written static imports (floor); c = import.meta.glob eager. ins = instructions counted by callgrind (all threads),');
  console.log(`medians of ${results[0]?.countedRuns ?? 0} counted run(s); the rest are medians of ${results[0]?.runs ?? 0} timed runs (wall; cpu = all threads; rss = peak)\n`);
  console.log(table(rows));
  const worst = (key, filter = () => true) => {
    const xs = results.filter(filter).map((r) => r[key]).filter((x) => x !== null && x !== undefined);
    return xs.length ? Math.max(...xs) : null;
  };
  // The cold targets (bench/README.md, "Cold builds"): k/b by size, k/c at 200 agents; the warm one, a/b.
  const COLD_KB = [[20, 1.1], [200, 1.2], [1000, 1.3]];
  const bySize = (key, n) => worst(key, (r) => r.agents === n);
  const summary = {
    countedKB: Object.fromEntries(COLD_KB.map(([n]) => [n, bySize('insKB', n)])),
    timedKB: Object.fromEntries(COLD_KB.map(([n]) => [n, bySize('kb', n)])),
    countedKC200: bySize('insKC', 200),
    timedKC200: bySize('kc', 200),
    countedKS: worst('insKS'),
    countedAB: worst('insAB'),
    timedAB: worst('ab'),
    rssKB1000: worst('rssKB', (r) => r.agents >= 1000),
  };
  const verdict = (x, t) => (x === null ? 'n/a' : `${x.toFixed(3)} ${x <= t ? 'met' : 'MISSED'}`);
  const sizes = (which) => COLD_KB.filter(([n]) => summary[which][n] !== null).map(([n, t]) => `${n}: ${verdict(summary[which][n], t)} (<= ${t.toFixed(2)})`).join('; ');
  console.log(`\ncold k/b, counted, worst per size: ${sizes('countedKB')}`);
  console.log(`cold k/b, timed, worst per size: ${sizes('timedKB')}`);
  console.log(`cold k/c at 200 agents: counted ${verdict(summary.countedKC200, 1.1)}, timed ${verdict(summary.timedKC200, 1.1)} (<= 1.10); worst k/s counted ${summary.countedKS === null ? 'n/a' : summary.countedKS.toFixed(3)}`);
  console.log(`peak rss k/b at 1,000 agents ${verdict(summary.rssKB1000, 1.1)} (<= 1.10)`);
  console.log(`warm a/b: counted ${verdict(summary.countedAB, 1.1)}, timed ${verdict(summary.timedAB, 1.1)} (<= 1.10)`);
  const elapsed = round((performance.now() - t0) / 1000, 1);
  console.log(`bench took ${elapsed} s`);
  if (!args.write) return;
  const out = {
    date: new Date().toISOString(),
    machine: { vite: viteVersion(), cpus: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), loadavgStart: loadBefore, loadavgEnd: loadAfter },
    method: 'Per project: a warm-up round, then timed runs (fresh `vite build` processes, interleaved), then counted runs (the same builds under callgrind); ratios of medians. k empties its cache folder before each build.',
    seconds: elapsed,
    summary,
    results,
  };
  fs.writeFileSync(path.join(BENCH, 'both.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log('wrote bench/both.json');
}

function viteVersion() {
  return JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules/vite/package.json'), 'utf8')).version;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

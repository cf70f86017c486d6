/**
 * One `build()` of a benchmark project, run in its own Node process by bench/run.mjs:
 *   node bench/build-one.mjs <projectDir> <variant: a letter of bench/generate.mjs VARIANTS>
 * Prints one JSON line `{ ms, cpuMs, importMs, maxRssKb }` on stdout.
 *
 * The clock covers `build()` only: Vite and the plugin are imported first (the plugin's import is
 * timed on its own, `importMs`), and the options are those of the project's vite.config.<v>.ts
 * (bench/generate.mjs `viteOptions`), inline, so no config file is loaded. bench/run.mjs also
 * times the whole `vite build` process, which includes all of that.
 */
import { performance } from 'node:perf_hooks';
import { isPluginVariant, VARIANTS, viteOptions } from './generate.mjs';

const [projectDir, variant] = process.argv.slice(2);
if (!projectDir || !Object.hasOwn(VARIANTS, variant ?? '')) {
  const known = Object.entries(VARIANTS).map(([v, { what }]) => `${v} (${what})`).join(', ');
  console.error(`usage: node bench/build-one.mjs <projectDir> <variant: ${known}>`);
  process.exit(2);
}

const { build } = await import('vite');

const plugins = [];
let importMs = 0;
if (isPluginVariant(variant)) {
  // The same package a user's config imports (bench/run.mjs links it to the plugin build under test;
  // `o` is the other build given to --compare; `n` keeps no readings between builds).
  const importStart = performance.now();
  // By path: from bench/, the bare name would resolve to this repository itself (package self-reference).
  const pkg = variant === 'o' ? 'agent-scorers-other' : 'agent-scorers';
  const { default: agentScorers } = await import(new URL(`./.tmp/node_modules/${pkg}/vite.js`, import.meta.url).href);
  importMs = performance.now() - importStart;
  // The default, as in the cli configs (generate.mjs): k and f differ only by the CI variable run.mjs sets.
  const plugin = agentScorers(variant === 'n' ? { dts: false, cache: false } : { dts: false });
  plugins.push(process.env.BENCH_HOOK_CPU ? timeHooks(plugin) : plugin);
} else if (VARIANTS[variant].standIn) {
  // The stand-in serves what bench/capture.mjs recorded in this project (bench/generate.mjs).
  const { default: standIn } = await import(new URL(`file://${projectDir}/stand-in/plugin.mjs`).href);
  plugins.push(standIn());
}

/**
 * BENCH_HOOK_CPU=1 (Node 23.9+): main-thread CPU time spent inside each of the plugin's hooks,
 * summed over the build and printed to stderr: the plugin's own JS work, whatever the machine load.
 */
function timeHooks(plugin) {
  const totals = {};
  const wrap = (name, fn) =>
    function (...args) {
      const start = process.threadCpuUsage();
      const done = () => {
        const used = process.threadCpuUsage(start);
        totals[name] = (totals[name] ?? 0) + (used.user + used.system) / 1000;
      };
      const result = fn.apply(this, args);
      if (result && typeof result.then === 'function') return result.finally(done);
      done();
      return result;
    };
  for (const [name, hook] of Object.entries(plugin)) {
    if (typeof hook === 'function') plugin[name] = wrap(name, hook);
    else if (hook && typeof hook.handler === 'function') hook.handler = wrap(name, hook.handler);
  }
  process.on('exit', () => process.stderr.write(`hook CPU ms: ${JSON.stringify(Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Math.round(v)])))}\n`));
  return plugin;
}

const start = performance.now();
const cpuStart = process.cpuUsage();
await build({ root: projectDir, configFile: false, envDir: false, ...viteOptions(variant), plugins });
const ms = performance.now() - start;
// CPU time of every thread of this process (Rolldown's workers included): far less sensitive than
// wall time to other processes competing for the cores.
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(`${JSON.stringify({ ms, cpuMs, importMs, maxRssKb: process.resourceUsage().maxRSS })}\n`);

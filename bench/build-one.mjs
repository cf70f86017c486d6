/**
 * One `build()` of a benchmark project, run in its own Node process by bench/run.mjs:
 *   node bench/build-one.mjs <projectDir> <variant a|b|c>
 * Prints one JSON line `{ ms, cpuMs, importMs, maxRssKb }` on stdout.
 *
 * The clock covers `build()` only: Vite and the plugin are imported first (the plugin's import is
 * timed on its own, `importMs`), and the options are those of the project's vite.config.<v>.ts
 * (bench/generate.mjs `viteOptions`), inline, so no config file is loaded. bench/run.mjs also
 * times the whole `vite build` process, which includes all of that.
 */
import { performance } from 'node:perf_hooks';
import { viteOptions } from './generate.mjs';

const [projectDir, variant] = process.argv.slice(2);
if (!projectDir || !/^[a-z]$/.test(variant ?? '')) {
  console.error('usage: node bench/build-one.mjs <projectDir> <variant: a (plugin), b or c>');
  process.exit(2);
}

const { build } = await import('vite');

const plugins = [];
let importMs = 0;
if (variant === 'a' || variant === 'o') {
  // The same package a user's config imports (bench/run.mjs links it to the plugin build under test;
  // `o` is the other build given to --compare).
  const importStart = performance.now();
  // By path: from bench/, the bare name would resolve to this repository itself (package self-reference).
  const pkg = variant === 'o' ? 'agent-scorers-other' : 'agent-scorers';
  const { default: agentScorers } = await import(new URL(`./.tmp/node_modules/${pkg}/vite.js`, import.meta.url).href);
  importMs = performance.now() - importStart;
  plugins.push(agentScorers({ dts: false }));
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

/**
 * One benchmark build, run in its own Node process by bench/run.mjs:
 *   node bench/build-one.mjs <projectDir> <variant a|b|c> <outDir>
 * Prints one JSON line `{ ms, cpuMs, importMs, bytes }` on stdout.
 *
 * The clock covers `build()` only; see below for the plugin's import time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [projectDir, variant, outDir] = process.argv.slice(2);
if (!projectDir || !/^[a-z]+$/.test(variant ?? '') || !outDir) {
  console.error('usage: node bench/build-one.mjs <projectDir> <variant: a (plugin) or another src/main-<variant>.ts> <outDir>');
  process.exit(2);
}

const { build } = await import('vite');

// The plugin is imported before the clock starts, as Vite itself is: both are tool start-up, paid
// once per process, and `vite build` loads the config (and so the plugin) before building. Its
// import time is reported on its own (`importMs`) so it is not hidden either.
const plugins = [];
let importMs = 0;
if (variant === 'a') {
  // BENCH_PLUGIN: another build of the plugin (e.g. a patched copy of dist/) to compare against.
  const url = process.env.BENCH_PLUGIN ? pathToFileURL(path.resolve(process.env.BENCH_PLUGIN)).href : new URL('../dist/plugin/vite.js', import.meta.url).href;
  const importStart = performance.now();
  const { default: agentScorers } = await import(url);
  importMs = performance.now() - importStart;
  plugins.push(agentScorers({ dts: false }));
}

const start = performance.now();
const cpuStart = process.cpuUsage();
await build({
  root: projectDir,
  configFile: false,
  envDir: false,
  publicDir: false,
  logLevel: 'warn',
  mode: 'production',
  plugins,
  build: {
    ssr: `src/main-${variant}.ts`,
    outDir,
    emptyOutDir: true,
    minify: true,
    reportCompressedSize: false,
    rolldownOptions: { output: { entryFileNames: 'main.js', format: 'es' } },
  },
});
const ms = performance.now() - start;
// CPU time of every thread of this process (Rolldown's workers included): far less sensitive than
// wall time to other processes competing for the cores.
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;

const bytes = fs.statSync(path.join(outDir, 'main.js')).size;
process.stdout.write(`${JSON.stringify({ ms, cpuMs, importMs, bytes })}\n`);

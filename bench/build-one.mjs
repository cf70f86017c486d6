/**
 * One benchmark build, run in its own Node process by bench/run.mjs:
 *   node bench/build-one.mjs <projectDir> <variant a|b|c> <outDir>
 * Prints one JSON line `{ ms, bytes }` on stdout.
 *
 * The clock starts after Vite itself is imported (the same cost for every variant) and before the
 * plugin is imported, so variant (a) pays for loading the plugin and its parser as a user would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [projectDir, variant, outDir] = process.argv.slice(2);
if (!projectDir || !/^[abc]$/.test(variant ?? '') || !outDir) {
  console.error('usage: node bench/build-one.mjs <projectDir> <a|b|c> <outDir>');
  process.exit(2);
}

const { build } = await import('vite');

const start = performance.now();
const plugins = [];
if (variant === 'a') {
  // BENCH_PLUGIN: another build of the plugin (e.g. a patched copy of dist/) to compare against.
  const url = process.env.BENCH_PLUGIN ? pathToFileURL(path.resolve(process.env.BENCH_PLUGIN)).href : new URL('../dist/plugin/vite.js', import.meta.url).href;
  const { default: agentScorers } = await import(url);
  plugins.push(agentScorers({ dts: false }));
}

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

const bytes = fs.statSync(path.join(outDir, 'main.js')).size;
process.stdout.write(`${JSON.stringify({ ms, bytes })}\n`);

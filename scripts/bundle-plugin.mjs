/**
 * Run by `npm run build` after tsc: the Vite, Rollup, Rolldown and Nuxt entries (dist/plugin/{vite,rollup,
 * rolldown,nuxt}.js) become one file each, with the plugin's own modules inlined. Every `vite build` imports the
 * plugin, and Node loaded ~17 small modules one by one: importing the plugin in a process that has
 * loaded Vite took ~10 ms, one file takes ~2.5 ms (bench/README.md). Packages (oxc-parser, picomatch) stay imports, and the files keep
 * their folder, so paths taken from `import.meta.url` (the registry helper, the inspector page) hold.
 * tsc's per-module output stays beside them for the other entries, the tests and the benchmarks.
 */
import path from 'node:path';
import { build } from 'esbuild';

const plugin = path.join(import.meta.dirname, '../dist/plugin');
await build({
  entryPoints: ['vite', 'rollup', 'rolldown', 'nuxt'].map((name) => path.join(plugin, `${name}.js`)),
  outdir: plugin,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});

/**
 * `npm run playground` (after `npm run build`): builds the playground with Vite 8 exactly as a user
 * would (`vite build`, which reads playground/vite.config.ts: an SSR build with the agent-scorers
 * plugin, manifest on), then runs the built server bundle, which evaluates every agent's scorers.
 * Both steps print straight to this terminal; any failure exits non-zero.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const PLAYGROUND = import.meta.dirname;
const require = createRequire(import.meta.url);

function step(title, args) {
  console.log(`\n> ${title}`);
  const result = spawnSync(process.execPath, args, { cwd: PLAYGROUND, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`\nplayground: "${title}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}

if (!fs.existsSync(path.join(PLAYGROUND, '../dist/plugin/vite.js'))) {
  console.error('playground: ../dist is missing; run `npm run playground` (it builds first) or `npm run build`.');
  process.exit(1);
}

const viteCli = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
step('vite build (playground/vite.config.ts)', [viteCli, 'build']);

// The build knew that these two files are overridden (a config record key, a config function):
// they must not be in the bundle.
const bundle = fs.readFileSync(path.join(PLAYGROUND, 'dist/server.js'), 'utf8');
for (const marker of ['weather-keyword-relevance', 'support-politeness']) {
  if (bundle.includes(marker)) {
    console.error(`playground: the bundle contains the overridden scorer "${marker}"`);
    process.exit(1);
  }
}
console.log('overridden scorer files (weather/scorers/relevance.ts, support/scorers/politeness.ts) are not in the bundle');

step('node dist/server.js', ['dist/server.js']);

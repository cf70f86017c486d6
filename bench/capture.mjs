/**
 * Captures what the plugin serves for a benchmark project, for variant s (the stand-in, bench/generate.mjs):
 *   node bench/capture.mjs <projectDir>
 * Runs one `build()` of the project with the plugin under test (linked by bench/run.mjs under
 * bench/.tmp/node_modules), its `load` hook wrapped, and writes the code it returned for the registry
 * and for the once-module to `<projectDir>/stand-in/registry.js` and `once.js`. Built as variant k
 * builds (cold, the cache off), so the text is byte for byte what k's build serves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { viteOptions } from './generate.mjs';

const [projectDir] = process.argv.slice(2);
if (!projectDir) {
  console.error('usage: node bench/capture.mjs <projectDir>');
  process.exit(2);
}
const { build } = await import('vite');
const { default: agentScorers } = await import(new URL('./.tmp/node_modules/agent-scorers/vite.js', import.meta.url).href);
const plugin = agentScorers({ dts: false, cache: false });
const files = { '\0virtual:agent-scorers': 'registry.js', '\0virtual:agent-scorers:once': 'once.js' };
const handler = plugin.load.handler;
const captured = new Set();
plugin.load.handler = function (id, ...rest) {
  const result = handler.call(this, id, ...rest);
  if (Object.hasOwn(files, id)) {
    fs.writeFileSync(path.join(projectDir, 'stand-in', files[id]), typeof result === 'string' ? result : result.code);
    captured.add(id);
  }
  return result;
};
await build({ root: projectDir, configFile: false, envDir: false, ...viteOptions('k'), build: { ...viteOptions('k').build, outDir: 'dist-capture' }, plugins: [plugin] });
for (const id of Object.keys(files)) if (!captured.has(id)) throw new Error(`the plugin served no ${JSON.stringify(id)} in ${projectDir}`);

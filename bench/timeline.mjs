/**
 * When, in a cold `vite build` (variant k: `CI=true`, nothing kept), the plugin's registry is asked for and
 * answered, against the build's own milestones: how much of the build could overlap work started at
 * `buildStart` (a worker), and how long Rolldown then loads the registry's imports without the plugin.
 *   node bench/timeline.mjs [--shape object] [--agents 200] [--runs 5] [--node <path>]
 * Each run is a fresh `vite build` process whose config wraps the plugin's `load` hook and adds a plugin
 * that only notes the time of `buildStart`, `buildEnd` and `generateBundle`; times are milliseconds from
 * the config's evaluation, medians of the runs. `window busy %` is the main thread's event-loop utilisation
 * between the registry's answer and `buildEnd`, while the host loads the registry's imports: the share of
 * that window the main thread spends running JavaScript (the host's own hooks) rather than waiting.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generate, viteOptions } from './generate.mjs';
import { median, option } from './stats.mjs';

const shape = option('--shape', 'object');
const agents = Number(option('--agents', '200'));
const runs = Number(option('--runs', '5'));
const node = option('--node', process.execPath);
const { dir } = generate(path.join(import.meta.dirname, '.tmp'), agents, shape);

const options = { ...viteOptions('k'), logLevel: 'silent', cacheDir: 'node_modules/.vite-t' };
options.build = { ...options.build, outDir: 'dist-t' };
fs.writeFileSync(
  path.join(dir, 'vite.config.timeline.ts'),
  `import { defineConfig } from 'vite';
import agentScorers from 'agent-scorers/vite';

const t0 = performance.now();
const mark = (what: string) => process.stderr.write(\`@@ \${what} \${(performance.now() - t0).toFixed(1)}\\n\`);
let answered: ReturnType<typeof performance.eventLoopUtilization> | null = null;
const plugin = agentScorers({ dts: false }) as { load: { handler: (this: unknown, id: string) => unknown } };
const load = plugin.load.handler;
plugin.load.handler = function (id) {
  if (id !== '\\0virtual:agent-scorers') return load.call(this, id);
  mark('registry asked');
  const result = load.call(this, id);
  mark('registry answered');
  answered = performance.eventLoopUtilization();
  return result;
};
export default defineConfig({
  ...${JSON.stringify(options)},
  plugins: [
    { name: 'timeline', buildStart: () => mark('buildStart'), buildEnd: () => {
        mark('buildEnd');
        if (answered) process.stderr.write(\`@@ window busy % \${(performance.eventLoopUtilization(answered).utilization * 100).toFixed(1)}\\n\`);
      }, generateBundle: () => mark('generateBundle') },
    plugin,
  ],
});
`,
);

const vite = path.join(path.dirname(new URL(import.meta.resolve('vite/package.json')).pathname), 'bin/vite.js');
const times = {};
for (let run = 0; run <= runs; run++) {
  fs.rmSync(path.join(dir, 'node_modules/.vite-t'), { recursive: true, force: true });
  const r = spawnSync(node, [vite, 'build', '--config', 'vite.config.timeline.ts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  if (r.status !== 0) throw new Error(`build failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  if (run === 0) continue; // the warm-up: the file system's cache
  for (const match of r.stderr.matchAll(/^@@ (.+) ([\d.]+)$/gm)) (times[match[1]] ??= []).push(Number(match[2]));
}
console.log(`${shape}, ${agents} agents, Node ${spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim()}, medians of ${runs} cold builds (ms from the config's evaluation)`);
for (const [what, list] of Object.entries(times)) console.log(`${what.padEnd(18)} ${median(list).toFixed(1).padStart(7)}`);

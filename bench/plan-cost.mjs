/**
 * The plugin's own planning work, in-process and by CPU time (steadier than wall time on a shared
 * machine): discovery plus the static reading of every config and scorer file of a generated
 * project, as one build does it (no cache), repeated, median reported.
 *   node bench/plan-cost.mjs <projectDir> [distDir=dist] [rounds=7]
 * Prints `{ scanMs, planMs, files }` (CPU ms of one scan and of one scan + plan). The first round, a cold
 * build's, goes to stderr with its system time apart: the kernel's side of listing and reading, which no
 * instruction count sees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const [projectDir, distDir = path.join(import.meta.dirname, '../dist'), roundsArg = '7'] = process.argv.slice(2);
if (!projectDir) {
  console.error('usage: node bench/plan-cost.mjs <projectDir> [distDir] [rounds]');
  process.exit(2);
}
const load = (p) => import(pathToFileURL(path.resolve(distDir, p)).href);
const { scan } = await load('core/scan.js');
const { plan, analysersFor } = await load('core/plan.js');
const input = { root: projectDir, agentsDirs: [path.join(projectDir, 'src/mastra/agents')], extensions: ['.ts', '.mts', '.js', '.mjs'], isExcluded: () => false };
const cpu = (fn) => {
  const start = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(start);
  return [(used.user + used.system) / 1000, value, used.system / 1000];
};
const scans = [];
const plans = [];
let files = 0;
for (let round = 0; round < Number(roundsArg) + 1; round++) {
  const [scanMs, , scanSystemMs] = cpu(() => scan(input));
  const [planMs, planned, planSystemMs] = cpu(() => plan(scan(input), analysersFor((p) => fs.readFileSync(p, 'utf8'))));
  files = planned.agents.reduce((n, a) => n + a.files.length + (a.folder.config ? 1 : 0), 0);
  // The first round pays for JIT warm-up, which each real build pays once too: kept apart.
  if (round === 0) {
    const ms = (total, system) => `${total.toFixed(0)} ms (system ${system.toFixed(0)})`;
    console.error(`first round: scan ${ms(scanMs, scanSystemMs)}, scan + plan ${ms(planMs, planSystemMs)}`);
  }
  else {
    scans.push(scanMs);
    plans.push(planMs);
  }
}
console.log(JSON.stringify({ scanMs: Math.round(median(scans)), planMs: Math.round(median(plans)), files }));

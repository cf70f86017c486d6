/**
 * What each reader costs a cold build: every config and scorer file of a generated project
 * (bench/generate.mjs) read once, in this fresh process, as a build reads them. The files are loaded
 * into memory first, so only the reading is timed.
 *   node bench/reader-time.mjs [--shape object] [--agents 200] [--reading quick|skeleton|full] [--dist dist]
 * `quick` is what a build does (quick-read.ts first, then the general reader); `skeleton` leaves out
 * quick-read.ts; `full` reads every file with oxc-parser. Run each in its own process, several times,
 * and compare medians (ARCHITECTURE.md, "Cold builds").
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from './generate.mjs';
import { option } from './stats.mjs';

const shape = option('--shape', 'object');
const agents = Number(option('--agents', '200'));
const reading = option('--reading', 'quick');
const dist = path.resolve(option('--dist', path.join(import.meta.dirname, '../dist')));
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { analyzeScorer } = await load('core/analyze-scorer.js');
const { analyzeConfig } = await load('core/analyze-config.js');

const { dir } = generate(path.join(import.meta.dirname, '.tmp'), agents, shape);
const agentsDir = path.join(dir, 'src/mastra/agents');
const configs = [];
const scorers = [];
for (const agent of fs.readdirSync(agentsDir).sort()) {
  const config = path.join(agentsDir, agent, 'config.ts');
  if (fs.existsSync(config)) configs.push([fs.readFileSync(config, 'utf8'), config]);
  for (const file of fs.readdirSync(path.join(agentsDir, agent, 'scorers')).sort()) {
    const full = path.join(agentsDir, agent, 'scorers', file);
    scorers.push([fs.readFileSync(full, 'utf8'), full]);
  }
}
const t0 = performance.now();
for (const [source, file] of configs) analyzeConfig(source, file, reading);
const t1 = performance.now();
for (const [source, file] of scorers) analyzeScorer(source, file, reading);
const t2 = performance.now();
console.log(JSON.stringify({ shape, agents, reading, configs: configs.length, scorers: scorers.length, configMs: +(t1 - t0).toFixed(1), scorerMs: +(t2 - t1).toFixed(1) }));

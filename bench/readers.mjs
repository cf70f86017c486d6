/**
 * Which reader settles each file of a generated project (bench/generate.mjs), per shape and per file
 * form (the scorer key: each shape writes its forms by key), without building anything:
 *   node bench/readers.mjs [--shapes object,typed] [--agents 20] [--dist dist]
 * `call` is a default export that is a call (one regular expression, no reading), `quick` the quick
 * reader (src/core/quick-read.ts), `light` the general one (src/core/light-parse.ts), `oxc` a fallback to
 * oxc-parser (over the skeleton or the whole source). Each costs a build more than the one before it
 * (ARCHITECTURE.md, "Cold builds").
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, SHAPES } from './generate.mjs';
import { option } from './stats.mjs';

const shapes = option('--shapes', Object.keys(SHAPES).join(',')).split(',');
const agents = Number(option('--agents', '20'));
const dist = path.resolve(option('--dist', path.join(import.meta.dirname, '../dist')));
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { analyzeScorer } = await load('core/analyze-scorer.js');
const { analyzeConfig } = await load('core/analyze-config.js');
const { readerCounts } = await load('core/ast.js');

/** `call`, `quick`, `light` or `oxc`: which reader settled the last analysis's file. */
function readBy(analyse) {
  const before = { ...readerCounts };
  analyse();
  if (readerCounts.oxc > before.oxc || readerCounts.oxcSkeleton > before.oxcSkeleton) return 'oxc';
  if (readerCounts.light > before.light) return 'light';
  return readerCounts.quick > before.quick ? 'quick' : 'call';
}

const rows = [];
for (const shape of shapes) {
  const { dir } = generate(path.join(import.meta.dirname, '.tmp'), agents, shape);
  const agentsDir = path.join(dir, 'src/mastra/agents');
  const forms = new Map();
  const count = (form, how) => {
    const c = forms.get(form) ?? { call: 0, quick: 0, light: 0, oxc: 0 };
    c[how]++;
    forms.set(form, c);
  };
  for (const agent of fs.readdirSync(agentsDir).sort()) {
    const config = path.join(agentsDir, agent, 'config.ts');
    if (fs.existsSync(config)) count('config.ts', readBy(() => analyzeConfig(fs.readFileSync(config, 'utf8'), config)));
    for (const file of fs.readdirSync(path.join(agentsDir, agent, 'scorers')).sort()) {
      const full = path.join(agentsDir, agent, 'scorers', file);
      count(file, readBy(() => analyzeScorer(fs.readFileSync(full, 'utf8'), full)));
    }
  }
  for (const [form, c] of [...forms].sort()) rows.push([shape, form, c.call, c.quick, c.light, c.oxc]);
}
const widths = [8, 16, 6, 6, 6, 6];
const line = (cells) => cells.map((c, i) => String(c)[i < 2 ? 'padEnd' : 'padStart'](widths[i])).join('  ');
console.log(line(['shape', 'file', 'call', 'quick', 'light', 'oxc']));
for (const row of rows) console.log(line(row));
const sum = (col) => rows.reduce((n, r) => n + r[col], 0);
const total = sum(2) + sum(3) + sum(4) + sum(5);
console.log(`\nof ${total} files (${agents} agents per shape): ${sum(2)} calls, ${sum(3)} read by quick-read.ts, ${sum(4)} by light-parse.ts, ${sum(5)} fall back to oxc-parser`);

/**
 * A cold build's plugin work, part by part, counted: each step a fresh process under callgrind that
 * imports Vite (as a build has), then does the plugin's steps up to that one, as a cold CI build does
 * them (no cache). The differences between steps are what each step costs.
 *   node bench/cold-parts.mjs [--shape object] [--agents 200] [--runs 3] [--node <path>]
 * Steps: vite (Vite imported: the baseline), entry (+ the plugin's Vite entry, one bundled file, as a
 * build imports it), modules (Vite and the core's own modules instead, which the steps after it call:
 * the same code, loaded from separate files), scan (+ listing the folders), read (+ reading every
 * config and scorer file, not reading them), plan (the reads with the readings: scan + plan), generate
 * (+ the registry module's code and the warnings' text). Every step after `modules` is measured against
 * the one before it. Compare the total with k − s of `node bench/run.mjs --instructions` on the same project: the
 * rest is the host's (printing the warnings) and its threads' while they wait for the plugin.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from './generate.mjs';
import { CALLGRIND, median, option, splitValgrind } from './stats.mjs';

const STEPS = ['vite', 'entry', 'modules', 'scan', 'read', 'plan', 'generate'];

if (option('--step', null) !== null) {
  // The child: one step, in this fresh process.
  const step = STEPS.indexOf(option('--step', null));
  const projectDir = option('--project', null);
  const dist = path.join(import.meta.dirname, '../dist');
  const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
  await import('vite');
  if (step === 1) await load('plugin/vite.js');
  if (step >= 2) {
    const fs = await import('node:fs');
    const { scan } = await load('core/scan.js');
    const { plan, analysersFor } = await load('core/plan.js');
    const { registryModule } = await load('core/codegen.js');
    const { formatDiagnostic } = await load('core/codes.js');
    const input = { root: projectDir, agentsDirs: [path.join(projectDir, 'src/mastra/agents')], extensions: ['.ts', '.mts', '.js', '.mjs'], isExcluded: () => false };
    const scanned = step >= 3 ? scan(input) : null;
    if (step === 4) {
      let bytes = 0;
      for (const agent of scanned.agents) {
        if (agent.config) bytes += fs.readFileSync(`${agent.path}/${agent.config}`, 'utf8').length;
        for (const file of agent.scorers) bytes += fs.readFileSync(file.path, 'utf8').length;
      }
      if (bytes === 0) throw new Error('read nothing: the scan result has changed shape');
    }
    if (step >= 5) {
      const planned = plan(scanned, analysersFor((p) => fs.readFileSync(p, 'utf8')));
      if (step >= 6) {
        const code = registryModule(planned, 'agent-scorers/registry', { kind: 'inline', specifier: (p) => p });
        const text = planned.diagnostics.map(formatDiagnostic).join('\n');
        if (code.length + text.length === 0) throw new Error('generated nothing');
      }
    }
  }
} else {
  const shape = option('--shape', 'object');
  const agents = Number(option('--agents', '200'));
  const runs = Number(option('--runs', '3'));
  const node = option('--node', process.execPath);
  const { dir } = generate(path.join(import.meta.dirname, '.tmp'), agents, shape);
  const counts = {};
  for (let run = 0; run < runs; run++) {
    for (const step of STEPS) {
      const r = spawnSync('valgrind', [...CALLGRIND, node, import.meta.filename, '--step', step, '--project', dir], { encoding: 'utf8', cwd: dir });
      const { ins, out } = splitValgrind(`${r.stdout}${r.stderr}`);
      if (r.status !== 0 || ins === null) throw new Error(`step ${step} failed (exit ${r.status}):\n${out}`);
      (counts[step] ??= []).push(ins);
    }
  }
  console.log(`${shape}, ${agents} agents, Node ${spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim()}, medians of ${runs} counted runs (million instructions)`);
  const m = (step) => median(counts[step]) / 1e6;
  for (const [i, step] of STEPS.entries()) {
    const against = i === 0 ? null : i <= 2 ? 'vite' : STEPS[i - 1];
    console.log(`${step.padEnd(9)} ${m(step).toFixed(0).padStart(6)}${against === null ? '' : `  +${(m(step) - m(against)).toFixed(0)} over ${against}`}`);
  }
  console.log(`the plugin's work (scan to generate): +${(m('generate') - m('modules')).toFixed(0)}; with its entry's import: +${(m('generate') - m('modules') + m('entry') - m('vite')).toFixed(0)}`);
}

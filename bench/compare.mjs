// Benchmark: comparing two eval runs and merging shards at 10,000 items x 5 scorers (a gate, two
// thresholds, two tracked), each run made by `runEvals` (a function target, deterministic scorers with
// ~100-character reasons). Run after `npm run build`, on the Node you want measured:
//
//   npx -y node@24 bench/compare.mjs [items] [rounds]
//
// Setup (not timed): a baseline run, a new run (one scorer a little worse), and the new run as five
// shards (`runEvals({ shard })`), saved as JSON under bench/.tmp/compare/. Then each task runs in a
// fresh process, `rounds` times, interleaved:
//
// - compare (api): read and parse both files, then `compareRuns`.
// - report --baseline (cli): the whole `agent-scorers report result.json --baseline base.json --summary
//   --json` process: HTML, JUnit, summary and comparison written.
// - merge (api): read and parse the five shards, `mergeShards`, `JSON.stringify` of the merged result.
// - report merge (cli): the whole `agent-scorers report merge shard-*.json --out merged.json` process.
//
// Wall time is the median; peak RSS (`process.resourceUsage().maxRSS`) the largest of the rounds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(HERE, '../dist');
const DIR = path.join(HERE, '.tmp/compare');
const SHARDS = 5;

const task = process.env.BENCH_COMPARE_TASK;
if (task) {
  await runTask(task);
} else {
  await main();
}

async function main() {
  const items = Number(process.argv[2] ?? 10_000);
  const rounds = Number(process.argv[3] ?? 5);
  const started = performance.now();
  const sizes = await setup(items);
  console.log(`node ${process.version}; ${items} items x 5 scorers; setup ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
    `result ${sizes.result} MB, baseline ${sizes.base} MB, ${SHARDS} shards ${sizes.shards} MB in all`);

  const tasks = ['compare-api', 'compare-cli', 'merge-api', 'merge-cli'];
  const times = Object.fromEntries(tasks.map((t) => [t, []]));
  const rss = Object.fromEntries(tasks.map((t) => [t, []]));
  const inner = Object.fromEntries(tasks.map((t) => [t, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate the order, so the machine's noise falls on every task alike.
    for (const t of tasks.slice(round % tasks.length).concat(tasks.slice(0, round % tasks.length))) {
      const usageFile = path.join(DIR, `usage-${t}.json`);
      fs.rmSync(usageFile, { force: true });
      const args = t.endsWith('-cli') ? cliArgs(t) : [fileURLToPath(import.meta.url)];
      const begin = performance.now();
      const run = spawnSync(process.execPath, ['--import', path.join(HERE, 'usage.mjs'), ...args], {
        cwd: DIR,
        encoding: 'utf8',
        env: { ...process.env, BENCH_COMPARE_TASK: t, BENCH_USAGE: usageFile },
      });
      const wall = performance.now() - begin;
      if (run.status !== 0 && !(t === 'compare-cli' && run.status === 1)) throw new Error(`${t} failed (${run.status}): ${run.stderr}`);
      times[t].push(wall);
      rss[t].push(JSON.parse(fs.readFileSync(usageFile, 'utf8')).maxRssKb / 1024);
      if (!t.endsWith('-cli')) inner[t].push(JSON.parse(run.stdout));
    }
  }
  console.log('\ntask                     wall ms   peak RSS MB   in the process');
  const label = { 'compare-api': 'compare (api)', 'compare-cli': 'report --baseline (cli)', 'merge-api': 'merge (api)', 'merge-cli': 'report merge (cli)' };
  for (const t of tasks) {
    const detail = inner[t].length === 0 ? ''
      : Object.keys(inner[t][0]).filter((k) => k.endsWith('Ms')).map((k) => `${k.slice(0, -2)} ${median(inner[t].map((x) => x[k])).toFixed(0)} ms`).join(', ');
    console.log(`${label[t].padEnd(24)} ${median(times[t]).toFixed(0).padStart(7)}   ${Math.max(...rss[t]).toFixed(0).padStart(11)}   ${detail}`);
  }
  const check = JSON.parse(inner['compare-api'][0].statuses);
  console.log(`\ncomparison: ${check.join(', ')}`);
}

function cliArgs(t) {
  const bin = path.join(DIST, 'plugin/bin.js');
  if (t === 'compare-cli') return [bin, 'report', 'result.json', '--baseline', 'base.json', '--summary', 'summary.md', '--json', 'comparison.json', '--out', 'report'];
  return [bin, 'report', 'merge', ...Array.from({ length: SHARDS }, (_, i) => `shard-${i + 1}.json`), '--out', 'merged.json'];
}

async function runTask(t) {
  const { compareRuns, mergeShards } = await import(path.join(DIST, 'report/index.js'));
  const t0 = performance.now();
  if (t === 'compare-api') {
    const result = JSON.parse(fs.readFileSync('result.json', 'utf8'));
    const base = JSON.parse(fs.readFileSync('base.json', 'utf8'));
    const t1 = performance.now();
    const comparison = compareRuns(result, base);
    const t2 = performance.now();
    const statuses = comparison.scorers.map((s) => `${s.id} ${s.status}`);
    console.log(JSON.stringify({ readMs: t1 - t0, compareMs: t2 - t1, statuses: JSON.stringify(statuses), worse: comparison.worse.length }));
  } else {
    const shards = Array.from({ length: SHARDS }, (_, i) => JSON.parse(fs.readFileSync(`shard-${i + 1}.json`, 'utf8')));
    const t1 = performance.now();
    const merged = mergeShards(shards);
    const t2 = performance.now();
    const text = JSON.stringify(merged);
    const t3 = performance.now();
    console.log(JSON.stringify({ readMs: t1 - t0, mergeMs: t2 - t1, stringifyMs: t3 - t2, bytes: text.length }));
  }
}

/** The runs, made once per size (kept between invocations: delete bench/.tmp/compare to remake them). */
async function setup(items) {
  const stamp = path.join(DIR, `made-${items}`);
  if (!fs.existsSync(stamp)) {
    fs.rmSync(DIR, { recursive: true, force: true });
    fs.mkdirSync(DIR, { recursive: true });
    const { createScorer, runEvals } = await import(path.join(DIST, 'runtime/index.js'));
    const CITIES = ['Paris', 'Lagos', 'Osaka', 'Lima', 'Oslo', 'Quito', 'Perth', 'Cairo', 'Delhi', 'Hanoi'];
    const data = Array.from({ length: items }, (_, i) => ({
      input: `What will the weather be in ${CITIES[i % CITIES.length]} on day ${i}? Please include the temperature and whether I need an umbrella.`,
    }));
    // A deterministic per-item number in [0, 1), so runs differ where the bench says they do.
    const noise = (text, salt) => {
      let h = 2166136261 ^ salt;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
      return ((h >>> 0) % 10_000) / 10_000;
    };
    const scorer = (id, score) =>
      createScorer({ id, description: id })
        .generateScore(({ run }) => score(String(run.input), String(run.output)))
        .generateReason(({ run, score: s }) => `${id} gave ${s.toFixed(2)} because the answer about ${String(run.input).slice(28, 40)} ${s > 0.5 ? 'covers' : 'misses'} what was asked.`);
    const make = (worse) => {
      const gate = scorer('tool-call', (input) => (noise(input, 1) < 0.995 ? 1 : 0));
      const relevancy = scorer('answer-relevancy', (input) => Math.round((0.5 + 0.5 * noise(input, 2) - (worse ? 0.05 * noise(input, 9) : 0)) * 100) / 100);
      const hallucination = scorer('hallucination', (input) => Math.round(0.3 * noise(input, 3) * 100) / 100);
      const verbosity = scorer('verbosity', (input) => Math.round((0.3 + 0.6 * noise(input, 4)) * 100) / 100);
      const politeness = scorer('politeness', (input) => Math.round(noise(input, 5) * 100) / 100);
      return {
        data,
        target: (input) => `${input.slice(28, 40)}: expect ${Math.round(noise(input, 6) * 30)} °C and ${noise(input, 7) < 0.3 ? 'rain, so take an umbrella' : 'clear skies'}. Have a nice day.`,
        gates: [gate],
        scorers: [{ scorer: relevancy, threshold: 0.7 }, { scorer: hallucination, threshold: { max: 0.3 } }, verbosity, politeness],
      };
    };
    fs.writeFileSync(path.join(DIR, 'base.json'), JSON.stringify(await runEvals(make(false))));
    fs.writeFileSync(path.join(DIR, 'result.json'), JSON.stringify(await runEvals(make(true))));
    for (let index = 1; index <= SHARDS; index++) {
      fs.writeFileSync(path.join(DIR, `shard-${index}.json`), JSON.stringify(await runEvals({ ...make(true), shard: { index, count: SHARDS } })));
    }
    fs.writeFileSync(stamp, '');
  }
  const mb = (file) => fs.statSync(path.join(DIR, file)).size / 1024 / 1024;
  return {
    result: mb('result.json').toFixed(1),
    base: mb('base.json').toFixed(1),
    shards: Array.from({ length: SHARDS }, (_, i) => mb(`shard-${i + 1}.json`)).reduce((a, b) => a + b, 0).toFixed(1),
  };
}

/**
 * `node bench/run-evals.mjs [--items N] [--runs R]` (after `npm run build`): what running a Mastra
 * Agent through this package's `runEvals` costs over `@mastra/core`'s own. Ours calls Mastra's once
 * per item (to keep each item's results apart) and watches replies, gates and turns through proxies;
 * this measures that overhead on an Agent whose mock model answers at once, so the overhead is not
 * hidden behind model latency. Three shapes: single-turn items with gates and thresholds, multi-turn
 * `inputs`, and `turns` with per-turn gates. Prints the median time per item of each, in one process,
 * alternating the two implementations run by run.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer, runEvals as mastraRunEvals } from '@mastra/core/evals';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { parseArgs } from 'node:util';
import { runEvals } from '../dist/runtime/index.js';

const { values } = parseArgs({ options: { items: { type: 'string', default: '200' }, runs: { type: 'string', default: '7' } } });
const ITEMS = Number(values.items);
const RUNS = Number(values.runs);

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const model = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({ content: [{ type: 'text', text: 'It is sunny, thanks for asking.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'It is sunny, thanks for asking.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ],
      }),
    }),
  });
const agent = () => new Agent({ id: 'bench', name: 'bench', instructions: 'Answer.', model: model() });
const scorer = (id, score) => createScorer({ id, description: id }).generateScore(() => score);
const [a, b, c, gate] = [scorer('a', 0.9), scorer('b', 0.5), scorer('c', 0.7), scorer('gate', 1)];

const SHAPES = {
  'single-turn, 3 scorers, a gate, thresholds': () => ({
    data: Array.from({ length: ITEMS }, (_, i) => ({ input: `question ${i}` })),
    scorers: [{ scorer: a, threshold: 0.5 }, b, c],
    gates: [gate],
  }),
  'inputs (3 turns), 2 scorers': () => ({
    data: Array.from({ length: ITEMS / 4 }, (_, i) => ({ inputs: [`q${i}`, 'and?', 'thanks'] })),
    scorers: [a, b],
  }),
  'turns (3), per-turn gate and threshold': () => ({
    data: Array.from({ length: ITEMS / 4 }, (_, i) => ({ turns: [{ input: `q${i}`, gates: [gate] }, { input: 'and?', scorers: [{ scorer: b, threshold: 0.4 }] }, { input: 'thanks' }] })),
    scorers: [a],
  }),
};

const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
console.log(`runEvals on a Mastra Agent (mock model), Node ${process.version}, ${RUNS} runs each, alternating`);
console.log('| shape | items | @mastra/core ms/item | agent-scorers ms/item | ratio |');
console.log('|---|---|---|---|---|');
for (const [name, shape] of Object.entries(SHAPES)) {
  const times = { mastra: [], ours: [] };
  for (let run = 0; run < RUNS + 1; run++) {
    for (const [label, fn] of run % 2 ? [['ours', runEvals], ['mastra', mastraRunEvals]] : [['mastra', mastraRunEvals], ['ours', runEvals]]) {
      const config = { ...shape(), target: agent() };
      const start = performance.now();
      await fn(config);
      // The first run of each warms both up.
      if (run > 0) times[label].push((performance.now() - start) / config.data.length);
    }
  }
  const [m, o] = [median(times.mastra), median(times.ours)];
  console.log(`| ${name} | ${shape().data.length} | ${m.toFixed(2)} | ${o.toFixed(2)} | ${(o / m).toFixed(2)} |`);
}

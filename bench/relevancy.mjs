// Benchmark: the answer-relevancy scorer's own overhead per run, with a mock model answering
// instantly, compared in the same process with @mastra/evals' answer-relevancy scorer on the same
// mock answers. Run after `npm run build`:  node bench/relevancy.mjs [items] [rounds]
import { performance } from 'node:perf_hooks';
import { MockLanguageModelV3 } from 'ai/test';
import { createAnswerRelevancyScorer as mastraRelevancy } from '@mastra/evals/scorers/prebuilt';
import { createAnswerRelevancyScorer } from '../dist/runtime/index.js';
import { median } from './stats.mjs';

const ITEMS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 5);

const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
const STATEMENTS = ['Paris is the capital of France.', 'It is known for the Eiffel Tower.', 'Bananas are yellow.'];
const promptText = (options) =>
  options.prompt
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('')))
    .join('\n');

// The same three answers for both scorers: statements, verdicts, explanation.
function answerFor(text) {
  if (text.includes('Split the assistant answer') || text.includes('meaningful statements')) return JSON.stringify({ statements: STATEMENTS });
  if (text.includes('For each numbered statement') || text.includes("Evaluate each statement's relevance")) {
    return JSON.stringify({ results: [{ result: 'yes', reason: 'direct' }, { result: 'unsure', reason: 'related' }, { result: 'no', reason: 'off topic' }] });
  }
  return 'The score is 0.43 because one statement answers the question and one is related.';
}

function countingModel() {
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      model.calls++;
      return { content: [{ type: 'text', text: answerFor(promptText(options)) }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
    doStream: async (options) => {
      model.calls++;
      const text = answerFor(promptText(options));
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
      return { stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }) };
    },
  });
  model.calls = 0;
  return model;
}

const items = Array.from({ length: ITEMS }, (_, i) => ({
  input: [{ role: 'user', content: `What is the capital of France? (question ${i})` }],
  output: [{ role: 'assistant', content: `${STATEMENTS.join(' ')} (answer ${i})` }],
}));

const contenders = [
  { name: 'agent-scorers', model: countingModel(), make: (model) => createAnswerRelevancyScorer({ model }) },
  { name: '@mastra/evals', model: countingModel(), make: (model) => mastraRelevancy({ model }) },
];
for (const c of contenders) c.scorer = c.make(c.model);

async function timeRound(c) {
  const start = performance.now();
  for (const item of items) {
    const result = await c.scorer.run(item);
    if (result.score !== 0.43) throw new Error(`${c.name}: unexpected score ${result.score}`);
  }
  return (performance.now() - start) / items.length;
}

// Warm up both (JIT, lazy imports), then alternate rounds so both see the same machine state.
for (const c of contenders) for (let i = 0; i < 20; i++) await c.scorer.run(items[i % items.length]);
const times = new Map(contenders.map((c) => [c.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const c of round % 2 === 0 ? contenders : [...contenders].reverse()) times.get(c.name).push(await timeRound(c));
}

// Model calls per item, on a normal answer and on an empty one.
const callsPerItem = async (c, output) => {
  const before = c.model.calls;
  await c.scorer.run({ input: 'What is the capital of France?', output }).catch(() => undefined);
  return c.model.calls - before;
};

console.log(`answer-relevancy scorer, mock model answering instantly; ${ITEMS} items x ${ROUNDS} rounds, Node ${process.version}`);
const rows = [];
for (const c of contenders) {
  const ms = median(times.get(c.name));
  rows.push({ name: c.name, ms, normal: await callsPerItem(c, STATEMENTS.join(' ')), empty: await callsPerItem(c, '') });
}
for (const r of rows) {
  console.log(`${r.name.padEnd(14)} ${(r.ms * 1000).toFixed(0).padStart(7)} µs/run (median of rounds)   model calls/item: ${r.normal} (empty answer: ${r.empty})`);
}
console.log(`ratio @mastra/evals / agent-scorers: ${(rows[1].ms / rows[0].ms).toFixed(1)}x`);

/**
 * Port of Mastra's `packages/core/src/evals/run/multi-turn.scenario.test.ts`: `inputs: [...]` sends
 * each turn in order on one thread and scorers see every turn's output; `turns: [...]` adds per-turn
 * gates and scorers (`turnResults`). Mastra scripts an OpenAI provider with its AIMock HTTP server and
 * counts the requests it received; here the model is the AI SDK's `MockLanguageModelV3` and its calls
 * are counted. Each case runs on Mastra's `runEvals` and on this package's.
 */
import { createScorer } from '@mastra/core/evals';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS, modelCalls, textAgent } from './helpers.js';

let agentCounter = 0;

/** Mastra's `textAgent(response)`, with its model (to count the calls). */
const createTextAgent = (response: string) => textAgent(response, `multi-turn-agent-${++agentCounter}`);

/** A scorer that counts the output messages it receives. */
function outputCountScorer(expectedCount: number) {
  return createScorer({
    id: `output-count-${expectedCount}`,
    description: `Expects ${expectedCount} output messages`,
    name: `Output Count (${expectedCount})`,
  }).generateScore(({ run }) => {
    const output = run.output;
    const count = Array.isArray(output) ? output.length : 1;
    return count >= expectedCount ? 1 : 0;
  });
}

/** A scorer that checks whether the accumulated output text contains `substring`. */
function outputContains(substring: string) {
  return createScorer({
    id: `output-contains-${substring}`,
    description: `Output contains "${substring}"`,
    name: `Output Contains (${substring})`,
  }).generateScore(({ run }) => {
    const output = run.output;
    // An array of messages (content a string or parts) or a single string.
    const text = Array.isArray(output)
      ? output
          .map((msg: any) => {
            if (typeof msg === 'string') return msg;
            const c = msg?.content;
            if (typeof c === 'string') return c;
            if (Array.isArray(c)) return c.map((p: any) => p?.text ?? '').join('');
            return JSON.stringify(msg);
          })
          .join(' ')
      : String(output);
    return text.includes(substring) ? 1 : 0;
  });
}

describe.each(IMPLEMENTATIONS)('Multi-turn — scenario tests via runEvals (%s)', (_implementation, runEvals) => {
  describe('basic multi-turn execution', () => {
    it('accumulates output from multiple turns', async () => {
      const { agent } = createTextAgent('Brooklyn weather is sunny.');

      const result = await runEvals({
        data: [{ inputs: ['What is the weather?', 'What about tomorrow?', 'Compare them.'] }],
        scorers: [outputCountScorer(3)],
        target: agent,
      });

      expect(result.scores['output-count-3']).toBe(1.0);
      expect(result.summary.totalItems).toBe(1);
    });

    it('sends each turn sequentially (all turns executed)', async () => {
      const { model, agent } = createTextAgent('Response from agent.');
      let scorerCallCount = 0;
      const countingScorer = createScorer({ id: 'counting-scorer', description: 'Counts calls', name: 'Counter' }).generateScore(() => {
        scorerCallCount++;
        return 1;
      });

      await runEvals({ data: [{ inputs: ['Turn 1', 'Turn 2'] }], scorers: [countingScorer], target: agent });

      // The scorer runs once per data item, not per turn.
      expect(scorerCallCount).toBe(1);
      // Both turns reached the model.
      expect(modelCalls(model)).toBe(2);
    });
  });

  describe('scoring accumulated output', () => {
    it('scorer receives all turn outputs for evaluation', async () => {
      const { agent } = createTextAgent('sunny');

      const result = await runEvals({ data: [{ inputs: ['Weather?', 'Tomorrow?'] }], scorers: [outputContains('sunny')], target: agent });

      expect(result.scores['output-contains-sunny']).toBe(1.0);
    });
  });

  describe('multi-turn with gates and thresholds', () => {
    it('gates work with multi-turn data items', async () => {
      const { agent } = createTextAgent('Correct answer.');
      const passingGate = createScorer({ id: 'multi-turn-gate', description: 'Always passes', name: 'Pass Gate' }).generateScore(() => 1);

      const result = await runEvals({ data: [{ inputs: ['Question 1', 'Follow-up'] }], scorers: [outputCountScorer(2)], gates: [passingGate], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(true);
    });

    it('failing gate produces verdict: failed in multi-turn mode', async () => {
      const { agent } = createTextAgent('Response.');
      const failingGate = createScorer({ id: 'failing-gate', description: 'Always fails', name: 'Fail Gate' }).generateScore(() => 0);

      const result = await runEvals({ data: [{ inputs: ['Turn 1', 'Turn 2'] }], scorers: [outputCountScorer(2)], gates: [failingGate], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults![0]!.passed).toBe(false);
    });

    it('thresholds work with multi-turn accumulated output', async () => {
      const { agent } = createTextAgent('Good response.');
      const qualityScorer = createScorer({ id: 'quality', description: 'Fixed quality score', name: 'Quality' }).generateScore(() => 0.85);

      const result = await runEvals({ data: [{ inputs: ['Turn 1', 'Turn 2', 'Turn 3'] }], scorers: [{ scorer: qualityScorer, threshold: 0.7 }], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.85);
    });
  });

  describe('validation', () => {
    it('rejects empty inputs array', async () => {
      const { agent } = createTextAgent('Response.');

      await expect(runEvals({ data: [{ inputs: [] }], scorers: [outputCountScorer(1)], target: agent })).rejects.toThrow(/non-empty array/);
    });
  });

  describe('mixed single-turn and multi-turn data items', () => {
    it('handles both input and inputs items in the same run', async () => {
      const { agent } = createTextAgent('Agent response.');

      const result = await runEvals({
        data: [{ input: 'Single turn question' }, { inputs: ['Multi turn 1', 'Multi turn 2'] }],
        scorers: [createScorer({ id: 'always-pass', description: 'Always passes', name: 'Pass' }).generateScore(() => 1)],
        target: agent,
      });

      expect(result.summary.totalItems).toBe(2);
      expect(result.scores['always-pass']).toBe(1.0);
    });
  });
});

describe.each(IMPLEMENTATIONS)('Per-turn assertions (turns) — scenario tests via runEvals (%s)', (_implementation, runEvals) => {
  /** A gate or scorer that reads only the turn's own input. */
  const inputContainsScorer = (id: string, substring: string) =>
    createScorer({ id, description: `Turn input contains "${substring}"`, name: id }).generateScore(({ run }) =>
      typeof run.input === 'string' && run.input.includes(substring) ? 1 : 0,
    );

  it('scores each turn against its own input/output and returns per-turn results', async () => {
    const { model, agent } = createTextAgent('scripted answer');

    const result = await runEvals({
      data: [
        {
          turns: [
            { input: 'first turn', scorers: [outputCountScorer(1)] },
            { input: 'second turn', scorers: [outputCountScorer(1)] },
          ],
        },
      ],
      target: agent,
    });

    // Each turn sees its own output message, not the two accumulated.
    expect(result.turnResults).toBeDefined();
    expect(result.turnResults!.length).toBe(2);
    expect(result.turnResults![0]!.scores!['output-count-1']).toBe(1.0);
    expect(result.turnResults![1]!.scores!['output-count-1']).toBe(1.0);
    // Both turns reached the model.
    expect(modelCalls(model)).toBe(2);
  });

  it('fails the verdict when a per-turn gate fails on a later turn', async () => {
    const { agent } = createTextAgent('scripted answer');

    const result = await runEvals({
      data: [
        {
          turns: [
            { input: 'please call the tool', gates: [inputContainsScorer('turn-gate', 'call')] },
            { input: 'unrelated follow-up', gates: [inputContainsScorer('turn-gate', 'call')] },
          ],
        },
      ],
      target: agent,
    });

    expect(result.verdict).toBe('failed');
    expect(result.turnResults![0]!.gateResults![0]!.passed).toBe(true);
    expect(result.turnResults![1]!.gateResults![0]!.passed).toBe(false);
  });

  it("yields verdict 'scored' when a per-turn threshold is missed", async () => {
    const { agent } = createTextAgent('scripted answer');
    const lowScorer = createScorer({ id: 'turn-quality', description: 'Fixed low score', name: 'Turn Quality' }).generateScore(() => 0.3);

    const result = await runEvals({ data: [{ turns: [{ input: 'a question', scorers: [{ scorer: lowScorer, threshold: 0.8 }] }] }], target: agent });

    expect(result.verdict).toBe('scored');
    expect(result.turnResults![0]!.thresholdResults![0]!.passed).toBe(false);
  });
});

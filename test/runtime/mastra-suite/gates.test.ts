/**
 * Port of Mastra's `packages/core/src/evals/run/gates.scenario.test.ts`: gates, thresholds and the
 * verdict through the whole pipeline with a real Agent. Mastra scripts an OpenAI provider with its
 * AIMock HTTP server; here the agent's model is the AI SDK's `MockLanguageModelV3`, answering the same
 * scripted text (and the same tool calls, until the prompt holds a tool result). Each case runs on
 * Mastra's `runEvals` and on this package's.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer } from '@mastra/core/evals';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentModel, hasToolResult, IMPLEMENTATIONS, textAgent, type ToolCall } from './helpers.js';

let agentCounter = 0;

/** Mastra's `textAgent(response)`. */
const createTextAgent = (response: string) => textAgent(response, `gates-text-agent-${++agentCounter}`).agent;

/** Mastra's `toolCallingAgent`: calls `toolCalls` first, then answers `finalText` once a tool result is in the prompt. */
function toolCallingAgent(tools: Record<string, ReturnType<typeof createTool>>, toolCalls: ToolCall[], finalText: string) {
  const model = agentModel((options) => (hasToolResult(options) ? finalText : { toolCalls }));
  return new Agent({ id: `gates-tool-agent-${++agentCounter}`, name: 'Tool Agent', instructions: 'Call tools and respond.', model, tools });
}

// ─── Scorer fixtures ────────────────────────────────────────────────────────────

/** A gate that always scores 1 (pass). */
const passingGate = createScorer({ id: 'always-pass-gate', description: 'Always passes', name: 'Always Pass' }).generateScore(() => 1);

/** A gate that always scores 0 (fail). */
const failingGate = createScorer({ id: 'always-fail-gate', description: 'Always fails', name: 'Always Fail' }).generateScore(() => 0);

/** A scorer with a fixed score (for thresholds). */
const fixedScorer = (id: string, score: number) => createScorer({ id, description: `Returns ${score}`, name: id }).generateScore(() => score);

// ─── Tool fixtures ──────────────────────────────────────────────────────────────

const weatherTool = createTool({
  id: 'get_weather',
  description: 'Get weather for a city',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ temperature: z.number(), condition: z.string() }),
  execute: async () => ({ temperature: 72, condition: 'sunny' }),
});

// ─── Scenarios ──────────────────────────────────────────────────────────────────

describe.each(IMPLEMENTATIONS)('Gates & Verdict — scenario tests via runEvals (%s)', (_implementation, runEvals) => {
  describe('verdict with gates only', () => {
    it('returns verdict: passed when all gates score 1.0', async () => {
      const agent = createTextAgent('Sunny and 72°F in Brooklyn.');

      const result = await runEvals({ data: [{ input: 'What is the weather?' }], scorers: [fixedScorer('quality', 0.9)], gates: [passingGate], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.gateResults![0]!.score).toBe(1);
    });

    it('returns verdict: failed when a gate scores below 1.0', async () => {
      const agent = createTextAgent('Some response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [fixedScorer('quality', 0.9)], gates: [failingGate], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(false);
      expect(result.gateResults![0]!.score).toBe(0);
    });

    it('returns verdict: failed when any one gate fails among multiple', async () => {
      const agent = createTextAgent('Some response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [fixedScorer('filler', 0.5)], gates: [passingGate, failingGate], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults).toHaveLength(2);
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.gateResults![1]!.passed).toBe(false);
    });

    it('allows gate-only runs when scorers is omitted', async () => {
      const agent = createTextAgent('Sunny and 72°F in Brooklyn.');

      const result = await runEvals({ data: [{ input: 'What is the weather?' }], gates: [passingGate], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.scores).toEqual({});
    });

    it('fails a gate-only run when the gate scores below 1.0', async () => {
      const agent = createTextAgent('Some response.');

      const result = await runEvals({ data: [{ input: 'Test' }], gates: [failingGate], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(false);
    });

    it('throws when neither scorers nor gates are provided', async () => {
      const agent = createTextAgent('Some response.');

      // Mastra also expects a type error here; the types are checked in config-types.test.ts.
      await expect(runEvals({ data: [{ input: 'Test' }], target: agent })).rejects.toThrow('At least one scorer or gate must be provided');
    });
  });

  describe('verdict with thresholds only', () => {
    it('returns verdict: passed when scorer meets threshold', async () => {
      const agent = createTextAgent('Good response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixedScorer('quality', 0.85), threshold: 0.7 }], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.85);
      expect(result.thresholdResults![0]!.threshold).toBe(0.7);
    });

    it('returns verdict: scored when scorer misses threshold', async () => {
      const agent = createTextAgent('Mediocre response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixedScorer('quality', 0.3), threshold: 0.7 }], target: agent });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(false);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.3);
    });
  });

  describe('verdict with gates + thresholds combined', () => {
    it('returns verdict: scored when gates pass but threshold fails', async () => {
      const agent = createTextAgent('Some response.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('quality', 0.3), threshold: 0.7 }],
        gates: [passingGate],
        target: agent,
      });

      expect(result.verdict).toBe('scored');
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.passed).toBe(false);
    });

    it('returns verdict: failed when gate fails even if threshold passes', async () => {
      const agent = createTextAgent('Some response.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('quality', 0.9), threshold: 0.7 }],
        gates: [failingGate],
        target: agent,
      });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults![0]!.passed).toBe(false);
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });

    it('returns verdict: passed when gates and thresholds all pass', async () => {
      const agent = createTextAgent('Great response.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('quality', 0.9), threshold: 0.7 }],
        gates: [passingGate],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });
  });

  describe('backward compatibility', () => {
    it('omits verdict when no gates or thresholds provided', async () => {
      const agent = createTextAgent('Hello.');

      const result = await runEvals({ data: [{ input: 'Greet me' }], scorers: [fixedScorer('quality', 0.8)], target: agent });

      expect(result.verdict).toBeUndefined();
      expect(result.gateResults).toBeUndefined();
      expect(result.thresholdResults).toBeUndefined();
      expect(result.scores['quality']).toBeDefined();
    });

    it('works with mixed bare scorers and threshold scorers', async () => {
      const agent = createTextAgent('Mixed test.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [fixedScorer('bare-scorer', 0.75), { scorer: fixedScorer('threshold-scorer', 0.9), threshold: 0.8 }],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.scores['bare-scorer']).toBeDefined();
      expect(result.scores['threshold-scorer']).toBeDefined();
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.id).toBe('threshold-scorer');
    });
  });

  describe('gates with tool-calling agents', () => {
    it('gates a tool-calling agent with custom scorers', async () => {
      const agent = toolCallingAgent({ get_weather: weatherTool }, [{ name: 'get_weather', id: 'call-1', input: { city: 'Brooklyn' } }], 'It is sunny and 72°F in Brooklyn.');

      const result = await runEvals({
        data: [{ input: 'What is the weather in Brooklyn?' }],
        scorers: [{ scorer: fixedScorer('quality', 0.9), threshold: 0.7 }],
        gates: [passingGate],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });
  });

  describe('threshold: { min, max } range-based checks', () => {
    it('passes when score is below max threshold (hallucination use case)', async () => {
      const agent = createTextAgent('Low hallucination response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixedScorer('hallucination', 0.1), threshold: { max: 0.3 } }], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.1);
      expect(result.thresholdResults![0]!.threshold).toEqual({ max: 0.3 });
    });

    it('fails when score exceeds max threshold', async () => {
      const agent = createTextAgent('High hallucination response.');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixedScorer('hallucination', 0.8), threshold: { max: 0.3 } }], target: agent });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults![0]!.passed).toBe(false);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.8);
    });

    it('passes when score is within { min, max } range', async () => {
      const agent = createTextAgent('Balanced response.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('balanced-metric', 0.5), threshold: { min: 0.3, max: 0.7 } }],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });

    it('fails when score is above { min, max } range', async () => {
      const agent = createTextAgent('Too high.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('bounded-metric', 0.9), threshold: { min: 0.3, max: 0.7 } }],
        target: agent,
      });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults![0]!.passed).toBe(false);
    });

    it('fails when score is below { min, max } range', async () => {
      const agent = createTextAgent('Too low.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('bounded-metric', 0.1), threshold: { min: 0.3, max: 0.7 } }],
        target: agent,
      });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults![0]!.passed).toBe(false);
    });

    it('works with gates + max threshold combined', async () => {
      const agent = createTextAgent('Good response with low hallucination.');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixedScorer('hallucination', 0.15), threshold: { max: 0.3 } }],
        gates: [passingGate],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });
  });

  describe('trajectory-typed scorers used as gates (#22632)', () => {
    it('hands a trajectory-typed gate a Trajectory, not the raw output messages', async () => {
      const agent = toolCallingAgent({ get_weather: weatherTool }, [{ name: 'get_weather', id: 'call_1', input: { city: 'Brooklyn' } }], 'Sunny and 72°F in Brooklyn.');
      let seenOutput: unknown;
      const trajectoryGate = createScorer({
        id: 'trajectory-shape-gate',
        description: 'Records the output shape it was handed',
        name: 'Trajectory Shape Gate',
        type: 'trajectory',
      }).generateScore(({ run }) => {
        seenOutput = run.output;
        return 1;
      });

      const result = await runEvals({ data: [{ input: 'What is the weather?' }], gates: [trajectoryGate], target: agent });

      // A trajectory scorer's `output` is a Trajectory, as on the `scorers.trajectory` path.
      expect(Array.isArray(seenOutput)).toBe(false);
      expect((seenOutput as { steps?: unknown } | undefined)?.steps).toBeInstanceOf(Array);
      // The gate could run, so it scores 1 instead of failing closed.
      expect(result.gateResults![0]!.score).toBe(1);
    });

    it('threads expectedTrajectory through to a trajectory-typed gate', async () => {
      const agent = toolCallingAgent({ get_weather: weatherTool }, [{ name: 'get_weather', id: 'call_2', input: { city: 'Brooklyn' } }], 'Sunny.');
      let seenExpected: unknown = 'UNSET';
      const expectationGate = createScorer({
        id: 'expected-trajectory-gate',
        description: 'Records expectedTrajectory',
        name: 'Expected Trajectory Gate',
        type: 'trajectory',
      }).generateScore(({ run }) => {
        seenExpected = (run as { expectedTrajectory?: unknown }).expectedTrajectory;
        return 1;
      });
      const expectedTrajectory = { steps: [{ type: 'tool_call', toolName: 'get_weather' }] };

      await runEvals({ data: [{ input: 'What is the weather?', expectedTrajectory }], gates: [expectationGate], target: agent });

      expect(seenExpected).toEqual(expectedTrajectory);
    });

    it('leaves a non-trajectory gate on the agent-shaped payload', async () => {
      const agent = createTextAgent('Plain response.');
      let seenOutput: unknown;
      let seenExpected: unknown = 'UNSET';
      const plainGate = createScorer({ id: 'plain-shape-gate', description: 'Records what a plain gate is handed', name: 'Plain Shape Gate' }).generateScore(
        ({ run }: any) => {
          seenOutput = run.output;
          seenExpected = run.expectedTrajectory;
          return 1;
        },
      );

      await runEvals({ data: [{ input: 'Test', expectedTrajectory: { steps: [] } }], gates: [plainGate], target: agent });

      // A gate that did not ask for a trajectory gets the agent's messages, and no expectedTrajectory.
      expect(Array.isArray(seenOutput)).toBe(true);
      expect(seenExpected).toBeUndefined();
    });
  });

  describe('multi-item dataset verdict', () => {
    it('averages gate scores across items for verdict', async () => {
      const agent = createTextAgent('Consistent response.');

      const result = await runEvals({
        data: [{ input: 'Test 1' }, { input: 'Test 2' }, { input: 'Test 3' }],
        scorers: [fixedScorer('quality', 0.8)],
        gates: [passingGate],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.summary.totalItems).toBe(3);
      expect(result.gateResults![0]!.score).toBe(1);
    });
  });
});

/**
 * Port of Mastra's `packages/core/src/evals/run/index.test.ts` (the version that matches
 * `@mastra/core` 1.71: turns, trajectory gates, gate-failure logging). Each case runs on Mastra's
 * `runEvals` and on this package's (`IMPLEMENTATIONS`). Mastra's v2 mock models are the AI SDK's
 * `MockLanguageModelV3`, its v1 mock a hand-written v1 model (`legacyModel`), its `InMemoryStore` and
 * mocked storage a real LibSQL file whose rows are read back with Mastra's store API, and its
 * `MockMemory` the real `Memory` of `@mastra/memory` on a LibSQL file. Names follow Mastra's.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer, type AgentScorerConfig, type MastraScorer } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { NoOpObservability } from '@mastra/core/observability';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { Memory } from '@mastra/memory';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { agentModel, IMPLEMENTATIONS, legacyModel, modelCalls, savedScores, textModel, tmpStorage } from './helpers.js';

const storages = tmpStorage('mastra-suite-index');
afterAll(() => storages.cleanup());

const createMockScorer = (name: string, score: number = 0.8): MastraScorer => {
  const scorer = createScorer({ id: name, description: 'Mock scorer', name }).generateScore(() => score);
  vi.spyOn(scorer, 'run');
  return scorer;
};

/** Mastra's `createMockAgent`: a v1 model, so the agent runs through `generateLegacy`. */
const createMockAgent = (response: string = 'Dummy response'): Agent => {
  const agent = new Agent({ id: 'mockAgent', name: 'mockAgent', instructions: 'Mock agent', model: legacyModel(response) as any });
  vi.spyOn(agent, 'generateLegacy');
  return agent;
};

/** Mastra's `createMockAgentV2`: a current model, so the agent runs through `generate`. */
const createMockAgentV2 = (response: string = 'Dummy response'): Agent => {
  const agent = new Agent({ id: 'mockAgent', name: 'mockAgent', instructions: 'Mock agent', model: textModel(response) });
  vi.spyOn(agent, 'generate');
  return agent;
};

/** Spies on `agent.generate`, running `around` in its place with the original (Mastra's tests wrap it so). */
function aroundGenerate(agent: Agent, around: (input: any, options: any, original: (input: any, options: any) => Promise<any>) => Promise<any>) {
  const original = agent.generate.bind(agent) as (input: any, options: any) => Promise<any>;
  return vi.spyOn(agent, 'generate').mockImplementation(((input: any, options: any) => around(input, options, original)) as any);
}

/** The one-step workflow most of Mastra's workflow cases build. */
const createTestWorkflow = (stepOptions: { scorers?: any } = {}) => {
  const mockStep = createStep({
    id: 'test-step',
    inputSchema: z.object({ input: z.string() }),
    outputSchema: z.object({ output: z.string() }),
    ...stepOptions,
    execute: async ({ inputData }) => ({ output: `Processed: ${inputData.input}` }),
  });
  return createWorkflow({
    id: 'test-workflow',
    inputSchema: z.object({ input: z.string() }),
    outputSchema: z.object({ output: z.string() }),
    options: { validateInputs: false },
  })
    .then(mockStep)
    .commit();
};

/** Replaces `workflow.createRun` so every run's `start` goes through the returned spy. */
const spyOnRunStart = (workflow: ReturnType<typeof createTestWorkflow>) => {
  const startSpy = vi.fn();
  const origCreateRun = workflow.createRun.bind(workflow);
  vi.spyOn(workflow, 'createRun').mockImplementation(async (opts) => {
    const run = await origCreateRun(opts);
    startSpy.mockImplementation(run.start.bind(run));
    run.start = startSpy;
    return run;
  });
  return startSpy;
};

describe.each(IMPLEMENTATIONS)('runEvals (%s)', (implementation, runEvals) => {
  let mockAgent: Agent;
  let mockScorers: MastraScorer[];
  let testData: any[];

  beforeEach(() => {
    vi.clearAllMocks();
    mockAgent = createMockAgent();
    mockScorers = [createMockScorer('toxicity', 0.9), createMockScorer('relevance', 0.7)];
    testData = [
      { input: 'Test input 1', groundTruth: 'Expected 1' },
      { input: 'Test input 2', groundTruth: 'Expected 2' },
    ];
  });

  describe('Basic functionality', () => {
    it('should run experiment with single scorer', async () => {
      const result = await runEvals({ data: testData, scorers: [createMockScorer('toxicity', 0.9)], target: mockAgent });

      expect(result.scores.toxicity).toBe(0.9);
      expect(result.summary.totalItems).toBe(2);
    });

    it('should run experiment with multiple scorers', async () => {
      const result = await runEvals({ data: testData, scorers: mockScorers, target: mockAgent });

      expect(result.scores.toxicity).toBe(0.9);
      expect(result.scores.relevance).toBe(0.7);
      expect(result.summary.totalItems).toBe(2);
    });

    it('should calculate average scores correctly', async () => {
      const scorers = [createMockScorer('test', 0.8)];
      // Different scores for the two items.
      scorers[0].run = vi
        .fn()
        .mockResolvedValueOnce({ score: 0.6, reason: 'test' })
        .mockResolvedValueOnce({ score: 1.0, reason: 'test' });

      const result = await runEvals({ data: testData, scorers, target: mockAgent });

      expect(result.scores.test).toBe(0.8);
    });
  });

  describe('V2 Agent integration', () => {
    it('should call agent.generateLegacy with correct parameters', async () => {
      const mockAgent = createMockAgentV2();
      await runEvals({ data: [{ input: 'test input', groundTruth: 'truth' }], scorers: mockScorers, target: mockAgent });

      expect(mockScorers[0].run).toHaveBeenCalledTimes(1);
      expect(mockScorers[1].run).toHaveBeenCalledTimes(1);
      expect(mockScorers[0].run).toHaveBeenCalledWith(expect.objectContaining({ input: expect.any(Object), output: expect.any(Object) }));
    });
  });

  describe('Agent integration', () => {
    it('should call agent.generateLegacy with correct parameters', async () => {
      await runEvals({ data: [{ input: 'test input', groundTruth: 'truth' }], scorers: mockScorers, target: mockAgent });

      expect(mockAgent.generateLegacy).toHaveBeenCalledTimes(1);
      expect(mockAgent.generateLegacy).toHaveBeenCalledWith(
        'test input',
        expect.objectContaining({ scorers: {}, returnScorerData: true, requestContext: undefined }),
      );
    });

    it('should pass requestContext when provided', async () => {
      const requestContext = new RequestContext([['userId', 'test-user']]);

      await runEvals({ data: [{ input: 'test input', groundTruth: 'truth', requestContext }], scorers: mockScorers, target: mockAgent });

      expect(mockAgent.generateLegacy).toHaveBeenCalledTimes(1);
      expect(mockAgent.generateLegacy).toHaveBeenCalledWith('test input', expect.objectContaining({ scorers: {}, returnScorerData: true, requestContext }));
    });
  });

  describe('Scorer integration', () => {
    it('should call scorers with correct data', async () => {
      const mockResponse = {
        scoringData: {
          input: { inputMessages: ['test'], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
          output: 'response',
        },
      };
      mockAgent.generateLegacy = vi.fn().mockResolvedValue(mockResponse);

      await runEvals({ data: [{ input: 'test', groundTruth: 'truth' }], scorers: mockScorers, target: mockAgent });

      expect(mockScorers[0].run).toHaveBeenCalledWith(
        expect.objectContaining({ input: mockResponse.scoringData.input, output: mockResponse.scoringData.output, groundTruth: 'truth' }),
      );
    });

    it('should handle missing scoringData gracefully', async () => {
      mockAgent.generateLegacy = vi.fn().mockResolvedValue({ response: 'test' });

      await runEvals({ data: [{ input: 'test', groundTruth: 'truth' }], scorers: [mockScorers[0]], target: mockAgent });

      expect(mockScorers[0].run).toHaveBeenCalledWith(expect.objectContaining({ input: undefined, output: undefined, groundTruth: 'truth' }));
    });
  });

  describe('onItemComplete callback', () => {
    it('should call onItemComplete for each item', async () => {
      const onItemComplete = vi.fn();

      await runEvals({ data: testData, scorers: mockScorers, target: mockAgent, onItemComplete });

      expect(onItemComplete).toHaveBeenCalledTimes(2);
      expect(onItemComplete).toHaveBeenNthCalledWith(1, {
        item: testData[0],
        targetResult: expect.any(Object),
        scorerResults: expect.objectContaining({ toxicity: expect.any(Object), relevance: expect.any(Object) }),
        // agent-scorers also names the item's 0-based position in `data`; Mastra 1.71 does not.
        ...(implementation === 'agent-scorers' ? { index: 0 } : {}),
      });
    });
  });

  describe('Error handling', () => {
    it('should handle agent generate errors', async () => {
      mockAgent.generateLegacy = vi.fn().mockRejectedValue(new Error('Agent error'));

      await expect(runEvals({ data: testData, scorers: mockScorers, target: mockAgent })).rejects.toThrow();
    });

    it('should handle scorer errors', async () => {
      mockScorers[0].run = vi.fn().mockRejectedValue(new Error('Scorer error'));

      await expect(runEvals({ data: testData, scorers: mockScorers, target: mockAgent })).rejects.toThrow();
    });

    it('should handle empty data array', async () => {
      await expect(runEvals({ data: [], scorers: mockScorers, target: mockAgent })).rejects.toThrow();
    });

    it('should handle empty scorers array', async () => {
      await expect(runEvals({ data: testData, scorers: [], target: mockAgent })).rejects.toThrow();
    });
  });

  describe('Workflow integration', () => {
    it('should run experiment with workflow target', async () => {
      const workflow = createTestWorkflow();

      const result = await runEvals({
        data: [
          { input: { input: 'Test input 1' }, groundTruth: 'Expected 1' },
          { input: { input: 'Test input 2' }, groundTruth: 'Expected 2' },
        ],
        scorers: [mockScorers[0]],
        target: workflow,
      });

      expect(result.scores.toxicity).toBe(0.9);
      expect(result.summary.totalItems).toBe(2);
    });

    it('should override step scorers to be empty during workflow execution', async () => {
      // A step with a scorer already attached.
      const workflow = createTestWorkflow({ scorers: { existingScorer: { scorer: mockScorers[0] } } });

      await runEvals({
        data: [{ input: { input: 'Test input' }, groundTruth: 'Expected' }],
        scorers: { steps: { 'test-step': [mockScorers[1]] } },
        target: workflow,
      });

      expect(mockScorers[0].run).not.toHaveBeenCalled();
      expect(mockScorers[1].run).toHaveBeenCalled();
    });

    it('should run scorers on individual step results', async () => {
      const workflow = createTestWorkflow();
      const mockScorer = createMockScorer('step-scorer', 0.8);
      const scorerSpy = vi.spyOn(mockScorer, 'run');

      await runEvals({
        data: [{ input: { input: 'Test input' }, groundTruth: 'Expected' }],
        scorers: { steps: { 'test-step': [mockScorer] } },
        target: workflow,
      });

      // The step's payload and output, not the workflow's.
      expect(scorerSpy).toHaveBeenCalledWith(
        expect.objectContaining({
          input: { input: 'Test input' },
          output: { output: 'Processed: Test input' },
          groundTruth: 'Expected',
          requestContext: undefined,
        }),
      );
    });

    it('should capture step scorer results in experiment output', async () => {
      const workflow = createTestWorkflow();
      const mockScorer = createMockScorer('step-scorer', 0.8);

      const result = await runEvals({
        data: [{ input: { input: 'Test input' }, groundTruth: 'Expected' }],
        scorers: { workflow: [mockScorers[0]], steps: { 'test-step': [mockScorer] } },
        target: workflow,
      });

      expect(result.scores.steps?.['test-step']?.['step-scorer']).toBe(0.8);
      expect(result.scores.workflow?.toxicity).toBe(0.9);
      expect(result.summary.totalItems).toBe(1);
    });
  });

  describe('Observability integration', () => {
    it('should create tracing spans when observability is configured in Mastra', async () => {
      const agent = new Agent({
        id: 'observableAgent',
        name: 'Observable Agent',
        instructions: 'Test agent with observability',
        model: textModel('Response from agent'),
      });
      const observability = new NoOpObservability();
      const selectedInstance = vi.spyOn(observability, 'getSelectedInstance');
      const mastra = new Mastra({ agents: { observableAgent: agent }, observability, logger: false });
      const scorer = createScorer({ id: 'testScorer', description: 'Test scorer', name: 'testScorer' }).generateScore(() => 0.9);

      await runEvals({
        data: [{ input: 'test input', groundTruth: 'expected output' }],
        scorers: [scorer],
        target: mastra.getAgent('observableAgent'),
      });

      expect(selectedInstance).toHaveBeenCalled();
    });
  });

  describe('Score persistence', () => {
    it('should save scores to storage when runEvals is called', async () => {
      const agent = new Agent({ id: 'testAgent', name: 'Test Agent', instructions: 'Test agent', model: textModel('Response from agent') });
      const storage = storages.store();
      const mastra = new Mastra({ agents: { testAgent: agent }, logger: false, storage });
      const scorer = createScorer({ id: 'testScorer', description: 'Test scorer', name: 'testScorer' }).generateScore(() => 0.85);
      // Registered with Mastra so it can be found when the score is saved.
      mastra.addScorer(scorer, 'testScorer');

      await runEvals({
        data: [
          { input: 'test input 1', groundTruth: 'expected output 1' },
          { input: 'test input 2', groundTruth: 'expected output 2' },
        ],
        scorers: [scorer],
        target: mastra.getAgent('testAgent'),
      });

      // Mastra checks the saveScore calls; the port reads the rows back from the file.
      const rows = await savedScores(storage, 'testScorer');
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({ scorerId: 'testScorer', entityId: 'testAgent', entityType: 'AGENT', score: 0.85, source: 'TEST', runId: expect.any(String) });
      }
    });

    it('should save workflow scores to storage', async () => {
      const workflow = createTestWorkflow();
      const storage = storages.store();
      const mastra = new Mastra({ workflows: { testWorkflow: workflow }, logger: false, storage });
      const scorer = createScorer({ id: 'workflowScorer', description: 'Workflow scorer', name: 'workflowScorer' }).generateScore(() => 0.75);
      mastra.addScorer(scorer, 'workflowScorer');

      await runEvals({
        data: [{ input: { input: 'Test input' }, groundTruth: 'Expected' }],
        scorers: [scorer],
        target: mastra.getWorkflow('testWorkflow'),
      });

      const rows = await savedScores(storage, 'workflowScorer');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ scorerId: 'workflowScorer', entityId: 'test-workflow', entityType: 'WORKFLOW', score: 0.75, source: 'TEST' });
    });
  });

  describe('targetOptions', () => {
    it('should pass targetOptions to agent.generate (modern path)', async () => {
      const mockAgent = createMockAgentV2();

      await runEvals({ data: [{ input: 'test input', groundTruth: 'truth' }], scorers: mockScorers, target: mockAgent, targetOptions: { maxSteps: 3 } });

      expect(mockAgent.generate).toHaveBeenCalledWith('test input', expect.objectContaining({ maxSteps: 3 }));
    });

    it('should not allow targetOptions to override scorers or returnScorerData', async () => {
      const mockAgent = createMockAgentV2();

      await runEvals({
        data: [{ input: 'test input', groundTruth: 'truth' }],
        scorers: mockScorers,
        target: mockAgent,
        targetOptions: { scorers: { evil: { scorer: 'evil' } }, returnScorerData: false },
      });

      expect(mockAgent.generate).toHaveBeenCalledWith('test input', expect.objectContaining({ scorers: {}, returnScorerData: true }));
    });

    it('should not pass targetOptions to generateLegacy (legacy path)', async () => {
      const mockLegacyAgent = createMockAgent();

      await runEvals({ data: [{ input: 'test input', groundTruth: 'truth' }], scorers: mockScorers, target: mockLegacyAgent, targetOptions: { maxSteps: 5 } });

      expect(mockLegacyAgent.generateLegacy).toHaveBeenCalledWith(
        'test input',
        expect.objectContaining({ scorers: {}, returnScorerData: true, requestContext: undefined }),
      );
    });

    it('should pass targetOptions to workflow run.start', async () => {
      const workflow = createTestWorkflow();
      const startSpy = spyOnRunStart(workflow);

      await runEvals({ data: [{ input: { input: 'Test' }, groundTruth: 'Expected' }], scorers: [mockScorers[0]], target: workflow, targetOptions: { perStep: true } });

      expect(startSpy).toHaveBeenCalledWith(expect.objectContaining({ perStep: true }));
    });
  });

  describe('startOptions (per-item workflow options)', () => {
    it('should pass startOptions to run.start for each item', async () => {
      const workflow = createTestWorkflow();
      const startSpy = spyOnRunStart(workflow);
      const initialState = { counter: 1 };

      await runEvals({ data: [{ input: { input: 'Test' }, groundTruth: 'Expected', startOptions: { initialState } }], scorers: [mockScorers[0]], target: workflow });

      expect(startSpy).toHaveBeenCalledWith(expect.objectContaining({ initialState }));
    });

    it('per-item startOptions should override targetOptions for the same key', async () => {
      const workflow = createTestWorkflow();
      const startSpy = spyOnRunStart(workflow);
      const globalState = { counter: 0 };
      const itemState = { counter: 42 };

      await runEvals({
        data: [{ input: { input: 'Test' }, groundTruth: 'Expected', startOptions: { initialState: itemState } }],
        scorers: [mockScorers[0]],
        target: workflow,
        targetOptions: { initialState: globalState },
      });

      expect(startSpy).toHaveBeenCalledWith(expect.objectContaining({ initialState: itemState }));
    });
  });

  describe('Trajectory scoring with tool-calling agent', () => {
    // The model calls weatherTool, then calendarTool, then answers in text.
    function createToolCallingAgent() {
      const model = agentModel((_options, index) => {
        if (index === 0) return { toolCalls: [{ id: 'call-weather-1', name: 'weatherTool', input: { city: 'London' } }] };
        if (index === 1) return { toolCalls: [{ id: 'call-calendar-1', name: 'calendarTool', input: { date: '2025-01-01' } }] };
        return 'The weather is sunny and your calendar is clear.';
      });
      const weatherTool = createTool({
        id: 'weatherTool',
        description: 'Get weather for a city',
        inputSchema: z.object({ city: z.string() }),
        outputSchema: z.object({ temperature: z.number(), condition: z.string() }),
        execute: async () => ({ temperature: 22, condition: 'sunny' }),
      });
      const calendarTool = createTool({
        id: 'calendarTool',
        description: 'Get calendar events for a date',
        inputSchema: z.object({ date: z.string() }),
        outputSchema: z.object({ events: z.array(z.string()) }),
        execute: async () => ({ events: [] }),
      });
      const agent = new Agent({
        id: 'tool-calling-agent',
        name: 'Tool Calling Agent',
        instructions: 'You are a helpful agent that checks weather and calendar.',
        model,
        tools: { weatherTool, calendarTool },
      });
      return { agent, callCount: () => modelCalls(model) };
    }

    it('should pass flat scorers with raw MastraDBMessage[] output', async () => {
      const { agent } = createToolCallingAgent();
      const extractToolNames = (output: any[]): string[] => output.flatMap((msg) => (msg.content?.toolInvocations ?? []).map((inv: any) => inv.toolName));
      // Inspects the raw output for toolInvocations.
      const inspectorScorer = createScorer({
        id: 'trajectory-inspector',
        name: 'Trajectory Inspector',
        description: 'Inspects output for toolInvocations',
      }).generateScore(({ run }) => {
        const output = run.output;
        if (!Array.isArray(output)) return 0;
        const toolNames = extractToolNames(output);
        return toolNames.includes('weatherTool') && toolNames.includes('calendarTool') ? 1.0 : 0.5;
      });

      const result = await runEvals({ data: [{ input: 'What is the weather and my calendar for today?' }], scorers: [inspectorScorer], target: agent });

      expect(result.scores['trajectory-inspector']).toBe(1.0);
    });

    it('should pre-extract trajectory for trajectory scorers in AgentScorerConfig', async () => {
      const { agent } = createToolCallingAgent();
      const agentLevelScorer = createMockScorer('agent-overall', 0.9);
      // Trajectory scorers receive a Trajectory (with .steps), not raw messages.
      const trajectoryScorer = createScorer({
        id: 'trajectory-steps',
        name: 'Trajectory Steps',
        description: 'Verifies trajectory steps are pre-extracted',
      }).generateScore(({ run }: any) => {
        const trajectory = run.output;
        if (Array.isArray(trajectory) || !trajectory?.steps) return 0;
        const stepNames = trajectory.steps.map((s: any) => s.name);
        return stepNames.includes('weatherTool') && stepNames.includes('calendarTool') ? 1.0 : 0.0;
      });
      const scorerConfig: AgentScorerConfig = { agent: [agentLevelScorer], trajectory: [trajectoryScorer] };

      const result = await runEvals({ data: [{ input: 'What is the weather and my calendar?' }], scorers: scorerConfig, target: agent });

      expect(result.scores.agent).toBeDefined();
      expect(result.scores.agent['agent-overall']).toBe(0.9);
      expect(result.scores.trajectory).toBeDefined();
      expect(result.scores.trajectory['trajectory-steps']).toBe(1.0);
    });

    it('should preserve step ordering in the extracted trajectory', async () => {
      const { agent } = createToolCallingAgent();
      const stepsAre = (first: string, second: string) => ({ run }: any) => {
        const trajectory = run.output;
        if (!trajectory?.steps || trajectory.steps.length < 2) return 0;
        return trajectory.steps[0]?.name === first && trajectory.steps[1]?.name === second ? 1.0 : 0.0;
      };
      const orderScorer = createScorer({ id: 'step-order', name: 'Step Order', description: 'Checks trajectory step ordering' }).generateScore(
        stepsAre('weatherTool', 'calendarTool'),
      );
      const wrongOrderScorer = createScorer({ id: 'wrong-order', name: 'Wrong Order', description: 'Expects calendar before weather' }).generateScore(
        stepsAre('calendarTool', 'weatherTool'),
      );

      const result = await runEvals({
        data: [{ input: 'Check weather and calendar' }],
        scorers: { trajectory: [orderScorer, wrongOrderScorer] } satisfies AgentScorerConfig,
        target: agent,
      });

      expect(result.scores.trajectory['step-order']).toBe(1.0);
      expect(result.scores.trajectory['wrong-order']).toBe(0.0);
    });

    it('should pass groundTruth to trajectory scorers', async () => {
      const { agent } = createToolCallingAgent();
      const groundTruthScorer = createScorer({
        id: 'gt-trajectory',
        name: 'Ground Truth Trajectory',
        description: 'Uses groundTruth to check trajectory',
      }).generateScore(({ run }: any) => {
        const gt = run.groundTruth;
        if (!gt?.expectedTools) return 0;
        const trajectory = run.output;
        if (!trajectory?.steps) return 0;
        const stepNames = trajectory.steps.map((s: any) => s.name);
        return gt.expectedTools.every((t: string) => stepNames.includes(t)) ? 1.0 : 0.0;
      });

      const result = await runEvals({
        data: [{ input: 'What is the weather?', groundTruth: { expectedTools: ['weatherTool', 'calendarTool'] } }],
        scorers: { trajectory: [groundTruthScorer] } satisfies AgentScorerConfig,
        target: agent,
      });

      expect(result.scores.trajectory['gt-trajectory']).toBe(1.0);
    });

    it('should include step input/output data in trajectory steps', async () => {
      const { agent } = createToolCallingAgent();
      // The steps carry the tool calls' arguments and results.
      const detailScorer = createScorer({ id: 'step-detail', name: 'Step Detail', description: 'Checks trajectory step data' }).generateScore(({ run }: any) => {
        const weatherStep = run.output?.steps?.find((s: any) => s.name === 'weatherTool');
        if (!weatherStep) return 0;
        if (weatherStep.toolArgs?.city !== 'London') return 0;
        const toolResult = weatherStep.toolResult;
        if (!toolResult || toolResult.temperature !== 22 || toolResult.condition !== 'sunny') return 0;
        return 1.0;
      });

      const result = await runEvals({ data: [{ input: 'Check the London weather' }], scorers: { trajectory: [detailScorer] } satisfies AgentScorerConfig, target: agent });

      expect(result.scores.trajectory['step-detail']).toBe(1.0);
    });

    it('should preserve rawOutput on trajectory for scorers that need message context', async () => {
      const { agent } = createToolCallingAgent();
      const rawOutputScorer = createScorer({
        id: 'raw-output-check',
        name: 'Raw Output Check',
        description: 'Verifies rawOutput is available on trajectory',
      }).generateScore(({ run }: any) => {
        const rawOutput = run.output?.rawOutput;
        // The original MastraDBMessage[] array.
        if (!Array.isArray(rawOutput)) return 0;
        return rawOutput.length > 0 ? 1.0 : 0.0;
      });

      const result = await runEvals({ data: [{ input: 'Check weather' }], scorers: { trajectory: [rawOutputScorer] } satisfies AgentScorerConfig, target: agent });

      expect(result.scores.trajectory['raw-output-check']).toBe(1.0);
    });
  });

  describe('gates and verdict', () => {
    const fixed = (id: string, score: number, description = 'test') => createScorer({ id, description }).generateScore(() => score);

    it('should return verdict: passed when all gates score 1.0', async () => {
      const agent = createMockAgentV2('It is sunny and warm');

      const result = await runEvals({ data: [{ input: 'Weather?' }], scorers: [createMockScorer('basic', 0.9)], gates: [fixed('always-pass', 1.0)], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.gateResults![0]!.score).toBe(1.0);
    });

    it('should return verdict: failed when a gate scores below 1.0', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [createMockScorer('basic', 0.9)], gates: [fixed('failing-gate', 0.5)], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults![0]!.passed).toBe(false);
    });

    it('should return verdict: scored when gates pass but threshold fails', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixed('low-scorer', 0.3), threshold: 0.7 }],
        gates: [fixed('gate-pass', 1.0)],
        target: agent,
      });

      expect(result.verdict).toBe('scored');
      expect(result.gateResults![0]!.passed).toBe(true);
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(false);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.3);
    });

    it('should not include verdict when no gates or thresholds are provided', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [createMockScorer('basic', 0.8)], target: agent });

      expect(result.verdict).toBeUndefined();
      expect(result.gateResults).toBeUndefined();
      expect(result.thresholdResults).toBeUndefined();
    });

    it('should support threshold-only mode without gates', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixed('good-scorer', 0.9), threshold: 0.7 }], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.gateResults).toBeUndefined();
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });

    it('should work with mixed bare scorers and threshold scorers', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [createMockScorer('bare', 0.8), { scorer: fixed('threshold-scorer', 0.85), threshold: 0.8 }],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.scores['bare']).toBeDefined();
      expect(result.scores['threshold-scorer']).toBeDefined();
    });

    it('should convert a throwing gate into score 0 and verdict failed', async () => {
      const agent = createMockAgentV2('response');
      const throwingGate = createScorer({ id: 'throwing-gate', description: 'Always throws' }).generateScore(() => {
        throw new Error('Boom');
      });

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [createMockScorer('basic', 0.8)], gates: [throwingGate], target: agent });

      expect(result.verdict).toBe('failed');
      expect(result.gateResults).toHaveLength(1);
      expect(result.gateResults![0]!.passed).toBe(false);
      expect(result.gateResults![0]!.score).toBe(0);
    });

    it('should reject invalid threshold values', async () => {
      const agent = createMockAgentV2('response');
      const scorer = fixed('some-scorer', 0.8);

      await expect(runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer, threshold: 1.5 }], target: agent })).rejects.toThrow(/between 0 and 1/);
      await expect(runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer, threshold: -0.1 }], target: agent })).rejects.toThrow(/between 0 and 1/);
      await expect(runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer, threshold: NaN }], target: agent })).rejects.toThrow(/between 0 and 1/);
    });

    it('should average gate scores across multiple data items', async () => {
      const agent = createMockAgentV2('response');
      let callCount = 0;
      const sometimesFailsGate = createScorer({ id: 'sometimes-fails', description: 'Fails on second call' }).generateScore(() => {
        callCount++;
        return callCount === 2 ? 0.0 : 1.0;
      });

      const result = await runEvals({
        data: [{ input: 'Test1' }, { input: 'Test2' }, { input: 'Test3' }],
        scorers: [createMockScorer('basic', 0.8)],
        gates: [sometimesFailsGate],
        target: agent,
      });

      // (1 + 0 + 1) / 3 < 1: failed.
      expect(result.verdict).toBe('failed');
      expect(result.gateResults![0]!.passed).toBe(false);
    });

    it('should support max threshold (score must be at or below max)', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixed('hallucination', 0.9, 'Scores high when hallucinating'), threshold: { max: 0.3 } }],
        target: agent,
      });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults).toHaveLength(1);
      expect(result.thresholdResults![0]!.passed).toBe(false);
      expect(result.thresholdResults![0]!.averageScore).toBe(0.9);
    });

    it('should pass max threshold when score is at or below max', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({
        data: [{ input: 'Test' }],
        scorers: [{ scorer: fixed('hallucination', 0.1, 'Scores low when not hallucinating'), threshold: { max: 0.3 } }],
        target: agent,
      });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });

    it('should support { min, max } range threshold', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixed('balanced', 0.5), threshold: { min: 0.3, max: 0.7 } }], target: agent });

      expect(result.verdict).toBe('passed');
      expect(result.thresholdResults![0]!.passed).toBe(true);
    });

    it('should fail when score is outside { min, max } range', async () => {
      const agent = createMockAgentV2('response');

      const result = await runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer: fixed('out-of-range', 0.9), threshold: { min: 0.3, max: 0.7 } }], target: agent });

      expect(result.verdict).toBe('scored');
      expect(result.thresholdResults![0]!.passed).toBe(false);
    });

    it('should reject invalid { min, max } threshold values', async () => {
      const agent = createMockAgentV2('response');
      const scorer = fixed('some-scorer', 0.5);

      await expect(runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer, threshold: { min: 0.8, max: 0.3 } }], target: agent })).rejects.toThrow(
        /min.*greater than max/,
      );
      await expect(runEvals({ data: [{ input: 'Test' }], scorers: [{ scorer, threshold: { max: 1.5 } }], target: agent })).rejects.toThrow(/between 0 and 1/);
    });
  });

  describe('multi-turn (inputs array)', () => {
    it('should execute multiple turns sequentially and accumulate outputs', async () => {
      const model = agentModel((_options, index) => `Turn ${index + 1} response`);
      const agent = new Agent({ id: 'multiTurnAgent', name: 'multiTurnAgent', instructions: 'Mock agent for multi-turn', model });
      // The accumulated output holds every turn.
      const multiTurnScorer = createScorer({ id: 'multi-turn-check', description: 'Checks all turns are in output' }).generateScore(({ run }: any) =>
        Array.isArray(run.output) && run.output.length === 3 ? 1.0 : 0.0,
      );

      const result = await runEvals({
        data: [{ input: 'First question', inputs: ['First question', 'Follow-up question', 'Third question'] }],
        scorers: [multiTurnScorer],
        target: agent,
      });

      expect(modelCalls(model)).toBe(3);
      expect(result.scores['multi-turn-check']).toBe(1.0);
    });

    it('should use the same threadId across all turns', async () => {
      const receivedMemoryOptions: any[] = [];
      const agent = new Agent({ id: 'threadAgent', name: 'threadAgent', instructions: 'Mock', model: textModel('response') });
      aroundGenerate(agent, async (input, options, originalGenerate) => {
        receivedMemoryOptions.push(options?.memory);
        return originalGenerate(input, options);
      });

      await runEvals({ data: [{ input: 'ignored', inputs: ['Turn 1', 'Turn 2'] }], scorers: [createMockScorer('basic', 0.9)], target: agent });

      expect(receivedMemoryOptions.length).toBe(2);
      expect(receivedMemoryOptions[0]?.thread).toBeDefined();
      expect(receivedMemoryOptions[0]?.thread).toBe(receivedMemoryOptions[1]?.thread);
    });

    it('should validate that inputs is a non-empty array', async () => {
      const agent = createMockAgentV2('response');

      await expect(runEvals({ data: [{ input: 'test', inputs: [] }], scorers: [createMockScorer('basic', 0.8)], target: agent })).rejects.toThrow(
        "'inputs' must be a non-empty array",
      );
    });

    it('should work with gates in multi-turn mode', async () => {
      const model = agentModel((_options, index) => `Response ${index + 1}`);
      const agent = new Agent({ id: 'gateMultiTurnAgent', name: 'gateMultiTurnAgent', instructions: 'Mock', model });
      const alwaysPassGate = createScorer({ id: 'pass-gate', description: 'Asserts multi-turn payload' }).generateScore(({ run }: any) =>
        Array.isArray(run.output) && run.output.length === 2 ? 1.0 : 0.0,
      );

      const result = await runEvals({
        data: [{ input: 'ignored', inputs: ['Question 1', 'Question 2'] }],
        scorers: [createMockScorer('basic', 0.8)],
        gates: [alwaysPassGate],
        target: agent,
      });

      expect(modelCalls(model)).toBe(2);
      expect(result.verdict).toBe('passed');
    });
  });

  describe('multi-turn memory integration (real Memory + storage)', () => {
    const buildModel = (capturedPrompts: string[]) =>
      agentModel((options) => {
        capturedPrompts.push(JSON.stringify(options.prompt));
        return `reply ${capturedPrompts.length}`;
      });
    const createMemory = () => new Memory({ storage: storages.store() });

    it('injects a resourceId so a memory-backed agent persists and recalls across turns', async () => {
      const capturedPrompts: string[] = [];
      const memory = createMemory();
      const agent = new Agent({ id: 'memoryMultiTurnAgent', name: 'memoryMultiTurnAgent', instructions: 'Mock', model: buildModel(capturedPrompts), memory });
      let capturedThread: string | undefined;
      let capturedResource: string | undefined;
      aroundGenerate(agent, async (input, options, originalGenerate) => {
        const thread = options?.memory?.thread;
        capturedThread = typeof thread === 'string' ? thread : thread?.id;
        capturedResource = options?.memory?.resource;
        return originalGenerate(input, options);
      });

      await runEvals({
        data: [{ inputs: ['My favorite city is Brooklyn.', 'What did I say my favorite city was?'] }],
        scorers: [createMockScorer('basic', 1)],
        target: agent,
      });

      // runEvals owns the thread, and injects a resource (the thread id by default) so memory can
      // create the thread and recall its history.
      expect(capturedThread).toBeDefined();
      expect(capturedResource).toBe(capturedThread);

      const thread = await memory.getThreadById({ threadId: capturedThread! });
      expect(thread).not.toBeNull();
      expect(thread?.resourceId).toBe(capturedResource);

      // Both turns went to the one shared thread.
      const { messages } = await memory.recall({ threadId: capturedThread!, perPage: false });
      expect(messages.filter((m) => m.role === 'user').length).toBe(2);
      expect(messages.filter((m) => m.role === 'assistant').length).toBe(2);

      // The second turn's prompt holds the first turn.
      expect(capturedPrompts.length).toBe(2);
      expect(capturedPrompts[1]).toContain('Brooklyn');
    });

    it('preserves a caller-provided memory.resource (thread optional in options)', async () => {
      const capturedPrompts: string[] = [];
      const memory = createMemory();
      const agent = new Agent({ id: 'memoryResourceAgent', name: 'memoryResourceAgent', instructions: 'Mock', model: buildModel(capturedPrompts), memory });
      let capturedResource: string | undefined;
      let capturedThread: string | undefined;
      aroundGenerate(agent, async (input, options, originalGenerate) => {
        capturedResource = options?.memory?.resource;
        const thread = options?.memory?.thread;
        capturedThread = typeof thread === 'string' ? thread : thread?.id;
        return originalGenerate(input, options);
      });

      await runEvals({
        data: [{ inputs: ['Turn 1', 'Turn 2'] }],
        scorers: [createMockScorer('basic', 1)],
        target: agent,
        // No thread: runEvals injects it; only the resource is given.
        targetOptions: { memory: { resource: 'user-42' } },
      });

      expect(capturedResource).toBe('user-42');
      expect(capturedThread).toBeDefined();
      const thread = await memory.getThreadById({ threadId: capturedThread! });
      expect(thread?.resourceId).toBe('user-42');
    });
  });

  describe('turns (per-turn assertions)', () => {
    const createTurnAgent = (id: string) => {
      const model = textModel('turn response');
      return { model, agent: new Agent({ id, name: id, instructions: 'Mock', model }) };
    };

    it('scores each turn against only its own output and returns turnResults', async () => {
      const { model, agent } = createTurnAgent('turnsAgent');
      // A per-turn scorer sees only its turn's output (one message); a holistic one sees them all.
      const perTurnScorer = createScorer({ id: 'per-turn-length', description: 'Each turn produces exactly one output message' }).generateScore(
        ({ run }: any) => (Array.isArray(run.output) && run.output.length === 1 ? 1.0 : 0.0),
      );
      const holisticScorer = createScorer({ id: 'holistic-length', description: 'Holistic scorer sees accumulated output' }).generateScore(({ run }: any) =>
        Array.isArray(run.output) && run.output.length === 2 ? 1.0 : 0.0,
      );

      const result = await runEvals({
        data: [
          {
            turns: [
              { input: 'Turn one', scorers: [perTurnScorer] },
              { input: 'Turn two', scorers: [perTurnScorer] },
            ],
          },
        ],
        scorers: [holisticScorer],
        target: agent,
      });

      expect(modelCalls(model)).toBe(2);
      expect(result.scores['holistic-length']).toBe(1.0);
      expect(result.turnResults).toBeDefined();
      expect(result.turnResults!.length).toBe(2);
      expect(result.turnResults![0]!.scores!['per-turn-length']).toBe(1.0);
      expect(result.turnResults![1]!.scores!['per-turn-length']).toBe(1.0);
    });

    it('gives a trajectory-typed gate a WORKFLOW trajectory built from stepResults (#22632, CR-2)', async () => {
      const stepOne = createStep({
        id: 'first-step',
        inputSchema: z.object({ input: z.string() }),
        outputSchema: z.object({ output: z.string() }),
        execute: async ({ inputData }) => ({ output: `one:${inputData.input}` }),
      });
      const stepTwo = createStep({
        id: 'second-step',
        inputSchema: z.object({ output: z.string() }),
        outputSchema: z.object({ output: z.string() }),
        execute: async ({ inputData }) => ({ output: `two:${inputData.output}` }),
      });
      const workflow = createWorkflow({
        id: 'trajectory-gate-workflow',
        inputSchema: z.object({ input: z.string() }),
        // An ordinary object, not agent messages.
        outputSchema: z.object({ output: z.string() }),
        options: { validateInputs: false },
      })
        .then(stepOne)
        .then(stepTwo)
        .commit();
      let seenOutput: any;
      const trajectoryGate = createScorer({ id: 'workflow-trajectory-gate', description: 'Reads the workflow trajectory it was handed', type: 'trajectory' }).generateScore(
        ({ run }: any) => {
          seenOutput = run.output;
          return run.output.steps.length >= 2 ? 1.0 : 0.0;
        },
      );

      // No Mastra instance, so no trace storage: the gate gets the trajectory from the step results.
      const result = await runEvals({ data: [{ input: { input: 'go' } }], gates: [trajectoryGate], target: workflow });

      expect(seenOutput).toBeDefined();
      expect(Array.isArray(seenOutput)).toBe(false);
      expect(seenOutput.steps).toBeInstanceOf(Array);
      expect(seenOutput.steps.length).toBeGreaterThanOrEqual(2);
      expect(result.gateResults![0]!.score).toBe(1.0);
      expect(result.verdict).toBe('passed');
    });

    it('hands a trajectory-typed PER-TURN gate a Trajectory and threads expectedTrajectory (#22632)', async () => {
      const { agent } = createTurnAgent('turnTrajectoryGateAgent');
      const seen: Array<{ output: unknown; expected: unknown }> = [];
      const perTurnTrajectoryGate = createScorer({
        id: 'per-turn-trajectory-gate',
        description: 'Records the shape a per-turn trajectory gate receives',
        type: 'trajectory',
      }).generateScore(({ run }: any) => {
        seen.push({ output: run.output, expected: run.expectedTrajectory });
        return 1.0;
      });
      const expectedTrajectory = { steps: [] };

      const result = await runEvals({ data: [{ expectedTrajectory, turns: [{ input: 'Turn one', gates: [perTurnTrajectoryGate] }] }], target: agent });

      expect(seen).toHaveLength(1);
      // A Trajectory, never the raw messages.
      expect(Array.isArray(seen[0]!.output)).toBe(false);
      expect((seen[0]!.output as { steps?: unknown }).steps).toBeInstanceOf(Array);
      expect(seen[0]!.expected).toEqual(expectedTrajectory);
      expect(result.turnResults![0]!.gateResults![0]!.passed).toBe(true);
    });

    it('logs the cause when a gate throws, while still scoring it 0 (#22632)', async () => {
      const { agent } = createTurnAgent('gateThrowLoggingAgent');
      const warn = vi.fn();
      const mastra = new Mastra({
        agents: { gateThrowLoggingAgent: agent },
        logger: { warn, error: vi.fn(), info: vi.fn(), debug: vi.fn(), trackException: vi.fn() } as any,
      });
      const throwingGate = createScorer({ id: 'throwing-gate-logged', description: 'Always throws' }).generateScore(() => {
        throw new Error('gate boom');
      });

      const result = await runEvals({ data: [{ input: 'Test' }], gates: [throwingGate], target: mastra.getAgent('gateThrowLoggingAgent') });

      // The score stays 0 ...
      expect(result.gateResults![0]!.score).toBe(0);
      expect(result.verdict).toBe('failed');
      // ... and the cause is logged.
      expect(warn).toHaveBeenCalled();
      const logged = warn.mock.calls.map((c: unknown[]) => c.map(String).join(' ')).join(' | ');
      expect(logged).toContain('throwing-gate-logged');
      expect(logged).toContain('gate boom');
    });

    it('fails the verdict when a per-turn gate fails on one turn (wrong turn cannot satisfy)', async () => {
      const { agent } = createTurnAgent('turnGateAgent');
      // Passes only when the turn's own input asks to call the tool.
      const perTurnGate = createScorer({ id: 'per-turn-gate', description: 'Turn input must request a tool call' }).generateScore(({ run }: any) =>
        typeof run.input === 'string' && run.input.includes('call') ? 1.0 : 0.0,
      );

      const result = await runEvals({
        data: [
          {
            turns: [
              { input: 'please call the tool', gates: [perTurnGate] },
              { input: 'do not do anything', gates: [perTurnGate] },
            ],
          },
        ],
        target: agent,
      });

      expect(result.verdict).toBe('failed');
      expect(result.turnResults![0]!.gateResults![0]!.passed).toBe(true);
      expect(result.turnResults![1]!.gateResults![0]!.passed).toBe(false);
    });

    it("yields 'scored' when a per-turn threshold is missed but gates pass", async () => {
      const { agent } = createTurnAgent('turnThresholdAgent');
      const lowScorer = createMockScorer('turn-low', 0.3);

      const result = await runEvals({ data: [{ turns: [{ input: 'A question', scorers: [{ scorer: lowScorer, threshold: 0.8 }] }] }], target: agent });

      expect(result.verdict).toBe('scored');
      expect(result.turnResults![0]!.thresholdResults![0]!.passed).toBe(false);
    });

    it('rejects an empty turns array', async () => {
      const { agent } = createTurnAgent('emptyTurnsAgent');

      await expect(runEvals({ data: [{ turns: [] }], scorers: [createMockScorer('basic', 0.8)], target: agent })).rejects.toThrow(
        "'turns' must be a non-empty array",
      );
    });

    it('rejects a turn without an input', async () => {
      const { agent } = createTurnAgent('badTurnAgent');

      await expect(runEvals({ data: [{ turns: [{ scorers: [createMockScorer('basic', 0.8)] }] }], target: agent })).rejects.toThrow(
        "must be an object with an 'input' property",
      );
    });

    it('rejects combining turns with input', async () => {
      const { agent } = createTurnAgent('conflictAgent');

      await expect(runEvals({ data: [{ input: 'x', turns: [{ input: 'y' }] }], scorers: [createMockScorer('basic', 0.8)], target: agent })).rejects.toThrow(
        "'turns' cannot be combined with 'input' or 'inputs'",
      );
    });

    it('rejects turns for Workflow targets', async () => {
      const step = createStep({
        id: 'turns-step',
        inputSchema: z.object({ input: z.string() }),
        outputSchema: z.object({ output: z.string() }),
        execute: async ({ inputData }) => ({ output: `Processed: ${inputData.input}` }),
      });
      const workflow = createWorkflow({
        id: 'turns-workflow',
        inputSchema: z.object({ input: z.string() }),
        outputSchema: z.object({ output: z.string() }),
        options: { validateInputs: false },
      })
        .then(step)
        .commit();

      await expect(
        runEvals({ data: [{ turns: [{ input: { input: 'first' } }] }], scorers: [createMockScorer('basic', 0.8)], target: workflow }),
      ).rejects.toThrow("'turns' is not supported for Workflow targets");
    });

    it('supports mixing a single-turn item with a turns item', async () => {
      const { agent } = createTurnAgent('mixedAgent');
      const perTurnScorer = createScorer({ id: 'mixed-turn-scorer', description: 'per-turn' }).generateScore(() => 1.0);

      const result = await runEvals({
        data: [
          { input: 'single turn question' },
          {
            turns: [
              { input: 'first', scorers: [perTurnScorer] },
              { input: 'second', scorers: [perTurnScorer] },
            ],
          },
        ],
        scorers: [createMockScorer('basic', 0.9)],
        target: agent,
      });

      expect(result.summary.totalItems).toBe(2);
      expect(result.turnResults!.length).toBe(2);
      expect(result.turnResults![0]!.scores!['mixed-turn-scorer']).toBe(1.0);
    });

    it('persists per-turn scores to storage (one score per turn)', async () => {
      const agent = new Agent({ id: 'turnPersistAgent', name: 'Turn Persist Agent', instructions: 'Mock', model: textModel('turn response') });
      const storage = storages.store();
      const mastra = new Mastra({ agents: { turnPersistAgent: agent }, logger: false, storage });
      const perTurnScorer = createScorer({ id: 'per-turn-persisted', name: 'per-turn-persisted', description: 'per-turn' }).generateScore(() => 0.75);
      mastra.addScorer(perTurnScorer, 'per-turn-persisted');

      await runEvals({
        data: [
          {
            turns: [
              { input: 'first', scorers: [perTurnScorer] },
              { input: 'second', scorers: [perTurnScorer] },
            ],
          },
        ],
        target: mastra.getAgent('turnPersistAgent'),
      });

      const rows = await savedScores(storage, 'per-turn-persisted');
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ scorerId: 'per-turn-persisted', entityId: 'turnPersistAgent', entityType: 'AGENT', score: 0.75, source: 'TEST' });
      // Each row carries its turn index, and the turns share one thread.
      expect(rows.map((row) => row.metadata?.turnIndex).sort()).toEqual([0, 1]);
      const threadIds = rows.map((row) => row.threadId);
      expect(threadIds[0]).toBeTruthy();
      expect(threadIds[0]).toBe(threadIds[1]);
    });

    it('preserves existing score metadata and links each turn to its own trace span', async () => {
      let callIndex = 0;
      const agent = new Agent({ id: 'turnProvenanceAgent', name: 'Turn Provenance Agent', instructions: 'Mock', model: textModel('turn response') });
      // Each turn gets its own trace and span ids, so each row can be matched to its turn.
      aroundGenerate(agent, async (input, options, originalGenerate) => {
        const result: any = await originalGenerate(input, options);
        result.traceId = `trace-${callIndex}`;
        result.spanId = `span-${callIndex}`;
        callIndex++;
        return result;
      });
      const storage = storages.store();
      const mastra = new Mastra({ agents: { turnProvenanceAgent: agent }, logger: false, storage });
      const perTurnScorer = createScorer({ id: 'per-turn-meta', name: 'per-turn-meta', description: 'per-turn' }).generateScore(() => 0.5);
      mastra.addScorer(perTurnScorer, 'per-turn-meta');
      // The scorer's own metadata (with a turnIndex that the saved turn index must override).
      const originalRun = perTurnScorer.run.bind(perTurnScorer);
      vi.spyOn(perTurnScorer, 'run').mockImplementation(async (input: any) => {
        const result: any = await originalRun(input);
        result.metadata = { ...(result.metadata ?? {}), custom: 'preserved', turnIndex: 'should-be-overwritten' };
        return result;
      });

      await runEvals({
        data: [
          {
            turns: [
              { input: 'first', scorers: [perTurnScorer] },
              { input: 'second', scorers: [perTurnScorer] },
            ],
          },
        ],
        target: mastra.getAgent('turnProvenanceAgent'),
      });

      const rows = (await savedScores(storage, 'per-turn-meta')).sort((a, b) => a.metadata.turnIndex - b.metadata.turnIndex);
      expect(rows).toHaveLength(2);
      rows.forEach((row, index) => {
        expect(row.metadata.custom).toBe('preserved');
        expect(row.metadata.turnIndex).toBe(index);
        expect(row.traceId).toBe(`trace-${index}`);
        expect(row.spanId).toBe(`span-${index}`);
      });
    });
  });
});

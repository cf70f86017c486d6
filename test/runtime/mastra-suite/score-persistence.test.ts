/**
 * Port of Mastra's `packages/core/src/evals/run/score-persistence.test.ts`: when the target's Mastra
 * instance has storage, every score is saved (source `TEST`, the ground truth in `additionalContext`,
 * a JSON-safe request context without the auth token). Mastra spies on an `InMemoryStore`'s
 * `saveScore`; here the storage is a real LibSQL file and the rows are read back with Mastra's own
 * store API. Each case runs on Mastra's `runEvals` and on this package's.
 */
import { Agent } from '@mastra/core/agent';
import { createScorer } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { MASTRA_AUTH_TOKEN_KEY, RequestContext } from '@mastra/core/request-context';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS, savedScores, textModel, tmpStorage } from './helpers.js';

const storages = tmpStorage('mastra-suite-persistence');
afterAll(() => storages.cleanup());

/** An agent and a scorer registered on a Mastra instance whose storage is a fresh LibSQL file. */
function setup(scorerDescription: string) {
  const agent = new Agent({ id: 'testAgent', name: 'Test Agent', instructions: 'Test instructions', model: textModel('Test response') });
  const scorer = createScorer({ id: 'testScorer', description: scorerDescription, name: 'testScorer' }).generateScore(() => 0.85);
  const storage = storages.store();
  new Mastra({ agents: { testAgent: agent }, scorers: { testScorer: scorer }, logger: false, storage });
  return { agent, scorer, storage };
}

describe.each(IMPLEMENTATIONS)('runEvals - Score Persistence (%s)', (_implementation, runEvals) => {
  it('automatically saves scores to storage when Mastra instance is available', async () => {
    const { agent, scorer, storage } = setup('Test scorer for bug demonstration');

    const result = await runEvals({
      data: [
        { input: 'Test input 1', groundTruth: 'Expected output 1' },
        { input: 'Test input 2', groundTruth: 'Expected output 2' },
      ],
      scorers: [scorer],
      // The agent itself, not `mastra.getAgent()`: registering it is what links it to the instance.
      target: agent,
    });

    expect(result.scores.testScorer).toBe(0.85);
    expect(result.summary.totalItems).toBe(2);

    // One row per data item, each with its own ground truth.
    const rows = (await savedScores(storage, 'testScorer')).sort((a, b) => String(a.additionalContext?.groundTruth).localeCompare(String(b.additionalContext?.groundTruth)));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      scorerId: 'testScorer',
      score: 0.85,
      source: 'TEST',
      entityId: 'testAgent',
      entityType: 'AGENT',
      additionalContext: { groundTruth: 'Expected output 1' },
    });
    expect(rows[1]).toMatchObject({
      scorerId: 'testScorer',
      score: 0.85,
      source: 'TEST',
      entityId: 'testAgent',
      entityType: 'AGENT',
      additionalContext: { groundTruth: 'Expected output 2' },
    });
  });

  it('persists a JSON-safe requestContext that excludes the auth token and non-serializable values', async () => {
    const { agent, scorer, storage } = setup('Test scorer');
    // A plain value (kept), the framework's bearer token (left out) and a function (not serialisable).
    const requestContext = new RequestContext<Record<string, any>>([
      ['userId', 'u1'],
      [MASTRA_AUTH_TOKEN_KEY, 'super-secret-bearer-token'],
      ['onEvent', () => 'not serializable'],
    ]);

    await runEvals({ data: [{ input: 'Test input', groundTruth: 'Expected output', requestContext }], scorers: [scorer], target: agent });

    const rows = await savedScores(storage, 'testScorer');
    expect(rows).toHaveLength(1);
    const persisted = rows[0].requestContext;
    expect(persisted).toEqual({ userId: 'u1' });
    expect(persisted).not.toHaveProperty(MASTRA_AUTH_TOKEN_KEY);
    expect(persisted).not.toHaveProperty('onEvent');
    expect(JSON.stringify(rows[0])).not.toContain('super-secret-bearer-token');
  });
});

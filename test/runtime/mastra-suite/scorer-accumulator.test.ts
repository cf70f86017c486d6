/**
 * Port of Mastra's `packages/core/src/evals/run/scorerAccumulator.test.ts`. Mastra tests its internal
 * `ScoreAccumulator` class directly, feeding it two items' scorer results; the class is not public,
 * so the port feeds the same results through `runEvals` (two items, scorers that return those scores
 * or declare the run not scorable) and checks the same means. Runs on Mastra's `runEvals` and on this
 * package's.
 */
import { createScorer, notScorable } from '@mastra/core/evals';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS, textAgent } from './helpers.js';

/** Per item, what each scorer returns: a score, or `null` for "not scorable". */
const RESULTS: Array<Record<string, number | null>> = [
  // Mastra's first addScores: relevancy 1, completeness 0.5 (refund absent).
  { relevancy: 1, completeness: 0.5 },
  // Its second: relevancy not scorable ('tool never called'), completeness 1, refund not scorable.
  { relevancy: null, completeness: 1, refund: null },
];

/** A scorer that returns its score for the item, or declares the item not scorable. */
const scripted = (id: string) =>
  createScorer({ id, description: `scripted ${id}` })
    .preprocess(({ run }) => {
      const score = (run.groundTruth as Record<string, number | null>)[id];
      return typeof score === 'number' ? { score } : notScorable(id === 'relevancy' ? 'tool never called' : 'not applicable');
    })
    .generateScore(({ results }) => (results.preprocessStepResult as { score: number }).score);

describe.each(IMPLEMENTATIONS)('ScoreAccumulator (%s)', (_implementation, runEvals) => {
  it('averages numeric scores only and skips not-scorable results', async () => {
    const { agent } = textAgent('A response.', 'accumulator-agent');

    const result = await runEvals({
      data: RESULTS.map((groundTruth, index) => ({ input: `Item ${index + 1}`, groundTruth })),
      // In Mastra's test `refund` has no result for the first item; here every scorer runs on every
      // item, so it is not scorable on both, which leaves it out of the means all the same.
      scorers: [scripted('relevancy'), scripted('completeness'), scripted('refund')],
      target: agent,
    });

    expect(result.scores).toEqual({ relevancy: 1, completeness: 0.75 });
  });
});

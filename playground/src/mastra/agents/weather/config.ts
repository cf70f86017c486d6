import { createScorer, getAssistantMessageFromRunOutput, getUserMessageFromRunInput } from 'agent-scorers';
import { agentConfig } from '../../agent-config';

/** Capitalised words of the question that are not sentence starters: the places asked about. */
const placesIn = (question: string): string[] =>
  [...question.matchAll(/(?<!^|[.?!]\s)\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*/g)].map((m) => m[0]);

// This record entry has the same key as scorers/relevance.ts: config.scorers wins, the build warns
// (SCORER_KEY_COLLISION) and the file is left out of the bundle.
const placeRelevance = createScorer({
  id: 'weather-place-relevance',
  description: 'The answer talks about the place the question asks about.',
})
  .preprocess(({ run }) => ({ places: placesIn(getUserMessageFromRunInput(run.input) ?? '') }))
  .generateScore(({ run, results }) => {
    const places: string[] = results.preprocessStepResult.places;
    if (places.length === 0) return 1;
    const answer = (getAssistantMessageFromRunOutput(run.output) ?? '').toLowerCase();
    return places.filter((p) => answer.includes(p.toLowerCase())).length / places.length;
  })
  .generateReason(({ results, score }) =>
    score === 1 ? 'The answer names every place asked about.' : `The answer misses some of: ${results.preprocessStepResult.places.join(', ')}.`,
  );

export default agentConfig({
  name: 'weather',
  description: 'Answers questions about the weather.',
  model: 'openai/gpt-4o-mini',
  instructions: 'Answer weather questions for the place asked about. Give temperatures with units.',
  scorers: {
    relevance: { scorer: placeRelevance, sampling: { type: 'ratio', rate: 0.25 } },
  },
});

// A bare scorer: plans should be short.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

const MAX_WORDS = 30;

export default createScorer({
  id: 'planner-brevity',
  description: `Plans of at most ${MAX_WORDS} words score 1; longer ones proportionally less.`,
})
  .preprocess(({ run }) => ({ words: (getAssistantMessageFromRunOutput(run.output) ?? '').split(/\s+/).filter(Boolean).length }))
  .generateScore(({ results }) => {
    const { words } = results.preprocessStepResult;
    return words <= MAX_WORDS ? 1 : Math.round((MAX_WORDS / words) * 100) / 100;
  });

// An entry file: `{ scorer, sampling }`. In production Mastra runs this scorer on half the traces.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

const tone = createScorer({
  id: 'weather-tone',
  description: 'Calm tone: no shouting, at most one exclamation mark.',
})
  .analyze(({ run }) => {
    const text = getAssistantMessageFromRunOutput(run.output) ?? '';
    return { shouted: (text.match(/\b[A-Z]{3,}\b/g) ?? []).length, exclamations: (text.match(/!/g) ?? []).length };
  })
  .generateScore(({ results }) => {
    const { shouted, exclamations } = results.analyzeStepResult;
    return Math.max(0, 1 - 0.5 * shouted - 0.25 * Math.max(0, exclamations - 1));
  });

export default { scorer: tone, sampling: { type: 'ratio', rate: 0.5 } };

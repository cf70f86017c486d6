// An entry with sampling `{ type: 'none' }` (always runs): does the answer give quantities?
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

export default {
  scorer: createScorer({
    id: 'recipes-quantities',
    description: 'Gives at least one quantity or time (numbers or number words).',
  }).generateScore(({ run }) =>
    /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|an? (hour|minute|cup))\b/i.test(getAssistantMessageFromRunOutput(run.output) ?? '') ? 1 : 0,
  ),
  sampling: { type: 'none' },
};

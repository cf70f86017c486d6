// Scorers that support's config.scorers function picks from.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

const answerOf = (output: unknown) => getAssistantMessageFromRunOutput(output) ?? '';

export const empathy = createScorer({
  id: 'support-empathy',
  description: 'Acknowledges the customer before solving the problem.',
}).generateScore(({ run }) => (/\b(sorry|apologi[sz]e|understand|thanks for)\b/i.test(answerOf(run.output)) ? 1 : 0));

export const nextStep = createScorer({
  id: 'support-next-step',
  description: 'Ends with a concrete next step for the customer.',
}).generateScore(({ run }) => (/\b(click|reply|open|go to|we will|you will|within \d+)\b/i.test(answerOf(run.output)) ? 1 : 0.5));

export const slaMention = createScorer({
  id: 'support-sla',
  description: 'Premium customers are told when to expect a resolution.',
}).generateScore(({ run }) => (/\b(within|by) (\d+|one|two|24) (hours?|days?|business days?)\b/i.test(answerOf(run.output)) ? 1 : 0));

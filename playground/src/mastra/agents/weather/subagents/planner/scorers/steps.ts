// An entry with `sampling: { type: 'none' }`: runs on every trace.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

export default {
  scorer: createScorer({
    id: 'planner-numbered-steps',
    description: 'The plan is written as numbered steps.',
  }).generateScore(({ run }) => ((getAssistantMessageFromRunOutput(run.output) ?? '').match(/\b\d\.\s/g)?.length ? 1 : 0)),
  sampling: { type: 'none' },
};

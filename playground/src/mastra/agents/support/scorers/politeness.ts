// Ignored: ../config.ts gives config.scorers as a function, which wins wholesale. The build prints
// CONFIG_SCORERS_FUNCTION and this file is not bundled.
import { createScorer } from 'agent-scorers';

export default createScorer({
  id: 'support-politeness',
  description: 'Says please or thank you.',
}).generateScore(({ run }) => (/\b(please|thank)/i.test(String(run.output)) ? 1 : 0));

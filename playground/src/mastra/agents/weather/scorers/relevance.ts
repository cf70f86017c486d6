// Overridden: ../config.ts defines `scorers.relevance` too, so config.scorers wins. The build prints
// SCORER_KEY_COLLISION and this file never reaches the bundle.
import { createScorer } from 'agent-scorers';

export default createScorer({
  id: 'weather-keyword-relevance',
  description: 'Mentions at least one weather word.',
}).generateScore(({ run }) => (/rain|sun|wind|snow|cloud|°/i.test(String(run.output)) ? 1 : 0));

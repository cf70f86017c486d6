// Answer relevancy again, for this agent's dataset; `scale: 10` reports scores out of 10.
import { createAnswerRelevancyScorer } from 'agent-scorers';
import { judge } from '../../../judge';

export default createAnswerRelevancyScorer({ model: judge, scale: 10 });

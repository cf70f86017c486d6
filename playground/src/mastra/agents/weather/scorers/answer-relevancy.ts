// The LLM-judged answer relevancy scorer: the answer is split into statements and each is judged
// against the question. The judge is a real model with OPENAI_API_KEY, else the offline heuristic.
import { createAnswerRelevancyScorer } from 'agent-scorers';
import { judge } from '../../../judge';

export default createAnswerRelevancyScorer({ model: judge, options: { uncertaintyWeight: 0.3, scale: 1 } });

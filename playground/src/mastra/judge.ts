/**
 * The judge model of the LLM-judged scorers (answer relevancy).
 *
 * With OPENAI_API_KEY set and `@ai-sdk/openai` installed, a real model: the string
 * 'openai/gpt-4o-mini' is resolved by agent-scorers through `@ai-sdk/openai`, as in Mastra.
 * Otherwise `offlineJudge()`: deterministic word-overlap heuristics, no network, no key.
 */
import { offlineJudge, type ModelInput } from 'agent-scorers';

const REAL_MODEL = 'openai/gpt-4o-mini';

async function openAiInstalled(): Promise<boolean> {
  try {
    await import('@ai-sdk/openai');
    return true;
  } catch {
    return false;
  }
}

const useRealModel = Boolean(process.env.OPENAI_API_KEY) && (await openAiInstalled());

export const judge: ModelInput = useRealModel ? REAL_MODEL : offlineJudge();

export const judgeDescription = useRealModel
  ? `${REAL_MODEL} (OPENAI_API_KEY is set)`
  : process.env.OPENAI_API_KEY
    ? 'offlineJudge(): OPENAI_API_KEY is set but @ai-sdk/openai is not installed; verdicts are heuristic'
    : 'offlineJudge(): no OPENAI_API_KEY, so no model is called; verdicts are heuristic';

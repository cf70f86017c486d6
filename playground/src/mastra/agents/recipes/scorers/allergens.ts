// A bare scorer: a recipe that uses a common allergen must say so.
import { createScorer, getAssistantMessageFromRunOutput } from 'agent-scorers';

const ALLERGENS: Record<string, RegExp> = {
  nuts: /\b(nuts?|almonds?|walnuts?|pine nuts?|peanuts?)\b/i,
  dairy: /\b(milk|butter|cheese|parmesan|cream)\b/i,
  gluten: /\b(flour|bread|pasta)\b/i,
};

export default createScorer({
  id: 'recipes-allergens',
  description: 'Every allergen in a recipe is named in a note.',
})
  .preprocess(({ run }) => {
    const text = getAssistantMessageFromRunOutput(run.output) ?? '';
    const [body, note = ''] = text.split(/\bnote:/i);
    const used = Object.keys(ALLERGENS).filter((name) => ALLERGENS[name].test(body));
    return { used, declared: used.filter((name) => new RegExp(`\\b${name}\\b`, 'i').test(note)) };
  })
  .generateScore(({ results }) => {
    const { used, declared } = results.preprocessStepResult;
    return used.length === 0 ? 1 : declared.length / used.length;
  })
  .generateReason(({ results }) => {
    const { used, declared } = results.preprocessStepResult;
    const missing = used.filter((name: string) => !declared.includes(name));
    return missing.length === 0 ? 'All allergens declared.' : `Undeclared: ${missing.join(', ')}.`;
  });

import { agentConfig } from '../../agent-config';

// No `scorers` here: the registry holds exactly the files of scorers/.
export default agentConfig({
  name: 'recipes',
  description: 'Suggests recipes and answers cooking questions.',
  model: 'openai/gpt-4o-mini',
  instructions: 'Answer cooking questions. Always mention common allergens in a recipe.',
});

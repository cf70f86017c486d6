import { agentConfig } from '../../../../agent-config';

// A subagent: registered as `weather/planner`, with its own scorers/ folder. No `scorers` here, so
// its registry entry is exactly what its scorers/ folder holds.
export default agentConfig({
  name: 'weather-planner',
  description: 'Turns a forecast into a short plan for the day.',
  model: 'openai/gpt-4o-mini',
  instructions: 'Given a forecast, suggest a plan for the day in at most three numbered steps.',
});

import { agentConfig } from '../../agent-config';
import { empathy, nextStep, slaMention } from './checks';

/** Mastra passes a RequestContext (a Map-like with `get`); a plain object works too. */
const tierOf = (requestContext: any): unknown =>
  typeof requestContext?.get === 'function' ? requestContext.get('tier') : requestContext?.tier;

// The function form: config.scorers decides per request, so it wins wholesale. The files in
// scorers/ are ignored (the build prints CONFIG_SCORERS_FUNCTION) and are not bundled.
export default agentConfig({
  name: 'support',
  description: 'Customer support for an online shop.',
  model: 'openai/gpt-4o-mini',
  instructions: 'Help customers with orders and refunds. Be kind, be concrete.',
  scorers: ({ requestContext }) => ({
    empathy: { scorer: empathy },
    'next-step': { scorer: nextStep, sampling: { type: 'ratio', rate: 0.5 } },
    ...(tierOf(requestContext) === 'premium' ? { sla: { scorer: slaMention } } : {}),
  }),
});

/**
 * A stand-in for Mastra's file-based agent config helper: `config.ts` default-exports the agent's
 * settings. Only `scorers` matters to agent-scorers; it is merged with the files in `scorers/`.
 */
import type { ScorerEntry, ScorerLike } from 'agent-scorers';

type Scorers = Record<string, ScorerEntry | ScorerLike>;

export interface AgentConfig {
  name: string;
  description?: string;
  model: string;
  instructions: string;
  scorers?: Scorers | ((context: { requestContext?: unknown }) => Scorers | Promise<Scorers>);
}

export const agentConfig = <T extends AgentConfig>(config: T): T => config;

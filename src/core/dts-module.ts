/**
 * The declarations of the generated registry file (`agent-scorers.gen.d.mts`, SPEC section 11): the
 * same types as the ambient `virtual:agent-scorers` declarations, as a module.
 *
 * Interim: typed with the general `ScorerEntry` per literal key, like `generateDts` today. When
 * dts.ts gains its `module` form (each key typed from its source), this file goes and
 * `generate.ts` calls that instead.
 */
import { exportName, lit } from './codegen.js';
import type { DtsAgent } from './dts.js';

function recordType(agent: DtsAgent): string {
  const lines = agent.keys.map((k) => `  readonly ${lit(k)}: ScorerEntry;`);
  if (agent.open) lines.push('  readonly [key: string]: ScorerEntry;');
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n}`;
}

export function generateModuleDts(agents: readonly DtsAgent[], header: readonly string[]): string {
  const out = [...header, `import type { Manifest, ScorerEntry, ScorerRecord, ScorersFunction } from "agent-scorers";`, ''];
  out.push('/** What the registry holds per agent: a record of scorer entries, or the config.scorers function. */');
  out.push('export interface AgentScorers {');
  for (const agent of agents) {
    const record = recordType(agent).replace(/\n/g, '\n  ');
    const type = agent.form === 'function' ? 'ScorersFunction' : agent.form === 'unknown' ? `${record} | ScorersFunction` : record;
    out.push(`  readonly ${lit(agent.key)}: ${type};`);
  }
  out.push('}', '');
  out.push('/** What `resolveScorers` resolves to per agent: always a record. */');
  out.push('export interface ResolvedAgentScorers {');
  for (const agent of agents) {
    const type =
      agent.form === 'record' ? `AgentScorers[${lit(agent.key)}]` : agent.form === 'function' ? 'ScorerRecord' : recordType(agent).replace(/\n/g, '\n  ');
    out.push(`  readonly ${lit(agent.key)}: ${type};`);
  }
  out.push('}', '');
  out.push('export type AgentKey = keyof AgentScorers;');
  out.push('declare const registry: AgentScorers;');
  out.push('export default registry;');
  out.push('export declare const manifest: Manifest;');
  out.push('export declare function resolveScorers<K extends AgentKey>(agentKey: K, options?: { requestContext?: unknown }): Promise<ResolvedAgentScorers[K]>;');
  for (const agent of agents) {
    const name = exportName(agent.key);
    if (name) out.push(`export declare const ${name}: AgentScorers[${lit(agent.key)}];`);
  }
  return `${out.join('\n')}\n`;
}

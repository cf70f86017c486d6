// Types for the virtual modules, for `compilerOptions.types: ["agent-scorers/client"]`.
// With the plugin's `dts` option on, a generated declaration file narrows these to your literal
// agent and scorer keys.
declare module 'virtual:agent-scorers' {
  import type { Manifest, ResolvedScorers, ScorerRecord } from 'agent-scorers';
  const registry: Readonly<Record<string, ResolvedScorers>>;
  export default registry;
  export const manifest: Manifest;
  export function resolveScorers(agentKey: string, options?: { requestContext?: unknown }): Promise<ScorerRecord>;
}

declare module 'virtual:agent-scorers/*' {
  import type { ResolvedScorers } from 'agent-scorers';
  const scorers: ResolvedScorers;
  export default scorers;
}

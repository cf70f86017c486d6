// Types for the virtual modules, for `compilerOptions.types: ["agent-scorers/client"]`.
// With the plugin's `dts` option on, a generated declaration file narrows these to your literal
// agent and scorer keys.
// Declared as a pattern (the `*` also matches the empty string) so that the generated file's exact
// `declare module 'virtual:agent-scorers'` takes precedence instead of clashing with this one.
declare module 'virtual:agent-scorers*' {
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

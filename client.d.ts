// Types for the virtual modules, for `compilerOptions.types: ["agent-scorers/client"]`.
// With the plugin's `dts` option on, a generated declaration file narrows these to your literal
// agent and scorer keys, each typed from its source. Without it nothing is known about the scorers'
// types, so these are loose (`any` scorers): registry values still go into Mastra's
// `new Agent({ scorers })` with no cast.
// Declared as a pattern (the `*` also matches the empty string) so that the generated file's exact
// `declare module 'virtual:agent-scorers'` takes precedence instead of clashing with this one.
declare module 'virtual:agent-scorers*' {
  import type { LooseAgentScorers, LooseScorerRecord, Manifest } from 'agent-scorers';
  const registry: { readonly [agent: string]: LooseAgentScorers };
  export default registry;
  export const manifest: Manifest;
  export function resolveScorers(agentKey: string, options?: { requestContext?: unknown }): Promise<LooseScorerRecord>;
}

declare module 'virtual:agent-scorers/*' {
  import type { LooseAgentScorers } from 'agent-scorers';
  const scorers: LooseAgentScorers;
  export default scorers;
}

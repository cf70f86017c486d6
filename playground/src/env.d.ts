// Fallback types for `virtual:agent-scorers` before the first build. In your own project, add
// "agent-scorers/client" to compilerOptions.types; the playground points at this repository's copy.
// The plugin's generated src/agent-scorers.d.ts (literal agent and scorer keys) takes precedence.
/// <reference path="../../client.d.ts" />

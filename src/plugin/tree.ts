/**
 * The first steps every adapter (Vite/Rollup/Rolldown, esbuild, the generator) takes, in one place so
 * they cannot drift: the options with the host's root, the plan of the tree they point at, and the
 * error for a per-agent specifier naming no agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VIRTUAL_ID } from '../core/codegen.js';
import { withRoot, type CheckedOptions, type ResolvedOptions } from '../core/options.js';
import { plan, type Analysers, type Plan } from '../core/plan.js';
import { scan } from '../core/scan.js';

/** `checked` with the host's root (Vite's `config.root`, esbuild's working folder), else the cwd. */
export const resolveOptions = (checked: CheckedOptions, hostRoot: string | undefined): ResolvedOptions =>
  withRoot(checked, hostRoot, (root) => fs.existsSync(path.join(root, 'tsconfig.json')));

/** Discovery and static reading of the whole tree, with the effective diagnostic levels. */
export const planTree = (options: ResolvedOptions, analysers: Analysers): Plan =>
  plan(scan({ root: options.root, agentsDirs: options.agentsDirs, extensions: options.extensions, isExcluded: options.isExcluded }), analysers, options.levels);

/** `virtual:agent-scorers/<key>` for a key the plan does not have. */
export function unknownAgentMessage(planned: Plan, agentKey: string): string {
  const known = planned.agents.map((a) => JSON.stringify(a.folder.key)).join(', ') || '(none)';
  return `Unknown agent ${JSON.stringify(agentKey)} in "${VIRTUAL_ID}/${agentKey}"; known agents: ${known}.`;
}

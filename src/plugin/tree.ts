/**
 * The first steps every adapter (Vite/Rollup/Rolldown, esbuild, the generator) takes, in one place so
 * they cannot drift: the options with the host's root, the plan of the tree they point at, and the
 * error for a per-agent specifier naming no agent.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { VIRTUAL_ID } from '../core/codegen.js';
import { dtsFor } from '../core/dts.js';
import { formatDiagnostic, unknownAgentMessage } from '../core/codes.js';
import { withRoot, type CheckedOptions, type ResolvedOptions } from '../core/options.js';
import { plan, type AgentPlan, type Plan } from '../core/plan.js';
import { relativeTo, scan } from '../core/scan.js';
import { defaultReadingsFolder, version } from './reading-store.js';
import type { createSourceCache } from './source-cache.js';
import { replaceFile } from '../io/write-file.js';

/** `checked` with the host's root (Vite's `config.root`, esbuild's working folder), else the cwd. */
export const resolveOptions = (checked: CheckedOptions, hostRoot: string | undefined): ResolvedOptions =>
  withRoot(checked, hostRoot, (root) => fs.existsSync(path.join(root, 'tsconfig.json')));

/** Discovery and static reading of the whole tree, with the effective diagnostic levels; the readings kept for next time. */
export function planTree(options: ResolvedOptions, sources: ReturnType<typeof createSourceCache>): Plan {
  const scanned = scan({ root: options.root, agentsDirs: options.agentsDirs, extensions: options.extensions, isExcluded: options.isExcluded, list: sources.list });
  const planned = plan(scanned, sources.analysers, options.levels);
  sources.flush();
  return planned;
}

/**
 * The files that keep this tree's readings (and a one-shot build's outcome, outcome-store.ts) between
 * processes (option `cache`), or null: one pair per root, set of agents folders and version of the
 * readers, so two projects, two sets of agents folders in one root, or two builds of this package
 * (`npm run bench -- --compare`), do not overwrite each other's. (Configurations differing only in
 * `extensions` or `exclude` share them: readings do not depend on them, only which files are read; the
 * outcome's fingerprint tells them apart.)
 */
export function storeFiles(options: ResolvedOptions, hostCacheDir?: string): { readings: string; outcome: string } | null {
  if (options.cache === false) return null;
  const folder =
    typeof options.cache === 'string' ? path.resolve(options.root, options.cache) : hostCacheDir ? path.join(hostCacheDir, 'agent-scorers') : defaultReadingsFolder(options.root);
  if (folder === null) return null;
  // Vite's cacheDir and node_modules/.cache may serve several roots (a monorepo, nested projects).
  const tree = [options.root, ...options.agentsDirs.map((d) => relativeTo(options.root, d))].join('\n');
  const id = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);
  const name = `${id(tree)}-${id(version())}.json`;
  return { readings: path.join(folder, `readings-${name}`), outcome: path.join(folder, `outcome-${name}`) };
}

/** The readings file alone (storeFiles), for the adapters that keep no outcome. */
export const readingsFile = (options: ResolvedOptions, hostCacheDir?: string): string | null => storeFiles(options, hostCacheDir)?.readings ?? null;

/**
 * Writes the declaration file for `planned` and returns its text, or leaves it as it is and returns
 * null when an agents folder is missing and the file exists: a typo in `agentsDir` or a folder not
 * yet checked out must not wipe the committed types to an empty registry (the build reports the
 * missing folder). A missing file is written, so the types resolve.
 */
export function writeDeclarations(planned: Plan, file: string): string | null {
  if (planned.missingDirs.length > 0 && fs.existsSync(file)) return null;
  const text = dtsFor(planned, file);
  replaceFile(file, text);
  return text;
}

/** An agent's config file, by path. */
const configPath = (agent: AgentPlan): string => `${agent.folder.path}/${agent.folder.config}`;

/** The files an agent's generated code imports by path: its imported scorer files and, when imported, its config. */
export const importedFiles = (agent: AgentPlan): string[] => [
  ...agent.files.filter((file) => file.imported).map((file) => file.path),
  ...(agent.importConfig ? [configPath(agent)] : []),
];

/**
 * The files a watcher must watch for an agent's module beside what the host watches for its imports:
 * the overridden scorer files it does not import, and the config whether imported or not (an edit of it
 * re-plans the agent).
 */
export const unimportedFiles = (agent: AgentPlan): string[] => [
  ...agent.files.filter((file) => !file.imported).map((file) => file.path),
  ...(agent.folder.config ? [configPath(agent)] : []),
];

/** AGENT_UNKNOWN: `virtual:agent-scorers/<key>` for a key the plan does not have, as printed. */
export const unknownAgentError = (planned: Plan, agentKey: string): string =>
  formatDiagnostic({ code: 'AGENT_UNKNOWN', message: unknownAgentMessage(agentKey, planned.agents.map((a) => a.folder.key), `${VIRTUAL_ID}/${agentKey}`), file: null });

/** What a kept outcome depends on beside its inputs: the options, and how the host is given imports (`host`). */
export const outcomeFingerprint = (options: ResolvedOptions, host: string): string =>
  JSON.stringify([host, options], (_key, value: unknown) => (value instanceof RegExp ? { regexp: String(value) } : value));

/**
 * Code generation for the virtual modules. Every name from the file system goes through
 * JSON.stringify, which yields a valid JS string literal for any input (quotes, backslashes,
 * `${`, newlines, lone surrogates), so no file or folder name can inject code.
 */
import type { Levels } from './codes.js';
import { compactManifest } from './manifest.js';
import type { AgentPlan, Plan } from './plan.js';

export const VIRTUAL_ID = 'virtual:agent-scorers';
/** Rollup's convention: a leading NUL keeps other plugins away from our ids. */
export const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const AGENT_PREFIX = `${VIRTUAL_ID}/`;
const RESOLVED_AGENT_PREFIX = `${RESOLVED_ID}:agent:`;
/** A build's records shared by its registry and per-agent modules (`defineAgentOnce`); outside the agent key space. */
export const ONCE_ID = `${VIRTUAL_ID}:once`;
export const RESOLVED_ONCE_ID = `\0${ONCE_ID}`;
export const ONCE_MODULE = 'export default new Map();\n';

export const lit = (value: string): string => JSON.stringify(value);

/** The agent key of a public per-agent specifier, or null. */
export const agentKeyOfSpecifier = (source: string): string | null =>
  source.startsWith(AGENT_PREFIX) ? source.slice(AGENT_PREFIX.length) : null;

// `?`, `#` and `%` are escaped so no host reads a folder name as a query; NUL and lone surrogates
// (possible in Windows names, and fatal to encodeURIComponent) so the id is always well-formed.
const ESCAPED = /[%?#\0\uD800-\uDFFF]/g;
const escapeKey = (key: string): string => key.replace(ESCAPED, (c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const unescapeKey = (text: string): string => text.replace(/%u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export const resolvedAgentId = (agentKey: string): string => RESOLVED_AGENT_PREFIX + escapeKey(agentKey);

/** The agent key of a resolved per-agent id, or null for any other id. */
export const agentKeyOfResolvedId = (id: string): string | null =>
  id.startsWith(RESOLVED_AGENT_PREFIX) ? unescapeKey(id.slice(RESOLVED_AGENT_PREFIX.length)) : null;

export const isOurId = (id: string): boolean => id === RESOLVED_ID || id.startsWith(RESOLVED_AGENT_PREFIX) || id === RESOLVED_ONCE_ID;

/**
 * One agent's imports and the expression that builds its record. Files the build knows to be
 * overridden are listed without an import, so the runtime keeps their place in key order and can
 * check the override really happened. `prefix` keeps local names apart when several agents share
 * one module (the generated file). `levels` (`strict` and `diagnostics`) reach the runtime only when
 * set, for warnings that show only there.
 */
function agentParts(agent: AgentPlan, specifier: (file: string) => string, prefix: string, levels: Levels, define: Define): { imports: string[]; value: string } {
  const { folder } = agent;
  const imports: string[] = [];
  if (agent.importConfig) imports.push(`import ${prefix}c from ${lit(specifier(`${folder.path}/${folder.config}`))};`);
  const entries: string[] = [];
  agent.files.forEach((file, i) => {
    if (file.imported) {
      imports.push(`import ${prefix}s${i} from ${lit(specifier(file.path))};`);
      entries.push(`[${lit(file.key)},${prefix}s${i},${lit(file.name)}]`);
    } else {
      entries.push(`[${lit(file.key)},${lit(file.name)}]`);
    }
  });
  const set = Object.keys(levels).length > 0 ? `,${JSON.stringify(levels)}` : '';
  const config = (agent.importConfig ? `${prefix}c,${lit(folder.config!)}` : `void 0,""`) + set;
  const once = define === 'defineAgentOnce' ? 'once,' : '';
  return { imports, value: `${define}(${once}${lit(folder.key)},${lit(folder.dir)},[${entries.join(',')}],${config})` };
}

/** The import of the bundle's shared records, for modules that build theirs with `defineAgentOnce`. */
const onceImport = (define: Define): string[] => (define === 'defineAgentOnce' ? [`import once from ${lit(ONCE_ID)};`] : []);

/** The helper that builds a record: `defineAgentOnce` where a build has the same agent in two modules. */
type Define = 'defineAgent' | 'defineAgentOnce';

/** One agent's module (`virtual:agent-scorers/<agent>`). */
export function agentModule(
  agent: AgentPlan,
  helper: string,
  specifier: (file: string) => string = (file) => file,
  levels: Levels = {},
  define: Define = 'defineAgent',
): string {
  const { imports, value } = agentParts(agent, specifier, '', levels, define);
  return `${[`import { ${define} } from ${lit(helper)};`, ...onceImport(define), ...imports, `export default ${value};`].join('\n')}\n`;
}

/** How the registry module reaches each agent's record. */
export type RegistryMode =
  /** `virtual:agent-scorers` in a dev server: each agent from its own virtual module, so an added or deleted file invalidates only its agent. */
  | { kind: 'virtual' }
  /**
   * `virtual:agent-scorers` in a build: every agent inline, its files imported by `specifier`. One
   * module instead of one per agent: each extra module costs the host a load and a parse (measured
   * 5-10% of a 200-agent Vite 8 build).
   */
  | { kind: 'inline'; specifier: (file: string) => string }
  /**
   * The generated registry file (SPEC section 11): every agent inline in one module, its files
   * imported by `specifier`, and a named export per agent for which `exportName` gives a name.
   */
  | { kind: 'file'; specifier: (file: string) => string; header: readonly string[]; exportName: (agentKey: string) => string | null };

/** `virtual:agent-scorers` or the generated file: the registry, the manifest and `resolveScorers`. */
export function registryModule(planned: Plan, helper: string, mode: RegistryMode = { kind: 'virtual' }): string {
  const inline = mode.kind !== 'virtual';
  const lines = mode.kind === 'file' ? [...mode.header] : [];
  const define: Define = mode.kind === 'inline' ? 'defineAgentOnce' : 'defineAgent';
  lines.push(`import { ${inline ? `${define}, ` : ''}defineRegistry, createResolver, manifestOf } from ${lit(helper)};`, ...(inline ? onceImport(define) : []));
  const values: string[] = [];
  const pairs: string[] = [];
  const named: string[] = [];
  planned.agents.forEach((agent, i) => {
    if (inline) {
      const { imports, value } = agentParts(agent, mode.specifier, `a${i}`, planned.levels, define);
      lines.push(...imports);
      values.push(`const a${i} = ${value};`);
      const name = mode.kind === 'file' ? mode.exportName(agent.folder.key) : null;
      if (name) named.push(`a${i} as ${name}`);
    } else {
      // By its resolved id, as Rollup's own plugins import their helpers: Vite's SSR import analysis
      // takes `virtual:agent-scorers/<key>` for a package and tries a Node resolution of each one
      // before asking plugins (~20 ms at 1,000 agents), but never for an id holding a NUL.
      lines.push(`import a${i} from ${lit(resolvedAgentId(agent.folder.key))};`);
    }
    pairs.push(`[${lit(agent.folder.key)},a${i}]`);
  });
  lines.push(
    ...values,
    `const registry = defineRegistry([${pairs.join(',')}]);`,
    'export default registry;',
    // The annotation lets bundlers drop the manifest when nobody imports it.
    `export const manifest = /* @__PURE__ */ manifestOf(${lit(compactManifest(planned.manifest))});`,
    'export const resolveScorers = /* @__PURE__ */ createResolver(registry);',
  );
  if (named.length > 0) lines.push(`export { ${named.join(', ')} };`);
  return `${lines.join('\n')}\n`;
}

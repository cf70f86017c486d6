/**
 * The registry helper: the only runtime code that the generated `virtual:agent-scorers` modules
 * import. It must stay tiny and free of model/AI code, so a bundle that only reads the registry
 * carries nothing else.
 */
import {
  agentConfigMessage,
  collisionMessage,
  formatDiagnostic,
  functionFormMessage,
  describeValue,
  levelOf,
  notAScorerMessage,
  notARecordMessage,
  q,
  samplingProblem,
  unknownAgentMessage,
  type DiagnosticCode,
  type Levels,
} from '../core/codes.js';

export type Sampling = { type: 'none' } | { type: 'ratio'; rate: number };

/** Anything with a string `id` and a `run` function: this package's scorers and Mastra's `MastraScorer`. */
export interface ScorerLike {
  id: string;
  run: (...args: any[]) => unknown;
  [extra: string]: any;
}

export interface ScorerEntry<S extends ScorerLike = ScorerLike> {
  scorer: S;
  sampling?: Sampling;
  /** Mastra's optional filter, passed through untouched. */
  filter?: unknown;
  [extra: string]: unknown;
}

export type ScorerRecord = Readonly<Record<string, ScorerEntry>>;
export type ScorersFunction = (context: { requestContext?: unknown; [k: string]: unknown }) =>
  | Record<string, ScorerEntry | ScorerLike>
  | Promise<Record<string, ScorerEntry | ScorerLike>>;
/** What the registry holds for one agent: exactly what Mastra's `new Agent({ scorers })` accepts. */
export type ResolvedScorers = ScorerRecord | ScorersFunction;

// Recognised by shape, never by class: Mastra's ESM and CJS builds have different classes.
export function isScorer(value: unknown): value is ScorerLike {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as ScorerLike).id === 'string' &&
    typeof (value as ScorerLike).run === 'function'
  );
}

export function isScorerEntry(value: unknown): value is ScorerEntry {
  return value !== null && typeof value === 'object' && isScorer((value as ScorerEntry).scorer);
}

// The build's own rule: a bad sampling reads the same at build time and at run time.
export { samplingProblem };

export class ScorerRegistryError extends Error {
  constructor(
    readonly code: DiagnosticCode,
    message: string,
    readonly file: string | null,
  ) {
    super(formatDiagnostic({ code, message, file }));
    this.name = 'ScorerRegistryError';
  }
}

/**
 * A bare scorer becomes `{ scorer }`; an entry is kept as written (same object) after its sampling is
 * checked. A bad sampling or a value that is neither goes to the caller's handler, which throws its
 * own error (the registry and `runEvals` word them differently).
 */
export function toScorerEntry(
  value: unknown,
  badSampling: (problem: string) => never,
  notAScorer: () => never,
): ScorerEntry {
  if (isScorerEntry(value)) {
    const problem = samplingProblem(value.sampling);
    if (problem) badSampling(problem);
    return value;
  }
  if (isScorer(value)) return { scorer: value };
  return notAScorer();
}

/**
 * `toScorerEntry` whose errors carry code, agent, key and file. `where` is null for a scorer file's
 * default export (SCORER_INVALID_EXPORT), else the config expression holding the value, such as
 * `config.scorers["x"]` (CONFIG_INVALID_SCORERS).
 */
function normalise(agent: string, key: string, value: unknown, file: string | null, where: string | null): ScorerEntry {
  return toScorerEntry(
    value,
    (problem) => {
      throw new ScorerRegistryError('SCORER_INVALID_SAMPLING', `Agent ${q(agent)}: scorer ${q(key)}: ${problem}.`, file);
    },
    () => {
      if (where !== null) throw new ScorerRegistryError('CONFIG_INVALID_SCORERS', notAScorerMessage(agent, where, describeValue(value)), file);
      throw new ScorerRegistryError(
        'SCORER_INVALID_EXPORT',
        `Agent ${q(agent)}: scorer ${q(key)}: the default export is ${describeValue(value)}, not a scorer or a { scorer, sampling } entry.`,
        file,
      );
    },
  );
}

/** Receives a run-time warning; the registry's decides by the build's levels, `mergeScorers`' prints. */
type Report = (code: DiagnosticCode, message: string, file: string | null) => void;

/**
 * A Mastra `Agent`, recognised by shape, not class (ESM and CJS builds have different classes): what
 * `config.ts` exports when it is `new Agent({...})`.
 */
function isAgentLike(value: unknown): value is { listScorers(options: { requestContext?: unknown }): unknown } {
  const v = value as Record<string, unknown> | null;
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof v.listScorers === 'function' &&
    typeof v.generate === 'function' &&
    typeof v.getInstructions === 'function'
  );
}

const printed = new Set<string>();
/** Run-time warnings print once per process even when a module is evaluated twice (SSR + client, tests). */
function warnOnce(message: string): void {
  if (printed.has(message)) return;
  printed.add(message);
  console.warn(message);
}

function freezeRecord(pairs: Iterable<readonly [string, unknown]>): any {
  // Null prototype: `__proto__`, `constructor` and `toString` are ordinary keys here.
  const record = Object.create(null);
  for (const [key, value] of pairs) record[key] = value;
  return Object.freeze(record);
}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

interface MergeOptions {
  /** Receives each merge warning's printed text; default `console.warn`. */
  onWarn?: (message: string) => void;
}

/**
 * Mastra's precedence as a plain function: a function `config.scorers` wins wholesale; a record
 * overrides colliding keys (which keep their place) and appends its own keys in its order;
 * discovered scorers fill the rest. Returns exactly what the registry holds for the agent.
 */
export function mergeScorers(
  agentKey: string,
  discovered: Record<string, unknown>,
  configScorers: unknown,
  options: MergeOptions = {},
): ResolvedScorers {
  const files = Object.keys(discovered).map((key): DiscoveredFile => [key, discovered[key], null]);
  const onWarn = options.onWarn ?? console.warn;
  return merge(agentKey, null, files, configScorers, null, (code, message, file) => onWarn(formatDiagnostic({ code, message, file })));
}

/**
 * One discovered file: `[key, defaultExport, file]`, or `[key, file]` when the build saw that the
 * config overrides it and therefore did not import it (the build has already warned about it).
 */
type DiscoveredFile = readonly [key: string, value: unknown, file: string | null] | readonly [key: string, file: string];

function merge(
  agent: string,
  scorersDir: string | null,
  files: readonly DiscoveredFile[],
  configScorers: unknown,
  configFile: string | null,
  report: Report,
): ResolvedScorers {
  const imported = files.filter((f) => f.length === 3);
  if (typeof configScorers === 'function') {
    if (imported.length > 0) {
      const dir = scorersDir ?? `${agent}/scorers/`;
      report('CONFIG_SCORERS_FUNCTION', functionFormMessage(agent, dir), configFile);
    }
    return configScorers as ScorersFunction;
  }
  const isRecord = configScorers !== null && typeof configScorers === 'object' && !Array.isArray(configScorers);
  const config = isRecord ? (configScorers as Record<string, unknown>) : null;
  if (configScorers != null && !config) {
    throw new ScorerRegistryError('CONFIG_INVALID_SCORERS', notARecordMessage(agent, describeValue(configScorers)), configFile);
  }
  const entries = new Map<string, ScorerEntry | null>();
  for (const file of files) {
    const [key] = file;
    if (file.length === 2) {
      if (!config || !own(config, key)) {
        // The static reading promised that config.scorers overrides this key; it does not, and
        // dropping the file silently would lose a scorer.
        throw new ScorerRegistryError(
          'SCORER_KEY_COLLISION',
          `Agent ${q(agent)}: the build read the config as overriding scorer ${q(key)}, but at run time it does not; the file was not bundled. Please report this config shape.`,
          configFile,
        );
      }
      entries.set(key, null);
    } else {
      const path = file[2];
      if (config && own(config, key)) {
        report('SCORER_KEY_COLLISION', collisionMessage(agent, key), configFile);
        entries.set(key, null);
      } else {
        entries.set(key, normalise(agent, key, file[1], path, null));
      }
    }
  }
  if (config) {
    for (const key of Object.keys(config)) {
      entries.set(key, normalise(agent, key, config[key], configFile, `config.scorers[${q(key)}]`));
    }
  }
  return freezeRecord(entries as Map<string, ScorerEntry>);
}

/**
 * Called by the generated per-agent module. `dir` is the agent folder relative to root with a
 * trailing slash; `files` hold scorer file names relative to `<dir>scorers/`; `configName` is the
 * config file name inside `dir`, or '' without one. Keeping paths split this way keeps the
 * generated code short on large trees. `levels` are the build's (`strict` and `diagnostics`): a
 * warning that shows only now is silent when 'off' and throws when 'error'.
 */
export function defineAgent(
  agent: string,
  dir: string,
  files: readonly DiscoveredFile[],
  config: unknown,
  configName: string,
  levels: Levels = {},
): ResolvedScorers {
  const scorersDir = `${dir}scorers/`;
  const configFile = configName ? dir + configName : null;
  const report: Report = (code, message, file) => {
    const level = levelOf(code, levels);
    if (level === 'error') throw new ScorerRegistryError(code, message, file);
    if (level === 'warning') warnOnce(formatDiagnostic({ code, message, file }));
  };
  if (isAgentLike(config)) {
    // Mastra's rule: an Agent is used as it is. Files the build left out were already reported.
    if (files.some((f) => f.length === 3)) report('CONFIG_EXPORTS_AGENT', agentConfigMessage(agent, configName, scorersDir), configFile);
    const own = config;
    const form: ScorersFunction = ({ requestContext } = {}) => own.listScorers({ requestContext }) as ReturnType<ScorersFunction>;
    AGENT_FORMS.add(form);
    return form;
  }
  const withPaths = files.map((f): DiscoveredFile => (f.length === 3 ? [f[0], f[1], scorersDir + f[2]] : f));
  const configScorers = config !== null && typeof config === 'object' ? (config as { scorers?: unknown }).scorers : undefined;
  return merge(agent, scorersDir, withPaths, configScorers, configFile, report);
}

/**
 * `defineAgent` once per agent key and bundle. A build inlines every agent in the registry module
 * and also has a module per agent for `virtual:agent-scorers/<agent>`; both call this with the
 * bundle's own `records` (the default export of a tiny generated module, so one per bundle even when
 * this helper is shared by several bundles in one process), so a bundle importing both gets the very
 * same record. Not for dev servers, where a re-evaluated module must build its record afresh.
 */
export function defineAgentOnce(records: Map<string, ResolvedScorers>, ...args: Parameters<typeof defineAgent>): ResolvedScorers {
  let record = records.get(args[0]);
  if (record === undefined) records.set(args[0], (record = defineAgent(...args)));
  return record;
}

/** The default export of `virtual:agent-scorers`: agent key -> resolved scorers, frozen, null prototype. */
export function defineRegistry(agents: ReadonlyArray<readonly [string, ResolvedScorers]>): Readonly<Record<string, ResolvedScorers>> {
  return freezeRecord(agents);
}

/** `manifestOf`'s input: the manifest with every derivable path left out (src/core/manifest.ts `compactManifest`). */
type CompactManifest = [
  version: 1,
  agents: Array<[key: string, dir: string, config: string | null, configScorers: string, scorers: Array<[key: string, name: string | null, sampling?: unknown]>]>,
  diagnostics: unknown[],
];

/** An own, enumerable property, as JSON.parse makes it: `__proto__` is an ordinary key. */
const put = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * The `manifest` export from its compact form: each scorer file's path joined from its
 * agent's folder and its name, as the build joins it, so the generated code carries a fifth to two
 * fifths of the text (a dev server transforms the registry module on every change: the full text cost
 * ~25 ms at 1,000 agents).
 */
export function manifestOf(text: string) {
  const [version, agents, diagnostics] = JSON.parse(text) as CompactManifest;
  const byKey = {};
  for (const [key, dir, config, configScorers, scorers] of agents) {
    const record = {};
    for (const [scorerKey, name, sampling = null] of scorers) {
      put(record, scorerKey, name === null ? { source: 'config', file: null, sampling } : { source: 'file', file: `${dir}/scorers/${name}`, sampling });
    }
    put(byKey, key, { dir, config: config === null ? null : `${dir}/${config}`, configScorers, scorers: record });
  }
  return { version, agents: byKey, diagnostics };
}

/** Function forms standing for a config's `new Agent()`: Mastra's `listScorers` makes its own context. */
const AGENT_FORMS = new WeakSet<ScorersFunction>();

/**
 * What Mastra hands a function form when the caller gives no request context: a fresh, empty
 * `RequestContext`. This is its API over a Map, so a config's `requestContext.get('x')` or `.size()`
 * works the same here, without tying this helper to @mastra/core.
 */
function emptyRequestContext() {
  const map = new Map<string, unknown>();
  const get = (key: string) => map.get(key);
  const set = (key: string, value: unknown) => void map.set(key, value);
  const has = (key: string) => map.has(key);
  const remove = (key: string) => map.delete(key);
  return {
    get, set, has, delete: remove, getRaw: get, setRaw: set, hasRaw: has, deleteRaw: remove,
    clear: () => map.clear(),
    keys: () => map.keys(),
    values: () => map.values(),
    entries: () => map.entries(),
    size: () => map.size,
    forEach: (callback: (value: unknown, key: string, map: Map<string, unknown>) => void) => map.forEach(callback),
    toJSON: () => Object.fromEntries(map),
  };
}

/** Backs the `resolveScorers` export: the record for any agent, calling the function form if needed. */
export function createResolver(registry: Readonly<Record<string, ResolvedScorers>>) {
  return async function resolveScorers(agentKey: string, options: { requestContext?: unknown } = {}): Promise<ScorerRecord> {
    if (!own(registry, agentKey)) {
      throw new ScorerRegistryError('AGENT_UNKNOWN', unknownAgentMessage(agentKey, Object.keys(registry)), null);
    }
    const value = registry[agentKey];
    if (typeof value !== 'function') return value;
    const requestContext = options.requestContext ?? (AGENT_FORMS.has(value) ? undefined : emptyRequestContext());
    const result = await value({ requestContext });
    if (result === null || typeof result !== 'object' || Array.isArray(result)) {
      throw new ScorerRegistryError(
        'CONFIG_INVALID_SCORERS',
        `Agent ${q(agentKey)}: config.scorers() returned ${describeValue(result)}, not a record.`,
        null,
      );
    }
    return freezeRecord(
      Object.keys(result).map((key) => [key, normalise(agentKey, key, result[key], null, `config.scorers()[${q(key)}]`)] as const),
    );
  };
}

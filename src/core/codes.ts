/**
 * Every diagnostic code and its wording, in one place. The codes are public API:
 * users grep for them and CI logs are matched on them, so never rename one.
 *
 * This file is imported by the runtime registry helper too, so it must stay tiny and free of
 * anything that is not plain data and string building.
 */

export const DIAGNOSTIC_SEVERITY = {
  SCORER_KEY_COLLISION: 'warning',
  CONFIG_SCORERS_FUNCTION: 'warning',
  SCORER_KEY_CASE_COLLISION: 'warning',
  SCORER_DUPLICATE_KEY: 'error',
  SCORER_NO_DEFAULT_EXPORT: 'error',
  SCORER_INVALID_EXPORT: 'error',
  SCORER_INVALID_SAMPLING: 'error',
  CONFIG_DUPLICATE: 'error',
  /**
   * A warning for the default `agentsDir`, an error for one the user set (`checkOptions` puts it in
   * `levels` as 'error', so `diagnostics: { AGENTS_DIR_MISSING: 'warn' }` still lowers it): one code,
   * its level decided by where the folder came from.
   */
  AGENTS_DIR_MISSING: 'warning',
  SUBAGENT_TOO_DEEP: 'warning',
  CONFIG_EXPORTS_AGENT: 'warning',
  CONFIG_INVALID_SCORERS: 'error',
  /** An import of `virtual:agent-scorers/<key>` or a `resolveScorers(key)` for an agent that does not exist. */
  AGENT_UNKNOWN: 'error',
  /** Where no bundler parses after us (`generate`, `withAgentScorers`): a scorer file or config that does not parse. */
  SCORER_SYNTAX_ERROR: 'error',
  /** Two agentsDir entries hold an agent folder of the same name. */
  AGENT_DUPLICATE: 'error',
  /** A scorer file or agent folder name that is not valid UTF-8 (Linux). */
  NAME_NOT_UTF8: 'error',
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_SEVERITY;
export type Severity = 'warning' | 'error';
/** The codes whose severity the `diagnostics` option may set: errors cannot be downgraded. */
export type WarningCode = { [C in DiagnosticCode]: (typeof DIAGNOSTIC_SEVERITY)[C] extends 'warning' ? C : never }[DiagnosticCode];
/** A code's severity after `strict` and `diagnostics`: 'off' is never reported. */
export type Level = Severity | 'off';
/** Effective levels of the warning codes that differ from 'warning'; absent codes stay warnings. */
export type Levels = Readonly<Partial<Record<WarningCode, Level>>>;

/** The level a diagnostic of `code` is reported at: errors always error; warnings follow `levels`. */
export function levelOf(code: DiagnosticCode, levels: Levels): Level {
  const fixed = DIAGNOSTIC_SEVERITY[code];
  return fixed === 'error' ? 'error' : (levels[code as WarningCode] ?? 'warning');
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  /** Agent key (`weather`, `weather/planner`); null for problems not tied to one agent. */
  agent: string | null;
  /** Path relative to `root`, POSIX. */
  file: string | null;
  /** Where in `file`, 1-based, when known (SCORER_SYNTAX_ERROR): printed as `file:line:column`. */
  line?: number;
  column?: number;
  /** The human sentence, without code or file (those are added by `formatDiagnostic`). */
  message: string;
}

/** Names are quoted with JSON rules so a newline or quote in a file name cannot garble the log line. */
export const q = (name: string): string => JSON.stringify(name);

/** What a value evidently is, for the SCORER_INVALID_EXPORT message. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'bigint':
      return 'a bigint';
    case 'boolean':
      return 'a boolean';
    case 'function':
      return 'a function';
    case 'object':
      if ('scorer' in value) return `an object whose "scorer" is ${describeValue((value as { scorer: unknown }).scorer)}`;
      return `an object without "scorer", "id" or "run" (keys: ${Object.keys(value).slice(0, 6).join(', ') || 'none'})`;
    default:
      return typeof value;
  }
}

/**
 * The one printed form of a value in a message, at build time (a literal read from the source) and at
 * run time (the value itself) alike: JS-literal style (`{ type: 'ratio', rate: 2 }`), bounded in depth
 * and length, so a circular or huge value cannot flood a log line.
 */
function showValue(value: unknown): string {
  const text = showInner(value, 0);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

function showInner(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return `'${shown.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n')}'`;
    }
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'function':
      return 'a function';
    case 'object': {
      if (value === null) return 'null';
      if (depth > 2) return Array.isArray(value) ? '[...]' : '{...}';
      if (Array.isArray(value)) return `[${value.map((item) => showInner(item, depth + 1)).join(', ')}]`;
      const parts = Object.keys(value).map((key) => {
        const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : showInner(key, depth + 1);
        let shown: string;
        try {
          shown = showInner((value as Record<string, unknown>)[key], depth + 1);
        } catch {
          shown = '(a getter that throws)';
        }
        return `${name}: ${shown}`;
      });
      return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
    }
    default:
      return String(value);
  }
}

/**
 * The sampling rule, shared by the build (literal values read from config.ts) and the runtime:
 * null when `sampling` is absent (undefined) or one of the two allowed forms, else what is wrong
 * with it, the bad value printed by `showValue` on both sides. Extra properties are tolerated.
 */
export function samplingProblem(sampling: unknown): string | null {
  if (sampling === undefined) return null;
  const s = sampling as { type?: unknown; rate?: unknown } | null;
  if (s !== null && typeof s === 'object') {
    if (s.type === 'none') return null;
    if (s.type === 'ratio' && typeof s.rate === 'number' && s.rate >= 0 && s.rate <= 1) return null;
  }
  return `sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1; got ${showValue(sampling)}`;
}

/**
 * AGENT_UNKNOWN, for an import of `virtual:agent-scorers/<key>` (`specifier`) at build time and for
 * `resolveScorers(key)` at run time (no specifier): the known keys, so a typo shows at a glance.
 */
export function unknownAgentMessage(agent: string, known: readonly string[], specifier?: string): string {
  const where = specifier === undefined ? '' : ` in ${q(specifier)}`;
  return `Unknown agent ${q(agent)}${where}; known agents: ${known.map(q).join(', ') || '(none)'}.`;
}

/** Mastra's wording, kept so users recognise the warning. */
export const collisionMessage = (agent: string, key: string): string =>
  `Agent ${q(agent)}: scorer ${q(key)} defined in both config.scorers and scorers/; config.scorers wins.`;

/** Mastra's wording; `scorersDir` is the root-relative folder, ending in a slash. */
export const functionFormMessage = (agent: string, scorersDir: string): string =>
  `Agent ${q(agent)}: config.scorers is a function, so discovered scorers under ${scorersDir} are ignored.`;

/** CONFIG_INVALID_SCORERS, at build time and run time alike. */
export const notARecordMessage = (agent: string, what: string): string =>
  `Agent ${q(agent)}: config.scorers is ${what}, not a record or a function.`;

/** CONFIG_INVALID_SCORERS for one value; `where` is e.g. `config.scorers["x"]`. */
export const notAScorerMessage = (agent: string, where: string, what: string): string =>
  `Agent ${q(agent)}: ${where} is ${what}, not a scorer or a { scorer, sampling } entry.`;

/** Mastra's wording (`assembleAgentFromFsEntry`); `scorersDir` as in `functionFormMessage`. */
export const agentConfigMessage = (agent: string, configName: string, scorersDir: string): string =>
  `Agent ${q(agent)}: ${configName} exports a new Agent(), so discovered scorers under ${scorersDir} are ignored.`;

/**
 * The one printed form of a diagnostic, used by the build, the dev server and the runtime:
 * hosts drop a warning's `code` field and Vite 8 drops its `id`, so both go into the text.
 */
export const formatDiagnostic = (d: Pick<Diagnostic, 'code' | 'message' | 'file' | 'line' | 'column'>): string =>
  `[${d.code}] ${d.message}${d.file ? ` (${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''})` : ''}`;

import path from 'node:path';
import picomatch from 'picomatch';

/** Options of `agentScorers()`. Every field is optional. */
export interface Options {
  /** Base for relative paths. Default: Vite's `config.root`; under Rollup/Rolldown `process.cwd()`. */
  root?: string;
  /** Folder(s) holding one folder per agent, relative to `root` or absolute. Default `'src/mastra/agents'`. */
  agentsDir?: string | string[];
  /** Scorer file extensions. Default `['.ts', '.mts', '.js', '.mjs']`. */
  extensions?: string[];
  /**
   * Extra files to leave out: string globs (picomatch syntax) or RegExps, matched against the path
   * relative to `root` in POSIX form, e.g. `'**\/scorers/wip-*.ts'`. Default `[]`.
   */
  exclude?: Array<string | RegExp> | string | RegExp;
  /**
   * Write a declaration file typing the literal agent and scorer keys: `true` writes
   * `<root>/agent-scorers.d.ts`, a string is a path (relative to `root`). Default: `true` when `root`
   * has a `tsconfig.json`, else `false`.
   */
  dts?: boolean | string;
  /** `true` or a file name: emit the manifest as a JSON asset. Default `false`. */
  manifest?: boolean | string;
  /** Turn every warning into a build error (for CI). Default `false`. */
  strict?: boolean;
}

export const DEFAULT_AGENTS_DIR = 'src/mastra/agents';
export const DEFAULT_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
export const DEFAULT_MANIFEST_FILE = 'agent-scorers.manifest.json';
export const DEFAULT_DTS_FILE = 'agent-scorers.d.ts';

/** Options checked and defaulted, except what depends on the root (resolved by `withRoot`). */
export interface CheckedOptions {
  root: string | undefined;
  agentsDir: string[];
  extensions: string[];
  exclude: Array<string | RegExp>;
  dts: boolean | string | undefined;
  manifest: string | null;
  strict: boolean;
}

export interface ResolvedOptions extends Omit<CheckedOptions, 'root' | 'dts'> {
  root: string;
  agentsDirs: string[];
  /** Absolute path of the declaration file, or null when off. */
  dtsFile: string | null;
  isExcluded: (relativePath: string) => boolean;
}

const KNOWN = ['root', 'agentsDir', 'extensions', 'exclude', 'dts', 'manifest', 'strict'] as const;

function fail(message: string): never {
  throw new TypeError(`agent-scorers: ${message}`);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Checked at plugin creation, so a typo fails before any build work starts. */
export function checkOptions(input: unknown = {}): CheckedOptions {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    fail(`options must be an object, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}.`);
  }
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!(KNOWN as readonly string[]).includes(key)) {
      fail(`unknown option ${JSON.stringify(key)}. Known options: ${KNOWN.join(', ')}.`);
    }
  }
  const type = (name: string, expected: string): never => fail(`option "${name}" must be ${expected}, got ${describe(o[name])}.`);

  if (o.root !== undefined && !isNonEmptyString(o.root)) type('root', 'a non-empty string');
  const agentsDir = o.agentsDir === undefined ? [DEFAULT_AGENTS_DIR] : o.agentsDir;
  const agentsDirs = Array.isArray(agentsDir) ? agentsDir : [agentsDir];
  if (agentsDirs.length === 0 || !agentsDirs.every(isNonEmptyString)) type('agentsDir', 'a non-empty string or an array of them');

  const extensions = o.extensions === undefined ? DEFAULT_EXTENSIONS : o.extensions;
  if (!Array.isArray(extensions) || extensions.length === 0 || !extensions.every((e) => isString(e) && /^\.[^./\\]+$/.test(e))) {
    type('extensions', "a non-empty array of extensions such as '.ts'");
  }

  const excludeInput = o.exclude === undefined ? [] : Array.isArray(o.exclude) ? o.exclude : [o.exclude];
  if (!excludeInput.every((p) => isNonEmptyString(p) || p instanceof RegExp)) type('exclude', 'an array of glob strings or RegExps');

  if (o.dts !== undefined && typeof o.dts !== 'boolean' && !isNonEmptyString(o.dts)) type('dts', 'a boolean or a file path');
  if (o.manifest !== undefined && typeof o.manifest !== 'boolean' && !isNonEmptyString(o.manifest)) type('manifest', 'a boolean or a file name');
  // Assets live inside the output folder: hosts reject absolute names and `..` only at the very end.
  if (isString(o.manifest) && (path.isAbsolute(o.manifest) || o.manifest.split(/[\\/]/).includes('..'))) {
    type('manifest', 'a file name inside the output folder (no absolute path, no "..")');
  }
  if (o.strict !== undefined && typeof o.strict !== 'boolean') type('strict', 'a boolean');

  return {
    root: o.root as string | undefined,
    agentsDir: agentsDirs as string[],
    extensions: [...new Set(extensions as string[])],
    exclude: excludeInput as Array<string | RegExp>,
    dts: o.dts as boolean | string | undefined,
    manifest: o.manifest === true ? DEFAULT_MANIFEST_FILE : isString(o.manifest) ? o.manifest : null,
    strict: o.strict === true,
  };
}

/** Second step, once the host has told us the root (Vite's `config.root`, else the cwd). */
export function withRoot(options: CheckedOptions, hostRoot: string | undefined, hasTsconfig: (root: string) => boolean): ResolvedOptions {
  const root = path.resolve(options.root ?? hostRoot ?? process.cwd());
  const dts = options.dts ?? hasTsconfig(root);
  const matchers = options.exclude.map((p) => (typeof p === 'string' ? picomatch(p, { dot: true }) : (s: string) => {
      p.lastIndex = 0; // a /g or /y RegExp would otherwise carry state between files
      return p.test(s);
    }));
  return {
    ...options,
    root,
    agentsDirs: [...new Set(options.agentsDir.map((d) => path.resolve(root, d)))],
    dtsFile: dts === false ? null : path.resolve(root, dts === true ? DEFAULT_DTS_FILE : dts),
    isExcluded: (relativePath) => matchers.some((match) => match(relativePath)),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof RegExp) return 'a RegExp';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

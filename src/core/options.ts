import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { DIAGNOSTIC_SEVERITY, type DiagnosticCode, type Level, type Levels, type WarningCode } from './codes.js';

/** Options of `agentScorers()`. Every field is optional. */
export interface Options {
  /**
   * Base for relative paths: `agentsDir`, `exclude` patterns, `dts`, `cache` and the file names in
   * diagnostics are all relative to it.
   * @default Vite's `config.root`; under Rollup, Rolldown, esbuild and the CLI, `process.cwd()`
   */
  root?: string;
  /**
   * Folder(s) holding one folder per agent, relative to `root` or absolute.
   * A folder that does not exist is reported as `AGENTS_DIR_MISSING`: when you set this option, as an
   * error (the build fails: a path you wrote that is not there is almost always a typo); when the
   * default folder is missing, as a warning, and the registry is empty. `diagnostics: {
   * AGENTS_DIR_MISSING: 'warn' }` (or `'off'`) accepts a folder you set that may be absent. Either way
   * a declaration file that exists is left as it is, not rewritten to an empty registry.
   * @default `'src/mastra/agents'`
   */
  agentsDir?: string | string[];
  /**
   * Scorer file extensions, each with its leading dot.
   * @default `['.ts', '.mts', '.js', '.mjs']`
   */
  extensions?: string[];
  /**
   * Extra files to leave out: string globs (picomatch syntax) or RegExps, matched against the path
   * relative to `root` in POSIX form, e.g. `'**\/scorers/wip-*.ts'`. For an `agentsDir` outside `root`
   * that path starts with `../`, which `**` does not match: write the `../` or use a RegExp.
   * @default `[]`
   */
  exclude?: Array<string | RegExp> | string | RegExp;
  /**
   * Write a declaration file typing the literal agent and scorer keys: `true` writes
   * `<root>/src/agent-scorers.d.ts` where `<root>/src` is a folder, else `<root>/agent-scorers.d.ts`;
   * a string is a path (relative to `root`); `false` writes nothing. The file is rewritten only when its
   * content changes.
   * @default `true` when `root` has a `tsconfig.json`, else `false`
   */
  dts?: boolean | string;
  /**
   * Emit the manifest (what was compiled) as a JSON asset in the output folder: `true` names it
   * `agent-scorers.manifest.json`, a string is the file name.
   * @default `false`
   */
  manifest?: boolean | string;
  /**
   * Turn every warning into an error (for CI), except the codes that `diagnostics` sets.
   * A warning that only shows at run time then throws when the registry module is evaluated.
   * @default `false`
   */
  strict?: boolean;
  /**
   * Set single warning codes to `'off'`, `'warn'` or `'error'` (ESLint-style), e.g.
   * `{ SCORER_KEY_COLLISION: 'off' }` for a deliberate override. Honoured in builds, in the dev
   * server, in the manifest and by the registry at run time. Error codes cannot be set.
   * @default `{}`
   */
  diagnostics?: Partial<Record<WarningCode, DiagnosticSetting>>;
  /**
   * Keep what a build read between processes, so the next build re-reads only what changed. It keeps
   * each file's static reading (and each folder's listing), re-read only for files and folders whose stamp (size, modification and change times, inode) changed,
   * and a one-shot build's whole outcome, so the next build of an unchanged tree serves it after a stat
   * per input: `true` keeps them under Vite's `cacheDir` (else the nearest
   * `node_modules/.cache/agent-scorers/`), a string is a folder (relative to `root`), `false` keeps
   * nothing. A file read within a few seconds of its last modification is never kept (its time may
   * not move on a quick second edit). A fresh clone (a CI job, a Docker image build) reads everything:
   * a checkout gives every file a new stamp, so a cache folder restored from an earlier job is never used.
   * That is why the default is off where the `CI` environment variable is set (to anything but `''`,
   * `0` or `false`, as GitHub Actions, GitLab CI, Netlify and most CI services do): there, writing the
   * cache only costs time. Set `cache: true` on a runner that builds the same working copy again.
   * @default `true`, or `false` when `CI` is set
   */
  cache?: boolean | string;
  /**
   * The dev inspector at `/__agent-scorers/` in a Vite dev server: a page that shows what was compiled
   * and runs one scorer on the server. It answers only pages of its own origin, and only clients on
   * this machine. `{ remote: true }` lets other machines use it when the dev server listens beyond
   * loopback (`vite --host`): they can then run your scorers and their judge calls on your key.
   * `false` turns it off (no routes, no start-up line). An object turns it on with the settings below.
   * @default `true`
   */
  inspector?: boolean | InspectorOptions;
}

/** The settings of the dev inspector (`inspector: { ... }`). */
export interface InspectorOptions {
  /**
   * Let clients other than this machine use the inspector when the dev server listens beyond loopback
   * (`vite --host`), and requests under any `Host` that Vite's `server.allowedHosts` admits.
   * @default `false`
   */
  remote?: boolean;
  /**
   * How long one scorer run (or one listing of an agent's scorers) may take, in milliseconds. After
   * that the request is answered with an `{ error }` naming the scorer and its slot is freed for the
   * next run. A run that never settles in Node may keep running in the background; a Worker that stops
   * answering is restarted. Set it above your slowest judge call.
   * @default `60_000`
   */
  runTimeout?: number;
}

/** What `diagnostics` accepts per code. */
export type DiagnosticSetting = 'off' | 'warn' | 'error';

export const DEFAULT_AGENTS_DIR = 'src/mastra/agents';
export const DEFAULT_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
export const DEFAULT_MANIFEST_FILE = 'agent-scorers.manifest.json';
export const DEFAULT_DTS_FILE = 'agent-scorers.d.ts';
export const DEFAULT_RUN_TIMEOUT_MS = 60_000;
/** The longest delay `setTimeout` keeps (a larger one fires at once). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface CheckedInspector {
  remote: boolean;
  runTimeout: number;
}

/** Options checked and defaulted, except what depends on the root (resolved by `withRoot`). */
export interface CheckedOptions {
  root: string | undefined;
  agentsDir: string[];
  extensions: string[];
  exclude: Array<string | RegExp>;
  dts: boolean | string | undefined;
  manifest: string | null;
  strict: boolean;
  /** The effective level of every warning code that is not a plain warning (`strict` and `diagnostics` applied). */
  levels: Levels;
  cache: boolean | string;
  /** The dev inspector, or null when off. */
  inspector: CheckedInspector | null;
}

export interface ResolvedOptions extends Omit<CheckedOptions, 'root' | 'dts'> {
  root: string;
  agentsDirs: string[];
  /** Absolute path of the declaration file, or null when off. */
  dtsFile: string | null;
  isExcluded: (relativePath: string) => boolean;
}

const KNOWN = ['root', 'agentsDir', 'extensions', 'exclude', 'dts', 'manifest', 'strict', 'diagnostics', 'cache', 'inspector'] as const;
const SETTINGS: Record<DiagnosticSetting, Level> = { off: 'off', warn: 'warning', error: 'error' };
// Here rather than in codes.ts, which the runtime registry imports: only option checking needs the list.
const WARNING_CODES = (Object.keys(DIAGNOSTIC_SEVERITY) as DiagnosticCode[]).filter(
  (code): code is WarningCode => DIAGNOSTIC_SEVERITY[code] === 'warning',
);

function fail(message: string): never {
  throw new TypeError(`agent-scorers: ${message}`);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Checked at plugin creation, so a typo fails before any build work starts. */
/** What `CI` means to the `cache` default: set, and not one of the values people write for "no". */
export const isCI = (env: NodeJS.ProcessEnv): boolean => {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
};

export function checkOptions(input: unknown = {}, env: NodeJS.ProcessEnv = process.env): CheckedOptions {
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
    const undotted = Array.isArray(extensions) ? extensions.find((e) => isString(e) && /^[^./\\]+$/.test(e)) : undefined;
    if (undotted !== undefined) {
      fail(`option "extensions" must list extensions with their leading dot: ${JSON.stringify(undotted)} lacks it, write ${JSON.stringify(`.${undotted}`)}.`);
    }
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
  if (o.cache !== undefined && typeof o.cache !== 'boolean' && !isNonEmptyString(o.cache)) type('cache', 'a boolean or a folder path');
  const settings = checkDiagnostics(o.diagnostics);
  const inspector = checkInspector(o.inspector);

  const levels = levelsFor(o.strict === true, settings);
  return {
    root: o.root as string | undefined,
    agentsDir: agentsDirs as string[],
    extensions: [...new Set(extensions as string[])],
    exclude: excludeInput as Array<string | RegExp>,
    dts: o.dts as boolean | string | undefined,
    manifest: o.manifest === true ? DEFAULT_MANIFEST_FILE : isString(o.manifest) ? o.manifest : null,
    strict: o.strict === true,
    levels: o.agentsDir !== undefined && !Object.hasOwn(settings, 'AGENTS_DIR_MISSING') ? Object.freeze({ ...levels, AGENTS_DIR_MISSING: 'error' }) : levels,
    cache: (o.cache as boolean | string | undefined) ?? !isCI(env),
    inspector,
  };
}

function checkInspector(value: unknown): CheckedInspector | null {
  if (value === undefined || value === true) return { remote: false, runTimeout: DEFAULT_RUN_TIMEOUT_MS };
  if (value === false) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RegExp) {
    fail(`option "inspector" must be a boolean or an object such as { remote: true }, got ${describe(value)}.`);
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (key !== 'remote' && key !== 'runTimeout') fail(`option "inspector": unknown key ${JSON.stringify(key)}. Known keys: remote, runTimeout.`);
  }
  if (o.remote !== undefined && typeof o.remote !== 'boolean') {
    fail(`option "inspector": remote must be a boolean, got ${describe(o.remote)}.`);
  }
  const runTimeout = o.runTimeout === undefined ? DEFAULT_RUN_TIMEOUT_MS : o.runTimeout;
  // A run is always bounded: no 0 or Infinity for "never", and nothing setTimeout would fire at once.
  if (typeof runTimeout !== 'number' || !Number.isInteger(runTimeout) || runTimeout < 1 || runTimeout > MAX_TIMEOUT_MS) {
    fail(`option "inspector": runTimeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, such as 60000, got ${typeof runTimeout === 'number' ? String(runTimeout) : describe(runTimeout)}.`);
  }
  return { remote: o.remote === true, runTimeout };
}

function checkDiagnostics(value: unknown): Record<string, DiagnosticSetting> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(`option "diagnostics" must be an object mapping warning codes to 'off', 'warn' or 'error', got ${describe(value)}.`);
  }
  const settings = value as Record<string, unknown>;
  const warnings = WARNING_CODES.join(', ');
  for (const code of Object.keys(settings)) {
    if (!Object.hasOwn(DIAGNOSTIC_SEVERITY, code)) {
      fail(`option "diagnostics": unknown code ${JSON.stringify(code)}. Warning codes: ${warnings}.`);
    }
    if (DIAGNOSTIC_SEVERITY[code as DiagnosticCode] === 'error') {
      fail(`option "diagnostics": ${code} is an error and cannot be turned down; only warnings can be set: ${warnings}.`);
    }
    const setting = settings[code];
    if (!isString(setting) || !Object.hasOwn(SETTINGS, setting)) {
      fail(`option "diagnostics": ${code} must be 'off', 'warn' or 'error', got ${describe(setting)}.`);
    }
  }
  return settings as Record<string, DiagnosticSetting>;
}

/** `diagnostics` wins over `strict`, so a deliberate override passes a strict CI build. */
function levelsFor(strict: boolean, settings: Record<string, DiagnosticSetting>): Levels {
  const levels: Partial<Record<WarningCode, Level>> = {};
  for (const code of WARNING_CODES) {
    const level = Object.hasOwn(settings, code) ? SETTINGS[settings[code]] : strict ? 'error' : 'warning';
    if (level !== 'warning') levels[code] = level;
  }
  return Object.freeze(levels);
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
    dtsFile: dts === false ? null : dts === true ? defaultDtsFile(root) : path.resolve(root, dts),
    isExcluded: (relativePath) => matchers.some((match) => match(relativePath)),
  };
}

/**
 * Under `src/` when there is one: every common framework's tsconfig covers `src/`, while SvelteKit's
 * generated one covers no other file at the root.
 */
export function defaultDtsFile(root: string): string {
  const src = path.join(root, 'src');
  return path.join(fs.statSync(src, { throwIfNoEntry: false })?.isDirectory() ? src : root, DEFAULT_DTS_FILE);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof RegExp) return 'a RegExp';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

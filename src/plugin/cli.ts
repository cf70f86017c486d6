/**
 * `agent-scorers generate [--watch] [--root DIR] [--out FILE] [--config FILE]` and the plugin's
 * other options as flags. Flags win over `agent-scorers.config.*`, which wins over the defaults.
 * Exit codes: 0 written or up to date, 1 diagnostics with errors, 2 anything else (bad usage, a config
 * that throws or never settles, a file or folder that cannot be read or written): then one line that
 * names the path and the reason, never a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkOptions, type CheckedOptions } from '../core/options.js';
import { findConfigFile, loadConfigFile } from './config-file.js';
import { consoleLog, createGenerator, type Log } from './generate.js';
import { failureLine, FileError } from '../io/write-file.js';

const GENERATE_USAGE = `Usage: agent-scorers generate [options]

Writes the registry of your agent folders as an ES module with its declarations beside it
(default <root>/src/agent-scorers.gen.mjs and agent-scorers.gen.d.mts).

Options:
  --watch, -w            regenerate on every change until interrupted (Ctrl-C)
  --root DIR             project root (default: the config file's folder, else the current folder)
  --out FILE             the module to write, .mjs or .js, relative to the current folder
  --config FILE          config file (default: agent-scorers.config.{ts,mts,js,mjs} in the root)
  --agents-dir DIR       agents folder, relative to the root; repeat for several
  --extensions LIST      scorer file extensions, comma-separated (.ts,.mts,.js,.mjs)
  --exclude GLOB         files to leave out, root-relative glob; repeat for several
  --dts PATH|false       ambient declarations of virtual:agent-scorers (default: with a tsconfig.json)
  --manifest FILE|true   also write the manifest JSON beside the module
  --strict               treat every warning as an error (except codes set by --diagnostics)
  --diagnostics CODE=L   a warning code's level: off, warn or error; repeat for several
  --help, -h             show this help

Exit codes: 0 written or up to date, 1 the tree has errors (listed above it),
2 anything else (a bad flag, a config file that throws or has not loaded after 30 s,
a file or folder that cannot be read or written).`;

/**
 * The top-level help: every command with every flag, so one `--help` shows the whole surface. The
 * report command's part is its own usage text, loaded only when asked for (generate never loads the report code).
 */
export async function usage(): Promise<string> {
  const { REPORT_USAGE } = await import('./report-cli.js');
  return `Usage: agent-scorers <command> [options]
       agent-scorers --version | --help

Commands:
  generate    write the registry as an ES module (for Next.js, esbuild, Node, Bun)
  report      write HTML, JUnit and Markdown reports of a saved runEvals result, compare it
              with a baseline run, or merge the results of shards (report merge)

${GENERATE_USAGE}

${REPORT_USAGE}

Also:
  --version, -v          print the version of agent-scorers`;
}

export const FLAGS = {
  watch: { type: 'boolean', short: 'w' },
  root: { type: 'string' },
  out: { type: 'string' },
  config: { type: 'string' },
  'agents-dir': { type: 'string', multiple: true },
  extensions: { type: 'string' },
  exclude: { type: 'string', multiple: true },
  dts: { type: 'string' },
  manifest: { type: 'string' },
  strict: { type: 'boolean' },
  diagnostics: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** This package's version, from its own package.json (two folders up from src/plugin and dist/plugin). */
export const version = (): string =>
  (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const flagBool = (name: string, value: string | undefined): boolean | string | undefined =>
  value === undefined ? undefined : value === 'true' ? true : value === 'false' ? false : value;

/** Options from the config file (its `root` relative to its own folder), then flags over them. */
async function readOptions(values: ReturnType<typeof parse>['values'], cwd: string): Promise<{ options: CheckedOptions; hostRoot: string }> {
  const base = values.root ? path.resolve(cwd, values.root) : cwd;
  const configFile = values.config ? path.resolve(cwd, values.config) : findConfigFile(base);
  let fromFile: Record<string, unknown> = {};
  if (configFile) {
    const loaded = await loadConfigFile(configFile);
    if (loaded === null || typeof loaded !== 'object' || Array.isArray(loaded)) {
      throw new FileError('load', configFile, 'its default export must be an options object');
    }
    fromFile = { ...(loaded as Record<string, unknown>) };
    try {
      checkOptions(fromFile);
    } catch (error) {
      // Named by its file, so the user knows which of the two sources to fix.
      throw new FileError('load', configFile, (error as Error).message.replace(/^agent-scorers: /, ''));
    }
    if (typeof fromFile.root === 'string') fromFile.root = path.resolve(path.dirname(configFile), fromFile.root);
  }
  const flags: Record<string, unknown> = {
    root: values.root && base,
    agentsDir: values['agents-dir'],
    extensions: values.extensions?.split(',').map((e) => e.trim()),
    exclude: values.exclude,
    dts: flagBool('dts', values.dts),
    manifest: flagBool('manifest', values.manifest),
    strict: values.strict,
    diagnostics: values.diagnostics && diagnosticsFlag(values.diagnostics, fromFile.diagnostics),
  };
  const merged = { ...fromFile };
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) merged[key] = value;
  return { options: checkOptions(merged), hostRoot: configFile && !values.root ? path.dirname(configFile) : base };
}

/** `--diagnostics CODE=level`, over the config file's own `diagnostics`; checkOptions checks the values. */
function diagnosticsFlag(pairs: string[], fromFile: unknown): Record<string, string> {
  const merged: Record<string, string> = { ...(fromFile !== null && typeof fromFile === 'object' ? (fromFile as Record<string, string>) : {}) };
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`agent-scorers: --diagnostics takes CODE=off|warn|error, got ${JSON.stringify(pair)}.`);
    merged[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return merged;
}

const parse = (argv: string[]) => parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });

/** Runs the CLI; resolves to the exit code (in watch mode, once interrupted). */
export async function main(argv: string[], { cwd = process.cwd(), log = consoleLog }: { cwd?: string; log?: Log } = {}): Promise<number> {
  if (argv[0] === 'report') return (await import('./report-cli.js')).reportMain(argv.slice(1), { cwd, log });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    log.error(`agent-scorers: ${(error as Error).message}\n\n${await usage()}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    log.info(version());
    return 0;
  }
  if (values.help) {
    log.info(positionals[0] === 'generate' ? GENERATE_USAGE : await usage());
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'generate') {
    log.error(`agent-scorers: ${positionals.length === 0 ? 'no command given' : `unknown command ${JSON.stringify(positionals.join(' '))}`}.\n\n${await usage()}`);
    return 2;
  }
  let watching: ReturnType<ReturnType<typeof createGenerator>['watch']>;
  try {
    const { options, hostRoot } = await readOptions(values, cwd);
    const generator = createGenerator({ options, hostRoot, outFile: values.out && path.resolve(cwd, values.out), log });
    if (!values.watch) return generator.run().ok ? 0 : 1;
    watching = generator.watch();
  } catch (error) {
    log.error(failureLine(error, cwd));
    return 2;
  }

  log.info('[agent-scorers] watching for changes (Ctrl-C to stop)');
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      watching.close();
      resolve(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Loads `agent-scorers.config.{ts,mts,js,mjs}` (`export default { agentsDir, ... }`). JavaScript is
 * imported as it is. TypeScript is imported directly where Node strips types (22.18+, 24), else
 * bundled with esbuild when it is installed (Node 20), else a clear error saying what to do.
 *
 * Every failure is a FileError naming the config file (verb `load`): a throw at import, a syntax
 * error, or a default export that has not settled after 30 s (a forgotten `await` on a promise that
 * never resolves would otherwise hang the CLI, or end it silently with Node's exit code 13).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { syntaxProblem, type SyntaxProblem } from '../core/ast.js';
import { defaultReadingsFolder } from './reading-store.js';
import { FileError, isAlive, reasonOf } from '../io/write-file.js';

export const CONFIG_FILE_NAMES = ['agent-scorers.config.ts', 'agent-scorers.config.mts', 'agent-scorers.config.js', 'agent-scorers.config.mjs'];

/** How long a config may take to load. The variable is for this package's own tests (CONTRIBUTING.md). */
function timeoutMs(): number {
  const fromEnv = Number(process.env.AGENT_SCORERS_CONFIG_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 30_000;
}

/** The config file in `dir`, or null. Two of them are an error, as two agent configs are. */
export function findConfigFile(dir: string): string | null {
  const found = CONFIG_FILE_NAMES.filter((name) => fs.existsSync(path.join(dir, name)));
  if (found.length > 1) throw new Error(`agent-scorers: ${dir} has ${found.length} config files (${found.join(', ')}); keep one.`);
  return found.length === 1 ? path.join(dir, found[0]) : null;
}

const firstLine = (text: string) => text.trim().split('\n')[0].trim();

/** The config's default export, awaited when it is a promise; every failure a FileError naming `file`. */
export async function loadConfigFile(file: string): Promise<unknown> {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch (error) {
    throw new FileError('read', file, reasonOf(error));
  }
  const limit = timeoutMs();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // This timer is what keeps the process alive while the config awaits something that never settles.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const shown = limit % 1000 === 0 ? `${limit / 1000} s` : `${limit} ms`;
      reject(new FileError('load', file, `it has not loaded after ${shown} (its default export, or something it awaits, never settles)`));
    }, limit);
  });
  try {
    return await Promise.race([importDefault(file), timedOut]);
  } catch (error) {
    if (error instanceof FileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const where = syntaxLocation(error, file);
    if (where) throw new FileError('load', file, `${where}: ${firstLine(message)}`, { cause: error });
    const name = error instanceof Error ? error.name : typeof error;
    throw new FileError('load', file, `it threw ${name}${firstLine(message) ? `: ${firstLine(message)}` : ''}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `file:line:column` of a SyntaxError Node raised while parsing a module, in the form esbuild prints on
 * Node 20. Node's TypeScript stripping starts the stack with `path:line`, the source line and a caret
 * under the column; for JavaScript, oxc-parser finds the place in the config's own source.
 */
function syntaxLocation(error: unknown, file: string): string | null {
  if (!(error instanceof SyntaxError) || typeof error.stack !== 'string') return null;
  const [head, , caret] = error.stack.split('\n');
  const at = /^(?:file:\/\/)?(\/.*|[A-Za-z]:\\.*):(\d+)$/.exec(head ?? '');
  if (!at) {
    // V8 gives a JavaScript module's parse error no place: find it in the config's own source, if it is there.
    let problem: SyntaxProblem | null = null;
    try {
      problem = syntaxProblem(fs.readFileSync(file, 'utf8'), file);
    } catch {
      // unreadable now, or no parser: the message alone
    }
    return problem && `${path.relative(process.cwd(), file) || file}:${problem.line}:${problem.column}`;
  }
  const column = caret !== undefined && /^\s*\^/.test(caret) ? caret.indexOf('^') + 1 : null;
  return `${path.relative(process.cwd(), at[1]) || at[1]}:${at[2]}${column ? `:${column}` : ''}`;
}

async function importDefault(file: string): Promise<unknown> {
  const isTs = /\.m?ts$/.test(file);
  const features = process.features as { typescript?: string | false };
  const module = !isTs || features.typescript ? await import(pathToFileURL(file).href) : await importBundled(file);
  if (!('default' in module)) throw new FileError('load', file, 'it has no default export; write `export default { agentsDir: ... }`');
  return await module.default;
}

/**
 * Node 20 cannot import TypeScript: esbuild bundles the config and its relative imports into one
 * module, which is imported from `node_modules/.cache/agent-scorers/` of the nearest folder that has
 * `node_modules`. From there its bare imports resolve to the same packages as from the config's own
 * folder (Node's lookup walks up through that very `node_modules`), and nothing is ever written
 * beside the user's files, even when the process is killed while the config loads.
 */
async function importBundled(file: string): Promise<Record<string, unknown>> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new FileError(
      'load',
      file,
      `Node ${process.versions.node} does not run TypeScript; use Node 22.18+ or 24, install esbuild, or write the config as agent-scorers.config.mjs`,
    );
  }
  const url = JSON.stringify(pathToFileURL(file).href);
  let result: import('esbuild').BuildResult<{ write: false }>;
  try {
    result = await esbuild.build({
      entryPoints: [file],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      logLevel: 'silent',
      // The config reads as if imported from its own place.
      define: { 'import.meta.url': url, 'import.meta.filename': JSON.stringify(file), 'import.meta.dirname': JSON.stringify(path.dirname(file)) },
    });
  } catch (error) {
    const first = (error as { errors?: Array<{ text: string; location: { file: string; line: number; column: number } | null }> }).errors?.[0];
    if (!first) throw error;
    const where = first.location ? `${first.location.file}:${first.location.line}:${first.location.column + 1}: ` : '';
    throw new FileError('load', file, `${where}${firstLine(first.text)}`);
  }
  const { folder, temporary } = compiledFolder(file);
  const compiled = path.join(folder, `config-${process.pid}-${Math.random().toString(36).slice(2, 10)}.mjs`);
  try {
    fs.writeFileSync(compiled, result.outputFiles[0].text);
    return await import(pathToFileURL(compiled).href);
  } finally {
    fs.rmSync(temporary ? folder : compiled, { force: true, recursive: temporary });
  }
}

/** Where the compiled config goes: the cache folder build tools share, else the system's temp folder. */
function compiledFolder(file: string): { folder: string; temporary: boolean } {
  const cache = defaultReadingsFolder(path.dirname(file));
  if (cache !== null) {
    try {
      fs.mkdirSync(cache, { recursive: true });
      fs.accessSync(cache, fs.constants.W_OK);
      removeStale(cache);
      return { folder: cache, temporary: false };
    } catch {
      // read-only node_modules: the temp folder below (then only Node's built-in modules resolve by bare name)
    }
  }
  return { folder: fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-config-')), temporary: true };
}

/** Compiled configs of processes killed while loading them. */
function removeStale(folder: string): void {
  for (const name of fs.readdirSync(folder)) {
    const pid = /^config-(\d+)-[0-9a-z]+\.mjs$/.exec(name)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) fs.rmSync(path.join(folder, name), { force: true });
  }
}

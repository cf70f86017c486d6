/**
 * Writes the generated registry file and keeps it current: the impure side of
 * `core/generate.ts`, shared by the CLI and the Next.js wrapper. Files are rewritten only when their
 * content changes, each replaced atomically (io/write-file.ts); a generation with errors writes nothing,
 * so the previous files stay in place. A file or folder that cannot be read or written throws a
 * FileError naming it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { syntaxProblem, type SyntaxProblem } from '../core/ast.js';
import { formatDiagnostic, type Diagnostic } from '../core/codes.js';
import { declarationFileOf, defaultOutFile, generateFiles, splitDiagnostics, syntaxDiagnostics } from '../core/generate.js';
import type { CheckedOptions, ResolvedOptions } from '../core/options.js';
import type { Plan } from '../core/plan.js';
import { relativeTo } from '../core/scan.js';
import { createSourceCache } from './source-cache.js';
import { fileStamp } from './reading-store.js';
import { planTree, readingsFile, resolveOptions } from './tree.js';
import { asFileError, failureLine, replaceFile } from '../io/write-file.js';

export interface Log {
  info(text: string): void;
  warn(text: string): void;
  error(text: string): void;
}

export const consoleLog: Log = {
  info: (text) => console.log(text),
  warn: (text) => console.warn(text),
  error: (text) => console.error(text),
};

export interface GeneratorInput {
  options: CheckedOptions;
  /** Root when `options.root` is not set (the CLI's `--root`, Next's project folder); else the cwd. */
  hostRoot?: string;
  /** Absolute path of the registry module; default `defaultOutFile`. */
  outFile?: string;
  log?: Log;
}

export interface GenerationResult {
  ok: boolean;
  /** Files written by this run (unchanged ones are not rewritten). */
  written: string[];
  plan: Plan;
}

const PREFIX = '[agent-scorers] ';
/** How long a burst of file events (a rename, a folder copy, an editor's save) may take. */
const SETTLE_MS = 50;

export function createGenerator(input: GeneratorInput) {
  const log = input.log ?? consoleLog;
  const options: ResolvedOptions = resolveOptions(input.options, input.hostRoot);
  const { root } = options;
  const outFile = input.outFile ?? defaultOutFile(root, isDirectory(path.join(root, 'src')));
  if (!declarationFileOf(outFile)) throw new TypeError(`agent-scorers: the output file must end in .mjs or .js, got ${JSON.stringify(outFile)}.`);
  const manifestFile = options.manifest ? path.resolve(path.dirname(outFile), options.manifest) : null;
  const sources = createSourceCache();
  sources.setCaching(false);
  sources.setStore(readingsFile(options), root);
  /** Syntax checks by file and stamp, so a watch rescan parses only what changed. */
  const syntaxChecked = new Map<string, { stamp: string; problem: SyntaxProblem | null }>();
  const checkSyntax = (file: string): SyntaxProblem | null => {
    const stamp = fileStamp(fs.statSync(file));
    const kept = syntaxChecked.get(file);
    if (kept?.stamp === stamp) return kept.problem;
    const problem = syntaxProblem(fs.readFileSync(file, 'utf8'), file);
    syntaxChecked.set(file, { stamp, problem });
    return problem;
  };
  /** Warnings already printed: in watch mode each distinct one prints once, again only if it comes back. */
  const printed = new Set<string>();
  const shown = (file: string) => relativeTo(root, file);

  function report(diagnostics: Diagnostic[]): boolean {
    const { errors, warnings } = splitDiagnostics(diagnostics);
    const live = new Set(warnings.map(formatDiagnostic));
    for (const text of printed) if (!live.has(text)) printed.delete(text);
    for (const text of live) {
      if (printed.has(text)) continue;
      printed.add(text);
      log.warn(`${PREFIX}${text}`);
    }
    for (const d of errors) log.error(`${PREFIX}error ${formatDiagnostic(d)}`);
    return errors.length === 0;
  }

  /** One generation: scan, plan, report, and write what changed (nothing when there are errors). */
  function run(): GenerationResult {
    let planned: Plan;
    try {
      planned = planTree(options, sources);
      const broken = syntaxDiagnostics(planned, checkSyntax);
      // What the static reading said of a file that does not parse is moot: its syntax error alone.
      const brokenFiles = new Set(broken.map((d) => d.file));
      if (broken.length > 0) planned = { ...planned, diagnostics: [...planned.diagnostics.filter((d) => !brokenFiles.has(d.file)), ...broken] };
    } catch (error) {
      throw asFileError(error, 'read', root);
    }
    if (!report(planned.diagnostics)) {
      log.error(`${PREFIX}${shown(outFile)} was not written (the previous files are kept).`);
      return { ok: false, written: [], plan: planned };
    }
    const files = generateFiles(planned, { outFile, dtsFile: options.dtsFile, manifestFile });
    const written = files.filter((f) => replaceFile(f.file, f.content)).map((f) => f.file);
    const scorers = planned.agents.reduce((n, a) => n + a.files.length, 0);
    const what = `${planned.agents.length} agent${planned.agents.length === 1 ? '' : 's'}, ${scorers} scorer file${scorers === 1 ? '' : 's'}`;
    log.info(`${PREFIX}${written.length > 0 ? `wrote ${written.map(shown).join(', ')}` : `${shown(outFile)} is up to date`} (${what})`);
    return { ok: true, written, plan: planned };
  }

  /**
   * Generates now and again after every change in a folder that decides the result (agents folders,
   * agent and subagent folders, `scorers/`): files added, deleted, renamed or edited, agent folders
   * created or removed. Each folder is watched on its own (no recursion into helpers or node_modules;
   * symlinked folders are watched at their real place), and the set is updated after each run.
   */
  function watch({ persistent = true }: { /** Keep the process alive (the CLI); off inside a host that has its own server. */ persistent?: boolean } = {}): {
    close(): void;
    /** The first generation; null when it failed on a file it could not read (only without `persistent`). */
    ready: GenerationResult | null;
  } {
    sources.setCaching(true);
    /** Folder → its watcher and the folder's inode: a folder deleted and made again needs a new watcher. */
    const watchers = new Map<string, { watcher: fs.FSWatcher; ino: number }>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;

    const schedule = () => {
      if (closed) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (closed) return;
        let result: GenerationResult;
        try {
          result = run();
        } catch (error) {
          // A file deleted mid-scan, a folder made unreadable: said in one line; the next change retries.
          log.error(failureLine(error, root));
          return;
        }
        rearm(result.plan.folders);
      }, SETTLE_MS);
    };

    function rearm(folders: readonly string[]): void {
      const wanted = new Set(folders);
      const inode = (folder: string) => {
        try {
          return fs.statSync(folder).ino;
        } catch {
          return -1;
        }
      };
      for (const [folder, { watcher, ino }] of watchers) {
        if (!wanted.has(folder) || inode(folder) !== ino) {
          watcher.close();
          watchers.delete(folder);
        }
      }
      for (const folder of wanted) {
        if (watchers.has(folder)) continue;
        try {
          const ino = fs.statSync(folder).ino;
          const watcher = fs.watch(folder, { persistent }, schedule);
          // A watched folder that is removed ends its watcher; the rescan this triggers re-arms.
          watcher.on('error', () => {
            watcher.close();
            if (watchers.get(folder)?.watcher === watcher) watchers.delete(folder);
            schedule();
          });
          watchers.set(folder, { watcher, ino });
        } catch {
          // Gone between the scan and now: the event that removed it schedules a rescan.
          schedule();
        }
      }
    }

    let ready: GenerationResult;
    try {
      ready = run();
    } catch (error) {
      // In a dev server the tree is fixed while it runs: say what is wrong, watch the agents folders, retry on a change.
      if (persistent) throw error;
      log.error(failureLine(error, root));
      rearm(options.agentsDirs);
      return { ready: null, close };
    }
    rearm(ready.plan.folders);
    function close(): void {
      closed = true;
      clearTimeout(timer);
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    }
    return { ready, close };
  }

  return { root, outFile, run, watch };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

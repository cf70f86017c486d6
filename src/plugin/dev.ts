/**
 * Dev-server wiring (Vite 7/8, and Vitest, which runs a Vite server). `addWatchFile(dir)` alone never
 * refreshes a virtual module when files are added or deleted, so we listen on `server.watcher`
 * ourselves: it sees folder events too (an empty agent folder, a removed `scorers/`) and runs on
 * every host that has a Vite server, including those where `hotUpdate` does not run. On a change that
 * alters discovery we drop the plan and invalidate our virtual modules in every environment's module
 * graph, then let Vite propagate the update (HMR boundary, page reload or module-runner re-import).
 *
 * Edits of existing scorer files are left to Vite's normal HMR; they re-plan only when what the
 * plan read from the file changed (e.g. a missing default export was fixed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { agentKeyOfResolvedId, isOurId } from '../core/codegen.js';
import type { Plan, PlannedFile } from '../core/plan.js';
import { CONFIG_NAMES, toPosix } from '../core/scan.js';

// Loose structural types: Vite 7's and 8's server types differ in details.
interface ModuleNode {
  id: string | null;
}
// Parameters are `any` so that Vite's richer node types stay assignable (parameter bivariance).
interface ModuleGraph {
  idToModuleMap: Map<string, ModuleNode>;
  invalidateModule(mod: any, seen?: Set<any>, timestamp?: number, isHmr?: boolean): void;
}
interface Environment {
  moduleGraph?: ModuleGraph;
  hot?: { send(payload: { type: 'full-reload'; path: string }): void };
  /** Vite-internal: the environment's own module runner, once something has used `environment.runner`. */
  _runner?: ModuleRunner;
}
/** What a module runner evaluated, keyed by the same ids as the module graph. */
interface RunnerNode {
  id: string;
  /** The id without its query. */
  file: string;
  importers: Set<string>;
}
interface ModuleRunner {
  evaluatedModules?: { idToModuleMap: Map<string, RunnerNode>; invalidateModule(node: RunnerNode): void };
}
type WatchEvent = 'add' | 'unlink' | 'addDir' | 'unlinkDir' | 'change';
export interface DevServer {
  watcher: { on(event: WatchEvent, listener: (file: string) => void): unknown; off?(event: WatchEvent, listener: (file: string) => void): unknown };
  environments?: Record<string, Environment>;
  moduleGraph?: ModuleGraph;
  httpServer?: { once(event: 'close', listener: () => void): unknown } | null;
  /** Vite-internal (Vite 7 and 8): the runner behind `server.ssrLoadModule`, which SvelteKit's dev server uses. */
  _ssrCompatModuleRunner?: ModuleRunner;
}

export interface DevHooks {
  /** Absolute agents folders. */
  agentsDirs: readonly string[];
  /** The current plan, or null when it was dropped and not yet recomputed. */
  plan(): Plan | null;
  /** Drops the cached plan: the next import rescans. */
  invalidatePlan(): void;
  /** The static reading of a scorer file (memoised by the caller). */
  analyseScorer(file: string): unknown;
  /** Called after changes settle (and once at start): re-plan and write side outputs such as the .d.ts. */
  refresh(): void;
  /** The declaration file, watched so it is recreated when deleted; or null. */
  dtsFile: string | null;
  /**
   * Called with the ids of the modules just invalidated in the module graphs, for a host that keeps
   * modules by bookkeeping of its own (Vitest, index.ts `configureVitest`).
   */
  invalidated?(ids: readonly string[]): void;
}

/** How long a burst of watcher events (a rename, a folder copy) may take before `refresh` runs. */
const SETTLE_MS = 40;
/**
 * How often, and how many times, a changed file that reads empty is looked at again. Vite's HMR waits
 * up to 100 ms; on a loaded machine (a CI runner during a test suite) a writer can be held longer
 * between its truncate and its write, and the wait costs nothing unless a file of ours reads empty.
 */
const EMPTY_POLL_MS = 10;
const EMPTY_POLLS = 100;
const statOf = (file: string): fs.Stats | undefined => {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable: the edit's check reports it
  }
};
const stampOf = (file: string): string => {
  const stat = statOf(file);
  return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : 'gone';
};

export function watchAgents(server: DevServer, hooks: DevHooks): () => void {
  const agentsDirs = hooks.agentsDirs.map(toPosix);
  const dtsFile = hooks.dtsFile && toPosix(hooks.dtsFile);
  let timer: ReturnType<typeof setTimeout> | undefined;

  const scheduleRefresh = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      try {
        hooks.refresh();
      } catch {
        // A failing re-plan shows when the module is next imported; never crash the server here.
      }
    }, SETTLE_MS);
    timer.unref?.();
  };

  /** `misread`: `file`'s own module is stale too (see `onChange` and `checkEdit`). */
  const changed = (file: string, misread = false) => {
    hooks.invalidatePlan();
    const ids = invalidateVirtualModules(server, affectedAgent(file, agentsDirs), misread ? file : null);
    if (ids.length > 0) hooks.invalidated?.(ids);
    scheduleRefresh();
  };

  const onStructure = (raw: string) => {
    const file = toPosix(raw);
    if (file === dtsFile) {
      scheduleRefresh(); // deleted or replaced: write it again
      return;
    }
    if (affectsDiscovery(file, agentsDirs, hooks.plan()?.folders ?? [])) changed(file);
  };
  /** Files that read empty after a `change`, looked at again until they are written (see `onChange`). */
  const emptied = new Set<string>();
  let stopped = false;
  const onChange = (raw: string) => {
    const file = toPosix(raw);
    if (file === dtsFile) {
      scheduleRefresh(); // edited by hand: restore it
      return;
    }
    if (emptied.has(file)) return; // its wait checks it
    const planned = hooks.plan();
    const ours = planned ? filesOf(planned).has(file) : affectedAgent(file, agentsDirs) !== null;
    // A save that truncates and then writes can be reported between the two: chokidar drops a second
    // `change` of one path within 50 ms of the first, so nothing would tell us of the content, and a
    // reading of the empty file can equal the plan's (a file without a default export, being fixed).
    // As Vite's HMR does, an empty file is looked at again until it changes (or stays empty).
    if (ours && statOf(file)?.size === 0) {
      emptied.add(file);
      const before = stampOf(file);
      let polls = 0;
      const poll = () => {
        if (stopped) return;
        if (stampOf(file) === before && ++polls < EMPTY_POLLS) return void setTimeout(poll, EMPTY_POLL_MS);
        emptied.delete(file);
        if (stampOf(file) === before) return checkEdit(file); // left empty
        // Written since. Vite's HMR acted on the report at once, so a runner may have run the empty
        // file meanwhile, and no report of the write will come: every runner, in this process or not
        // (a Worker's), fetches the file and our modules afresh, from a new plan.
        forgetInRunners(server, (node) => node.file === file || node.id === file);
        changed(file, true);
      };
      setTimeout(poll, EMPTY_POLL_MS);
      return;
    }
    checkEdit(file);
  };
  /** Re-plans when an edit changed what the plan read from `file`; otherwise lets Vite's HMR handle it. */
  const checkEdit = (file: string) => {
    const planned = hooks.plan();
    // Vite finds a changed file's modules by its path up to a `?` or `#`, so it never updates a scorer
    // file or config whose path holds one (the plugin reads those itself, index.ts `load`): we do.
    const misread = /[?#]/.test(file) && planned !== null && filesOf(planned).has(file);
    // Without a plan we cannot compare, but the served modules may predate the edit: be safe.
    const stale = misread || (planned ? editChangesPlan(planned, file, hooks.analyseScorer) : affectsDiscovery(file, agentsDirs, []));
    if (stale) {
      forgetInRunners(server, (node) => node.file === file || node.id === file);
      changed(file, misread);
    } else if (planned !== null && filesOf(planned).has(file)) {
      // Vite's HMR handles the edit, but tells only the first runner to fetch again (see
      // forgetInRunners): another would keep the old scorer, or our module's failed import of it
      // while it was broken (a failed import is not linked to the file it failed on).
      const ours = isStale(affectedAgent(file, agentsDirs));
      forgetInRunners(server, (node) => node.file === file || ours(node.id));
    }
  };

  const events: Array<[WatchEvent, (file: string) => void]> = [
    ['add', onStructure],
    ['unlink', onStructure],
    ['addDir', onStructure],
    ['unlinkDir', onStructure],
    ['change', onChange],
  ];
  for (const [event, listener] of events) server.watcher.on(event, listener);
  scheduleRefresh();

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const [event, listener] of events) server.watcher.off?.(event, listener);
  };
  server.httpServer?.once('close', stop);
  return stop;
}

/**
 * Whether adding or removing `file` can change discovery: an agents folder (or a folder above it),
 * an agent or subagent folder, its `config.*`, its `scorers/` folder or a direct child of it. Other
 * files in agent folders (instructions.md, helpers under scorers/lib/) do not matter. A folder the
 * plan read through a symlink is matched by its real path.
 */
export function affectsDiscovery(file: string, agentsDirs: readonly string[], folders: readonly string[]): boolean {
  for (const dir of agentsDirs) {
    if (file === dir || dir.startsWith(`${file}/`)) return true;
    if (file.startsWith(`${dir}/`)) return inAgent(file.slice(dir.length + 1).split('/'));
  }
  const parent = path.posix.dirname(file);
  return folders.includes(parent) || folders.includes(file);
}

/** `segments` start at an agent folder's name (relative to its parent folder). */
function inAgent(segments: string[]): boolean {
  if (segments.length <= 1) return true;
  const [, second, ...rest] = segments;
  if (rest.length === 0) return second === 'scorers' || second === 'subagents' || (CONFIG_NAMES as readonly string[]).includes(second);
  if (second === 'scorers') return rest.length === 1;
  if (second === 'subagents') return inAgent(rest);
  return false;
}

/**
 * The key of the agent (or subagent) whose folder holds `file`, e.g. `weather/planner` for
 * `<agentsDir>/weather/subagents/planner/scorers/x.ts`; null when `file` is not inside an agent
 * folder (an agents folder itself, or a folder reached through a symlink): then every module is stale.
 */
export function affectedAgent(file: string, agentsDirs: readonly string[]): string | null {
  for (const dir of agentsDirs) {
    if (!file.startsWith(`${dir}/`)) continue;
    const segments = file.slice(dir.length + 1).split('/');
    let key = segments[0];
    for (let i = 1; segments[i] === 'subagents' && i + 1 < segments.length; i += 2) key += `/${segments[i + 1]}`;
    return key;
  }
  return null;
}

/**
 * Invalidates `virtual:agent-scorers` and the changed agent's modules (and `file`'s, when given) in
 * every environment's module graph (so `ssrLoadModule` and any fetch see fresh code), then tells each
 * environment that holds one of them to reload, as Vite does for an update without an HMR boundary:
 * the browser reloads the page, a module runner re-imports its entry points.
 * (`environment.reloadModule` would route virtual ids through a file path that module runners never
 * match, so they would keep stale modules.) Returns the ids it invalidated.
 */
function invalidateVirtualModules(server: DevServer, agent: string | null = null, file: string | null = null): string[] {
  const ours = isStale(agent);
  // `file`: a module of a user's file, by its id, invalidated with ours.
  const stale = (id: string) => id === file || ours(id);
  const environments = server.environments ? Object.values(server.environments) : [];
  const graphs: Array<[ModuleGraph, Environment | null]> = environments.flatMap((env) => (env.moduleGraph ? [[env.moduleGraph, env] as [ModuleGraph, Environment]] : []));
  if (graphs.length === 0 && server.moduleGraph) graphs.push([server.moduleGraph, null]);
  const timestamp = Date.now();
  const ids = new Set<string>();
  for (const [graph, env] of graphs) {
    const mods = [...graph.idToModuleMap.values()].filter((mod) => mod.id !== null && stale(mod.id));
    if (mods.length === 0) continue;
    for (const mod of mods) ids.add(mod.id!);
    // Twice, as Vite does for a changed file: the plain invalidation stamps the module so that a
    // transform already running (its load saw the old folders) is not cached when it ends; the HMR
    // one gives browsers a fresh `?t=` to import. The HMR one alone let such a transform cache old
    // code for good.
    const plain = new Set<ModuleNode>();
    for (const mod of mods) graph.invalidateModule(mod, plain);
    const hmr = new Set<ModuleNode>();
    for (const mod of mods) graph.invalidateModule(mod, hmr, timestamp, true);
    env?.hot?.send({ type: 'full-reload', path: '*' });
  }
  forgetInRunners(server, (node) => stale(node.id));
  return [...ids];
}

/**
 * Whether `id` is one of our modules that `agent`'s change makes stale: the registry and the agent's
 * modules (its subagents too, for a removed folder); every one of ours when `agent` is null.
 * Re-running every agent module would re-request every scorer file on a large tree.
 */
function isStale(agent: string | null): (id: string) => boolean {
  return (id) => {
    if (!isOurId(id)) return false;
    const key = agentKeyOfResolvedId(id);
    return agent === null || key === null || key === agent || key.startsWith(`${agent}/`);
  };
}

/**
 * Drops our stale modules, and every module that imports them, from each module runner in this
 * process. A runner re-fetches a module it has evaluated only when the server says the module
 * changed, and the server says so once: to whichever runner asks first, after which the fresh
 * transform counts as cached for every other runner. So with two runners on one environment (the
 * one behind `ssrLoadModule`, which SvelteKit serves requests with and which has no HMR, and the
 * environment's own, which our full reload makes re-import at once), the second kept serving the
 * old registry, even while the new one failed on a broken file. A node without its fetched code is
 * fetched again in full on its next import.
 */
function forgetInRunners(server: DevServer, stale: (node: RunnerNode) => boolean): void {
  const environments = server.environments ? Object.values(server.environments) : [];
  for (const runner of [server._ssrCompatModuleRunner, ...environments.map((env) => env._runner)]) {
    const evaluated = runner?.evaluatedModules;
    if (!evaluated) continue;
    const seen = new Set<string>();
    const forget = (id: string) => {
      const node = evaluated.idToModuleMap.get(id);
      if (!node || seen.has(id)) return;
      seen.add(id);
      const importers = [...node.importers];
      evaluated.invalidateModule(node);
      importers.forEach(forget);
    };
    for (const node of [...evaluated.idToModuleMap.values()]) if (stale(node)) forget(node.id);
  }
}

/** Per plan: each planned config path (to `'config'`) and scorer file path (to its planned file). */
const plannedFiles = new WeakMap<Plan, Map<string, 'config' | PlannedFile>>();

function filesOf(planned: Plan) {
  let files = plannedFiles.get(planned);
  if (!files) {
    files = new Map();
    for (const agent of planned.agents) {
      if (agent.folder.config) files.set(`${agent.folder.path}/${agent.folder.config}`, 'config');
      for (const scorer of agent.files) files.set(scorer.path, scorer);
    }
    plannedFiles.set(planned, files);
  }
  return files;
}

/**
 * Whether editing `file` changes what `planned` read from it: any edit of a planned config (its
 * `scorers` may have changed shape, say record to function); for a scorer file, only a different
 * static reading (default export, shape, literal sampling). `analyse` is memoised by the caller.
 * Every save in the project lands here, so the lookup is one map access.
 */
function editChangesPlan(planned: Plan, file: string, analyse: (file: string) => unknown): boolean {
  const known = filesOf(planned).get(file);
  if (known === undefined) return false;
  if (known === 'config') return true;
  try {
    return JSON.stringify(analyse(file)) !== JSON.stringify(known.analysis);
  } catch {
    return true; // unreadable now: let the next import report it
  }
}

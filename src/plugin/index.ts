/**
 * The thin adapter from bundler hooks to the pure core. One plugin object serves Vite 7/8,
 * Rollup 4 and Rolldown 1: only hooks and context methods that every host implements are used,
 * and Vite-only hooks are simply ignored elsewhere.
 */
import fs from 'node:fs';
import { formatDiagnostic, type Diagnostic } from '../core/codes.js';
import {
  agentKeyOfResolvedId,
  agentKeyOfSpecifier,
  agentModule,
  isOurId,
  ONCE_ID,
  ONCE_MODULE,
  registryModule,
  RESOLVED_ID,
  RESOLVED_ONCE_ID,
  resolvedAgentId,
  VIRTUAL_ID,
} from '../core/codegen.js';
import { manifestJson } from '../core/manifest.js';
import { checkOptions, type Options, type ResolvedOptions } from '../core/options.js';
import type { AgentPlan, Plan } from '../core/plan.js';
import { watchAgents, type DevServer } from './dev.js';
import { installInspector, type InspectorServer } from './inspector/index.js';
import { BRIDGE_ID, bridgeModule, wantsBridge, type EnvironmentLike } from './inspector/env.js';
import { HELPER } from './helper-path.js';
import { loadOutcome, removeOutcome, saveOutcome, type Outcome } from './outcome-store.js';
import { createSourceCache } from './source-cache.js';
import { replaceFile } from '../io/write-file.js';
import { importedFiles, outcomeFingerprint, planTree, resolveOptions, storeFiles, unimportedFiles, unknownAgentError, writeDeclarations } from './tree.js';

export type { Options } from '../core/options.js';


/** Our ids, and files whose path a dev server would misread as holding a query or hash (see `load`). */
const LOAD_FILTER = new RegExp(`^\\0${VIRTUAL_ID}|[?#]`);
/**
 * Generated code maps to no source: Rollup's "no source map" value, so hosts that would otherwise map
 * the module character by character do not (Vite's SSR transform did, ~45 ms for a 1,000-agent registry).
 */
const NO_MAP = { mappings: '' } as const;

// Loose structural types: the same object must satisfy Vite's, Rollup's and Rolldown's Plugin types,
// which differ in details; each entry file gives the factory its host's return type.
type Context = {
  /** Vite only: the environment being built or served. */
  environment?: unknown;
  warn: (message: string) => void;
  error: (error: { message: string; stack: string }) => never;
  addWatchFile: (id: string) => void;
  emitFile: (file: { type: 'asset'; fileName: string; source: string }) => string;
};

/**
 * Stops the build with our diagnostic lines and no stack trace: a stack of our own frames says nothing
 * the lines do not. Rollup and Rolldown copy the object's fields onto their error, and every host prints
 * a stack only when there is one (Rollup's and Rolldown's CLIs, Vite 7's `e.stack` after Vite puts the
 * message in front of it, Rolldown's summary inside Vite 8's), so an empty `stack` leaves the lines alone.
 */
function fail(ctx: Pick<Context, 'error'>, message: string): never {
  return ctx.error({ message, stack: '' });
}

/** What we use of Vitest's `vitest` object: its watcher's entry for a changed file (public in Vitest 4 and 5; optional elsewhere). */
type VitestHost = { watcher?: { onFileChange?(file: string): void } };

/**
 * The Vite app build in progress: its environments and the warnings already printed in it. Kept on
 * globalThis because each environment's plugin object may come from its own copy of this module
 * (Vite bundles a config that imports the plugin by path). Under `--watch` each environment's n-th
 * build belongs to round n: the first environment to start a new round empties `printed`, so every
 * rebuild prints its warnings again, once across the environments of that round.
 */
const APP_BUILD = Symbol.for('agent-scorers.appBuild');
type AppBuild = { environments: Set<unknown>; printed: Set<string>; builds: Map<unknown, number>; round: number };
const appBuildState = globalThis as { [APP_BUILD]?: AppBuild };

export function agentScorers(userOptions?: Options) {
  const checked = checkOptions(userOptions);
  let hostRoot: string | undefined;
  let options: ResolvedOptions | null = null;
  let current: Plan | null = null;
  /** The declaration file's text for `current` (option `dts`), kept with a build's outcome. */
  let currentDts: string | null = null;
  let loadedThisBuild = false;
  /** Folders are watched once per build: every module of ours used to add all of them (O(agents²)). */
  let watchedThisBuild = false;
  /**
   * Watch mode or a dev server: only then does anything read the files we watch. Elsewhere
   * `addWatchFile` is pure cost (a native call per file under Rolldown).
   */
  let watching = false;
  /** Under Vite, generated imports use Vite's own `/@fs/` form, which its resolver maps without probing. */
  let vite = false;
  /** Printed diagnostics: reset per build; in a dev server kept, so each distinct warning prints once. */
  const printed = new Set<string>();
  /** Errors raised in this build (one-shot and watch builds; a dev server raises them on every load). */
  const raised = new Set<string>();
  let serving = false;
  /** A dev server's environments that have loaded the registry or an agent's module (the inspector runs scorers there). */
  const importedIn = new Set<string>();
  /** The dev inspector is on: environments that run outside this process get its bridge (inspector/env.ts). */
  let inspecting = false;
  /** The Vitest instance running our server, when there is one (`configureVitest`). */
  let vitest: VitestHost | null = null;
  const sources = createSourceCache();

  /**
   * Vite maps `/@fs/` without probing, but turns `\\` into `/` and may read `?`, `#` or `%` as URL
   * syntax: such rare paths keep the plain absolute form, which our resolveId maps verbatim.
   */
  const specifier = (file: string): string =>
    vite && !/[\\?#%]/.test(file) ? `/@fs${file.startsWith('/') ? '' : '/'}${file}` : file;

  /** Vite's `cacheDir`, where the readings are kept between builds (option `cache`). */
  let hostCacheDir: string | undefined;
  /** Where a one-shot build's outcome is kept (outcome-store.ts), and what else it depends on; null with `cache: false`. */
  let keeping: { file: string; fingerprint: string } | null = null;
  /** The outcome this build served, when the last one's inputs all held. */
  let keptThisBuild: Outcome | null = null;
  const resolved = (): ResolvedOptions => {
    if (options === null) {
      options = resolveOptions(checked, hostRoot);
      const files = storeFiles(options, hostCacheDir);
      sources.setStore(files?.readings ?? null, options.root);
      keeping = files && { file: files.outcome, fingerprint: outcomeFingerprint(options, `${vite ? 'vite' : 'paths'}\n${HELPER}`) };
    }
    return options;
  };

  const currentPlan = (): Plan => {
    if (current) return current;
    const o = resolved();
    current = planTree(o, sources);
    const live = new Set(current.diagnostics.map(formatDiagnostic));
    // A fixed problem is forgotten, so it is reported again if it comes back.
    for (const text of printed) if (!live.has(text)) printed.delete(text);
    // Rewritten only when its content changes; written again if deleted.
    // Null when not written (writeDeclarations): a kept outcome then restores nothing either.
    currentDts = o.dtsFile ? writeDeclarations(current, o.dtsFile) : null;
    return current;
  };

  /**
   * Reports through the host: warnings in `scope` print once; every error in `errorScope` (warnings
   * that `strict` or `diagnostics` made errors included: the plan holds effective severities) stops
   * the build in one message, so a user sees all problems at once.
   */
  function report(ctx: Context, scope: Diagnostic[], errorScope: Diagnostic[] = scope): void {
    // An error the registry module already raised is not raised again by an agent's module (or the
    // other way round) in the same build: Rolldown collects every module's errors and would print it twice.
    const errors = errorScope.filter((d) => d.severity === 'error').map(formatDiagnostic).filter((text) => serving || !raised.has(text));
    if (!serving) for (const text of errors) raised.add(text);
    // Warnings first: every host prints what was warned before the error that stops the build, and
    // drops nothing it was told, so a build that fails still shows its collisions.
    const app = appBuildState[APP_BUILD];
    const seen = app && ctx.environment && app.environments.has(ctx.environment) ? app.printed : printed;
    for (const d of scope) {
      if (d.severity === 'error') continue;
      const text = formatDiagnostic(d);
      if (!seen.has(text)) {
        seen.add(text);
        ctx.warn(text);
      }
    }
    if (errors.length > 0) fail(ctx, errors.join('\n'));
  }

  /** The files a generated module stands for: watched when something watches, imported ones resolved by us. */
  function useAgentFiles(ctx: Context, agent: AgentPlan): void {
    if (watching) for (const file of unimportedFiles(agent)) ctx.addWatchFile(file);
    for (const file of importedFiles(agent)) sources.rememberFile(file);
  }

  /** The last build's outcome if every input still holds (its declarations restored), else null. */
  function keptOutcome(): Outcome | null {
    const o = resolved();
    if (keeping === null) return null;
    keptThisBuild = loadOutcome(keeping.file, keeping.fingerprint);
    if (keptThisBuild && o.dtsFile && keptThisBuild.dts !== null) replaceFile(o.dtsFile, keptThisBuild.dts);
    return keptThisBuild;
  }

  /** After a plan's registry was served: its outcome for the next build, if every input can be checked by a stat. */
  function keepOutcome(planned: Plan, code: string): void {
    if (keeping === null) return;
    const inputs = sources.inputs();
    // A plan with an error replaces the last outcome with none: the build stops, nothing to serve.
    if (inputs === null || planned.diagnostics.some((d) => d.severity === 'error')) return removeOutcome(keeping.file);
    // Only what the next build uses is kept: reading a large file costs more than a stat per input.
    // (Vite never asks our resolveId about `/@fs/` imports, only about the rare plain paths; the
    // manifest asset is opt-in.)
    const imported = planned.agents.flatMap(importedFiles).filter((file) => specifier(file) === file);
    const manifest = checked.manifest ? manifestJson(planned.manifest) : null;
    saveOutcome(keeping.file, keeping.fingerprint, inputs, { code, diagnostics: planned.diagnostics, manifest, dts: currentDts, imported });
  }

  return {
    name: 'agent-scorers',
    // Vite only: run our resolveId before Vite's resolver, which would stat each absolute path first.
    enforce: 'pre' as const,

    configResolved(config: { root: string; command: string; cacheDir?: string }) {
      hostRoot = config.root;
      hostCacheDir = config.cacheDir;
      vite = true;
      serving = config.command === 'serve';
      options = null;
    },

    // Vitest 3.1+. Vitest keeps transformed modules in a cache of its own (on disk since Vitest 5, looked
    // up by id for the session) that drops a module only when its watcher reports the module's file,
    // and reruns only the tests whose imports it saw change. Our modules have no file on disk, so an
    // added or deleted scorer file left the registry cached and no test rerun. Reporting our
    // invalidated ids as changed files does both, as for any edited dependency (their `file` is the id).
    configureVitest({ vitest: host }: { vitest: VitestHost }) {
      vitest = host;
    },

    // Vite dev server and Vitest: reflect added, deleted and renamed files without a restart (dev.ts).
    configureServer(server: DevServer & InspectorServer) {
      const o = resolved();
      watchAgents(server, {
        agentsDirs: o.agentsDirs,
        dtsFile: o.dtsFile,
        plan: () => current,
        invalidatePlan: () => void (current = null),
        analyseScorer: sources.analysers.scorer,
        invalidated: (ids) => {
          for (const id of ids) vitest?.watcher?.onFileChange?.(id);
        },
        // A new plan writes the declarations itself; a cached one rewrites them here, so a deleted or
        // hand-edited file comes back.
        refresh: () => {
          const cached = current;
          const planned = currentPlan();
          if (cached && o.dtsFile) writeDeclarations(planned, o.dtsFile);
        },
      });
      // The dev inspector page at /__agent-scorers/ (inspector/), unless `inspector: false`.
      inspecting = Boolean(o.inspector);
      if (o.inspector) {
        installInspector(server, {
          getPlan: currentPlan,
          root: o.root,
          remote: o.inspector.remote,
          runTimeout: o.inspector.runTimeout,
          importedIn: () => importedIn,
          specifier,
          helper: HELPER,
        });
      }
    },

    // `vite build` of an app builds each environment (client, ssr) with a plugin object of its own
    // (Vite resolves the config again per environment), so the environments share one print-once set.
    buildApp: {
      order: 'pre' as const,
      async handler(builder: { environments: Record<string, unknown> }) {
        appBuildState[APP_BUILD] = { environments: new Set(Object.values(builder.environments)), printed: new Set(), builds: new Map(), round: 0 };
      },
    },

    buildStart(this: { meta?: { watchMode?: boolean }; environment?: unknown }) {
      watching = serving || this.meta?.watchMode === true;
      sources.setCaching(watching);
      loadedThisBuild = false;
      watchedThisBuild = false;
      keptThisBuild = null;
      if (!serving) {
        // Every build (and every watch rebuild) reads the folders afresh; the source cache keeps
        // unchanged files' analyses.
        current = null;
        printed.clear();
        raised.clear();
        const app = appBuildState[APP_BUILD];
        if (app && this.environment && app.environments.has(this.environment)) {
          const n = (app.builds.get(this.environment) ?? 0) + 1;
          app.builds.set(this.environment, n);
          if (n > app.round) {
            app.round = n;
            app.printed.clear();
          }
        }
      }
    },

    resolveId: {
      // `/@fs/` specifiers (ours under Vite) are left to Vite without a call into JS.
      filter: { id: /^\0?virtual:agent-scorers|^\/[^@]|^[A-Za-z]:[\\/]/ },
      handler(this: { environment?: unknown }, source: string, importer: string | undefined) {
        // The dev registry imports its agents by resolved id (codegen.ts).
        if (importer === RESOLVED_ID && agentKeyOfResolvedId(source) !== null) return source;
        if (source === VIRTUAL_ID) return RESOLVED_ID;
        if (source === ONCE_ID) return RESOLVED_ONCE_ID;
        // The inspector's bridge exists only where the dev server puts it (never in a browser's environment).
        if (source === BRIDGE_ID) return serving && wantsBridge(this.environment as EnvironmentLike | undefined) ? BRIDGE_ID : null;
        const agentKey = agentKeyOfSpecifier(source);
        if (agentKey !== null) return resolvedAgentId(agentKey);
        // Our own static imports point at files we just found; skip the host's lookup.
        if (importer && isOurId(importer) && sources.isKnownFile(source)) return source;
        return null;
      },
    },

    load: {
      filter: { id: LOAD_FILTER },
      handler(this: Context, id: string) {
        // A dev server reads a file by its id up to the first `?` or `#`, so a scorer file or config
        // whose path holds one (an agent folder `c#`, a file `what?.ts`) would not be found. Our modules
        // import such files by their plain path (`specifier`): we read them. Builds read them right.
        if (serving && /[?#]/.test(id) && sources.isKnownFile(id)) return fs.readFileSync(id, 'utf8');
        if (id === BRIDGE_ID && serving) return { code: bridgeModule(specifier), moduleType: 'js', map: NO_MAP };
        if (!isOurId(id)) return null;
        if (id === RESOLVED_ONCE_ID) return { code: ONCE_MODULE, moduleType: 'js', map: NO_MAP };
        loadedThisBuild = true;
        // In a dev server: where the app imports the registry, the inspector runs scorers; an
        // environment outside this process gets the bridge that lets it (imported first, below).
        const environment = this.environment as EnvironmentLike | undefined;
        if (serving && environment?.name) importedIn.add(environment.name);
        const bridge = serving && inspecting && wantsBridge(environment) ? `import ${JSON.stringify(BRIDGE_ID)};\n` : '';
        const agentKey = agentKeyOfResolvedId(id);
        // A one-shot build of an unchanged tree: the last build's registry, checked by a stat per input.
        const kept = agentKey === null && !watching && current === null ? keptOutcome() : null;
        if (kept) {
          report(this, kept.diagnostics);
          for (const file of kept.imported) sources.rememberFile(file);
          return { code: kept.code, moduleType: 'js', map: NO_MAP };
        }
        const planned = currentPlan();
        if (watching && !watchedThisBuild) {
          watchedThisBuild = true;
          for (const folder of planned.folders) this.addWatchFile(folder);
        }
        if (agentKey === null) {
          if (serving) {
            // Agents' own warnings print from their modules, which every registry load loads; a registry
            // that fails loads none of them, so it prints them all before its error.
            const failing = planned.diagnostics.some((d) => d.severity === 'error');
            const own = failing ? planned.diagnostics : planned.diagnostics.filter((d) => d.agent === null || !planned.byKey.has(d.agent));
            report(this, own, planned.diagnostics);
            return { code: bridge + registryModule(planned, specifier(HELPER)), moduleType: 'js', map: NO_MAP };
          }
          // A build inlines every agent: one module instead of one per agent (codegen.ts says why).
          const code = registryModule(planned, specifier(HELPER), { kind: 'inline', specifier });
          if (!watching) keepOutcome(planned, code);
          report(this, planned.diagnostics);
          for (const agent of planned.agents) useAgentFiles(this, agent);
          return { code, moduleType: 'js', map: NO_MAP };
        }
        const agent = planned.byKey.get(agentKey);
        if (!agent) fail(this, unknownAgentError(planned, agentKey));
        report(this, planned.diagnostics.filter((d) => d.agent === agentKey));
        useAgentFiles(this, agent);
        // In a build the registry module holds this agent too: both build its record once.
        return { code: bridge + agentModule(agent, specifier(HELPER), specifier, planned.levels, serving ? 'defineAgent' : 'defineAgentOnce'), moduleType: 'js', map: NO_MAP };
      },
    },

    generateBundle: {
      // Late, because Vite drops assets from SSR builds in its own generateBundle.
      order: 'post' as const,
      handler(this: Context) {
        if (!checked.manifest || !loadedThisBuild) return;
        const source = (current === null && keptThisBuild?.manifest) || manifestJson(currentPlan().manifest);
        this.emitFile({ type: 'asset', fileName: checked.manifest, source });
      },
    },
  };
}


export default agentScorers;

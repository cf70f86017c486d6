/**
 * `agent-scorers/esbuild`: the virtual modules on esbuild's own plugin API (for esbuild, tsup and
 * wrangler). Our modules live in a namespace of ours; they import scorer files and the registry
 * helper by absolute path, which esbuild resolves from the `resolveDir` we give. Diagnostics are
 * esbuild warnings and errors in the printed form of every host, without a location (toMessage).
 */
import path from 'node:path';
import type { Message, PartialMessage, Plugin } from 'esbuild';
import { agentKeyOfSpecifier, agentModule, ONCE_ID, ONCE_MODULE, registryModule, VIRTUAL_ID } from '../core/codegen.js';
import { formatDiagnostic, type Diagnostic } from '../core/codes.js';
import { splitDiagnostics } from '../core/generate.js';
import { manifestJson } from '../core/manifest.js';
import { checkOptions, type Options, type ResolvedOptions } from '../core/options.js';
import type { Plan } from '../core/plan.js';
import { HELPER } from './helper-path.js';
import { createSourceCache } from './source-cache.js';
import { planTree, readingsFile, resolveOptions, unimportedFiles, unknownAgentError, writeDeclarations } from './tree.js';
import { replaceFile } from '../io/write-file.js';

export type { Options } from '../core/options.js';

const NAMESPACE = 'agent-scorers';
const SPECIFIER = new RegExp(`^${VIRTUAL_ID}(/.*|:once)?$`);
const sameFile = (file: string): string => file;

/**
 * The printed form of every host (code and file in the text) and no location: esbuild prints a
 * location without a line as `file:0:0` under an empty code frame, and our diagnostics know the file,
 * not a line.
 */
const toMessage = (d: Diagnostic): PartialMessage => ({ text: formatDiagnostic(d), location: null });

export function agentScorers(userOptions?: Options): Plugin {
  const checked = checkOptions(userOptions);
  return {
    name: 'agent-scorers',
    setup(build) {
      const options: ResolvedOptions = resolveOptions(checked, build.initialOptions.absWorkingDir);
      const sources = createSourceCache();
      sources.setStore(readingsFile(options), options.root);
      let current: Plan | null = null;
      let loaded = false;
      /**
       * Diagnostics already returned in this build: the registry holds every agent, so its and an agent
       * module's overlap; each prints once.
       */
      const raised = new Set<string>();
      const fresh = (diagnostics: Diagnostic[]) =>
        diagnostics.filter((d) => {
          const text = formatDiagnostic(d);
          if (raised.has(text)) return false;
          raised.add(text);
          return true;
        });

      const currentPlan = (): Plan => {
        if (current) return current;
        current = planTree(options, sources);
        if (options.dtsFile) writeDeclarations(current, options.dtsFile);
        return current;
      };

      // Each build (and each rebuild of a context) reads the folders afresh.
      build.onStart(() => {
        current = null;
        loaded = false;
        raised.clear();
      });

      build.onResolve({ filter: SPECIFIER }, (args) => ({ path: args.path, namespace: NAMESPACE }));

      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const base = { resolveDir: options.root, loader: 'js' as const };
        if (args.path === ONCE_ID) return { ...base, contents: ONCE_MODULE };
        loaded = true;
        const planned = currentPlan();
        const agentKey = agentKeyOfSpecifier(args.path);
        if (agentKey === null) {
          // Every agent inline, as in the Rollup-style adapter's builds (one load instead of one per
          // agent); so every diagnostic of the tree comes from here, and every file it stands for is watched.
          const { errors, warnings } = splitDiagnostics(planned.diagnostics);
          return {
            ...base,
            contents: registryModule(planned, HELPER, { kind: 'inline', specifier: sameFile }),
            errors: fresh(errors).map(toMessage),
            warnings: fresh(warnings).map(toMessage),
            watchDirs: planned.folders,
            watchFiles: planned.agents.flatMap(unimportedFiles),
          };
        }
        const agent = planned.byKey.get(agentKey);
        if (!agent) return { errors: [{ text: unknownAgentError(planned, agentKey), location: null }] };
        const own = splitDiagnostics(planned.diagnostics.filter((d) => d.agent === agentKey));
        return {
          ...base,
          // The registry builds this agent's record too: both give the bundle the very same object.
          contents: agentModule(agent, HELPER, sameFile, planned.levels, 'defineAgentOnce'),
          errors: fresh(own.errors).map(toMessage),
          warnings: fresh(own.warnings).map(toMessage),
          // Its own folder and scorers/ only: handing every agent module every folder is O(agents²).
          watchDirs: [agent.folder.path, `${agent.folder.path}/scorers`],
          watchFiles: unimportedFiles(agent),
        };
      });

      // esbuild has no assets: the manifest is written into the output folder after a good build.
      build.onEnd((result: { errors: Message[] }) => {
        const { outdir, outfile, write } = build.initialOptions;
        const dir = outdir ?? (outfile ? path.dirname(outfile) : null);
        if (!checked.manifest || !loaded || !current || result.errors.length > 0 || write === false || !dir) return;
        // esbuild resolves outdir/outfile from its working folder, not from our root.
        const file = path.resolve(build.initialOptions.absWorkingDir ?? process.cwd(), dir, checked.manifest);
        replaceFile(file, manifestJson(current.manifest));
      });
    },
  };
}

export default agentScorers;

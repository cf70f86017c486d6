/**
 * `agent-scorers/next`: `withAgentScorers(nextConfig, options?)` for Next 15 and 16. Turbopack runs no
 * Rollup plugins and has no virtual modules, so the registry is a real generated file
 * and `virtual:agent-scorers` is mapped to it: `turbopack.resolveAlias` (a path relative to the
 * project) for Turbopack, a module replacement for webpack (which reads `virtual:` as a URI scheme,
 * so `resolve.alias` cannot map it).
 *
 * Next loads its config in several processes (a build's workers, dev's server child). The first one
 * to load it generates (once for `next build`, watching for `next dev`) and marks the environment,
 * which the processes it starts inherit; they only add the aliases. So each diagnostic prints once
 * and one watcher runs.
 *
 * A registry with errors ends `next build` from here, after printing the diagnostics and one line
 * saying so: an error thrown from a config function is printed by Next as `Failed to load
 * next.config.mjs` with our stack, which points the user at the wrong file.
 */
import path from 'node:path';
import { VIRTUAL_ID } from '../core/codegen.js';
import { toPosix } from '../core/scan.js';
import { checkOptions, type Options } from '../core/options.js';
import { consoleLog, createGenerator } from './generate.js';
import { failureLine } from '../io/write-file.js';

export type { Options } from '../core/options.js';

// Loose structural types, so Next 15's and 16's config types both fit and `next` stays optional.
type NextConfig = Record<string, any>;
type Phase = string;
type NextConfigFunction = (phase: Phase, context: { defaultConfig: NextConfig; [k: string]: unknown }) => NextConfig | Promise<NextConfig>;

/** Set by the process that generated; inherited by the processes Next starts after it. */
const MARK = 'AGENT_SCORERS_NEXT_GENERATED';
const PHASE_BUILD = 'phase-production-build';
const PHASE_DEV = 'phase-development-server';

const SPECIFIER = new RegExp(`^${VIRTUAL_ID}$`);

export function withAgentScorers(nextConfig: NextConfig | NextConfigFunction = {}, options?: Options): NextConfigFunction {
  const checked = checkOptions(options);
  // Next type-checks every app and writes tsconfig.json itself on the first build, after this config
  // has run; so the ambient declarations are on by default here, or that first build could not see
  // `virtual:agent-scorers`.
  checked.dts ??= true;
  return async (phase, context) => {
    const base: NextConfig = typeof nextConfig === 'function' ? await nextConfig(phase, context) : nextConfig;
    const generator = createGenerator({ options: checked, hostRoot: process.cwd() });
    if ((phase === PHASE_BUILD || phase === PHASE_DEV) && !process.env[MARK]) {
      process.env[MARK] = String(process.pid);
      if (phase === PHASE_BUILD) {
        let ok = false;
        try {
          ok = generator.run().ok;
        } catch (error) {
          consoleLog.error(failureLine(error, process.cwd()));
        }
        if (!ok) {
          consoleLog.error('agent-scorers: the scorer registry has errors; fix them and build again.');
          process.exit(1);
        }
      } else {
        // Lives as long as the dev server, and never keeps a process alive by itself: Next also loads
        // the dev config in short-lived helpers (its telemetry flush), which must still exit. A failed
        // generation keeps the previous file and waits for a fix.
        generator.watch({ persistent: false });
      }
    }
    // Turbopack reads a relative alias from the project folder, where Next runs.
    return withAliases(base, process.cwd(), generator.outFile);
  };
}

function withAliases(base: NextConfig, projectDir: string, outFile: string): NextConfig {
  const relative = toPosix(path.relative(projectDir, outFile));
  const userWebpack = base.webpack as ((config: any, context: any) => any) | undefined;
  return {
    ...base,
    turbopack: {
      ...base.turbopack,
      resolveAlias: { ...base.turbopack?.resolveAlias, [VIRTUAL_ID]: relative.startsWith('../') ? relative : `./${relative}` },
    },
    webpack(config: any, context: any) {
      const result = userWebpack ? userWebpack(config, context) : config;
      result.plugins = [...(result.plugins ?? []), new context.webpack.NormalModuleReplacementPlugin(SPECIFIER, outFile)];
      return result;
    },
  };
}

export default withAgentScorers;

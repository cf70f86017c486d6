/**
 * The Nuxt module: `modules: ['agent-scorers/nuxt']`, the plugin's options under `agentScorers` in
 * `nuxt.config`. Nuxt builds the app with Vite and its server routes with Nitro's own Rollup, so one
 * plugin alone serves only half of it: the module puts the plugin into both, writes the registry's
 * declarations where Nuxt's generated tsconfigs see them (a type template, written by `nuxi prepare`
 * too), and prints each warning once per build and once per dev session although Nitro rebuilds its
 * server bundle on every change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addTypeTemplate, addVitePlugin, defineNuxtModule, useLogger, useNuxt } from '@nuxt/kit';
import type { Plugin as VitePlugin } from 'vite';
import type { Plugin as RollupPlugin } from 'rollup';
import { dtsFor } from '../core/dts.js';
import { checkOptions, type Options } from '../core/options.js';
import { agentScorers } from './index.js';
import { createSourceCache } from './source-cache.js';
import { planTree, readingsFile, resolveOptions } from './tree.js';
import { isLoopback, REMOTE_HINT } from './inspector/index.js';
import { createPrintOnce, readableIds } from './nuxt-once.js';

export type { Options };

type WatchedServer = { watcher: { add(paths: string[]): unknown; on(event: 'add' | 'unlink' | 'addDir' | 'unlinkDir', listener: (file: string) => void): unknown } };

/** Where the declarations go: a type template in Nuxt's buildDir, which every generated tsconfig references. */
const DTS_TEMPLATE = 'types/agent-scorers.d.ts';

export default defineNuxtModule<Options>({
  meta: { name: 'agent-scorers', configKey: 'agentScorers', compatibility: { nuxt: '>=4.0.0' } },
  defaults: {},
  setup(userOptions) {
    const nuxt = useNuxt();
    const root = userOptions.root ?? nuxt.options.rootDir;
    // `dts` unset or `true`: the type template's file, so `nuxi prepare` already types the registry
    // (Nuxt's tsconfigs cover app/, server/ and shared/, not the src/ the plain plugin writes into).
    const template = userOptions.dts === undefined || userOptions.dts === true ? path.join(nuxt.options.buildDir, DTS_TEMPLATE) : null;
    const options: Options = { ...userOptions, root, ...(template ? { dts: template } : {}) };
    // Wrong options fail here, naming the option, before any build starts.
    const checked = checkOptions(options);

    if (template) {
      addTypeTemplate(
        {
          filename: DTS_TEMPLATE,
          getContents: () => {
            const resolved = resolveOptions(checked, root);
            const sources = createSourceCache();
            sources.setStore(readingsFile(resolved), resolved.root);
            const planned = planTree(resolved, sources);
            // As the plugin does: a missing agents folder never empties declarations that exist.
            if (planned.missingDirs.length > 0 && fs.existsSync(template)) return fs.readFileSync(template, 'utf8');
            return dtsFor(planned, template);
          },
        },
        { nuxt: true, nitro: true, shared: true },
      );
    } else if (userOptions.dts === false) {
      // No declaration file: the package's loose types still let `virtual:agent-scorers` resolve.
      nuxt.hook('prepare:types', (payload) => void (payload.references ||= []).push({ types: 'agent-scorers/client' }));
      nuxt.hook('nitro:prepare:types', (payload) => void (payload.references ||= []).push({ types: 'agent-scorers/client' }));
    }

    // One print-once record for every plugin instance of this Nuxt process: Vite's and Nitro's.
    const once = createPrintOnce();
    // Nuxt 4 serves the app from two Vite dev servers (client and SSR) unless its environment API is
    // on: the inspector goes with the client's, the one Nuxt's dev server forwards requests to, so it
    // starts once. The SSR instance still follows added and deleted files for the app's SSR modules.
    addVitePlugin(() => reloadNitroOnTreeChange(once.wrap(agentScorers(options))) as VitePlugin, { server: false });
    addVitePlugin(() => once.wrap(agentScorers({ ...options, inspector: false })) as VitePlugin, { client: false });
    // Nitro bundles server routes with its own Rollup: without the plugin there, an import of the
    // registry reaches Node as a `virtual:` URL. Its dev bundle is rebuilt on every change.
    nuxt.hook('nitro:config', (nitroConfig) => {
      const rollupConfig = (nitroConfig.rollupConfig ||= {});
      const plugins = rollupConfig.plugins;
      const ours = readableIds(once.wrap(agentScorers({ ...options, inspector: false }), { rebuilds: nuxt.options.dev })) as RollupPlugin;
      rollupConfig.plugins = [...(Array.isArray(plugins) ? plugins : plugins ? [plugins] : []), ours];
    });
    // Nitro's dev bundle follows scorer files through Rollup's watcher, which stops seeing a path for
    // good once its module left the bundle: a deleted scorer file that comes back would never be
    // bundled again. So an added or deleted file under an agents folder restarts Nitro's bundling,
    // as Nitro itself does for an added or deleted route, told by the client Vite server's watcher.
    let nitro: { hooks: { callHook(name: 'rollup:reload'): unknown } } | undefined;
    nuxt.hook('nitro:init', (instance) => void (nitro = instance));
    const agentsDirs = resolveOptions(checked, root).agentsDirs;
    const inAgentsDir = (file: string) => agentsDirs.some((dir) => file === dir || file.startsWith(`${dir}${path.sep}`));
    function reloadNitroOnTreeChange<P extends { configureServer?: unknown }>(plugin: P): P {
      if (!nuxt.options.dev) return plugin;
      const original = plugin.configureServer as ((server: WatchedServer) => unknown) | undefined;
      return {
        ...plugin,
        configureServer(server: WatchedServer) {
          server.watcher.add(agentsDirs);
          const reload = (file: string) => void (inAgentsDir(path.resolve(file)) && nitro?.hooks.callHook('rollup:reload'));
          for (const event of ['add', 'unlink', 'addDir', 'unlinkDir'] as const) server.watcher.on(event, reload);
          return original?.call(this, server);
        },
      };
    }

    // Nuxt's Vite servers run in middleware mode and print no URLs: the inspector's line comes from here.
    if (checked.inspector && nuxt.options.dev) {
      const remote = checked.inspector.remote;
      nuxt.hook('listen', (_server, listener: { url?: string; address?: { address?: string } }) => {
        if (!listener.url) return;
        const at = `${listener.url.replace(/\/?$/, '/')}__agent-scorers/`;
        const beyondLoopback = !isLoopback(listener.address?.address) && !/^https?:\/\/localhost[:/]/.test(listener.url);
        const note = !beyondLoopback ? '' : remote ? ' (other machines allowed: inspector.remote is on)' : ` (this machine only. ${REMOTE_HINT})`;
        useLogger().log(`  ➜ Scorers: ${at}${note}`);
      });
    }
  },
});

/**
 * Changes that land while the plugin is mid-way, made deterministic:
 * - A folder change that lands while Vite is still transforming our module (its load already read the
 *   old folders) must not leave that old code cached: Vite caches a finished transform unless the
 *   module was invalidated after the transform began. A plugin holds the transform of the registry
 *   module until the watcher has reported the change.
 * - A save reported between its truncate and its write: chokidar drops a second `change` of a path
 *   within 50 ms of the first, so the report of the content never comes. The server runs without a
 *   watcher and the test reports the one `change` itself, while the file is empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { importVite, scorerSource, shape, startDev, type Dev, type ViteName } from './helpers.js';

const REGISTRY = '\0virtual:agent-scorers';

describe.each(['vite8', 'vite7'] as ViteName[])('%s', (viteName) => {
  let dev: Dev | undefined;
  afterEach(async () => {
    await dev?.close();
  });

  test('an agent folder created during a transform of the registry shows in the next request', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    let transformStarted!: () => void;
    const started = new Promise<void>((resolve) => (transformStarted = resolve));
    const hold = {
      name: 'hold-registry-transform',
      async transform(_code: string, id: string) {
        if (id !== REGISTRY || !holding) return null;
        holding = false;
        transformStarted();
        await held;
        return null;
      },
    };
    dev = await startDev(viteName, 'dev-basic', { plugins: [hold] });
    const ssr = dev.server.environments.ssr;
    const code = async () => (await ssr.transformRequest('virtual:agent-scorers')).code as string;
    expect(await code()).not.toContain('research');
    ssr.moduleGraph.invalidateAll();

    holding = true;
    const first = code();
    await started; // our load has run and read the folders without `research`
    const seen = dev.reported('addDir', 'research');
    await dev.write('research/scorers/depth.ts', scorerSource('depth'));
    await seen; // our watcher listener, registered first, has run too
    release();
    expect(await first).not.toContain('research'); // the request that was running answers as it began

    expect(await code()).toContain('research');
  });

  describe('a save reported while the file is empty', () => {
    const failure = () => dev!.load().then(() => '', (e: Error) => String(e.message));
    const registry = async () => shape((await dev!.load()).default);
    /** A server without a watcher, serving the fixture; resolves to the scorer file the tests edit. */
    async function serving(): Promise<string> {
      dev = await startDev(viteName, 'dev-basic', { watch: false });
      expect((await registry()).support).toEqual(['helpfulness=helpfulness']);
      return path.join(dev.agents, 'support/scorers/helpfulness.ts');
    }
    /** Writes `file` and reports the one `change` the watcher would. */
    const save = (file: string, content: string) => {
      fs.writeFileSync(file, content);
      dev!.server.watcher.emit('change', file);
    };
    const NO_DEFAULT = '[SCORER_NO_DEFAULT_EXPORT] Agent "support": scorer "helpfulness" has no default export';

    test('is read again once written: fixing a file without a default export recovers', async () => {
      const file = await serving();
      save(file, 'export const notDefault = 1;\n');
      expect(await failure()).toContain(NO_DEFAULT);
      save(file, ''); // reported while empty, which reads as the plan knows it: no default export
      fs.writeFileSync(file, scorerSource('helpfulness-fixed')); // reported by nothing
      const fixed = await dev!.until(registry, (r) => r.support?.[0] === 'helpfulness=helpfulness-fixed');
      expect(fixed.support).toEqual(['helpfulness=helpfulness-fixed']);
    });

    test("and run empty by Vite's HMR meanwhile is fetched again once written, by a runner the plugin cannot reach", async () => {
      const file = await serving();
      // A runner of the server's own making is not one the plugin drops modules from: like a Worker's,
      // it learns of changes only from the environment's messages.
      const { createServerModuleRunner } = await importVite(viteName);
      const runner = createServerModuleRunner(dev!.server.environments.ssr);
      try {
        const fromRunner = async () => shape((await runner.import('virtual:agent-scorers')).default);
        const failure = () => fromRunner().then(() => '', (e: Error) => String(e.message));
        expect((await fromRunner()).support).toEqual(['helpfulness=helpfulness']);
        save(file, ''); // Vite's HMR tells the runner at once; it runs the empty file
        expect(await dev!.until(failure, (m) => m !== '')).toContain('[SCORER_INVALID_EXPORT] Agent "support": scorer "helpfulness": the default export is undefined');
        fs.writeFileSync(file, scorerSource('helpfulness-renamed')); // reported by nothing
        const renamed = await dev!.until(fromRunner, (r) => r.support?.[0] === 'helpfulness=helpfulness-renamed');
        expect(renamed.support).toEqual(['helpfulness=helpfulness-renamed']);
      } finally {
        await runner.close();
      }
    });

    test('that stays empty is reported as empty', async () => {
      save(await serving(), '');
      // Meanwhile Vite's HMR may run the empty module, which the registry rejects as it runs
      // (SCORER_INVALID_EXPORT); the plan's own report follows once the wait for a write ends.
      const message = await dev!.until(failure, (m) => m.includes('[SCORER_NO_DEFAULT_EXPORT]'));
      expect(message).toContain(NO_DEFAULT);
    });
  });
});

/**
 * A folder change that lands while Vite is still transforming our module (its load already read the
 * old folders) must not leave that old code cached: Vite caches a finished transform unless the
 * module was invalidated after the transform began. Made deterministic with a plugin that holds the
 * transform of the registry module until the watcher has reported the change.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { scorerSource, startDev, type Dev, type ViteName } from './helpers.js';

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
});

/**
 * Two module runners on one dev server: `server.ssrLoadModule` (what SvelteKit and most SSR dev
 * servers call; Vite's compatibility runner, without HMR) and the `ssr` environment's own runner
 * (what the inspector and Vite's newer APIs use). Vite tells a runner that a module changed only in
 * the answer to its next fetch, and only to the runner that fetches first; the plugin must make
 * both see an added, broken, fixed or deleted scorer file on their very next import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scorerSource, shape, startDev, type Dev, type ViteName } from './helpers.js';

const WEATHER = ['relevance=relevance-v1', 'tone=tone', 'extra=config-extra'];

describe.each<ViteName>(['vite8', 'vite7'])('ssrLoadModule beside the environment runner on %s', (viteName) => {
  let dev: Dev;
  const viaSsrLoadModule = async () => shape((await dev.server.ssrLoadModule('virtual:agent-scorers')).default).weather;
  const viaRunner = async () => shape((await dev.server.environments.ssr.runner.import('virtual:agent-scorers')).default).weather;
  /** Both loaders, the environment runner first: it is the one that used to take the news. */
  const both = async () => {
    const runner = await viaRunner();
    return { runner, ssrLoadModule: await viaSsrLoadModule() };
  };
  const settled = (file: string, event: string, change: () => void) => {
    const seen = dev.reported(event, file);
    change();
    return seen;
  };

  beforeAll(async () => {
    dev = await startDev(viteName, 'dev-basic');
  });
  afterAll(async () => {
    await dev?.close();
  });

  test('both load the fixture', async () => {
    expect(await both()).toEqual({ runner: WEATHER, ssrLoadModule: WEATHER });
  });

  test('an added scorer file shows in both on the next import after the watcher reports it', async () => {
    const file = path.join(dev.agents, 'weather/scorers/added.ts');
    await settled('weather/scorers/added.ts', 'add', () => fs.writeFileSync(file, scorerSource('added')));
    const expected = ['added=added', ...WEATHER];
    expect(await both()).toEqual({ runner: expected, ssrLoadModule: expected });
  });

  test('a scorer file with a syntax error fails both imports, never the old registry', async () => {
    const file = path.join(dev.agents, 'weather/scorers/broken.ts');
    await settled('weather/scorers/broken.ts', 'add', () => fs.writeFileSync(file, 'export default {{{ ;\n'));
    await expect(viaRunner()).rejects.toThrow(/broken\.ts/);
    await expect(viaSsrLoadModule()).rejects.toThrow(/broken\.ts/);
  });

  test('fixing it recovers both', async () => {
    await dev.write('weather/scorers/broken.ts', scorerSource('fixed'));
    const expected = ['added=added', 'broken=fixed', ...WEATHER];
    const equal = (value: unknown) => JSON.stringify(value) === JSON.stringify({ runner: expected, ssrLoadModule: expected });
    expect(await dev.until(both, equal)).toEqual({ runner: expected, ssrLoadModule: expected });
  });

  test('an edit of an existing scorer (Vite HMR, no rescan) shows in both', async () => {
    await dev.write('weather/scorers/tone.ts', scorerSource('tone-v2'));
    const expected = ['added=added', 'broken=fixed', 'relevance=relevance-v1', 'tone=tone-v2', 'extra=config-extra'];
    const equal = (value: unknown) => JSON.stringify(value) === JSON.stringify({ runner: expected, ssrLoadModule: expected });
    expect(await dev.until(both, equal)).toEqual({ runner: expected, ssrLoadModule: expected });
  });

  test('an existing scorer edited into a syntax error fails both, and recovers in both', async () => {
    await dev.write('weather/scorers/tone.ts', 'export default (;\n');
    const failing = (value: unknown) => value === 'both failed';
    const outcome = async () => {
      const [runner, ssr] = await Promise.allSettled([viaRunner(), viaSsrLoadModule()]);
      return runner.status === 'rejected' && ssr.status === 'rejected' ? 'both failed' : JSON.stringify({ runner, ssr });
    };
    expect(await dev.until(outcome, failing)).toBe('both failed');
    await dev.write('weather/scorers/tone.ts', scorerSource('tone'));
    const expected = ['added=added', 'broken=fixed', ...WEATHER];
    const equal = (value: unknown) => JSON.stringify(value) === JSON.stringify({ runner: expected, ssrLoadModule: expected });
    expect(await dev.until(both, equal)).toEqual({ runner: expected, ssrLoadModule: expected });
  });

  test('deleted files leave both on the next import after the watcher reports it', async () => {
    for (const name of ['added', 'broken']) {
      await settled(`weather/scorers/${name}.ts`, 'unlink', () => fs.rmSync(path.join(dev.agents, `weather/scorers/${name}.ts`)));
    }
    expect(await both()).toEqual({ runner: WEATHER, ssrLoadModule: WEATHER });
  });
});

/**
 * SPEC section 8 on a real dev server: created, deleted and renamed scorer files, new agent and
 * subagent folders and config edits show in the next import of the virtual modules without a
 * restart; an edit of an existing scorer goes through Vite's HMR without a rescan; a broken scorer
 * fails the import and recovers when fixed; each distinct warning is printed once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { scorerSource, shape, startDev, type Dev, type Loader, type ViteName } from './helpers.js';

const SERVERS: Array<[ViteName, Loader]> = [
  ['vite8', 'ssrLoadModule'],
  ['vite8', 'runner'],
  ['vite7', 'ssrLoadModule'],
];

const INITIAL = {
  support: ['helpfulness=helpfulness'],
  weather: ['relevance=relevance-v1', 'tone=tone', 'extra=config-extra'],
};

describe.each(SERVERS)('dev server on %s (%s)', (viteName, loader) => {
  let dev: Dev;
  const registry = async () => shape((await dev.load()).default);
  const agent = async (key: string) => shape({ [key]: (await dev.load(`virtual:agent-scorers/${key}`)).default })[key];
  const equal = (expected: unknown) => (value: unknown) => JSON.stringify(value) === JSON.stringify(expected);

  beforeAll(async () => {
    dev = await startDev(viteName, 'dev-basic', { loader });
  });
  afterAll(async () => {
    await dev?.close();
  });

  test('the first import shows the fixture', async () => {
    expect(await registry()).toEqual(INITIAL);
    expect(await agent('weather')).toEqual(INITIAL.weather);
  });

  test('a created scorer file shows in the registry and the per-agent module', async () => {
    // Also the control for the no-rescan tests below: the same spy does see this rescan.
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      await dev.write('weather/scorers/added.ts', scorerSource('added'));
      const expected = ['added=added', ...INITIAL.weather];
      expect(await dev.until(registry, equal({ ...INITIAL, weather: expected }))).toEqual({ ...INITIAL, weather: expected });
      expect(await dev.until(() => agent('weather'), equal(expected))).toEqual(expected);
      expect(readdir.mock.calls.filter(([p]) => String(p).startsWith(dev.agents)).length).toBeGreaterThan(0);
    } finally {
      readdir.mockRestore();
    }
  });

  test('a renamed scorer file changes its key', async () => {
    // Both events, so that the next test's deletion has a known file to report and no event of
    // this test is still pending (chokidar holds an `unlink` back 100 ms).
    const added = dev.reported('add', 'weather/scorers/zz-renamed.ts');
    const unlinked = dev.reported('unlink', 'weather/scorers/added.ts');
    fs.renameSync(path.join(dev.agents, 'weather/scorers/added.ts'), path.join(dev.agents, 'weather/scorers/zz-renamed.ts'));
    const expected = ['relevance=relevance-v1', 'tone=tone', 'zz-renamed=added', 'extra=config-extra'];
    expect(await dev.until(() => agent('weather'), equal(expected))).toEqual(expected);
    expect((await registry()).weather).toEqual(expected);
    await Promise.all([added, unlinked]);
  });

  test('a deleted scorer file disappears', async () => {
    // Its own `unlink` must arrive within this test: the next tests fail on any rescan.
    const unlinked = dev.reported('unlink', 'weather/scorers/zz-renamed.ts');
    fs.rmSync(path.join(dev.agents, 'weather/scorers/zz-renamed.ts'));
    await unlinked;
    expect(await dev.until(registry, equal(INITIAL))).toEqual(INITIAL);
  });

  test('editing an existing scorer goes through HMR and does not rescan the folders', async () => {
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      await dev.write('weather/scorers/relevance.ts', scorerSource('relevance-v2'));
      const expected = { ...INITIAL, weather: ['relevance=relevance-v2', 'tone=tone', 'extra=config-extra'] };
      expect(await dev.until(registry, equal(expected))).toEqual(expected);
      const scans = readdir.mock.calls.filter(([p]) => String(p).startsWith(dev.agents));
      expect(scans).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  test('an unrelated file created in the project does not make the next scorer edit rescan', async () => {
    // Editors and tools write files all the time (notes, swap files, READMEs next to agents).
    const unrelated = [path.join(dev.dir, 'notes.txt'), path.join(dev.agents, 'weather/README.md')];
    const seen = Promise.all(unrelated.map((file) => dev.reported('add', file)));
    for (const file of unrelated) fs.writeFileSync(file, 'not a scorer\n');
    await seen;
    await new Promise((r) => setTimeout(r, 100)); // let every plugin's watch handler run
    const readdir = vi.spyOn(fs, 'readdirSync');
    try {
      await dev.write('weather/scorers/relevance.ts', scorerSource('relevance-v3'));
      const expected = { ...INITIAL, weather: ['relevance=relevance-v3', 'tone=tone', 'extra=config-extra'] };
      expect(await dev.until(registry, equal(expected))).toEqual(expected);
      expect(readdir.mock.calls.filter(([p]) => String(p).startsWith(dev.agents))).toEqual([]);
    } finally {
      readdir.mockRestore();
      for (const file of unrelated) fs.rmSync(file);
    }
  });

  /** Writes `broken` over helpfulness.ts, waits for the import to fail, then writes a fixed scorer and waits for it. */
  async function breakThenFix(broken: string, fixedId: string): Promise<{ error: Error | null; support: unknown }> {
    await dev.write('support/scorers/helpfulness.ts', broken);
    const error = await dev.until(
      () => dev.load().then(() => null, (e: Error) => e),
      (e) => e !== null,
    );
    await dev.write('support/scorers/helpfulness.ts', scorerSource(fixedId));
    const expected = [`helpfulness=${fixedId}`];
    const fixed = await dev.until(registry, (r) => equal(expected)(r.support));
    return { error, support: fixed.support };
  }

  test('a scorer with a syntax error fails the import; fixing it recovers without a restart', async () => {
    const { error, support } = await breakThenFix("export default { scorer: makeScorer('broken' }\n", 'helpfulness-fixed');
    expect(String(error?.message)).toContain('helpfulness.ts');
    expect(support).toEqual(['helpfulness=helpfulness-fixed']);
  });

  test('a build-time error (no default export) is reported; adding the export recovers (no stale plan)', async () => {
    const { error, support } = await breakThenFix('export const notDefault = 1;\n', 'helpfulness-again');
    expect(String(error?.message)).toContain('[SCORER_NO_DEFAULT_EXPORT] Agent "support": scorer "helpfulness" has no default export');
    expect(support).toEqual(['helpfulness=helpfulness-again']);
  });

  test('a new agent folder with a scorer, an empty agent folder and a new subagent show', async () => {
    await dev.write('research/scorers/depth.ts', scorerSource('depth'));
    fs.mkdirSync(path.join(dev.agents, 'blank'));
    await dev.write('weather/subagents/planner/scorers/brevity.ts', scorerSource('brevity', 3));
    const r = await dev.until(registry, (v) => 'blank' in v && 'research' in v && 'weather/planner' in v);
    expect(Object.keys(r)).toEqual(['blank', 'research', 'support', 'weather', 'weather/planner']);
    expect(r.blank).toEqual([]);
    expect(r.research).toEqual(['depth=depth']);
    expect(r['weather/planner']).toEqual(['brevity=brevity']);
    expect(await agent('research')).toEqual(['depth=depth']);
    expect(await agent('weather/planner')).toEqual(['brevity=brevity']);
  });

  test('a deleted agent folder disappears', async () => {
    fs.rmSync(path.join(dev.agents, 'research'), { recursive: true });
    const r = await dev.until(registry, (v) => !('research' in v));
    expect(Object.keys(r)).toEqual(['blank', 'support', 'weather', 'weather/planner']);
  });

  test('a config edited from record to function form is re-planned; its warning is printed once', async () => {
    await dev.write('weather/config.ts', "export default { scorers: () => ({}) };\n");
    const r = await dev.until(registry, (v) => v.weather === 'function');
    expect(r.weather).toBe('function');
    const warning =
      '[CONFIG_SCORERS_FUNCTION] Agent "weather": config.scorers is a function, so discovered scorers under src/mastra/agents/weather/scorers/ are ignored. (src/mastra/agents/weather/config.ts)';
    // Reloads caused by unrelated changes do not print it again.
    await dev.write('support/scorers/extra.ts', scorerSource('support-extra'));
    await dev.until(registry, (v) => Array.isArray(v.support) && v.support.includes('extra=support-extra'));
    fs.rmSync(path.join(dev.agents, 'support/scorers/extra.ts'));
    await dev.until(registry, (v) => Array.isArray(v.support) && !v.support.includes('extra=support-extra'));
    expect(dev.logs.filter((l) => l.includes(warning))).toHaveLength(1);
    // A fixed problem stops being reported; when it comes back, it is reported again.
    await dev.write('weather/config.ts', "export default { scorers: {} };\n");
    await dev.until(registry, (v) => Array.isArray(v.weather) && v.weather.length === 2);
    await dev.write('weather/config.ts', "export default { scorers: () => ({}) };\n");
    await dev.until(registry, (v) => v.weather === 'function');
    expect(dev.logs.filter((l) => l.includes(warning))).toHaveLength(2);
  });
});

/**
 * Generated modules map to no source (Rollup's `{ mappings: '' }`, src/plugin/index.ts). A Vite dev
 * server then serves the registry module without mapping it character by character, which cost ~45 ms
 * at 1,000 agents (bench/README.md): the dev test fails without it. Builds leave `\0` modules out of
 * their maps whatever a plugin returns (measured with a made-up map too), so the build tests only guard
 * that a build with source maps maps the scorer files, lists no source but files on disk, and warns
 * about nothing on every host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, HOSTS, PLUGIN, prepare } from '../helpers/hosts.js';

describe.each(HOSTS)('a build with source maps on %s', (host) => {
  test('maps the scorer files, not the generated modules, and warns about nothing', async () => {
    const built = await build(host, 'basic', { extraArgs: ['--sourcemap'] });
    expect(built.code, built.output).toBe(0);
    expect(built.output).not.toMatch(/sourcemap/i);
    const map = JSON.parse(fs.readFileSync(path.join(built.dir, 'dist/main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('agents/weather/scorers/tone.ts'))).toBe(true);
    // Every source is a file on disk.
    const missing = map.sources.filter((source) => !fs.existsSync(path.resolve(built.dir, 'dist', source)));
    expect(missing).toEqual([]);
    // The records are still built: the map change touched nothing else.
    expect((await built.load()).registry.weather.tone.scorer.id).toBe('tone');
  });
});

test('a Vite dev server serves the registry and an agent module with no source map', async () => {
  const { createServer } = await import('vite');
  const { default: agentScorers } = (await import(path.join(PLUGIN, 'vite.js'))) as { default: (o: object) => any };
  const root = prepare('basic', 'sourcemap-dev');
  const server = await createServer({ configFile: false, root, logLevel: 'silent', appType: 'custom', plugins: [agentScorers({ dts: false })] });
  try {
    for (const id of ['virtual:agent-scorers', 'virtual:agent-scorers/weather']) {
      const result = await server.environments.ssr.transformRequest(id);
      expect(result?.code).toContain('__vite_ssr_import__');
      expect(result?.map).toMatchObject({ mappings: '' });
    }
    const registry = (await server.ssrLoadModule('virtual:agent-scorers')).default;
    expect(registry.weather.tone.scorer.id).toBe('tone');
  } finally {
    await server.close();
  }
});

/**
 * Every diagnostic of SPEC section 7, on every host: errors stop the build with a non-zero exit and
 * name the file; warnings print once; run-time-only problems throw on evaluation with code, agent,
 * key and file. The `diagnostics` option and `strict` decide each warning's level in the build, in
 * the manifest and at run time.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { build, count, HOSTS, prepare } from '../helpers/hosts.js';

const W = 'src/mastra/agents/weather';
const SAMPLING_RULE = "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1";

const BUILD_ERRORS: Array<[fixture: string, expected: string[]]> = [
  ['err-no-default', [`[SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "relevance" has no default export; export default a scorer or a { scorer, sampling } entry. (${W}/scorers/relevance.ts)`]],
  ['err-invalid-export', [`[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone": the default export is null, not a scorer or a { scorer, sampling } entry. (${W}/scorers/tone.ts)`]],
  ['err-invalid-sampling', [`[SCORER_INVALID_SAMPLING] Agent "weather": scorer "tone": ${SAMPLING_RULE}`, `(${W}/scorers/tone.ts)`]],
  ['err-duplicate-key', [`[SCORER_DUPLICATE_KEY] Agent "weather": scorer "relevance" is given by two files, ${W}/scorers/relevance.js and ${W}/scorers/relevance.ts; rename or remove one. (${W}/scorers/relevance.ts)`]],
  ['err-config-duplicate', [`[CONFIG_DUPLICATE] Agent "weather" has 2 config files (${W}/config.ts, ${W}/config.js); keep one. (${W}/config.ts)`]],
  ['err-config-sampling', [`[SCORER_INVALID_SAMPLING] Agent "weather": config.scorers["judge"]: ${SAMPLING_RULE}`, `(${W}/config.ts)`]],
  [
    'err-config-invalid',
    [
      '[CONFIG_INVALID_SCORERS] Agent "news": config.scorers is a number, not a record or a function. (src/mastra/agents/news/config.ts)',
      `[CONFIG_INVALID_SCORERS] Agent "weather": config.scorers["x"] is a string, not a scorer or a { scorer, sampling } entry. (${W}/config.ts)`,
      `[CONFIG_INVALID_SCORERS] Agent "weather": config.scorers["y"] is an object whose "scorer" is a number, not a scorer or a { scorer, sampling } entry. (${W}/config.ts)`,
    ],
  ],
];

const A = 'src/mastra/agents';
const agentWarning = (agent: string) =>
  `[CONFIG_EXPORTS_AGENT] Agent "${agent}": config.ts exports a new Agent(), so discovered scorers under ${A}/${agent}/scorers/ are ignored. (${A}/${agent}/config.ts)`;
const COLLISION = `[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (${W}/config.ts)`;

/** console.warn calls made while the built bundle is evaluated (run-time warnings). */
function captureRuntimeWarnings() {
  const state: { calls: string[]; spy?: ReturnType<typeof vi.spyOn> } = { calls: [] };
  beforeEach(() => {
    state.calls = [];
    state.spy = vi.spyOn(console, 'warn').mockImplementation((text: unknown) => void state.calls.push(String(text)));
  });
  afterEach(() => state.spy?.mockRestore());
  return state;
}

describe.each(HOSTS)('diagnostics on %s', (host) => {
  test.each(BUILD_ERRORS)('%s fails the build, naming code and file', async (fixture, expected) => {
    const result = await build(host, fixture);
    expect(result.code, result.output).not.toBe(0);
    for (const text of expected) expect(result.output).toContain(text);
  });

  test('an error is printed once when the registry and that agent\'s module are both imported', async () => {
    const dir = prepare('err-invalid-export', host);
    fs.writeFileSync(
      path.join(dir, 'src/main.ts'),
      `import registry from 'virtual:agent-scorers';\nimport weather from 'virtual:agent-scorers/weather';\n\nexport { registry, weather };\n`,
    );
    const result = await build(host, 'err-invalid-export', { dir });
    expect(result.code, result.output).not.toBe(0);
    expect(count(result.output, '[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone"'), result.output).toBe(1);
  });

  test('an invalid default export that only shows at run time throws on evaluation', async () => {
    const result = await build(host, 'err-runtime-export');
    expect(result.code, result.output).toBe(0);
    await expect(result.load()).rejects.toThrow(
      `[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone": the default export is a string, not a scorer or a { scorer, sampling } entry. (${W}/scorers/tone.ts)`,
    );
  });

  test('config.scorers values that only show at run time as invalid throw CONFIG_INVALID_SCORERS on evaluation', async () => {
    const result = await build(host, 'err-runtime-config');
    expect(result.code, result.output).toBe(0);
    await expect(result.load()).rejects.toThrow(
      `[CONFIG_INVALID_SCORERS] Agent "weather": config.scorers["tone"] is a string, not a scorer or a { scorer, sampling } entry. (${W}/config.ts)`,
    );
  });

  test('invalid sampling that only shows at run time throws on evaluation', async () => {
    const result = await build(host, 'err-runtime-sampling');
    expect(result.code, result.output).toBe(0);
    await expect(result.load()).rejects.toThrow(
      `[SCORER_INVALID_SAMPLING] Agent "weather": scorer "tone": ${SAMPLING_RULE}; got { type: 'ratio', rate: 3 }. (${W}/scorers/tone.ts)`,
    );
  });

  test('keys that differ only in case warn once and keep both scorers', async () => {
    const result = await build(host, 'warn-case-collision');
    expect(result.code, result.output).toBe(0);
    const text = `[SCORER_KEY_CASE_COLLISION] Agent "weather": scorers "Tone" (${W}/scorers/Tone.ts) and "tone" differ only in case; they collide on case-insensitive file systems (macOS, Windows). (${W}/scorers/tone.ts)`;
    expect(count(result.output, text)).toBe(1);
    expect(Object.keys((await result.load()).registry.weather)).toEqual(['Tone', 'tone']);
  });

  test("a missing agentsDir set with diagnostics 'warn' warns once and the others still register", async () => {
    const result = await build(host, 'warn-missing-dir', {
      pluginOptions: `{ dts: false, agentsDir: ['src/mastra/agents', 'src/other/agents'], diagnostics: { AGENTS_DIR_MISSING: 'warn' } }`,
    });
    expect(result.code, result.output).toBe(0);
    const text = '[AGENTS_DIR_MISSING] agentsDir "src/other/agents" does not exist; no agents are registered from it. (src/other/agents)';
    expect(count(result.output, text)).toBe(1);
    expect(Object.keys((await result.load()).registry)).toEqual(['weather']);
  });

  test('strict turns every warning into a build error', async () => {
    const result = await build(host, 'basic', { pluginOptions: '{ dts: false, strict: true }' });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (${W}/config.ts)`);
    expect(result.output).toContain('[CONFIG_SCORERS_FUNCTION] Agent "news"');
  });

  describe('CONFIG_EXPORTS_AGENT', () => {
    const runtime = captureRuntimeWarnings();

    test("a config.ts that exports new Agent() is used as it is: its files are not bundled, the registry resolves to the Agent's own scorers", async () => {
      const result = await build(host, 'warn-config-agent');
      expect(result.code, result.output).toBe(0);
      // Evident at build time for weather (printed once, never again at run time); quiet has no files.
      expect(count(result.output, agentWarning('weather'))).toBe(1);
      expect(result.output).not.toContain('Agent "quiet"');
      expect(result.output).not.toContain('Agent "support"');
      expect(result.bundle()).not.toContain('RELEVANCE_FILE_MARKER');
      const m = await result.load();
      // support's config is an Agent only at run time: warned once then; its file was bundled.
      expect(runtime.calls).toEqual([agentWarning('support')]);

      for (const agent of ['quiet', 'support', 'weather']) expect(typeof m.registry[agent], agent).toBe('function');
      const weather = await m.resolveScorers('weather');
      expect(Object.keys(weather)).toEqual(['own']);
      expect(weather.own.scorer).toBe(m.own);
      expect(weather.own.sampling).toEqual({ type: 'ratio', rate: 0.5 });
      expect(await m.registry.weather({})).toEqual(await m.weatherAgent.listScorers());
      expect(await m.resolveScorers('quiet')).toEqual({});
      expect((await m.resolveScorers('support')).own.scorer).toBe(m.supportOwn);
      const swap = new m.RequestContext([['swap', true]]);
      expect((await m.resolveScorers('support', { requestContext: swap })).own.scorer.id).toBe('swapped');

      expect(m.manifest.agents.weather).toMatchObject({ configScorers: 'function', scorers: {} });
      expect(m.manifest.agents.quiet).toMatchObject({ configScorers: 'function', scorers: {} });
      expect(m.manifest.agents.support.configScorers).toBe('unknown');
      expect(m.manifest.diagnostics).toEqual([
        { code: 'CONFIG_EXPORTS_AGENT', severity: 'warning', agent: 'weather', file: `${A}/weather/config.ts`, message: agentWarning('weather').slice('[CONFIG_EXPORTS_AGENT] '.length, -` (${A}/weather/config.ts)`.length) },
      ]);
    });
  });

  describe('the diagnostics option', () => {
    const runtime = captureRuntimeWarnings();

    test("'off' silences a code in the output and the manifest; other warnings still print", async () => {
      const result = await build(host, 'basic', { pluginOptions: `{ dts: false, diagnostics: { SCORER_KEY_COLLISION: 'off' } }` });
      expect(result.code, result.output).toBe(0);
      expect(result.output).not.toContain('SCORER_KEY_COLLISION');
      expect(count(result.output, '[CONFIG_SCORERS_FUNCTION] Agent "news"')).toBe(1);
      const m = await result.load();
      expect(m.manifest.diagnostics.map((d: { code: string; severity: string }) => `${d.code}:${d.severity}`)).toEqual(['SUBAGENT_TOO_DEEP:warning', 'CONFIG_SCORERS_FUNCTION:warning']);
      // The override still happens: only the message is gone.
      expect(m.registry.weather.relevance.scorer.id).toBe('config-relevance');
    });

    test("strict with deliberate overrides: codes set to 'warn' or 'off' pass a strict build", async () => {
      const options = `{ dts: false, strict: true, diagnostics: { SCORER_KEY_COLLISION: 'warn', CONFIG_SCORERS_FUNCTION: 'off', SUBAGENT_TOO_DEEP: 'warn' } }`;
      const result = await build(host, 'basic', { pluginOptions: options });
      expect(result.code, result.output).toBe(0);
      expect(count(result.output, COLLISION)).toBe(1);
      expect(result.output).not.toContain('CONFIG_SCORERS_FUNCTION');
      const m = await result.load();
      expect(m.manifest.diagnostics.map((d: { code: string; severity: string }) => `${d.code}:${d.severity}`)).toEqual(['SUBAGENT_TOO_DEEP:warning', 'SCORER_KEY_COLLISION:warning']);

      // Without the override of CONFIG_SCORERS_FUNCTION, strict makes it an error again.
      const failing = await build(host, 'basic', { pluginOptions: `{ dts: false, strict: true, diagnostics: { SCORER_KEY_COLLISION: 'off', SUBAGENT_TOO_DEEP: 'off' } }` });
      expect(failing.code).not.toBe(0);
      expect(failing.output).toContain(`[CONFIG_SCORERS_FUNCTION] Agent "news": config.scorers is a function, so discovered scorers under ${A}/news/scorers/ are ignored. (${A}/news/config.ts)`);
      expect(failing.output).not.toContain('SCORER_KEY_COLLISION');
    });

    test("'error' makes one warning a build error", async () => {
      const result = await build(host, 'warn-case-collision', { pluginOptions: `{ dts: false, diagnostics: { SCORER_KEY_CASE_COLLISION: 'error' } }` });
      expect(result.code).not.toBe(0);
      expect(result.output).toContain(`[SCORER_KEY_CASE_COLLISION] Agent "weather": scorers "Tone" (${W}/scorers/Tone.ts) and "tone" differ only in case`);
    });

    test('run-time-only warnings follow the same levels: warn once, off is silent, error and strict throw on evaluation', async () => {
      const plain = await build(host, 'warn-runtime-only');
      expect(plain.code, plain.output).toBe(0);
      expect(plain.output).not.toContain('agent-scorers');
      const m = await plain.load();
      expect(runtime.calls).toEqual([agentWarning('support'), COLLISION]);
      expect(m.registry.weather.relevance.scorer.id).toBe('config-relevance');

      runtime.calls = [];
      const off = await build(host, 'warn-runtime-only', { pluginOptions: `{ dts: false, diagnostics: { SCORER_KEY_COLLISION: 'off', CONFIG_EXPORTS_AGENT: 'off' } }` });
      expect(off.code, off.output).toBe(0);
      expect(Object.keys((await off.load()).registry.weather)).toEqual(['relevance', 'tone']);
      expect(runtime.calls).toEqual([]);

      const error = await build(host, 'warn-runtime-only', { pluginOptions: `{ dts: false, diagnostics: { SCORER_KEY_COLLISION: 'error' } }` });
      expect(error.code, error.output).toBe(0);
      await expect(error.load()).rejects.toThrow(COLLISION);

      const strict = await build(host, 'warn-runtime-only', { pluginOptions: `{ dts: false, strict: true, diagnostics: { CONFIG_EXPORTS_AGENT: 'warn' } }` });
      expect(strict.code, strict.output).toBe(0);
      await expect(strict.load()).rejects.toThrow(COLLISION);
      // Four builds whose bundles load @mastra/core: Rollup's build alone took 37-62 s here on a loaded
      // two-core machine, so the default two minutes were not enough once the suite ran beside another.
    }, 300_000);
  });
});

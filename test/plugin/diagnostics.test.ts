/**
 * Every diagnostic of SPEC section 7, on every host: errors stop the build with a non-zero exit and
 * name the file; warnings print once; run-time-only problems throw on evaluation with code, agent,
 * key and file.
 */
import { describe, expect, test, vi } from 'vitest';
import { build, count, HOSTS } from '../helpers/hosts.js';

const W = 'src/mastra/agents/weather';
const SAMPLING_RULE = "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1";

const BUILD_ERRORS: Array<[fixture: string, expected: string[]]> = [
  ['err-no-default', [`[SCORER_NO_DEFAULT_EXPORT] Agent "weather": scorer "relevance" has no default export; export default a scorer or a { scorer, sampling } entry. (${W}/scorers/relevance.ts)`]],
  ['err-invalid-export', [`[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone": the default export is null, not a scorer or a { scorer, sampling } entry. (${W}/scorers/tone.ts)`]],
  ['err-invalid-sampling', [`[SCORER_INVALID_SAMPLING] Agent "weather": scorer "tone": ${SAMPLING_RULE}`, `(${W}/scorers/tone.ts)`]],
  ['err-duplicate-key', [`[SCORER_DUPLICATE_KEY] Agent "weather": scorer "relevance" is given by two files, ${W}/scorers/relevance.js and ${W}/scorers/relevance.ts; rename or remove one. (${W}/scorers/relevance.ts)`]],
  ['err-config-duplicate', [`[CONFIG_DUPLICATE] Agent "weather" has 2 config files (${W}/config.ts, ${W}/config.js); keep one. (${W}/config.ts)`]],
  ['err-config-sampling', [`[SCORER_INVALID_SAMPLING] Agent "weather": config.scorers["judge"]: ${SAMPLING_RULE}`, `(${W}/config.ts)`]],
];

describe.each(HOSTS)('diagnostics on %s', (host) => {
  test.each(BUILD_ERRORS)('%s fails the build, naming code and file', async (fixture, expected) => {
    const result = await build(host, fixture);
    expect(result.code, result.output).not.toBe(0);
    for (const text of expected) expect(result.output).toContain(text);
  });

  test('an invalid default export that only shows at run time throws on evaluation', async () => {
    const result = await build(host, 'err-runtime-export');
    expect(result.code, result.output).toBe(0);
    await expect(result.load()).rejects.toThrow(
      `[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone": the default export is a string, not a scorer or a { scorer, sampling } entry. (${W}/scorers/tone.ts)`,
    );
  });

  test('invalid sampling that only shows at run time throws on evaluation', async () => {
    const result = await build(host, 'err-runtime-sampling');
    expect(result.code, result.output).toBe(0);
    await expect(result.load()).rejects.toThrow(
      `[SCORER_INVALID_SAMPLING] Agent "weather": scorer "tone": ${SAMPLING_RULE}; got {"type":"ratio","rate":3}. (${W}/scorers/tone.ts)`,
    );
  });

  test('keys that differ only in case warn once and keep both scorers', async () => {
    const result = await build(host, 'warn-case-collision');
    expect(result.code, result.output).toBe(0);
    const text = `[SCORER_KEY_CASE_COLLISION] Agent "weather": scorers "Tone" (${W}/scorers/Tone.ts) and "tone" differ only in case; they collide on case-insensitive file systems (macOS, Windows). (${W}/scorers/tone.ts)`;
    expect(count(result.output, text)).toBe(1);
    expect(Object.keys((await result.load()).registry.weather)).toEqual(['Tone', 'tone']);
  });

  test('a missing agentsDir warns once and the others still register', async () => {
    const result = await build(host, 'warn-missing-dir', { pluginOptions: `{ dts: false, agentsDir: ['src/mastra/agents', 'src/other/agents'] }` });
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
});

/**
 * The `diagnostics` option and `strict` in a dev server (SPEC section 3): a code set to 'off' is
 * neither printed nor listed in the manifest (which the inspector shows); a warning that strict makes
 * an error fails the import, and fixing it recovers without a restart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDev, type Dev, type ViteName } from './helpers.js';

const HELPERS = "import { agentConfig, makeScorer } from '../../helpers.ts';\n";
const RECORD = `${HELPERS}export default agentConfig({ scorers: { tone: { scorer: makeScorer('config-tone') } } });\n`;
const FUNCTION = `${HELPERS}export default agentConfig({ scorers: () => ({}) });\n`;
const FUNCTION_ERROR =
  '[CONFIG_SCORERS_FUNCTION] Agent "weather": config.scorers is a function, so discovered scorers under src/mastra/agents/weather/scorers/ are ignored. (src/mastra/agents/weather/config.ts)';

describe.each<ViteName>(['vite8', 'vite7'])('the diagnostics option in a dev server on %s', (viteName) => {
  let dev: Dev;
  /** The loaded module, or the import's error message. */
  const attempt = () => dev.load().then((m) => m, (e: Error) => e.message);

  beforeAll(async () => {
    dev = await startDev(viteName, 'dev-basic', { pluginOptions: { dts: false, strict: true, diagnostics: { SCORER_KEY_COLLISION: 'off' } } });
  });
  afterAll(async () => {
    await dev?.close();
  });

  test("a collision turned 'off' passes strict and is neither printed nor in the manifest", async () => {
    await dev.write('weather/config.ts', RECORD);
    const m = await dev.until(attempt, (v) => typeof v !== 'string' && v.default.weather.tone.scorer.id === 'config-tone');
    expect(Object.keys(m.default.weather)).toEqual(['relevance', 'tone']);
    expect(m.manifest.diagnostics).toEqual([]);
    expect(dev.logs.join('\n')).not.toContain('SCORER_KEY_COLLISION');
  });

  test('a warning that strict makes an error fails the import, naming it; fixing the config recovers', async () => {
    await dev.write('weather/config.ts', FUNCTION);
    expect(await dev.until(attempt, (v) => typeof v === 'string')).toContain(FUNCTION_ERROR);
    await dev.write('weather/config.ts', RECORD);
    const m = await dev.until(attempt, (v) => typeof v !== 'string');
    expect(m.default.weather.tone.scorer.id).toBe('config-tone');
  });
});

/**
 * A dev server whose registry fails to load still prints the warnings of the same plan (SPEC 10). Agents'
 * warnings normally print from their own modules, which a registry load imports; a registry that fails
 * imports none, so before the fix the collision in weather/ never showed while news/'s broken file did.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDev, type Dev, type ViteName } from './helpers.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const ERROR =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "news": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/news/scorers/broken.ts)';

describe.each<ViteName>(['vite8', 'vite7'])('a failing registry in a dev server on %s', (viteName) => {
  let dev: Dev;
  beforeAll(async () => {
    dev = await startDev(viteName, 'err-with-warning');
  });
  afterAll(async () => {
    await dev?.close();
  });

  test('fails naming the code and the file, and prints the collision warning once', async () => {
    const message = await dev.load().then(() => 'loaded', (e: Error) => e.message);
    expect(message).toContain(ERROR);
    // A second request fails again, and prints nothing twice.
    expect(await dev.load().then(() => 'loaded', (e: Error) => e.message)).toContain(ERROR);
    const warned = dev.logs.filter((line) => line.includes(COLLISION));
    expect(warned, dev.logs.join('\n')).toHaveLength(1);
  });
});

/**
 * A build that fails still shows the warnings of the same build (SPEC 10): one agent's scorer file has
 * no default export, another agent's config collides with a file. Before the fix the error stopped
 * the build before the collision was warned, so a user fixed one problem only to meet the next.
 */
import { describe, expect, test } from 'vitest';
import { build, count, HOSTS } from '../helpers/hosts.js';

const COLLISION =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';
const ERROR =
  '[SCORER_NO_DEFAULT_EXPORT] Agent "news": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (src/mastra/agents/news/scorers/broken.ts)';

describe.each(HOSTS)('%s', (host) => {
  test('fails naming the code and the file, and prints the collision warning once, before the error', async () => {
    const result = await build(host, 'err-with-warning');
    expect(result.code, result.output).not.toBe(0);
    expect(count(result.output, ERROR), result.output).toBe(1);
    expect(count(result.output, COLLISION), result.output).toBe(1);
    expect(result.output.indexOf(COLLISION)).toBeLessThan(result.output.indexOf(ERROR));
  });
});

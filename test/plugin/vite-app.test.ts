/**
 * `vite build` of an app with two environments (client and ssr) that both import the registry: the
 * one plugin object serves both, and each warning still prints once for the whole build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { build, bundlerOptionsKey, count, pluginEntry, prepare } from '../helpers/hosts.js';

const WARNING =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';

test.each(['vite8', 'vite7'] as const)('%s: a two-environment app build prints each warning once', async (host) => {
  const config = `import agentScorers from ${pluginEntry(host)};
export default {
  logLevel: 'warn',
  plugins: [agentScorers({ dts: false })],
  builder: {},
  environments: {
    client: { build: { outDir: 'dist/client', minify: false, ${bundlerOptionsKey(host)}: { input: 'src/main.ts', preserveEntrySignatures: 'strict' } } },
    ssr: { build: { outDir: 'dist/ssr', ssr: 'src/main.ts', minify: false } },
  },
};
`;
  const result = await build(host, 'basic', { dir: prepare('basic', `app-${host}`), config, extraArgs: ['--app'] });
  const { dir } = result;
  expect(result.code, result.output).toBe(0);
  expect(fs.existsSync(path.join(dir, 'dist/client')) && fs.existsSync(path.join(dir, 'dist/ssr'))).toBe(true);
  expect(count(result.output, WARNING)).toBe(1);
  expect(count(result.output, '[CONFIG_SCORERS_FUNCTION]')).toBe(1);
});

/**
 * `vite build` of an app with two environments (client and ssr) that both import the registry: the
 * one plugin object serves both, and each warning still prints once for the whole build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { count, PLUGIN, prepare, REPO, run } from '../helpers/hosts.js';

const WARNING =
  '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)';

test.each([
  ['vite8', 'node_modules/vite/bin/vite.js', 'rolldownOptions'],
  ['vite7', 'node_modules/vite7/bin/vite.js', 'rollupOptions'],
])('%s: a two-environment app build prints each warning once', async (host, cli, bundlerOptions) => {
  const dir = prepare('basic', `app-${host}`);
  fs.writeFileSync(
    path.join(dir, 'vite.config.mjs'),
    `import agentScorers from ${JSON.stringify(path.join(PLUGIN, 'vite.js'))};
export default {
  logLevel: 'warn',
  plugins: [agentScorers({ dts: false })],
  builder: {},
  environments: {
    client: { build: { outDir: 'dist/client', minify: false, ${bundlerOptions}: { input: 'src/main.ts', preserveEntrySignatures: 'strict' } } },
    ssr: { build: { outDir: 'dist/ssr', ssr: 'src/main.ts', minify: false } },
  },
};
`,
  );
  const result = await run(process.execPath, [path.join(REPO, cli), 'build', '--app'], dir);
  expect(result.code, result.output).toBe(0);
  expect(fs.existsSync(path.join(dir, 'dist/client')) && fs.existsSync(path.join(dir, 'dist/ssr'))).toBe(true);
  expect(count(result.output, WARNING)).toBe(1);
  expect(count(result.output, '[CONFIG_SCORERS_FUNCTION]')).toBe(1);
});

/**
 * Records a build shares between its registry and its per-agent modules (`defineAgentOnce`) belong to
 * that bundle: two bundles loaded in one process, both leaving the registry helper external (as a
 * server build with `external: [/node_modules/]` does), each keep their own scorers. And when
 * oxc-parser cannot be loaded, a build fails saying so instead of reading every file as "not evident".
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, pluginEntry, prepare, REPO, run } from '../helpers/hosts.js';

const rolldownConfig = (options = '{ dts: false }') => `import agentScorers from ${pluginEntry('rolldown')};
export default {
  input: 'src/main.ts',
  external: (id) => !/^[./\\0]|^[A-Za-z]:|^virtual:/.test(id) || id.endsWith('/runtime/registry.js'),
  plugins: [agentScorers(${options})],
  output: { file: 'dist/main.js', format: 'es' },
};
`;

describe('one bundle, one set of records', () => {
  test('two bundles sharing the external registry helper in one process keep their own records', async () => {
    const a = prepare('basic', 'bundles-a');
    const b = prepare('basic', 'bundles-b');
    const tone = path.join(b, 'src/mastra/agents/weather/scorers/tone.ts');
    fs.writeFileSync(tone, fs.readFileSync(tone, 'utf8').replace("makeScorer('tone')", "makeScorer('tone-b')"));
    const [builtA, builtB] = await Promise.all([
      build('rolldown', 'basic', { dir: a, config: rolldownConfig() }),
      build('rolldown', 'basic', { dir: b, config: rolldownConfig() }),
    ]);
    expect(builtA.code, builtA.output).toBe(0);
    expect(builtB.code, builtB.output).toBe(0);
    expect(builtA.bundle()).toContain('runtime/registry.js'); // the helper really is shared
    const [ma, mb] = [await builtA.load(), await builtB.load()];
    expect(ma.registry.weather.tone.scorer.id).toBe('tone');
    expect(mb.registry.weather.tone.scorer.id).toBe('tone-b');
    expect(ma.weather).toBe(ma.registry.weather);
    expect(mb.weather).toBe(mb.registry.weather);
    expect(mb.weather.tone.scorer.id).toBe('tone-b');
  });
});

describe('oxc-parser missing', () => {
  test('a build that needs the parser fails naming it; nothing is read as "not evident"', async () => {
    const dir = prepare('basic', 'no-parser');
    // A default export only the whole parser can judge (the skeleton reader gives up on classes).
    fs.writeFileSync(path.join(dir, 'src/mastra/agents/support/scorers/helpfulness.ts'), 'export default class {}\n');
    fs.writeFileSync(path.join(dir, 'rolldown.config.mjs'), rolldownConfig());
    const hook = path.join(dir, 'no-oxc.cjs');
    fs.writeFileSync(hook, `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'oxc-parser') throw Object.assign(new Error("Cannot find module 'oxc-parser'"), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};
`);
    const result = await run(process.execPath, ['--require', hook, path.join(REPO, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'], dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('agent-scorers: cannot load oxc-parser');
    expect(fs.existsSync(path.join(dir, 'dist/main.js'))).toBe(false);
  });
});

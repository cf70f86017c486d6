/**
 * Every `ts` block of the README and the docs type-checks as a complete module, so no sample rots.
 * CONTRIBUTING.md says how to write samples that pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSamples, extractSamples, formatSampleError, projectsOf, samplePages } from '../helpers/samples.js';

const repo = path.resolve(import.meta.dirname, '../..');
const workDir = (name: string): string => path.join(repo, 'test/.tmp', `samples-${name}-${process.pid}-${Date.now()}`);

describe('documentation samples', () => {
  it('every ts block in README.md and docs/ type-checks against the built package and real @mastra/core', () => {
    const samples = samplePages(repo).flatMap((page) => extractSamples(page, fs.readFileSync(path.join(repo, page), 'utf8')));
    // The README and the generated options page alone hold several: finding none means the extraction broke.
    expect(samples.filter((s) => s.page === 'README.md').length).toBeGreaterThan(1);
    expect(samples.some((s) => s.page === 'docs/reference/options.md' && s.file === 'vite.config.ts')).toBe(true);
    const errors = checkSamples(samples, workDir('docs'), repo).map(formatSampleError);
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it('fails on a broken sample, naming the page, the line and the TypeScript error', () => {
    const page = [
      '# A page',
      '',
      '```ts [src/mastra/agents/weather/config.ts]',
      "import { agentConfig } from '@mastra/core/agent';",
      '',
      "export default agentConfig({ model: 'openai/gpt-4o-mini' });",
      '```',
      '',
      'Text between.',
      '',
      '```ts',
      "import config from './src/mastra/agents/weather/config.ts';",
      "import scorers from 'virtual:agent-scorers';",
      '',
      'const id: number = config.model;',
      'export const weather = scorers.weather;',
      '```',
      '',
    ].join('\n');
    const samples = extractSamples('docs/broken.md', page);
    expect(samples.map((s) => [s.line, s.file])).toEqual([
      [3, 'src/mastra/agents/weather/config.ts'],
      [11, 'sample-1.ts'],
    ]);
    const errors = checkSamples(samples, workDir('broken'), repo).map(formatSampleError);
    expect(errors, errors.join("\n")).toHaveLength(1);
    expect(errors[0]).toMatch(/^docs\/broken\.md:15 \(block at line 11, sample-1\.ts\): TS2322: Type .* is not assignable to type 'number'/);
  });

  it('reads titles, indented fences inside containers and only ts blocks, and splits repeated file names into projects', () => {
    const page = [
      '::: code-group',
      '',
      '```ts [vite.config.ts]',
      'export default 1;',
      '```',
      '',
      '```ts:line-numbers [vite.config.ts]',
      'export default 2;',
      '```',
      '',
      ':::',
      '',
      '- A list item:',
      '',
      '  ```ts',
      '  export const x = 1;',
      '  ```',
      '',
      '```tsx',
      'export const y = <div />;',
      '```',
      '',
      '````md',
      '```ts',
      'not a sample: inside another fence',
      '```',
      '````',
    ].join('\n');
    const samples = extractSamples('p.md', page);
    expect(samples.map((s) => [s.line, s.file, s.code])).toEqual([
      [3, 'vite.config.ts', 'export default 1;\n'],
      [7, 'vite.config.ts', 'export default 2;\n'],
      [15, 'sample-1.ts', 'export const x = 1;\n'],
    ]);
    expect(projectsOf(samples).map((p) => [...p.values()].map((s) => s.line))).toEqual([[3], [7, 15]]);
  });
});

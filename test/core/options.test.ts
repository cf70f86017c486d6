import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkOptions, withRoot } from '../../src/core/options.js';
import { agentScorers } from '../../src/plugin/index.js';

describe('options are checked at plugin creation', () => {
  test('an unknown option is an error naming it and the known ones', () => {
    expect(() => agentScorers({ agentDir: 'x' } as any)).toThrow(
      'agent-scorers: unknown option "agentDir". Known options: root, agentsDir, extensions, exclude, dts, manifest, strict.',
    );
  });

  test.each([
    [{ root: 3 }, 'option "root" must be a non-empty string, got number.'],
    [{ agentsDir: [] }, 'option "agentsDir" must be a non-empty string or an array of them, got an array.'],
    [{ agentsDir: ['ok', 1] }, 'option "agentsDir" must be a non-empty string or an array of them, got an array.'],
    [{ extensions: ['ts'] }, `option "extensions" must be a non-empty array of extensions such as '.ts', got an array.`],
    [{ extensions: '.ts' }, `option "extensions" must be a non-empty array of extensions such as '.ts', got ".ts".`],
    [{ exclude: [42] }, 'option "exclude" must be an array of glob strings or RegExps, got an array.'],
    [{ dts: 'yes'.length }, 'option "dts" must be a boolean or a file path, got number.'],
    [{ manifest: null }, 'option "manifest" must be a boolean or a file name, got null.'],
    [{ strict: 'true' }, 'option "strict" must be a boolean, got "true".'],
  ])('%o is rejected', (options, message) => {
    expect(() => agentScorers(options as any)).toThrow(`agent-scorers: ${message}`);
  });

  test('options that are not an object are rejected', () => {
    expect(() => agentScorers('src' as any)).toThrow('agent-scorers: options must be an object, got string.');
  });

  test('defaults', () => {
    const o = withRoot(checkOptions(undefined), '/project', () => true);
    expect(o).toMatchObject({
      root: '/project',
      agentsDirs: ['/project/src/mastra/agents'],
      extensions: ['.ts', '.mts', '.js', '.mjs'],
      manifest: null,
      strict: false,
      dtsFile: '/project/agent-scorers.d.ts',
    });
    expect(withRoot(checkOptions({}), '/project', () => false).dtsFile).toBe(null);
    expect(withRoot(checkOptions({ manifest: true }), '/p', () => false).manifest).toBe('agent-scorers.manifest.json');
  });

  test('root option beats the host root; agentsDir may be absolute or relative, one or many', () => {
    const o = withRoot(checkOptions({ root: '/mine', agentsDir: ['a', '/abs/b'], dts: 'types/reg.d.ts' }), '/vite-root', () => false);
    expect(o.root).toBe('/mine');
    expect(o.agentsDirs).toEqual(['/mine/a', '/abs/b']);
    expect(o.dtsFile).toBe(path.resolve('/mine/types/reg.d.ts'));
  });

  test('exclude takes globs and RegExps (a /g RegExp carries no state between files)', () => {
    const o = withRoot(checkOptions({ exclude: ['**/wip-*.ts', /legacy/g] }), '/p', () => false);
    expect(o.isExcluded('src/mastra/agents/a/scorers/wip-x.ts')).toBe(true);
    expect(o.isExcluded('src/mastra/agents/a/scorers/x.ts')).toBe(false);
    expect(o.isExcluded('src/mastra/agents/legacy/scorers/x.ts')).toBe(true);
    expect(o.isExcluded('src/mastra/agents/legacy/scorers/y.ts')).toBe(true);
  });
});

describe('per-agent module ids', () => {
  test('any agent key round-trips through its resolved id, which holds no ?, # or lone surrogate', async () => {
    const { resolvedAgentId, agentKeyOfResolvedId } = await import('../../src/core/codegen.js');
    for (const key of ['weather', 'weather/planner', 'a?b#c%d', '%u0041', 'lone\uD800surrogate', 'nul\0byte', 'ünï 😀']) {
      const id = resolvedAgentId(key);
      expect(agentKeyOfResolvedId(id)).toBe(key);
      expect(id.slice(1)).not.toMatch(/[?#\0\uD800-\uDFFF]/);
    }
  });
});

test('a manifest name outside the output folder is rejected at creation', () => {
  expect(() => agentScorers({ manifest: '/abs/m.json' })).toThrow('option "manifest" must be a file name inside the output folder');
  expect(() => agentScorers({ manifest: '../m.json' })).toThrow('option "manifest" must be a file name inside the output folder');
  expect(agentScorers({ manifest: 'meta/scorers.json' }).name).toBe('agent-scorers');
});

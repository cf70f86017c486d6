import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkOptions, withRoot } from '../../src/core/options.js';
import { agentScorers } from '../../src/plugin/index.js';

describe('options are checked at plugin creation', () => {
  test('an unknown option is an error naming it and the known ones', () => {
    expect(() => agentScorers({ agentDir: 'x' } as any)).toThrow(
      'agent-scorers: unknown option "agentDir". Known options: root, agentsDir, extensions, exclude, dts, manifest, strict, diagnostics, cache, inspector.',
    );
  });

  test.each([
    [{ root: 3 }, 'option "root" must be a non-empty string, got number.'],
    [{ agentsDir: [] }, 'option "agentsDir" must be a non-empty string or an array of them, got an array.'],
    [{ agentsDir: ['ok', 1] }, 'option "agentsDir" must be a non-empty string or an array of them, got an array.'],
    [{ extensions: ['ts'] }, 'option "extensions" must list extensions with their leading dot: "ts" lacks it, write ".ts".'],
    [{ extensions: ['.ts', 'mjs'] }, 'option "extensions" must list extensions with their leading dot: "mjs" lacks it, write ".mjs".'],
    [{ extensions: ['.d.ts'] }, `option "extensions" must be a non-empty array of extensions such as '.ts', got an array.`],
    [{ extensions: '.ts' }, `option "extensions" must be a non-empty array of extensions such as '.ts', got ".ts".`],
    [{ exclude: [42] }, 'option "exclude" must be an array of glob strings or RegExps, got an array.'],
    [{ dts: 'yes'.length }, 'option "dts" must be a boolean or a file path, got number.'],
    [{ manifest: null }, 'option "manifest" must be a boolean or a file name, got null.'],
    [{ strict: 'true' }, 'option "strict" must be a boolean, got "true".'],
    [{ cache: '' }, 'option "cache" must be a boolean or a folder path, got "".'],
    [{ cache: 1 }, 'option "cache" must be a boolean or a folder path, got number.'],
    [{ inspector: 'on' }, 'option "inspector" must be a boolean or an object such as { remote: true }, got "on".'],
    [{ inspector: null }, 'option "inspector" must be a boolean or an object such as { remote: true }, got null.'],
    [{ inspector: [] }, 'option "inspector" must be a boolean or an object such as { remote: true }, got an array.'],
    [{ inspector: { remote: 'yes' } }, 'option "inspector": remote must be a boolean, got "yes".'],
    [{ inspector: { remotes: true } }, 'option "inspector": unknown key "remotes". Known keys: remote, runTimeout.'],
    [{ inspector: { __proto__: null, host: true } }, 'option "inspector": unknown key "host". Known keys: remote, runTimeout.'],
    [{ inspector: { runTimeout: '5s' } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got "5s".'],
    [{ inspector: { runTimeout: 0 } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got 0.'],
    [{ inspector: { runTimeout: -1 } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got -1.'],
    [{ inspector: { runTimeout: 1.5 } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got 1.5.'],
    [{ inspector: { runTimeout: Infinity } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got Infinity.'],
    [{ inspector: { runTimeout: 2 ** 31 } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got 2147483648.'],
    [{ inspector: { runTimeout: null } }, 'option "inspector": runTimeout must be a whole number of milliseconds from 1 to 2147483647, such as 60000, got null.'],
  ])('%o is rejected', (options, message) => {
    expect(() => agentScorers(options as any)).toThrow(`agent-scorers: ${message}`);
  });

  test('inspector: on by default, local only unless remote, runs bounded at 60 s unless set, off with false', () => {
    expect(checkOptions({}).inspector).toEqual({ remote: false, runTimeout: 60_000 });
    expect(checkOptions({ inspector: true }).inspector).toEqual({ remote: false, runTimeout: 60_000 });
    expect(checkOptions({ inspector: {} }).inspector).toEqual({ remote: false, runTimeout: 60_000 });
    expect(checkOptions({ inspector: { remote: true } }).inspector).toEqual({ remote: true, runTimeout: 60_000 });
    expect(checkOptions({ inspector: { runTimeout: 1500 } }).inspector).toEqual({ remote: false, runTimeout: 1500 });
    expect(checkOptions({ inspector: { runTimeout: 2 ** 31 - 1 } }).inspector).toEqual({ remote: false, runTimeout: 2 ** 31 - 1 });
    expect(checkOptions({ inspector: false }).inspector).toBe(null);
  });

  test('cache: on by default, off by default where CI is set, as written when given', () => {
    for (const CI of [undefined, '', '0', 'false', 'FALSE', ' false ']) expect(checkOptions({}, { CI }).cache, `CI=${CI}`).toBe(true);
    for (const CI of ['1', 'true', 'True', 'yes', 'woodpecker']) expect(checkOptions({}, { CI }).cache, `CI=${CI}`).toBe(false);
    expect(checkOptions({ cache: true }, { CI: 'true' }).cache).toBe(true);
    expect(checkOptions({ cache: 'var/cache' }, { CI: 'true' }).cache).toBe('var/cache');
    expect(checkOptions({ cache: false }, {}).cache).toBe(false);
  });

  test('options that are not an object are rejected', () => {
    expect(() => agentScorers('src' as any)).toThrow('agent-scorers: options must be an object, got string.');
  });

  test('defaults', () => {
    const o = withRoot(checkOptions(undefined, {}), '/project', () => true);
    expect(o).toMatchObject({
      root: '/project',
      agentsDirs: ['/project/src/mastra/agents'],
      extensions: ['.ts', '.mts', '.js', '.mjs'],
      manifest: null,
      strict: false,
      dtsFile: '/project/agent-scorers.d.ts',
      cache: true,
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

describe('the diagnostics option', () => {
  const WARNINGS =
    'SCORER_KEY_COLLISION, CONFIG_SCORERS_FUNCTION, SCORER_KEY_CASE_COLLISION, AGENTS_DIR_MISSING, SUBAGENT_TOO_DEEP, CONFIG_EXPORTS_AGENT';

  test.each([
    [[], `option "diagnostics" must be an object mapping warning codes to 'off', 'warn' or 'error', got an array.`],
    [null, `option "diagnostics" must be an object mapping warning codes to 'off', 'warn' or 'error', got null.`],
    ['off', `option "diagnostics" must be an object mapping warning codes to 'off', 'warn' or 'error', got "off".`],
    [{ SCORER_KEY_COLISION: 'off' }, `option "diagnostics": unknown code "SCORER_KEY_COLISION". Warning codes: ${WARNINGS}.`],
    [{ toString: 'off' }, `option "diagnostics": unknown code "toString". Warning codes: ${WARNINGS}.`],
    [{ SCORER_DUPLICATE_KEY: 'warn' }, `option "diagnostics": SCORER_DUPLICATE_KEY is an error and cannot be turned down; only warnings can be set: ${WARNINGS}.`],
    [{ CONFIG_INVALID_SCORERS: 'error' }, `option "diagnostics": CONFIG_INVALID_SCORERS is an error and cannot be turned down; only warnings can be set: ${WARNINGS}.`],
    [{ SCORER_KEY_COLLISION: 'warning' }, `option "diagnostics": SCORER_KEY_COLLISION must be 'off', 'warn' or 'error', got "warning".`],
    [{ SCORER_KEY_COLLISION: 0 }, `option "diagnostics": SCORER_KEY_COLLISION must be 'off', 'warn' or 'error', got number.`],
    [{ SCORER_KEY_COLLISION: true }, `option "diagnostics": SCORER_KEY_COLLISION must be 'off', 'warn' or 'error', got boolean.`],
  ])('%o is rejected at creation', (diagnostics, message) => {
    expect(() => agentScorers({ diagnostics } as any)).toThrow(`agent-scorers: ${message}`);
  });

  test('levels: diagnostics sets single codes; strict makes every other warning an error; plain warnings are not listed', () => {
    expect(checkOptions({}).levels).toEqual({});
    expect(checkOptions({ diagnostics: { SCORER_KEY_COLLISION: 'off', AGENTS_DIR_MISSING: 'error', SUBAGENT_TOO_DEEP: 'warn' } }).levels).toEqual({
      SCORER_KEY_COLLISION: 'off',
      AGENTS_DIR_MISSING: 'error',
    });
    expect(checkOptions({ strict: true, diagnostics: { SCORER_KEY_COLLISION: 'warn', CONFIG_SCORERS_FUNCTION: 'off' } }).levels).toEqual({
      SCORER_KEY_CASE_COLLISION: 'error',
      AGENTS_DIR_MISSING: 'error',
      SUBAGENT_TOO_DEEP: 'error',
      CONFIG_EXPORTS_AGENT: 'error',
      CONFIG_SCORERS_FUNCTION: 'off',
    });
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

/**
 * config.ts shapes that the static reading must see through (wrappers, satisfies/as, methods,
 * local consts, spreads) or leave to run time (imports), and the rule that each merge warning is
 * printed once: at build time when evident, else at run time.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { build, count, HOSTS, type BuildResult } from '../helpers/hosts.js';

const A = 'src/mastra/agents';
const collision = (agent: string, key: string) =>
  `[SCORER_KEY_COLLISION] Agent "${agent}": scorer "${key}" defined in both config.scorers and scorers/; config.scorers wins. (${A}/${agent}/config.ts)`;
const fnForm = (agent: string) =>
  `[CONFIG_SCORERS_FUNCTION] Agent "${agent}": config.scorers is a function, so discovered scorers under ${A}/${agent}/scorers/ are ignored. (${A}/${agent}/config.ts)`;

const BUILD_WARNINGS = [
  collision('wrapped', 'a'),
  collision('as-cast', 'b'),
  fnForm('method'),
  fnForm('arrow-const'),
  collision('local-const', 'c'),
  collision('spread', 'relevance'),
  collision('real-world', 't'),
];
const RUNTIME_WARNINGS = [collision('spread', 'tone'), collision('imported-record', 'q'), fnForm('imported-function')];

describe.each(HOSTS)('config shapes on %s', (host) => {
  let result: BuildResult;
  let m: any;
  let warn: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    result = await build(host, 'config-shapes');
    expect(result.code, result.output).toBe(0);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    m = await result.load();
  });
  afterAll(() => warn.mockRestore());

  test('statically evident merge warnings are printed once at build time, and never at run time', () => {
    for (const text of BUILD_WARNINGS) {
      expect(count(result.output, text), text).toBe(1);
      expect(warn.mock.calls.flat()).not.toContain(text);
    }
    expect(count(result.output, '[plugin agent-scorers]') + count(result.output, '(agent-scorers plugin)')).toBe(BUILD_WARNINGS.length);
  });

  test('what shows only at run time is warned once at run time, and never at build time', () => {
    expect(warn.mock.calls.map((c: unknown[]) => c[0]).sort()).toEqual([...RUNTIME_WARNINGS].sort());
    for (const text of RUNTIME_WARNINGS) expect(result.output).not.toContain(text);
  });

  test('records: config wins in place, other files merge', () => {
    const ids = (agent: string) => Object.fromEntries(Object.entries(m.registry[agent]).map(([k, v]: [string, any]) => [k, v.scorer.id]));
    expect(ids('wrapped')).toEqual({ a: 'config-a', keep: 'file-keep' });
    expect(Object.keys(m.registry.wrapped)).toEqual(['a', 'keep']);
    expect(ids('as-cast')).toEqual({ b: 'config-b' });
    expect(ids('local-const')).toEqual({ c: 'config-c', d: 'file-d' });
    expect(m.registry['local-const'].c.sampling).toEqual({ type: 'ratio', rate: 0.1 });
    expect(Object.keys(m.registry.spread)).toEqual(['relevance', 'tone', 'zeta']);
    expect(ids('spread')).toEqual({ relevance: 'config-relevance', tone: 'shared-tone', zeta: 'file-zeta' });
    expect(Object.keys(m.registry['imported-record'])).toEqual(['p', 'q', 'extra']);
    expect(ids('imported-record')).toEqual({ p: 'file-p', q: 'shared-q', extra: 'shared-extra' });
    expect(ids('real-world')).toEqual({ t: 'config-t', u: 'file-u' });
    expect(ids('no-scorers-prop')).toEqual({ v: 'file-v' });
    expect(ids('with-helper')).toEqual({ w: 'file-w', toxicity: 'helper-toxicity' });
  });

  test('function forms stay functions and resolve through resolveScorers', async () => {
    for (const agent of ['method', 'arrow-const', 'imported-function']) expect(typeof m.registry[agent]).toBe('function');
    expect((await m.resolveScorers('method')).fromMethod.scorer.id).toBe('config-method');
    expect((await m.resolveScorers('arrow-const', { requestContext: {} })).dyn.scorer.id).toBe('config-dyn-ctx');
    expect(Object.keys(await m.resolveScorers('imported-function'))).toEqual(['only']);
  });

  test('the manifest says how each config.scorers was seen', () => {
    const kinds = Object.fromEntries(Object.entries(m.manifest.agents).map(([k, v]: [string, any]) => [k, v.configScorers]));
    expect(kinds).toEqual({
      'arrow-const': 'function',
      'as-cast': 'record',
      'imported-function': 'unknown',
      'imported-record': 'unknown',
      'local-const': 'record',
      method: 'function',
      'no-scorers-prop': 'none',
      'real-world': 'record',
      spread: 'record',
      wrapped: 'record',
      'with-helper': 'unknown',
    });
    expect(m.manifest.agents['local-const'].scorers.c).toEqual({ source: 'config', file: null, sampling: { type: 'ratio', rate: 0.1 } });
    expect(Object.keys(m.manifest.agents['imported-record'].scorers)).toEqual(['p', 'q']);
  });

  test('files the build knows to be overridden are not bundled', () => {
    const bundle = result.bundle();
    for (const id of ['file-a', 'file-b', 'file-m1', 'file-ar', 'file-c', 'file-relevance', 'file-t']) expect(bundle).not.toContain(`'${id}'`);
    for (const id of ['file-keep', 'file-tone', 'file-q', 'file-r']) expect(bundle).toContain(id);
  });
});

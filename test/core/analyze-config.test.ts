import { describe, expect, it } from 'vitest';
import { analyzeConfig } from '../../src/core/analyze-config.js';
import { describeSamplingProblem, type StaticSampling } from '../../src/core/readings.js';

/** Plain view of the analysis; sampling as entry pairs so keys like __proto__ stay ordinary. */
function cfg(source: string, filename = 'config.ts') {
  const a = analyzeConfig(source, filename);
  return { kind: a.kind, keys: a.keys, open: a.open, sampling: [...a.sampling] };
}
const kindOf = (source: string, filename?: string) => cfg(source, filename).kind;
const keysOf = (scorers: string) => cfg(`export default { scorers: ${scorers} }`).keys;
const samplingOf = (value: string): StaticSampling | undefined =>
  analyzeConfig(`export default { scorers: { k: ${value} } }`, 'config.ts').sampling.get('k');

const U = { kind: 'unknown' } as const;
const ABSENT = { kind: 'absent' } as const;
const record = (keys: string[], open = false, sampling: [string, StaticSampling][] = keys.map((k) => [k, U])) => ({
  kind: 'record',
  keys,
  open,
  sampling,
});
const plain = (kind: string) => ({ kind, keys: [], open: false, sampling: [] });

describe('analyzeConfig: finding the default export', () => {
  it('reads an inline object literal', () => {
    expect(cfg(`export default { scorers: { a: x, b: y } }`)).toEqual(record(['a', 'b']));
  });

  it('unwraps parentheses, satisfies, as, as const, <T>, ! and config helper calls', () => {
    const src = `import { agentConfig } from 'agent-scorers';
      export default (agentConfig(<Cfg>{ scorers: { a: s } } satisfies Cfg) as const)!;`;
    expect(cfg(src)).toEqual(record(['a']));
    expect(kindOf(`export default x.y.defineConfig({ scorers: () => ({}) })`)).toBe('function');
    expect(kindOf(`export default defineConfig(base, { scorers: {} })`)).toBe('unknown');
    expect(kindOf(`export default defineConfig(...args)`)).toBe('unknown');
    // Extra arguments may carry scorers: Object.assign({ name }, base) is not the literal alone.
    expect(kindOf(`export default Object.assign({ name: 'a' }, base)`)).toBe('unknown');
    expect(kindOf(`export default agentConfig({ name: 'a' }, { scorers: {} })`)).toBe('unknown');
    expect(kindOf(`export default agentConfig({ name: 'a' })`)).toBe('none');
    // Only Mastra's agentConfig is trusted to add nothing: another helper may bring scorers itself.
    expect(kindOf(`export default withEvals({ name: 'a' })`)).toBe('unknown');
    expect(kindOf(`export default base.extend({ name: 'a' })`)).toBe('unknown');
    expect(kindOf(`export default { name: 'a' }`)).toBe('none');
  });

  it('follows a local top-level const, also through export { x as default }', () => {
    expect(kindOf(`const config = { scorers: {} }; export default config;`)).toBe('record');
    expect(kindOf(`const config = agentConfig({ scorers() {} }); export { config as default };`)).toBe('function');
    expect(kindOf(`export const config = { scorers: { a } }; export default config satisfies C;`)).toBe('record');
  });

  it('does not follow let, var, imports, destructuring or mutated bindings', () => {
    expect(kindOf(`let config = { scorers: {} }; export default config;`)).toBe('unknown');
    expect(kindOf(`var config = { scorers: {} }; export default config;`)).toBe('unknown');
    expect(kindOf(`import config from './base'; export default config;`)).toBe('unknown');
    expect(kindOf(`const { config } = load(); export default config;`)).toBe('unknown');
    expect(kindOf(`const config = { scorers: {} }; config.scorers = () => ({}); export default config;`)).toBe(
      'unknown',
    );
    expect(kindOf(`const config = {}; Object.assign(config, extra); export default config;`)).toBe('unknown');
  });

  it('treats re-exported, CommonJS and export = defaults as unknown', () => {
    expect(kindOf(`export { default } from './base';`)).toBe('unknown');
    expect(kindOf(`export { base as default } from './base';`)).toBe('unknown');
    expect(kindOf(`module.exports = { scorers: {} };`)).toBe('unknown');
    expect(kindOf(`export = { scorers: {} };`)).toBe('unknown');
  });

  it("is 'none' without a runtime default export", () => {
    expect(cfg(`export const name = 'weather';`)).toEqual(plain('none'));
    expect(kindOf(``)).toBe('none');
    expect(kindOf(`// nothing here\n`)).toBe('none');
    expect(kindOf(`export * from './base';`)).toBe('none');
    expect(kindOf(`interface C { scorers: {} } export default interface C {}`)).toBe('none');
  });

  it("is 'unknown' on parse errors, await and conditionals", () => {
    expect(cfg(`export default { scorers: { a: }`)).toEqual(plain('unknown'));
    expect(kindOf(`export default await loadConfig();`)).toBe('unknown');
    expect(kindOf(`export default prod ? { scorers: {} } : {};`)).toBe('unknown');
    expect(kindOf(`export default makeConfig();`)).toBe('unknown');
  });
});

describe('analyzeConfig: the scorers property', () => {
  it('accepts identifier, string and computed string-literal keys', () => {
    expect(kindOf(`export default { 'scorers': {} }`)).toBe('record');
    expect(kindOf(`export default { ['scorers']: () => ({}) }`)).toBe('function');
    expect(kindOf(`export default { [\`scorers\`]: {} }`)).toBe('record');
  });

  it("is 'none' when absent and no spread could supply it", () => {
    expect(kindOf(`export default { name: 'weather', instructions: 'x' }`)).toBe('none');
    expect(kindOf(`export default { __proto__: null, name: 'x' }`)).toBe('none');
  });

  it('applies spreads and computed keys in order like JS', () => {
    expect(kindOf(`export default { ...base }`)).toBe('unknown');
    expect(kindOf(`export default { scorers: {}, ...base }`)).toBe('unknown');
    expect(kindOf(`export default { ...base, scorers: {} }`)).toBe('record');
    expect(kindOf(`export default { scorers: {}, [name]: 1 }`)).toBe('unknown');
    expect(kindOf(`export default { [name]: 1, scorers: {} }`)).toBe('record');
    expect(kindOf(`export default { scorers: () => ({}), scorers: { a } }`)).toBe('record');
  });

  it('sees a prototype that could carry scorers', () => {
    expect(kindOf(`export default { __proto__: base }`)).toBe('unknown');
    expect(kindOf(`export default { __proto__: base, scorers: {} }`)).toBe('record');
  });

  it('reads getters and setters as unknown', () => {
    expect(kindOf(`export default { get scorers() { return {}; } }`)).toBe('unknown');
    expect(kindOf(`export default { set scorers(v) {} }`)).toBe('unknown');
  });

  it('classifies the value', () => {
    expect(kindOf(`export default { scorers: () => ({}) }`)).toBe('function');
    expect(kindOf(`export default { scorers: async ({ requestContext }) => ({}) }`)).toBe('function');
    expect(kindOf(`export default { scorers: function () { return {}; } }`)).toBe('function');
    expect(kindOf(`export default { scorers() { return {}; } }`)).toBe('function');
    expect(kindOf(`export default { async scorers() { return {}; } }`)).toBe('function');
    expect(kindOf(`export default { scorers: ({ a } satisfies R) }`)).toBe('record');
    expect(kindOf(`export default { scorers: undefined }`)).toBe('none');
    expect(kindOf(`export default { scorers: void 0 }`)).toBe('none');
    expect(kindOf(`export default { scorers: null }`)).toBe('none');
    expect(kindOf(`export default { scorers: makeScorers() }`)).toBe('unknown');
    expect(kindOf(`export default { scorers: shared.scorers }`)).toBe('unknown');
    expect(kindOf(`export default { scorers: a ? {} : {} }`)).toBe('unknown');
    expect(kindOf(`export default { scorers: import('./s') }`)).toBe('unknown');
    expect(kindOf(`export default { scorers: 5 }`)).toBe('unknown');
  });

  it('follows identifiers and shorthand to local consts', () => {
    expect(cfg(`const scorers = { a: s }; export default { scorers };`)).toEqual(record(['a']));
    expect(kindOf(`const s = { a }; export default { scorers: s as R };`)).toBe('record');
    expect(kindOf(`const fn = () => ({}); export default { scorers: fn };`)).toBe('function');
    expect(kindOf(`function build() { return {}; } export default { scorers: build };`)).toBe('function');
    expect(kindOf(`const inner = { a }; const scorers = inner; export default { scorers };`)).toBe('record');
    expect(kindOf(`import { scorers } from './s'; export default { scorers };`)).toBe('unknown');
    expect(kindOf(`let scorers = {}; export default { scorers };`)).toBe('unknown');
    expect(kindOf(`const scorers = make(); export default { scorers };`)).toBe('unknown');
    expect(kindOf(`const scorers = { a }; scorers.b = x; export default { scorers };`)).toBe('unknown');
    expect(kindOf(`class S {} export default { scorers: S };`)).toBe('unknown');
  });
});

describe('analyzeConfig: record keys', () => {
  it('stringifies keys like JS', () => {
    expect(keysOf(`{ a: x, 'b-c': y, 1e3: z, 0x10: z, 1.50: z, 1n: z, [\`t\`]: z, ['s']: z, [-1]: z, [2]: z }`)).toEqual([
      'a',
      'b-c',
      '1000',
      '16',
      '1.5',
      '1',
      't',
      's',
      '-1',
      '2',
    ]);
  });

  it('counts methods and accessors as keys', () => {
    expect(keysOf(`{ m() {}, get g() { return x; }, async n() {} }`)).toEqual(['m', 'g', 'n']);
  });

  it('marks spreads and non-literal computed keys as open, keeping literal keys', () => {
    expect(cfg(`export default { scorers: { ...base, relevance } }`)).toEqual(record(['relevance'], true));
    expect(cfg(`export default { scorers: { [key]: s, tone: t } }`)).toEqual(record(['tone'], true));
    expect(cfg(`export default { scorers: { [\`\${a}\`]: s } }`)).toEqual(record([], true));
  });

  it('deduplicates keeping the first position and the last value', () => {
    const src = `export default { scorers: {
      a: { scorer: s, sampling: { type: 'none' } }, b: t, a: { scorer: s, sampling: { type: 'ratio', rate: 0.1 } } } }`;
    expect(cfg(src)).toEqual(
      record(['a', 'b'], false, [
        ['a', { kind: 'valid', value: { type: 'ratio', rate: 0.1 } }],
        ['b', U],
      ]),
    );
  });

  it('follows __proto__ semantics', () => {
    // Plain `__proto__: v` sets the prototype: no own key, not open.
    expect(cfg(`export default { scorers: { __proto__: base, a } }`)).toEqual(record(['a']));
    expect(cfg(`export default { scorers: { "__proto__": base } }`)).toEqual(record([]));
    // Computed, shorthand and method forms create an own key.
    expect(keysOf(`{ ['__proto__']: s }`)).toEqual(['__proto__']);
    expect(keysOf(`{ __proto__ }`)).toEqual(['__proto__']);
    expect(keysOf(`{ __proto__() {} }`)).toEqual(['__proto__']);
  });

  it('treats Object.prototype names as ordinary keys', () => {
    expect(keysOf(`{ toString: a, constructor: b, hasOwnProperty: c, valueOf: d }`)).toEqual([
      'toString',
      'constructor',
      'hasOwnProperty',
      'valueOf',
    ]);
  });

  it('handles unicode and lone-surrogate keys', () => {
    expect(keysOf(`{ 'héllo': a, "\\u{1F600}": b, '\\uD800': c, ключ: d }`)).toEqual(['héllo', '😀', '\uD800', 'ключ']);
  });
});

describe('analyzeConfig: per-key sampling', () => {
  it('reads literal sampling', () => {
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: 0.5 } }`)).toEqual({
      kind: 'valid',
      value: { type: 'ratio', rate: 0.5 },
    });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'none' } }`)).toEqual({ kind: 'valid', value: { type: 'none' } });
    expect(samplingOf(`{ scorer: s, sampling: { type: \`ratio\`, rate: 1 } as const }`)).toEqual({
      kind: 'valid',
      value: { type: 'ratio', rate: 1 },
    });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: 0 } satisfies Sampling }`)).toEqual({
      kind: 'valid',
      value: { type: 'ratio', rate: 0 },
    });
  });

  it('reports invalid literal sampling', () => {
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: 2 } }`)).toEqual({
      kind: 'invalid',
      detail: "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1; got { type: 'ratio', rate: 2 }",
    });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'random' } }`)).toEqual({
      kind: 'invalid',
      detail: "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1; got { type: 'random' }",
    });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: -0.1 } }`)).toMatchObject({ kind: 'invalid' });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: '0.5' } }`)).toMatchObject({ kind: 'invalid' });
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio' } }`)).toMatchObject({ kind: 'invalid' });
    expect(samplingOf(`{ scorer: s, sampling: null }`)).toMatchObject({ kind: 'invalid' });
    expect(samplingOf(`{ scorer: s, sampling: 0.5 }`)).toMatchObject({ kind: 'invalid' });
  });

  it('is absent without a sampling property and unknown when not literal', () => {
    expect(samplingOf(`{ scorer: s }`)).toEqual(ABSENT);
    expect(samplingOf(`{ scorer }`)).toEqual(ABSENT);
    expect(samplingOf(`{ scorer: s, sampling: undefined }`)).toEqual(ABSENT);
    expect(samplingOf(`{ scorer: s, sampling: someVar }`)).toEqual(U);
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: RATE } }`)).toEqual(U);
    expect(samplingOf(`{ scorer: s, sampling: { ...base } }`)).toEqual(U);
    expect(samplingOf(`{ scorer: s, sampling: { type: 'ratio', rate: 0.5 }, ...extra }`)).toEqual(U);
    expect(samplingOf(`{ scorer: s, ...extra }`)).toEqual(U);
    expect(samplingOf(`{ scorer: s, get sampling() { return x; } }`)).toEqual(U);
    expect(samplingOf(`scorer`)).toEqual(U);
    expect(samplingOf(`createScorer({})`)).toEqual(U);
  });

  it('makes earlier keys unknown when a later spread may override them', () => {
    const src = `export default { scorers: { a: { scorer: s }, ...more, b: { scorer: s } } }`;
    expect(cfg(src)).toEqual(record(['a', 'b'], true, [['a', U], ['b', ABSENT]]));
  });
});

describe('describeSamplingProblem', () => {
  it('accepts the two allowed forms and absence', () => {
    expect(describeSamplingProblem(undefined)).toBeNull();
    expect(describeSamplingProblem({ type: 'none' })).toBeNull();
    expect(describeSamplingProblem({ type: 'ratio', rate: 0 })).toBeNull();
    expect(describeSamplingProblem({ type: 'ratio', rate: 1 })).toBeNull();
  });

  it('describes anything else', () => {
    const prefix = "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1; got ";
    expect(describeSamplingProblem(null)).toBe(`${prefix}null`);
    expect(describeSamplingProblem({ type: 'ratio', rate: NaN })).toBe(`${prefix}{ type: 'ratio', rate: NaN }`);
    expect(describeSamplingProblem(['none'])).toBe(`${prefix}['none']`);
    expect(describeSamplingProblem({ "it's": 1 })).toBe(`${prefix}{ 'it\\'s': 1 }`);
    expect(describeSamplingProblem('x'.repeat(500))).toBe(`${prefix}'${'x'.repeat(37)}...'`);
  });
});

describe('analyzeConfig: robustness', () => {
  it('reads real-world TypeScript', () => {
    const src = `\uFEFF
      // Ünïcödé comment ✓
      import type { AgentConfig } from '../types';
      import { agentConfig } from 'agent-scorers';
      import { openai } from '@ai-sdk/openai';
      enum Mode { Fast, Slow }
      declare const injected: string;
      function id<T,>(x: T): T { return x; }
      @sealed class Tools { @log run(): void {} }
      const model = await openai('gpt-4o-mini');
      /** the config */
      export default agentConfig({
        name: 'weather',
        model,
        mode: Mode.Fast,
        instructions: () => 'be nice',
        tools: new Tools(),
        scorers: { relevance: { scorer: relevance, sampling: { type: 'ratio', rate: 0.25 } } },
      } satisfies AgentConfig);`;
    expect(cfg(src)).toEqual(record(['relevance'], false, [['relevance', { kind: 'valid', value: { type: 'ratio', rate: 0.25 } }]]));
  });

  it('parses by extension, and .ts files that are already JS', () => {
    expect(kindOf(`export default { scorers: { a } }`, 'config.js')).toBe('record');
    expect(kindOf(`export default { scorers: { a } }`, 'config.mjs')).toBe('record');
    expect(kindOf(`#!/usr/bin/env node\nexport default { scorers: { a } }`, 'config.js')).toBe('record');
    expect(kindOf(`export default { scorers: { a } } satisfies C`, 'config.mts')).toBe('record');
    expect(kindOf(`export default { scorers: { a } } satisfies C`, '/x/config.ts?v=123')).toBe('record');
    expect(kindOf(`export default { scorers: { a } } satisfies C`, 'config.js')).toBe('unknown');
  });

  it('never throws', () => {
    const deep = `export default { scorers: ${'['.repeat(1000)}${']'.repeat(1000)} }`;
    for (const src of ['', '\0', '}{', deep, 'export default', '\uD800', 'a'.repeat(10000)]) {
      expect(() => analyzeConfig(src, 'config.ts')).not.toThrow();
    }
    expect(kindOf(deep)).toBe('unknown');
    expect(() => analyzeConfig(undefined as unknown as string, 'config.ts')).not.toThrow();
    expect(analyzeConfig(undefined as unknown as string, 'config.ts').kind).toBe('unknown');
  });
});

describe('analyzeConfig: a config that exports new Agent()', () => {
  const IMPORT = `import { Agent } from '@mastra/core/agent';\n`;

  it('reads new Agent({...}) directly, through a local const, with an aliased or namespace import', () => {
    expect(cfg(`${IMPORT}export default new Agent({ id: 'w', scorers: { a } });`)).toEqual(plain('agent'));
    expect(kindOf(`${IMPORT}const weather = new Agent({ id: 'w' });\nexport default weather;`)).toBe('agent');
    expect(kindOf(`${IMPORT}export const weather = new Agent({ id: 'w' }) satisfies Agent;\nexport { weather as default };`)).toBe('agent');
    expect(kindOf(`import { Agent as MastraAgent } from '@mastra/core';\nexport default new MastraAgent({ id: 'w' });`)).toBe('agent');
    expect(kindOf(`import * as core from '@mastra/core/agent';\nexport default new core.Agent({ id: 'w' });`)).toBe('agent');
  });

  it('does not take what is not evidently an imported Agent', () => {
    // A local class of that name, a default import, another class, a call, a mutated binding.
    expect(kindOf(`class Agent { constructor(c) { Object.assign(this, c) } }\nexport default new Agent({ scorers: {} });`)).toBe('unknown');
    expect(kindOf(`import Agent from './agent';\nexport default new Agent({ scorers: {} });`)).toBe('unknown');
    expect(kindOf(`import { Workflow } from '@mastra/core';\nexport default new Workflow({ scorers: {} });`)).toBe('unknown');
    expect(kindOf(`${IMPORT}export default makeAgent(Agent);`)).toBe('unknown');
    expect(kindOf(`${IMPORT}const a = new Agent({});\na.x = 1;\nexport default a;`)).toBe('unknown');
    expect(kindOf(`import { agentConfig } from '@mastra/core/agent';\nexport default agentConfig({ scorers: {} });`)).toBe('record');
  });
});

describe('analyzeConfig: evidently invalid scorers (CONFIG_INVALID_SCORERS)', () => {
  const problemsOf = (scorers: string, prelude = '') => analyzeConfig(`${prelude}export default agentConfig({ scorers: ${scorers} })`, 'config.ts').problems;

  it('config.scorers that is neither a record nor a function', () => {
    expect(problemsOf('42')).toEqual([{ key: null, detail: 'a number' }]);
    expect(problemsOf(`'x'`)).toEqual([{ key: null, detail: 'a string' }]);
    expect(problemsOf('`x`')).toEqual([{ key: null, detail: 'a string' }]);
    expect(problemsOf('true')).toEqual([{ key: null, detail: 'a boolean' }]);
    expect(problemsOf('[a, b]')).toEqual([{ key: null, detail: 'an array' }]);
    expect(problemsOf('-1 as const')).toEqual([{ key: null, detail: 'a number' }]);
    expect(problemsOf('s', 'const s = 42;\n')).toEqual([{ key: null, detail: 'a number' }]);
  });

  it('record values that are evidently neither a scorer nor an entry, keyed as written', () => {
    expect(problemsOf(`{ x: 'str', y: 42, z: { scorer: 'str' }, ok: { scorer: s }, fn: () => 1 }`)).toEqual([
      { key: 'x', detail: 'a string' },
      { key: 'y', detail: 'a number' },
      { key: 'z', detail: 'an object whose "scorer" is a string' },
      { key: 'fn', detail: 'a function' },
    ]);
    expect(problemsOf(`{ ['__proto__']: null, 'a"b\\n': [] }`)).toEqual([
      { key: '__proto__', detail: 'null' },
      { key: 'a"b\n', detail: 'an array' },
    ]);
    expect(problemsOf(`{ x: bad }`, `const bad = 'nope';\n`)).toEqual([{ key: 'x', detail: 'a string' }]);
  });

  it('never judges what is not evident: imports, calls, members, spreads that may replace a value, getters', () => {
    for (const scorers of ['imported', 'make()', 'a.b', '{ x: imported, y: make(), z: a.b, w: { scorer: make() } }', `{ x: 'str', ...base }`, `{ get x() { return 1 } }`, 'cond ? 1 : 2', 'null', 'undefined']) {
      expect(problemsOf(scorers, `import { imported, base } from './x';\n`), scorers).toEqual([]);
    }
    // A later plain key is evident again after a spread; the last write of a key decides.
    expect(problemsOf(`{ ...base, x: 42 }`)).toEqual([{ key: 'x', detail: 'a number' }]);
    expect(problemsOf(`{ x: 42, x: { scorer: s } }`)).toEqual([]);
  });
});

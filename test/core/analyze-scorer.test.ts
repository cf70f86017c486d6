import { describe, expect, it } from 'vitest';
import { analyzeScorer, type ScorerFileAnalysis } from '../../src/core/analyze-scorer.js';

const scan = (source: string, filename = 'tone.ts') => analyzeScorer(source, filename);
const UNKNOWN: ScorerFileAnalysis = { hasDefault: true, problem: null, sampling: { kind: 'unknown' }, shape: 'unknown' };
const NO_DEFAULT: ScorerFileAnalysis = { ...UNKNOWN, hasDefault: false };
const SCORER: ScorerFileAnalysis = { hasDefault: true, problem: null, sampling: { kind: 'absent' }, shape: 'scorer' };
const invalid = (detail: string): ScorerFileAnalysis => ({
  ...UNKNOWN,
  problem: { code: 'SCORER_INVALID_EXPORT', detail },
});
const SAMPLING_PREFIX = "sampling must be { type: 'none' } or { type: 'ratio', rate } with 0 <= rate <= 1; got ";

describe('analyzeScorer: hasDefault', () => {
  it('sees every form of default export', () => {
    for (const src of [
      `export default createScorer({ id: 'x' });`,
      `const s = make(); export { s as default };`,
      `export { default } from './impl';`,
      `export { default as default } from './impl';`,
      `export { tone as default } from './impl';`,
      `export * as default from './impl';`,
      `const s = make(); export { s as 'default' };`,
    ]) {
      expect(scan(src), src).toEqual(UNKNOWN);
    }
  });

  it('is false without a runtime default export', () => {
    expect(scan(`export * from './impl';`)).toEqual(NO_DEFAULT);
    expect(scan(`export const tone = make();`)).toEqual(NO_DEFAULT);
    expect(scan(`import { make } from './m'; const tone = make();`)).toEqual(NO_DEFAULT);
    expect(scan(`interface S { id: string } export default interface S {}`)).toEqual(NO_DEFAULT);
    expect(scan(`type S = { id: string }; export type { S as default };`)).toEqual(NO_DEFAULT);
    expect(scan(`type S = { id: string }; export { type S as default };`)).toEqual(NO_DEFAULT);
    expect(scan(``)).toEqual(NO_DEFAULT);
  });

  it('leaves CommonJS and export = to the host', () => {
    expect(scan(`module.exports = require('./impl');`)).toEqual(UNKNOWN);
    expect(scan(`exports.default = 1;`)).toEqual(UNKNOWN);
    expect(scan(`import s = require('./impl'); export = s;`)).toEqual(UNKNOWN);
  });

  it('does not fail on parse errors', () => {
    expect(scan(`export default {`)).toEqual(UNKNOWN);
    expect(scan(`export default { scorer: s, sampling: { type: 'ratio', rate: 2 }`)).toEqual(UNKNOWN);
  });
});

describe('analyzeScorer: invalid default exports', () => {
  it('names literal values', () => {
    expect(scan(`export default null;`)).toEqual(invalid('null'));
    expect(scan(`export default undefined;`)).toEqual(invalid('undefined'));
    expect(scan(`export default void 0;`)).toEqual(invalid('undefined'));
    expect(scan(`export default 'tone';`)).toEqual(invalid('a string'));
    expect(scan(`export default \`tone \${x}\`;`)).toEqual(invalid('a string'));
    expect(scan(`export default 42;`)).toEqual(invalid('a number'));
    expect(scan(`export default -1;`)).toEqual(invalid('a number'));
    expect(scan(`export default NaN;`)).toEqual(invalid('a number'));
    expect(scan(`export default 10n;`)).toEqual(invalid('a bigint'));
    expect(scan(`export default true;`)).toEqual(invalid('a boolean'));
    expect(scan(`export default [scorer];`)).toEqual(invalid('an array'));
    expect(scan(`export default (null as any);`)).toEqual(invalid('null'));
  });

  it('names functions and classes', () => {
    expect(scan(`export default () => scorer;`)).toEqual(invalid('a function'));
    expect(scan(`export default async function () {}`)).toEqual(invalid('a function'));
    expect(scan(`export default function make() { return 1; }`)).toEqual(invalid('a function'));
    expect(scan(`export default class {}`)).toEqual(invalid('a class'));
    expect(scan(`export default abstract class Base { abstract run(): void }`)).toEqual(invalid('a class'));
    expect(scan(`export default (class { run() {} });`)).toEqual(invalid('a class'));
  });

  it('leaves functions and classes that may carry id and run to run time', () => {
    expect(scan(`export default function f() {} f.id = 'x'; f.run = () => 1;`)).toEqual(UNKNOWN);
    expect(scan(`export default class { static id = 'x'; static run() {} }`)).toEqual(UNKNOWN);
    expect(scan(`export default class extends Base {}`)).toEqual(UNKNOWN);
    expect(scan(`export default @register class {}`)).toEqual(UNKNOWN);
    expect(scan(`export default class { static { init(this); } }`)).toEqual(UNKNOWN);
  });

  it('names objects that are neither scorer nor entry', () => {
    expect(scan(`export default {};`)).toEqual(invalid('an object without "scorer", "id" or "run"'));
    expect(scan(`export default { name: 'tone', score: () => 1 };`)).toEqual(
      invalid('an object without "scorer", "id" or "run"'),
    );
    expect(scan(`export default { id: 'tone' };`)).toEqual(invalid('an object with "id" but without "run" or "scorer"'));
    expect(scan(`export default { run() {} };`)).toEqual(invalid('an object with "run" but without "id" or "scorer"'));
    expect(scan(`export default { __proto__: null, name: 'x' };`)).toEqual(
      invalid('an object without "scorer", "id" or "run"'),
    );
  });

  it('names an entry whose scorer is evidently not one', () => {
    expect(scan(`export default { scorer: null };`)).toEqual(invalid('an object whose "scorer" is null'));
    expect(scan(`export default { scorer: undefined };`)).toEqual(invalid('an object whose "scorer" is undefined'));
    expect(scan(`export default { scorer: 'tone' };`)).toEqual(invalid('an object whose "scorer" is a string'));
    expect(scan(`export default { scorer: () => 1 };`)).toEqual(invalid('an object whose "scorer" is a function'));
    expect(scan(`export default { scorer() {} };`)).toEqual(invalid('an object whose "scorer" is a function'));
    expect(scan(`export default { scorer: [] };`)).toEqual(invalid('an object whose "scorer" is an array'));
  });

  it('follows a local const once', () => {
    expect(scan(`const entry = null; export default entry;`)).toEqual(invalid('null'));
    expect(scan(`const entry = { name: 'x' }; export { entry as default };`)).toEqual(
      invalid('an object without "scorer", "id" or "run"'),
    );
    expect(scan(`function make() {} export default make;`)).toEqual(invalid('a function'));
    expect(scan(`const a = null; const b = a; export default b;`)).toEqual(UNKNOWN);
  });

  it('does not follow mutated, reassignable or imported bindings', () => {
    expect(scan(`const e = {}; e.scorer = s; export default e;`)).toEqual(UNKNOWN);
    expect(scan(`let e = null; e = make(); export default e;`)).toEqual(UNKNOWN);
    expect(scan(`var e = null; export default e;`)).toEqual(UNKNOWN);
    expect(scan(`import e from './e'; export default e;`)).toEqual(UNKNOWN);
    expect(scan(`function make() {} make.id = 'x'; make.run = r; export default make;`)).toEqual(UNKNOWN);
  });

  it('leaves calls, new, members and imports to run time', () => {
    const src = `import { createScorer } from '@mastra/core/evals';
      export default createScorer({ id: 'tone', description: 'x' })
        .preprocess(({ run }) => run.output)
        .generateScore(() => 1);`;
    expect(scan(src)).toEqual(UNKNOWN);
    expect(scan(`export default new ToneScorer();`)).toEqual(UNKNOWN);
    expect(scan(`import * as m from './m'; export default m.tone;`)).toEqual(UNKNOWN);
    expect(scan(`import tone from './m'; export default tone;`)).toEqual(UNKNOWN);
    expect(scan(`export default a || b;`)).toEqual(UNKNOWN);
    expect(scan(`export default await load();`)).toEqual(UNKNOWN);
  });

  it('leaves objects with spreads, unknown computed keys or prototypes to run time', () => {
    expect(scan(`export default { ...base };`)).toEqual(UNKNOWN);
    expect(scan(`export default { [k]: s };`)).toEqual(UNKNOWN);
    expect(scan(`export default { __proto__: base };`)).toEqual(UNKNOWN);
    expect(scan(`export default { scorer: s, ...rest };`)).toEqual(UNKNOWN);
  });
});

describe('analyzeScorer: scorers and entries', () => {
  it('recognises an inline scorer by id and run', () => {
    expect(scan(`export default { id: 'tone', run: async () => ({ score: 1 }) };`)).toEqual(SCORER);
    expect(scan(`export default { id: 'tone', async run() { return { score: 1 }; } };`)).toEqual(SCORER);
    expect(scan(`export default { get id() { return 'tone'; }, run };`)).toEqual(SCORER);
    expect(scan(`export default { ['id']: 'tone', 'run': run } satisfies Scorer;`)).toEqual(SCORER);
    // The spread may bring a `scorer`, which the runtime checks first.
    expect(scan(`export default { ...base, id: 'tone', run };`)).toEqual(UNKNOWN);
  });

  it('leaves objects with scorer, id and run together to run time', () => {
    expect(scan(`export default { scorer: s, id: 'x', run };`)).toEqual(UNKNOWN);
  });

  it('reads entries and their sampling', () => {
    expect(scan(`import s from './s'; export default { scorer: s };`)).toEqual({
      hasDefault: true,
      problem: null,
      sampling: { kind: 'absent' },
      shape: 'entry',
    });
    expect(scan(`export default { scorer: s, sampling: { type: 'ratio', rate: 0.5 }, filter: () => true };`)).toEqual({
      hasDefault: true,
      problem: null,
      sampling: { kind: 'valid', value: { type: 'ratio', rate: 0.5 } },
      shape: 'entry',
    });
    expect(scan(`const entry = { scorer: s, sampling: { type: 'none' } as const }; export default entry;`)).toEqual({
      hasDefault: true,
      problem: null,
      sampling: { kind: 'valid', value: { type: 'none' } },
      shape: 'entry',
    });
    expect(scan(`export default { scorer: s, sampling: RATE };`)).toEqual({
      hasDefault: true,
      problem: null,
      sampling: { kind: 'unknown' },
      shape: 'entry',
    });
  });

  it('reports invalid literal sampling', () => {
    expect(scan(`export default { scorer: s, sampling: { type: 'ratio', rate: 2 } };`)).toEqual({
      hasDefault: true,
      problem: { code: 'SCORER_INVALID_SAMPLING', detail: `${SAMPLING_PREFIX}{ type: 'ratio', rate: 2 }` },
      sampling: { kind: 'invalid', detail: `${SAMPLING_PREFIX}{ type: 'ratio', rate: 2 }` },
      shape: 'entry',
    });
    expect(scan(`export default { scorer: s, sampling: { type: 'random' } };`).problem).toEqual({
      code: 'SCORER_INVALID_SAMPLING',
      detail: `${SAMPLING_PREFIX}{ type: 'random' }`,
    });
    expect(scan(`export default { scorer: s, sampling: 'always' };`).problem).toEqual({
      code: 'SCORER_INVALID_SAMPLING',
      detail: `${SAMPLING_PREFIX}'always'`,
    });
  });

  it('parses JavaScript, compiled TypeScript and TSX-free TypeScript by extension', () => {
    expect(scan(`export default { id: 'a', run() {} };`, 'a.js')).toEqual(SCORER);
    expect(scan(`export default { id: 'a', run() {} };`, 'a.mjs')).toEqual(SCORER);
    expect(scan(`export default { id: 'a', run() {} } satisfies S;`, 'a.mts')).toEqual(SCORER);
    expect(scan(`var s = { id: 'a', run: function () {} };\nexport { s as default };`, 'a.ts')).toEqual(UNKNOWN);
    expect(scan(`export default <S>{ id: 'a', run() {} };`, 'a.ts')).toEqual(SCORER);
  });

  it('never throws', () => {
    for (const src of ['\0', '\uD800', 'export default ' + '('.repeat(1000) + '1' + ')'.repeat(1000), '@']) {
      expect(() => scan(src)).not.toThrow();
    }
    expect(scan(null as unknown as string)).toEqual(UNKNOWN);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeConfig } from '../../src/core/analyze-config.js';
import { analyzeScorer } from '../../src/core/analyze-scorer.js';
import { readerCounts } from '../../src/core/ast.js';
import { lightParse } from '../../src/core/light-parse.js';
import { functionSkeleton } from '../../src/core/skeleton.js';

describe('functionSkeleton', () => {
  it('empties function, method and arrow bodies and keeps everything else', () => {
    const source = `const scorer = {
  id: 'x',
  async run({ input }: { input: string }) { if (input) { return { score: 1 }; } return { score: 0 }; },
  check: (a) => { return a; },
  plain: (a) => a + 1,
};
function helper(x) { return x * 2; }
export default scorer;
`;
    expect(functionSkeleton(source)).toBe(`const scorer = {
  id: 'x',
  async run({ input }: { input: string }) {},
  check: (a) => {},
  plain: (a) => a + 1,
};
function helper(x) {}
export default scorer;
`);
  });

  it('does not count braces in strings, templates, comments and regular expressions', () => {
    const source = [
      "const a = { s: '}{', d: \"{\", t: `${'}'}{${ { x: 1 }.x }`, re: /[}/]{2}\\//g };",
      '// } a comment with a brace',
      '/* { another */',
      'const f = () => { const r = /}/; return `}${(() => { return "}"; })()}`; };',
      'export default a;',
    ].join('\n');
    expect(functionSkeleton(source)).toBe(source.replace('{ const r = /}/; return `}${(() => { return "}"; })()}`; }', '{}'));
  });

  it('tells a division from a regular expression by what precedes it', () => {
    expect(functionSkeleton('const x = a / 2 / b; const y = [1][0] / 2; const f = () => { return /}/.test(s); };')).toBe(
      'const x = a / 2 / b; const y = [1][0] / 2; const f = () => {};',
    );
    expect(functionSkeleton("const z = 'a'.length / 2; const w = `x` / 2; const r = /a/ / 2; run(x) { return typeof /}/; }")).toBe(
      "const z = 'a'.length / 2; const w = `x` / 2; const r = /a/ / 2; run(x) {}",
    );
  });

  it('gives up where a scan cannot be sure', () => {
    for (const source of [
      'const x = (a) / 2;', // `)` then `/`: a division here, a regex after `if (a)`
      'if (a) {} /re/.test(b);',
      'let i = 0; i++ / 2;',
      'for (const of of /x/) {}',
      "const s = 'unterminated;",
      'const t = `open ${ x',
      'const o = { a: 1 ;',
      '/* open comment',
      'const café = 1;', // a Unicode identifier
    ]) {
      expect(functionSkeleton(source), source).toBeNull();
    }
  });

  it('returns the same string when there is no body to empty', () => {
    const source = "export default agentConfig({ name: 'x', model: 'openai/gpt-4o-mini' });\n";
    expect(functionSkeleton(source)).toBe(source);
  });
});

/** Every scorer file and config of the test fixtures, plus shapes that stress the skeleton. */
function samples(): Array<{ name: string; source: string }> {
  const out: Array<{ name: string; source: string }> = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.[mc]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push({ name: entry.name, source: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(path.resolve(import.meta.dirname, '../fixtures'));
  const extra = [
    "const scorer = { id: 'x', async run() { return { score: 1 }; } };\nexport default scorer;\n",
    "const scorer = { id: 'x', run() {} };\nfunction mutate() { scorer.id = 3; scorer.run = null; }\nexport default scorer;\n",
    "const scorer = { id: 'x', run() {} };\nconst f = () => { console.log(scorer, scorer); };\nexport default scorer;\n",
    "export default { scorer: { id: 'x', run: async () => { return { score: 1 }; } }, sampling: { type: 'ratio', rate: 0.5 } };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: 'ratio', rate: 2 } };\n",
    "export default { id: 'x', describe() { return 1; } };\n",
    "export default () => { return 42; };\n",
    "export default function () { return { id: 'x', run() {} }; }\n",
    "export default class { static id = 'x'; static run() { return 1; } }\n",
    "const cfg = { scorers: { a: { scorer: { id: 'a', run() {} } }, ...(() => { return {}; })() } };\nexport default cfg;\n",
    "export default agentConfig({ name: 'x', scorers: ({ requestContext }) => { return {}; } });\n",
    "export default agentConfig({ name: 'x', scorers() { return {}; } });\n",
    "export default agentConfig({ name: 'x', instructions: () => { return 'hi'; }, scorers: { s: { scorer: make(), sampling: { type: 'none' } } } });\n",
    "export default agentConfig({ name: 'x', onFinish() { return 1; } });\n",
    "const x = { id: 'x', run() { return import.meta.url; } };\nmodule.exports = x;\n",
    "function f() { return import.meta.url; }\nconst exports = {};\n",
    "export default { scorer: { id: `t${1}`, run() { return `}${'{'}`; } }, sampling: { type: 'none' } };\n",
    // Shapes at the edges of light-parse.ts's grammar (it must read them exactly like oxc-parser, or give up).
    'export default `a${b}`;\n',
    "export default { id: `x-${1}`, run() {} };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: `ratio${''}`, rate: 0.5 } };\n",
    "export default defineScorer({ id: 'x', reason: (s) => (s === 1 ? 'ok' : `Too long by ${Math.round((1 - s) * 100)}% ${`nested ${'}'}`}`) });\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: 'none' }, note: `a\\`b` };\n",
    "import { Agent } from '@mastra/core/agent';\nexport default new Agent({ name: 'x', scorers: {} });\n",
    "import { Agent as A } from '@mastra/core/agent';\nexport default new A({ name: 'x' });\n",
    "import * as m from '@mastra/core/agent';\nexport default new m.Agent({ name: 'x' });\n",
    "import Agent from 'x';\nexport default new Agent({});\n",
    "import { Agent } from 'x';\nconst agent = new Agent({ name: 'a', instructions: () => { return 'x'; } });\nexport default agent;\n",
    "import { 'Agent' as A } from 'x';\nexport default new A();\n",
    "import { Agent } from 'x';\nexport default new Agent;\n",
    "import { Agent } from 'x';\nexport default new Agent({}).withScorers();\n",
    'export default agentConfig({ scorers: 42 });\n',
    "export default agentConfig({ scorers: { a: 'str', b: { scorer: 1 }, c: [1] } });\n",
    'export default agentConfig({ scorers: [1] });\n',
    "export default agentConfig({ scorers: { a: { scorer: { id: 'x', run() { return 1; } } } } });\n",
    'export default (x): number => 1;\n',
    'export default abstract class Base { abstract run(): void }\n',
    'export default declare;\n',
    "export default x y;\n",
    'export default a ? b : c;\n',
    'export default a ? (x) => 1 : 2;\n',
    'const make = () => {};\nexport default make\n(1)\n',
    "const s = { id: 'x', run() {} }\nexport default s\n",
    "export default { get id() { return 'x' }, run() {} };\n",
    "export default { async: true, get: 1, set: 2, id: 'x', run: 1 };\n",
    "export default { get() {}, set() {}, async() {}, id: 'x' };\n",
    "export default { id: 'x', run: () => {} } as const satisfies Foo<A, B>;\n",
    "export default { scorer: new Foo(), sampling: { type: 'ratio', rate: -0.5 } };\n",
    "export default { scorer: s, sampling: { type: 'ratio', rate: 1e0 } };\nconst s = make();\n",
    'export default { scorer: 42 };\n',
    "export default { scorer: 'a', sampling: { type: 'ratio', rate: 0.5 } };\n",
    "import s, { a as b } from './x';\nexport default s;\n",
    "import * as ns from 'x';\nexport default ns;\n",
    "export { s as default };\nconst s = { id: 'x', run() {} };\n",
    "export { s as default } from './x';\n",
    "export { s as 'default' };\nconst s = 42;\n",
    "const undefined = 1;\nexport default { scorer: { id: 'x', run() {} }, sampling: undefined };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: void 0 };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: `ratio`, rate: .5 } };\n",
    "export default { ['scorer']: { id: 'x', run() {} }, sampling: { type: 'none' } };\n",
    "export default { __proto__: base, id: 'x', run() {} };\n",
    "export default { __proto__: null, id: 'x', run() {} };\n",
    "export default { id: 'x', run() {}, ...rest };\n",
    "let s = { id: 'x', run() {} };\nexport default s;\n",
    "export const s = { id: 'x', run() {} };\nexport default s;\n",
    'export default function named() {}\n',
    'export default async function () {}\n',
    'function f() {}\nexport default f;\n',
    'function f() {}\nf.id = 1;\nexport default f;\n',
    'export default typeof x;\n',
    'export default !x;\n',
    'export default -1;\n',
    'export default [1, 2];\n',
    'export default [, ...a];\n',
    "export default 'str';\n",
    'export default null;\n',
    'export default true;\n',
    'export default `t`;\n',
    'export default x as any;\n',
    'export default x!;\n',
    "export default ({ id: 'x', run() {} });\n",
    "const a = 1, b = { id: 'x', run() {} };\nexport default b;\n",
    "export default agentConfig({ name: 'x', scorers: { a: { scorer: s, sampling: { type: 'ratio', rate: 0.2 } }, ...more } });\n",
    "export default defineConfig.agent({ scorers: { a: x } });\n",
    "const config = agentConfig({ scorers: { s: x } });\nexport default config;\n",
    "export default agentConfig({ name: 'x' }, extra);\n",
    'export default agentConfig(...[cfg]);\n',
    "export default withEvals({ name: 'x' });\n",
    "export default agentConfig({ name: 'x' }).withScorers();\n",
    'export default { scorers: fn };\n',
    'export default { scorers: null };\n',
    'export default { scorers: undefined };\n',
    'export default { scorers: void 0 };\n',
    'export default { scorers: 42 };\n',
    'export default { scorers: async () => ({}) };\n',
    'export default { scorers: async function () {} };\n',
    'export default { async scorers() {} };\n',
    'export default { get scorers() { return {}; } };\n',
    "export default { scorers: { s: { scorer: x, sampling: { type: 'ratio', rate: 3 } } } };\n",
    'export default await make();\n',
    "import type { T } from 'x';\nexport default { id: 'x', run() {} } satisfies T;\n",
    "import x from 'y' with { type: 'json' };\nexport default x;\n",
    'export default a\n++b\n',
    'export default a +\nb;\n',
    'export default 010;\n',
    'export default 1_000;\n',
    'export default 0x10;\n',
    "export default { 1e3: 1, 0.5: 2, id: 'x', run() {} };\n",
    "const s = { id: 'x', run() {} };\ns.id = 'y';\nexport default s;\n",
    "export default {\n  scorer: createScorer({ id: 'x' })\n    .generateScore(() => 1),\n  sampling: { type: 'ratio', rate: 0.5 },\n};\n",
    "const a = { id: 'x', run() {} }\nconst b = a\nexport default b\n",
    "export default { id: 'x', run() {} }\n;[1].forEach(f)\n",
    'export default class {}\n',
    "export default { scorer: class {}, sampling: { type: 'none' } };\n",
    'export default { scorer: function () {}, };\n',
    "export default { id: 'x', run: async x => x };\n",
    "export default { id: 'x', run: x => ({ score: 1 }) };\n",
    "export default { id: 'x', run: async (x) => ({ score: 1 }) };\n",
    "const s = { id: 'x', run() {} };\nexport { s as default, s as other };\n",
    "export default { id: 'x', run() {} };\nexport default 1;\n",
    "const id = 'x';\nexport default { id, run() {} };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: 'ratio', rate: 0.5 }, filter: (r) => r.ok };\n",
    "export default { 'scorer': { 'id': 'x', 'run': run }, \"sampling\": { \"type\": \"none\" } };\n",
    "export default { scorer: { id: 'x', run() {} }, sampling: { type: 'ratio', rate: 0.5 } } satisfies Entry;\n",
    "const scorer: Scorer<{ a: string }> = { id: 'x', run() {} };\nexport default scorer;\n",
    "const scorer: (a: string) => void = () => {};\nexport default scorer;\n",
    // Review findings: each was read as complete (or trusted) by light-parse.ts and differed from oxc-parser.
    "export default { model: `${a b}` };\n",
    "export default `${a b}`;\n",
    "export default x\n=> 1;\n",
    "export default agentConfig<Ctx>({ scorers: { relevance: rel } });\n",
    "export default (a) => { return a }\n(x)\n",
    "export default { model: 'a\rb' };\n",
    "export default { model: 'a\u0001b' };\n",
    // The same class, found by probing (ASI, `!`, arrows, getters, exports, control characters, types ended by operators).
    "export default 42\n!y\n",
    "export default { id: 'x', run: 1 }\n!y\n",
    "export default\u0001{ model: 'm' };\n",
    "export default { __proto__: null, __proto__: null, model: 'm' };\n",
    "const s = 42;\nconst s = 1;\nexport default s;\n",
    "var s = 42;\nvar s = 1;\nexport default s;\n",
    "function s() {}\nconst s = 1;\nexport default s;\n",
    "import s from 'x';\nconst s = 1;\nexport default s;\n",
    "export { s as default };\nexport default 1;\n",
    "const s = 1;\nexport { s as default, s as default };\n",
    "export { s as default };\n",
    "export { default };\n",
    "import x, from 'y';\nexport default x;\n",
    "const eval = 42;\nexport default eval;\n",
    "function arguments() {}\nexport default 1;\n",
    "export default async\nfunction f() {}\n",
    "export default { async\n run() {}, id: 'x' };\n",
    "export default () => {}\n+1\n",
    "export default !(a) => 1;\n",
    "export default (a) => {} as T;\n",
    "export default a\\u0062;\n",
    "export default { \\u0069d: 'x', run: 1 };\n",
    "export default `a\u2028b`;\n",
    "export default 'a\u2028b';\n",
    "export default { get id() { return 'x' }, run() {} };\n",
    "export default { get id(a) { return 'x' }, run() {} };\n",
    "export default { set id() {}, run() {} };\n",
    "export default async (x)\n=> 1;\n",
    "export default async x\n=> 1;\n",
    "export default a ? .5 : 1;\n",
    "export default 1\n.5;\n",
    "export default x satisfies T\n(1);\n",
    "export default { run: 1, id: 'x' } as T\n(1);\n",
    "export default 42;\nlet let = 1;\n",
    "export default 42;\nconst x = 1, x = 2;\n",
    "export default { 'a': 1, a: 2, id: 'x', run: 1 };\n",
    "export default new.target;\n",
    "export default { model: 'a\u0000b' };\n",
    "export default { model: `a\u0001b` };\n",
    "export default 42;\nexport { a };\n",
    "import { a } from 'x';\nimport { a } from 'y';\nexport default 42;\n",
    "export default 42;\nexport const d = 1, d2 = 2;\nexport { d };\n",
    "export default f(a, b,);\n",
    "export default [1,,];\n",
    "export default { a, };\n",
    "export default (1);\n",
    "export default ((a) => 1);\n",
    "export default f<T>;\n",
    "export default a.b<T>(c);\n",
    "export default 42;\nimport { default as x } from 'y';\n",
    "export default 42;\nimport { x as y, y } from 'y';\n",
    "export default { run() {}, id: 'x', run: 1 };\n",
    "export default 0e1;\n",
    "export default 1.5E+3;\n",
    "export default typeof\nx;\n",
    "export default -\n1;\n",
    "export default { get\n id() { return 1 }, run: 1 };\n",
    "export default async function\n() {}\n",
    "const s = 1\n;export default s\n",
    "export default {}\n.x\n",
    "export default x\n`t`\n",
    "export default x\n(1)\n",
    "export default x\n[1]\n",
    "export default new Foo\n(1)\n",
    "export default { id: 'x', run: 1 } as T\n+ 1;\n",
    "export default { id: 'x', run: 1 } as T + 1;\n",
    "export default { id: 'x', run: 1 } as T || b;\n",
    "export default { id: 'x', run: 1 } as T && b;\n",
    "export default { id: 'x', run: 1 } as T ? a : b;\n",
    "export default { id: 'x', run: 1 } as T ?? b;\n",
    "export default { id: 'x', run: 1 } as T * 2;\n",
    "export default { id: 'x', run: 1 } as T in b;\n",
    "export default { id: 'x', run: 1 } as T instanceof b;\n",
    "export default { id: 'x', run: 1 } satisfies T - 1;\n",
    "export default { id: 'x', run: 1 } as T | U;\n",
    "export default { id: 'x', run: 1 } as A & B;\n",
    "export default { id: 'x', run: 1 } as keyof T;\n",
    "export default { id: 'x', run: 1 } as A.B<C>;\n",
    "export default { id: 'x', run: 1 } as T > 1;\n",
    "export default { id: 'x', run: 1 } as T = 1;\n",
    "export default { id: 'x', run: 1 } as T\n!y;\n",
    "export default { id: 'x', run: 1 } as T;\n!y;\n",
    "const s: number = 1\n+ 1;\nexport default s;\n",
    "const s: T = { id: 'x', run: 1 } as T, u = 1;\nexport default s;\n",
    "export default x\n<T>(y);\n",
    "export default { id: 'x', run: 1 }\n`t`;\n",
    "export default 42 as any ? 1 : 2;\n",
    "export default f(x as T, y);\n",
    "export default async\n(x) => 1;\n",
    "export default { id: 'x', run: 1 } as T\n.y;\n",
    "export default ({ id: 'x', run: 1 }) as T;\n",
    "export default { scorers: { a: x } } as T & U | V;\n",
    "export default agentConfig({ scorers: { a: x } }) satisfies T extends U ? A : B;\n",
    // What TypeScript users write (bench/generate.mjs `typed`): each read by light-parse.ts now, and exactly as oxc-parser reads it.
    "const scorer = {\n  id: 'x',\n  description: 'A scorer that counts keywords.',\n  async run(input: { output: string }): Promise<{ score: number }> {\n    return { score: input.output.length > 0 ? 1 : 0 };\n  },\n};\n\nexport default scorer;\n",
    "const scorer = { id: 'x', description: 'mentions scorer twice: scorer', run() {} };\nexport default scorer;\n",
    "const scorer = { id: 'x', run() { return scorer.id; } };\nexport default scorer;\n",
    "const scorer = { id: 'x', run() { return `${scorer}`; } };\nexport default scorer;\n",
    "const scorer = { id: 'x', run() { return 'scorer' + /scorer/.source; } }; // scorer\nexport default scorer;\n",
    "export default {\n  id: 'x',\n  run: async (input: Run): Promise<Result> => ({ score: 1 }),\n} satisfies Scorer;\n",
    "export default { id: 'x', run: (input: Run): Result => { return { score: 1 }; } };\n",
    "export default { id: 'x', run: async ({ output }: { output: string }): Promise<{ score: number }> => ({ score: 1 }) };\n",
    "export default { id: 'x', run(): { score: number } { return { score: 1 }; } };\n",
    "export default { id: 'x', run(): { score: number } | null { return null; } };\n",
    "export default { id: 'x', run<T>(x: T): T { return x; } };\n",
    "export default { id: 'x', run(this: void, x: number): asserts x is number {} };\n",
    "const scorer = defineScorer<Run>({ id: 'x', score: () => 1 });\nexport default { scorer, sampling: { type: 'ratio', rate: 0.5 } } as const;\n",
    "export default { scorer: make(), sampling: { type: 'ratio', rate: 1.5 } } as const;\n",
    "export default defineScorer<Run & { extra?: string }>({ id: 'x', score: ({ output }: Run): number => 1 });\n",
    "export default defineScorer<Run>\n({ id: 'x' });\n",
    "export default a < b > (c);\n",
    "export default new Scorer<Run>({ id: 'x' });\n",
    "const keywordScorer: Scorer = { id: 'x', async run(input: Run): Promise<Result> { return { score: 1 }; } };\nexport { keywordScorer as default };\n",
    "const keywordScorer: Scorer = { id: 'x' };\nexport { keywordScorer as default };\n",
    "import type { Result, Run } from './types';\ninterface Options {\n  keywords: string[];\n}\ntype Outcome = Result & { matched: number };\nconst options: Options = { keywords: ['a'] };\nconst scorer = { id: 'x', async run(input: Run): Promise<Outcome> { return { score: 1, matched: 1 }; } };\nexport default scorer;\n",
    "import type Default from './types';\nimport type * as T from './types';\nimport { type A, b, type C as D } from './types';\nexport default { id: 'x', run() {} };\n",
    "import { type } from './types';\nimport { type as t } from './types';\nexport default { id: type, run() {} };\n",
    "export type Outcome = { score: number };\nexport interface Options extends Base<{ a: 1 }>, Other { run(): void; x: { y: 2 } }\nexport default { id: 'x', run() {} };\n",
    "type X<T extends object = {}> = T;\nexport default 42;\n",
    "/**\n * A scorer with { braces } in its comment.\n */\nconst APOLOGY = /\\b(sorry|apologi[sz]e)\\b/i;\n// the default export\nexport default {\n  id: 'x', // unique\n  run: async ({ output }: Run): Promise<Result> => ({ score: APOLOGY.test(output) ? 0 : 1 }),\n} satisfies Scorer;\n",
    "function share(text: string, words: readonly string[]): number {\n  return words.filter((w) => text.includes(w)).length / words.length;\n}\nconst KEYWORDS = ['a', 'b'] as const;\nexport default { id: 'x', async run({ output }: Run): Promise<Result> { return { score: share(output, KEYWORDS) }; } };\n",
    "export default { id: 'it\\'s', description: \"say \\\"hi\\\"\\n\\u0041\\x41\\u{1F600}\", run() {} };\n",
    "export default { 'a\\u0062': { scorer: s, sampling: { type: 'none' } }, scorer: 1 };\n",
    "export default { scorer: s, sampling: { type: 'rat\\u0069o', rate: 0.5 } };\n",
    "export default { id: '\\08' };\n",
    "export default { id: '\\8', run() {} };\n",
    "export default { get id(): string { return 'x'; }, run() {} };\n",
    "export default { set id(v: string) {}, run() {} };\n",
    "export default { set id(v = 1) {}, run() {} };\n",
    "export default { get id(x) { return 'x'; }, run() {} };\n",
    "export default { id: 'x', run() { if (a) /}/.test(b); return (a + b) / 2 / /re/.source.length; } };\n",
    "export default { id: 'x', run() { const x = a(b) / 2; while (c) /{/.exec(d); return `${ { a: 1 }.a }}` + '}'; } };\n",
    "export default { id: 'x', run() { return x // a comment }\n  / 2; } };\n",
    "export default { id: 'x', run() { const r = a\n  /b/g; } };\n",
    "export default { id: 'x', run() { x = y /* } */ / 2; } };\n",
    "export default { id: 'x', run() { return { a: 1 } / 2; } };\n",
    "export default { id: 'x', run() { x++ / 2; } };\n",
    "export default { id: 'x', run() { return typeof /re/; } };\n",
    "export default { id: 'x', run() { return x.return / 2; } };\n",
    "export default { id: 'x', run() { for (const a of /x/.exec(y)) {} } };\n",
    "export default { id: 'x', run() { return café / 2; } };\n",
    "export default { id: 'x', run() { return '}' + \"{\" + `${'}'}` } };\n",
    "export default { id: 'x', run() { return 'unterminated } };\n",
    "export default { id: 'x', run(a = (1)) { return a; } };\n",
    "const s = cond ? f(x) : y\nexport default { id: 'x', run() {} };\n",
    "export default cond ? f(x) : { id: 'x', run() {} };\n",
    "export default { id: c ? f(x) : 1, run() {} };\n",
    "export default { id: c ? f(x) : y, run: 1 };\n",
    "export default { id: 'x', run() {} }, f(x): 1;\n",
    "export default (x: number): number => x;\n",
    "export default async (x: Run): Promise<Result> => ({ score: 1 });\n",
    "export default (x): (() => void) => () => {};\n",
    "export default (x): () => void => () => {};\n",
    "export default function named(x: Run): Result { return { score: 1 }; }\n",
    "export default async function (x: Run): Promise<Result> { return { score: 1 }; }\n",
    "function f<T>(x: T): T { return x; }\nexport default f;\n",
    "export default agentConfig({ instructions: ({ requestContext }: Ctx): string => `hi ${requestContext}`, scorers: { a: { scorer: s, sampling: { type: 'ratio', rate: 0.1 } } } satisfies Record<string, Entry> });\n",
    "export default agentConfig({ scorers: { policy: { scorer: defineScorer({ score: ({ output }) => (/guarantee|promise/i.test(output) ? 0 : 1) }), sampling: { type: 'ratio', rate: 0.1 } } } });\n",
    "export default agentConfig<Ctx>({ name: 'x', onFinish(): void {} });\n",
    "export default agentConfig({ name: 'x', scorers: (): Record<string, Entry> => ({}) });\n",
    "export default agentConfig({ name: 'x', scorers(): Record<string, Entry> { return {}; } });\n",
    "const base = { a: 1 };\nexport default agentConfig({ ...base, scorers: { a: x } as Record<string, Entry> });\n",
    "export default /re/;\n",
    "export default /re/ / 2;\n",
    "const re = /a/g, s = { id: 'x', run() {} };\nexport default s;\n",
    "#!/usr/bin/env node\nexport default { id: 'x', run() {} };\n",
    "export default { id: 'x', run() {} } /* a\n comment */ ;\n",
    "export default 1 /* no break */ + 2;\n",
    "export default x /* a\n break */ (1);\n",
    // At the edges of quick-read.ts's forms (it must read them exactly like oxc-parser, or leave them to the general reader).
    "export default { scorer: s as A<B>, sampling: f<C>(1), id: 1 };\n",
    "export default { scorer: s as Record<string, B>, sampling: { type: 'none' } };\n",
    "export default { scorer: s, sampling: { type: 'ratio', rate: 0.5 } as Sampling<A, B> };\n",
    "export default agentConfig({ name: 'x', scorers: { a: { scorer: s } } satisfies Record<string, Entry>, other: f<A, B>(1) });\n",
    "export default agentConfig({ scorers: { a: bad } });\nconst bad = 42;\n",
    "const bad = 42;\nexport default agentConfig({ scorers: { a: bad, b: ok } });\n",
    "import { ok } from './x';\nexport default agentConfig({ scorers: { b: ok, c: ok.scorer, d: make(1), e: new Foo() } });\n",
    "export default agentConfig({ scorers: { a: { id: 'x', run() {} }, b: { scorer: s, sampling: { rate: 0.5, type: 'ratio' } }, c: { scorer: s, id: 'y', run: r } } });\n",
    "export default agentConfig({ scorers: { a: { scorer: s, sampling: { type: 'ratio', rate: 2 } } } });\n",
    "export default agentConfig({ scorers: { a: { description: 'neither' } } });\n",
    "export default agentConfig({ scorers: { a: 'str' } });\n",
    "export default agentConfig({ scorers: { a: x => x } });\n",
    "export default agentConfig({ scorers: { a: s, a: { scorer: t, sampling: { type: 'none' } } } });\n",
    "export default agentConfig({ scorers: async ({ requestContext }) => ({}) });\n",
    "export default agentConfig({ scorers: function () { return {}; } });\n",
    "export default agentConfig({ scorers() { return {}; } });\n",
    "export default defineConfig.agent({ scorers: { a: s } });\n",
    "export default withEvals({ scorers: { a: s } }, extra);\n",
    "export default agentConfig({ scorers: { a: s } }).withMore();\n",
    "const config = agentConfig({ scorers: { a: s } });\nexport default config;\n",
    "const config = agentConfig({ scorers: { a: s } });\nconfig.scorers = {};\nexport default config;\n",
    "import { scorer } from './x';\nconst scorer = { id: 'x', run() {} };\nexport default scorer;\n",
    "const scorer = { id: 'x', run() {} };\nconst scorer = 1;\nexport default scorer;\n",
    "function scorer() {}\nexport default scorer;\n",
    "const scorer = make({ id: 'x' });\nexport default scorer;\n",
    "const scorer = make({ id: 'x' }).with(1);\nexport default scorer;\n",
    "const scorer = make<Run>({ id: 'x' });\nexport default scorer;\n",
    "const scorer = async ({ id }) => 1;\nexport default scorer;\n",
    "const scorer = new Scorer({ id: 'x' });\nexport default scorer;\n",
    "const scorer = { id: 'x', run() {} }\nexport default scorer\n",
    "const scorer = { id: 'x', run() {} } export default scorer;\n",
    "const scorer = { id: 'x', run() {} };;\nexport default scorer;\n\n// trailing\n",
    "const scorer = { id: 'x', run() {} }, other = 1;\nexport default scorer;\n",
    "export default { id: 'x', run() {} }.x;\n",
    "export default { id: 'x', run() {} }\n(1);\n",
    "export default { id: 'x', run() {} }\nexport const y = 1;\n",
    "export default { id: 'x', async\n run() {} };\n",
    "export default { id: 'x', async run() {}, get: 1 };\n",
    "export default { id: 'x', 'run': 1, 1.50: 2, 0: 3 };\n",
    "export default { id: 'x', run?() {} };\n",
    "export default { id: 'x', run, };\nconst run = 1;\n",
    "export default { id: 'x', run: cond ? a : b };\n",
    "export default { id: 'x', run: a\n  type };\n",
    "export default { id: 'x', run: a &&\n  type };\n",
    "export default { id: 'x', run: (a) / 2 };\n",
    "export default { id: 'x', run: a / b / /c/.source };\n",
    "export default { id: 'x', run: `${a}` };\n",
    "export default { id: 'x', run: () => {}, scorer: 1 };\n",
    "export default { id: 'x', run: 1 } satisfies A<B, C> as const;\n",
    "export default { id: 'x', run: 1 } as T + 1;\n",
    "export default { id: 'x', run: 1 } satisfies T\n+ 1;\n",
    "import type { T } from './t';\nimport { type A, b } from './t';\nexport default { id: 'x', run: 1 };\n",
    "import { type } from './t';\nimport type from './t';\nexport default { id: type, run: 1 };\n",
    "import x from './t' with { type: 'json' };\nexport default { id: x, run: 1 };\n",
    "interface A extends B<{ a: 1 }> { x: 1 }\ntype C = { a: 1 }\n  | { b: 2 };\nexport default { id: 'x', run: 1 };\n",
    "type C = A\nexport default { id: 'x', run: 1 };\n",
    "async function helper(a: string): Promise<number> { return 1; }\nfunction other<T>(a: T) {}\nexport default { id: 'x', run: helper };\n",
    "function* gen() {}\nexport default { id: 'x', run: gen };\n",
    "export default { id: 'x', run() {} };\nfunction helper(): { a: 1 } { return { a: 1 }; }\n",
    "export { s as default };\nconst s = { id: 'x', run() {} };\n",
    "const s = { id: 'x', run() {} };\nexport { s as default, s as other };\n",
    "const s = { id: 'x', run() {} };\nexport { s as default };\nexport default 1;\n",
    "export default { id: 'x', run() { return /'/.test(a) && \"'\" + `'${'`'}`; } };\n",
    "export default { id: 'x', run(a = ')', b = /[)]/) { return a; } };\n",
    "export default { id: 'x', run(): Promise<{ a: 1 }> { return x; } };\n",
    "export default { id: 'x', run(): A | B<C, D> { return x; } };\n",
    "export default { id: 'x', run(): { a: 1 } { return x; } };\n",
    "export default { id: '\\u0069d', run: 1 };\n",
    "export default { 'i\\u0064': 'x', run: 1 };\n",
    "export default { ['id']: 'x', run: 1 };\n",
    "export default { __proto__: x, id: 'x', run: 1 };\n",
    "export default { ...x, id: 'x', run: 1 };\n",
    "export default { scorer, sampling: { type: 'ratio', rate: 0.5, rate: 2 } };\n",
    "export default { scorer, sampling: { 'type': \"none\" } };\n",
    "export default { scorer, sampling: { type: 'none', extra: true, n: null } };\n",
    "export default { scorer, sampling: { __proto__: null, type: 'none' } };\n",
    "export default { scorer, sampling: { type: 'ratio', rate: -0.5 } };\n",
    "export default { scorer, sampling: { type: 'ratio', rate: 1e-1 } };\n",
    "export default { scorer, sampling: { type: 'ratio', rate: 0x1 } };\n",
    "export default { scorer, sampling: { type: 'rat\\x69o', rate: 1 } };\n",
    "export default { scorer, sampling: undefined };\n",
    "export default { scorer, sampling: { type: `none` } };\n",
    "export default { scorer: this, sampling: { type: 'none' } };\n",
    "export default { scorer: undefined, sampling: { type: 'none' } };\n",
    "export default { scorer: async () => 1 };\n",
    "export default { scorer: a\n.b, sampling: { type: 'none' } };\n",
    "export default { scorer() {}, sampling: { type: 'none' } };\n",
    "export default { scorer: (s), sampling: { type: 'none' } };\n",
    "export default { scorer: s, };\nconst s = 42;\n",
    // Configs without `scorers`, settled by quick-read.ts only where the whole file is known to parse.
    "import { a b } from 'x';\nexport default agentConfig({ name: 'x' });\n",
    "import { 'a' } from 'x';\nexport default agentConfig({ name: 'x' });\n",
    "import { if } from 'x';\nexport default agentConfig({ name: 'x' });\n",
    "import a from 'x';\nimport a from 'y';\nexport default agentConfig({ name: 'x' });\n",
    "import a, { b as c, default as d, 'e-f' as ef } from 'x';\nimport * as ns from \"y\";\nimport 'z';\nexport default agentConfig({ name: 'x' });\n",
    "import { agentConfig } from '../../x'\nexport default agentConfig({ name: 'x' })\n",
    "import { agentConfig } from '../../x' export default agentConfig({ name: 'x' });\n",
    "export default agentConfig({ name: '\\8' });\n",
    "export default agentConfig({ name: '\\x4' });\n",
    "export default agentConfig({ name: '\\x41\\n\\'\\0' });\n",
    "export default agentConfig({ name: 'a\\\nb' });\n",
    "export default agentConfig({ name: 01 });\n",
    "export default agentConfig({ name: 1, name: 2, tags: ['a', 1, true, null, { b: `t` }], n: -1.5e3 });\n",
    "export default agentConfig({ name: 'x', __proto__: null });\n",
    "export default agentConfig({ name: 'x' },);\n",
    "export default agentConfig({ name: 'x' }) + 1;\n",
    "export default agentConfig({ name: 'x', model: `a${b}` });\n",
    "export default agentConfig({ name: 'x', model: openai('gpt') });\n",
    "export default agentConfig({ name: 'x', })\nconst y = 1;\n",
    "export default withEvals({ name: 'x' });\n",
    "export default x.agentConfig({ name: 'x' });\n",
    "export default { name: 'x' };\n",
    "export default agentConfig({ name: 'x' }) satisfies Config;\n",
    "import x from 'y' with { type: 'json' };\nexport default agentConfig({ name: x });\n",
    "export default agentConfig({ name: 'x', if: 1, class: 2, 'quoted key': 3, 42: 4 });\n",
    "export default agentConfig({ name: 'x' })\nexport default 1;\n",
    "export default agentConfig({ name: 'x', tools: {}, list: [], deep: { a: [{ b: [] }] } });\n",
    "export default agentConfig({ name: 'x', t: [1,,2] });\n",
    "export default agentConfig({ name: 'x', t: [1, 2,], o: { a: 1, } });\n",
    "export default agentConfig({ name: 'x', t: {,} });\n",
    "export default agentConfig({ name: 'x', t: [1 2] });\n",
    "export default agentConfig({ name: 'x' t: 1 });\n",
    "export default agentConfig({ name: 'x', t: 'a\nb' });\n",
    "// a comment\n/* another */ import { agentConfig } from 'x'; // trailing\nexport default agentConfig({ /* c */ name: 'x' /* d */ });\n",
    "export default agentConfig({ name: 'x' });\n/* unterminated\n",
    "import type { A } from 'x';\nexport default agentConfig({ name: 'x' });\n",
    // Found by a mutation run against oxc-parser (insertions and deletions in the samples above).
    "export default 42;\nimport _{ default as x } from 'y';\n",
    "import from 'x';\nconst s = 1;\nexport default s;\n",
    'export default !tag`a${b}`;\n',
    'export default !tag`a`;\n',
    'export default -x`t`;\n',
  ];
  // Each as TypeScript and as JavaScript, where type syntax is an error.
  extra.forEach((source, i) => out.push({ name: `extra-${i}.ts`, source }, { name: `extra-${i}.js`, source }));
  // As TypeScript only: in a JavaScript file these hold type syntax inside a parameter list, which no
  // reader looks into; the host reports that syntax error (bench/README.md, "Cold builds").
  const typescriptOnly = ["export default { id: 'x', run(a = () => {}, { b }: { b: string } = { b: '' }) { return a; } };\n"];
  typescriptOnly.forEach((source, i) => out.push({ name: `typescript-${i}.ts`, source }));
  return out;
}

describe('lightParse', () => {
  it('says whether it read every token or skipped some (parameters, bodies, types, operators)', () => {
    expect(lightParse("import { agentConfig } from 'x';\nexport default agentConfig({ name: 'x', n: -1, t: `t`, a: [null, true] });\n", true)?.complete).toBe(true);
    for (const source of ["export default { run() {} };", "export default { a: 1 + 2 };", "const x: T = 1;\nexport default x;", "export default { a: () => 1 };"]) {
      expect(lightParse(source, true)?.complete, source).toBe(false);
    }
    expect(lightParse('export default x y;', true)).toBeNull();
  });

  it('does not call a file complete when it left text unread (`${...}`), and gives up on what JS forbids or TS reads otherwise', () => {
    expect(lightParse('export default { model: `${a b}` };', true)?.complete).toBe(false);
    expect(lightParse('export default { model: `m` };', true)?.complete).toBe(true);
    for (const source of [
      'export default x\n=> 1;', // no line break before `=>`
      'export default async x\n=> 1;',
      "export default { model: 'a\rb' };", // a raw `\r` ends a string
      "export default\u0001{ model: 'm' };", // a control character that is not whitespace
      'export default a\\u0062;', // a Unicode escape in a name
      'export default (a) => { return a }\n(x);', // an arrow is not called
      'export default () => {}\n+1;',
      'export default 42\n!y;', // `!` starts the next statement
      'export default 1;\nexport { s as default };\nconst s = 2;',
    ]) {
      expect(lightParse(source, true), source).toBeNull();
    }
    // In TS, `<` after a name opens type arguments; in JS it is a comparison.
    expect(lightParse('export default agentConfig<Ctx>({ scorers: {} });', true)?.complete).toBe(false);
    expect(lightParse('export default agentConfig<Ctx>({ scorers: {} });', true)?.program.body[0]).toMatchObject({ declaration: { type: 'CallExpression' } });
    expect(lightParse('export default agentConfig<Ctx>({ scorers: {} });', false)?.complete).toBe(false);
    // Control characters and U+2028 inside strings are text, read as oxc-parser reads them.
    expect(lightParse("export default { model: 'a\u0001\u2028b' };", false)?.complete).toBe(true);
  });
});

describe('what TypeScript users write', () => {
  // Each of these went to oxc-parser before (loading it alone costs a build ~145 million instructions).
  const scorers = [
    "const scorer = {\n  id: 'x',\n  description: 'A scorer that counts keywords.',\n  async run(input: Run): Promise<Result> {\n    return { score: /a/.test(input.output) ? 1 : 0 };\n  },\n};\n\nexport default scorer;\n",
    "export default {\n  id: 'x',\n  run: async ({ output }: Run): Promise<Result> => ({ score: output.length / 100 }),\n} satisfies Scorer;\n",
    "import type { Run } from './types';\nconst scorer = defineScorer<Run>({ id: 'x', score: () => 1 });\nexport default { scorer, sampling: { type: 'ratio', rate: 0.5 } } as const;\n",
    "export default defineScorer<Run & { extra?: string }>({ id: 'x', score: ({ output }: Run): number => 1 });\n",
    "const keywordScorer: Scorer = { id: 'x', async run(input: Run): Promise<Result> { return { score: 1 }; } };\nexport { keywordScorer as default };\n",
    "import { type Run, helper } from './lib';\ninterface Options {\n  keywords: string[];\n}\ntype Outcome = { score: number };\n/** A regular expression, escaped strings. */\nconst RE = /\\bsorry\\b/i;\nconst scorer = { id: 'it\\'s', async run(input: Run): Promise<Outcome> { return { score: RE.test(input.output) ? 0 : 1 }; } };\nexport default scorer;\n",
  ];
  const configs = [
    "import type { Entry } from './types';\nexport default agentConfig<Ctx>({\n  instructions: ({ requestContext }: Ctx): string => `hi ${requestContext}`,\n  scorers: { a: { scorer: s, sampling: { type: 'ratio', rate: 0.1 } } } satisfies Record<string, Entry>,\n});\n",
    "export default agentConfig({ scorers: { policy: { scorer: defineScorer({ score: ({ output }) => (/guarantee|promise/i.test(output) ? 0 : 1) }) } } });\n",
  ];

  it('is read by the small readers, never by oxc-parser, and as oxc-parser reads it', () => {
    const before = { ...readerCounts };
    const quick = [...scorers.map((s) => analyzeScorer(s, 'x.ts')), ...configs.map((s) => analyzeConfig(s, 'config.ts'))];
    expect({ oxc: readerCounts.oxc - before.oxc, oxcSkeleton: readerCounts.oxcSkeleton - before.oxcSkeleton }).toEqual({ oxc: 0, oxcSkeleton: 0 });
    expect(quick).toEqual([...scorers.map((s) => analyzeScorer(s, 'x.ts', 'full')), ...configs.map((s) => analyzeConfig(s, 'config.ts', 'full'))]);
    // The general reader alone (no quick reader) reads them without oxc-parser too.
    const general = { ...readerCounts };
    for (const s of scorers) analyzeScorer(s, 'x.ts', 'skeleton');
    for (const s of configs) analyzeConfig(s, 'config.ts', 'skeleton');
    expect({ oxc: readerCounts.oxc - general.oxc, oxcSkeleton: readerCounts.oxcSkeleton - general.oxcSkeleton }).toEqual({ oxc: 0, oxcSkeleton: 0 });
    expect(quick[2]).toMatchObject({ shape: 'entry', sampling: { kind: 'valid', value: { type: 'ratio', rate: 0.5 } } });
    expect(quick.slice(-2)).toMatchObject([{ kind: 'record', keys: ['a'] }, { kind: 'record', keys: ['policy'] }]);
  });
});

describe('readings from the skeleton', () => {
  it('equal the readings of the whole source, for every fixture and tricky shape', () => {
    let reduced = 0;
    let light = 0;
    for (const { name, source } of samples()) {
      const skeleton = functionSkeleton(source);
      if (skeleton !== source) reduced++;
      if (lightParse(source, !name.endsWith('.js')) !== null) light++;
      const full = { scorer: analyzeScorer(source, name, 'full'), config: analyzeConfig(source, name, 'full') };
      expect(analyzeScorer(source, name), `${name} as a scorer file:\n${source}`).toEqual(full.scorer);
      expect(analyzeConfig(source, name), `${name} as a config:\n${source}`).toEqual(full.config);
      expect(analyzeScorer(source, name, 'skeleton'), `${name} as a scorer file, without the quick reader:\n${source}`).toEqual(full.scorer);
      expect(analyzeConfig(source, name, 'skeleton'), `${name} as a config, without the quick reader:\n${source}`).toEqual(full.config);
    }
    // The comparison means something only if many samples were actually reduced.
    expect(reduced).toBeGreaterThan(15);
    expect(light).toBeGreaterThan(80);
  });

  it('confirm a problem or an absent `scorers` on the whole source, which may not parse', () => {
    // The skeleton drops the broken body: read alone, it would call these an invalid export and a
    // config without scorers (which is then not bundled, hiding the host's syntax error).
    const broken = "export default 42;\nfunction f() { return @@ }\n";
    expect(analyzeScorer(broken, 'x.ts').problem).toBeNull();
    expect(analyzeScorer(broken.replace('@@', ''), 'x.ts').problem).toEqual({ code: 'SCORER_INVALID_EXPORT', detail: 'a number' });
    const config = "export default agentConfig({ name: 'x', onFinish() { return @@ } });\n";
    expect(analyzeConfig(config, 'config.ts').kind).toBe('unknown');
    expect(analyzeConfig(config.replace('@@', ''), 'config.ts').kind).toBe('none');
  });
});

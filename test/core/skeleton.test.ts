import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeConfig } from '../../src/core/analyze-config.js';
import { analyzeScorer } from '../../src/core/analyze-scorer.js';
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
  ];
  extra.forEach((source, i) => out.push({ name: `extra-${i}.ts`, source }));
  return out;
}

describe('readings from the skeleton', () => {
  it('equal the readings of the whole source, for every fixture and tricky shape', () => {
    let reduced = 0;
    for (const { name, source } of samples()) {
      if (functionSkeleton(source) !== source) reduced++;
      expect(analyzeScorer(source, name), `${name} as a scorer file:\n${source}`).toEqual(analyzeScorer(source, name, false));
      expect(analyzeConfig(source, name), `${name} as a config:\n${source}`).toEqual(analyzeConfig(source, name, false));
    }
    // The comparison means something only if many samples were actually reduced.
    expect(reduced).toBeGreaterThan(15);
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

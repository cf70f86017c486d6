/** The pure parts of the generated registry file: specifiers and file names. */
import { describe, expect, test } from 'vitest';
import { declarationFileOf, defaultOutFile, relativeSpecifier } from '../../src/core/generate.js';

describe('relativeSpecifier', () => {
  test('relative, POSIX, real extension kept', () => {
    expect(relativeSpecifier('/p/src', '/p/src/mastra/agents/w/scorers/tone.ts')).toBe('./mastra/agents/w/scorers/tone.ts');
    expect(relativeSpecifier('/p/gen', '/p/src/a.mts')).toBe('../src/a.mts');
  });

  test('only what a URL path reads specially is encoded', () => {
    expect(relativeSpecifier('/p', `/p/100% #1?.ts`)).toBe('./100%25 %231%3F.ts');
    expect(relativeSpecifier('/p', '/p/%41.ts')).toBe('./%2541.ts');
    expect(relativeSpecifier('/p', '/p/a\nb\tc\rd\x7f.ts')).toBe('./a%0Ab%09c%0Dd%7F.ts');
    expect(relativeSpecifier('/p', `/p/it's "${'${x}'}" ü.ts`)).toBe(`./it's "${'${x}'}" ü.ts`);
  });
});

test('file names: .mjs pairs with .d.mts, .js with .d.ts, src/ when there is one', () => {
  expect(declarationFileOf('/p/src/agent-scorers.gen.mjs')).toBe('/p/src/agent-scorers.gen.d.mts');
  expect(declarationFileOf('/p/registry.js')).toBe('/p/registry.d.ts');
  expect(declarationFileOf('/p/registry.ts')).toBe(null);
  expect(defaultOutFile('/p', true)).toBe('/p/src/agent-scorers.gen.mjs');
  expect(defaultOutFile('/p', false)).toBe('/p/agent-scorers.gen.mjs');
});

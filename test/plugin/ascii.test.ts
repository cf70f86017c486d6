/**
 * What the plugin puts into a user's bundle is ASCII: the registry module and the whole runtime
 * (comments the bundler keeps included). Hosts hand each output chunk to JS plugins as a string, and
 * one character outside Latin-1 makes V8 hold the whole chunk as a two-byte string; a `→` in one kept
 * comment of the registry helper cost ~2% of a 200-agent Vite 8 build's instructions (bench
 * `--instructions`, bench/README.md). The fixture's own files are ASCII, so any other character in
 * the output came from us.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, DIST, HOSTS, prepare } from '../helpers/hosts.js';

const NOT_ASCII = /[^\x00-\x7f]/;

/** Each line of `code` that holds a character outside ASCII, with its number: what a failure shows. */
const nonAsciiLines = (code: string): string[] =>
  code
    .split('\n')
    .flatMap((line, i) => (NOT_ASCII.test(line) ? [`${i + 1}: ${line.slice(0, 160)}`] : []));

describe.each(HOSTS)('the bundle of an ASCII tree on %s', (host) => {
  test('is ASCII: registry, per-agent modules and the whole runtime', async () => {
    const dir = prepare('basic', `ascii-${host}`);
    for (const file of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (file.isFile()) expect(fs.readFileSync(path.join(file.parentPath, file.name), 'utf8')).not.toMatch(NOT_ASCII);
    }
    // Every export of the runtime, so every module of it (and what it keeps of its comments) is in the bundle.
    fs.appendFileSync(path.join(dir, 'src/main.ts'), `export * as runtime from ${JSON.stringify(path.join(DIST, 'runtime/index.js'))};\n`);
    const built = await build(host, 'basic', { dir });
    expect(built.code, built.output).toBe(0);
    const code = built.bundle();
    expect(code).toContain('createAnswerRelevancyScorer'); // the runtime really is in it
    expect(nonAsciiLines(code)).toEqual([]);
  });
});

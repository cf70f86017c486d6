/**
 * The new public entries are in the tarball, and the helper the generated file imports
 * (`agent-scorers/registry`) stays free of model code: its whole import graph is the helper and
 * the diagnostic codes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { DIST, REPO, run } from '../helpers/hosts.js';

test('agent-scorers/registry, /esbuild, /next and the bin are package entries that ship', async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  expect(pkg.bin).toEqual({ 'agent-scorers': './dist/plugin/bin.js' });
  expect(pkg.exports['./registry'].default).toBe('./dist/runtime/registry.js');
  expect(pkg.exports['./esbuild'].default).toBe('./dist/plugin/esbuild.js');
  expect(pkg.exports['./next'].default).toBe('./dist/plugin/next.js');
  const packed = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], REPO);
  expect(packed.code, packed.output).toBe(0);
  const files: string[] = JSON.parse(packed.output.slice(packed.output.indexOf('['))).at(0).files.map((f: { path: string }) => f.path);
  for (const entry of [pkg.bin['agent-scorers'], ...['./registry', './esbuild', './next'].flatMap((e) => [pkg.exports[e].default, pkg.exports[e].types])]) {
    expect(files).toContain(entry.slice(2));
  }
  expect(fs.readFileSync(path.join(DIST, 'plugin/bin.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
});

test('the registry helper imports nothing but the diagnostic codes', () => {
  const importsOf = (file: string) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  expect(importsOf(path.join(DIST, 'runtime/registry.js'))).toEqual(['../core/codes.js']);
  expect(importsOf(path.join(DIST, 'core/codes.js'))).toEqual([]);
});

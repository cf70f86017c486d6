/** The docs' runtime examples and figures are the ones this suite runs and measures. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const read = (rel: string): string => readFileSync(path.join(repo, rel), 'utf8');
const docPages = (dir = 'docs'): string[] =>
  readdirSync(path.join(repo, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && !e.name.startsWith('.') ? docPages(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );

it('a docs page quotes test/runtime/readme-example.test.ts exactly, as a ts block (four backticks: the file holds a fence)', () => {
  const example = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const quoting = docPages().filter((page) => [...read(page).matchAll(/````ts(?: \[[^\]\n]*\])?\n([\s\S]*?)````/g)].some((m) => m[1] === example));
  expect(quoting.length, 'no docs page quotes the mock-model example as it is').toBeGreaterThan(0);
});

it('ARCHITECTURE.md names the calibration set it reports on', () => {
  const set = JSON.parse(readFileSync(new URL('./calibration/relevancy-set.json', import.meta.url), 'utf8'));
  expect(read('ARCHITECTURE.md')).toContain(`holds ${set.cases.length} short question-answer pairs`);
});

/** The README's runtime examples and figures are the ones this suite runs and measures. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

it('the README quotes test/runtime/readme-example.test.ts exactly, as a ts block (four backticks: the file holds a fence)', () => {
  const example = readFileSync(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Testing a scorer with a mock model'));
  const block = /````ts\n([\s\S]*?)````/.exec(section)?.[1];
  expect(block).toBe(example);
});

it('the README names the calibration set it reports on', () => {
  const set = JSON.parse(readFileSync(new URL('./calibration/relevancy-set.json', import.meta.url), 'utf8'));
  expect(readme).toContain(`holds ${set.cases.length} short question-answer pairs`);
});

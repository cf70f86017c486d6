/**
 * `agent-scorers/mastra` in `types` of a project without `@mastra/core` (Getting started's
 * `tsconfig` copied into an app that does not pass scorers to Mastra): the package's own types stay
 * intact (no implicit `any` in `createScorer(...).generateScore(({ run }) => ...)`), the scorer's type
 * names the missing package, and without `skipLibCheck` TypeScript names it too.
 *
 * The project lives outside this repository, with a copy of the package (not a link), so that no
 * `@mastra/core` can be found by walking up from either.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DIST, REPO, run } from '../helpers/hosts.js';

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
let dir: string;

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};

const tsconfig = (skipLibCheck: boolean) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      skipLibCheck,
      noEmit: true,
      types: ['agent-scorers/client', 'agent-scorers/mastra'],
    },
    include: ['src'],
  });

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-no-mastra-')));
  const pkg = path.join(dir, 'node_modules/agent-scorers');
  fs.mkdirSync(pkg, { recursive: true });
  for (const file of ['package.json', 'client.d.ts', 'mastra.d.ts']) fs.copyFileSync(path.join(REPO, file), path.join(pkg, file));
  fs.cpSync(DIST, path.join(pkg, 'dist'), { recursive: true });
  write('src/scorers/tone.ts', `import { createScorer } from 'agent-scorers';

export const tone = createScorer({ id: 'tone', description: 'At most one exclamation mark.' }).generateScore(({ run }) => {
  const text = String(run.output);
  return (text.match(/!/g) ?? []).length <= 1 ? 1 : 0;
});
`);
  write('tsconfig.json', tsconfig(true));
  write('tsconfig.strict-libs.json', tsconfig(false));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the project really has no @mastra/core', () => {
  expect(() => require.resolve('@mastra/core/evals', { paths: [dir, path.join(dir, 'node_modules/agent-scorers')] })).toThrow();
});

test('with skipLibCheck (Getting started\'s tsconfig): strict tsc passes, no implicit any in generateScore(({ run }) => ...)', async () => {
  const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
});

test('the scorer keeps this package\'s own type, and that type names the missing package', async () => {
  write('src/probe.ts', `import { tone } from './scorers/tone.ts';

export const probe: number = tone;
`);
  try {
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--allowImportingTsExtensions'], dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/src\/probe\.ts\(3,14\): error TS2322: Type 'Scorer<"tone", any, any> & InstallMastraCoreToUseAgentScorersMastraTypes' is not assignable to type 'number'\./);
  } finally {
    fs.rmSync(path.join(dir, 'src/probe.ts'));
  }
});

test('without skipLibCheck, TypeScript names @mastra/core itself', async () => {
  const result = await run(process.execPath, [TSC, '-p', 'tsconfig.strict-libs.json'], dir);
  expect(result.code).not.toBe(0);
  expect(result.output).toContain("node_modules/agent-scorers/mastra.d.ts(7,35): error TS2307: Cannot find module '@mastra/core/evals'");
  // Only that line: the package's other declarations name nothing that is not installed (`ai` included).
  expect(result.output.trim().split('\n').filter((line) => line.includes('error TS'))).toHaveLength(1);
});

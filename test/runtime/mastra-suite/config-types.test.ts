/**
 * Port of Mastra's type-only test `packages/core/src/evals/run/gates-scorer-config-types.test-d.ts`:
 * the calls in `fixtures/config-types.ts` type-check under strict `tsc` against each implementation's
 * `runEvals` (gates beside a structured scorer config, threshold entries for a Workflow target, a result
 * usable as Mastra's `RunEvalsResult`), and its `@ts-expect-error` lines (an unknown option, no scorers
 * and no gates) are errors there too: an unused one fails with TS2578.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');
const TMP = path.join(REPO, 'test/.tmp');
const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
const FIXTURE = path.join(import.meta.dirname, 'fixtures/config-types.ts');

/** Where each implementation's `runEvals` comes from, as `under-test.ts` in a folder under `test/.tmp`. */
const SOURCES: Array<[string, (dir: string) => string]> = [
  ['@mastra/core', () => '@mastra/core/evals'],
  ['agent-scorers', (dir) => path.relative(dir, path.join(REPO, 'src/runtime/index.js')).split(path.sep).join('/')],
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tsc(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}

describe.each(SOURCES)('runEvals gates + categorized scorer config overloads (%s)', (_implementation, specifier) => {
  it('type-checks every call of the ported type test, and rejects the ones Mastra rejects', async () => {
    fs.mkdirSync(TMP, { recursive: true });
    const dir = fs.mkdtempSync(path.join(TMP, 'mastra-suite-types-'));
    dirs.push(dir);
    fs.copyFileSync(FIXTURE, path.join(dir, 'cases.ts'));
    fs.writeFileSync(path.join(dir, 'under-test.ts'), `export { runEvals } from ${JSON.stringify(specifier(dir))};\n`);
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          esModuleInterop: true,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          types: ['node'],
          noEmit: true,
        },
        files: ['cases.ts'],
      }),
    );

    const { code, output } = await tsc(dir);

    expect(output).toBe('');
    expect(code).toBe(0);
  });
});

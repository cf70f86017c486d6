/**
 * Vitest 5 and TypeScript 7, the majors `latest` gives today (Vitest 4 is test/dev/vitest.test.ts,
 * TypeScript 5.9 the repository's own): the plugin in `vitest.config.ts`, tests importing the registry,
 * installed with npm from the packed tarball into a project of its own (installed.ts). `vitest run`,
 * `vitest` in watch mode and `tsc`, each as the user runs them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { count, rewriteFile, run, stripAnsi } from '../helpers/hosts.js';
import { collisionWarning, expectBrokenScorerFails, expectTscCatchesBadKey, installedApp, noDefaultError } from './host-steps.js';
import { bin } from './installed.js';
import { until } from './processes.js';

const COLLISION = collisionWarning();

const app = installedApp('vitest5');
const vitest = (...args: string[]) => run(process.execPath, [bin(app.dir, 'vitest'), ...args], app.dir);
const scorers = () => path.join(app.dir, 'src/mastra/agents/weather/scorers');
const scorerFile = (name: string) => path.join(scorers(), name);

describe('vitest run and tsc', () => {
  test('vitest run (Vitest 5) passes with the registry and prints the merge warning once', async () => {
    const result = await vitest('run');
    expect(app.versions.vitest).toMatch(/^5\./);
    expect(result.output).toMatch(/Tests\s+1 passed \(1\)/);
    expect(result.output).toContain('weather keys: relevance,tone');
    expect(count(result.output, COLLISION), result.output).toBe(1);
    expect(result.code).toBe(0);
  }, 120_000);

  test('tsc (TypeScript 7) passes over the tests and the declaration file; an unknown scorer key fails it', async () => {
    expect(app.versions.typescript).toMatch(/^7\./);
    await expectTscCatchesBadKey(app, 'test/bad.ts', ['-p', '.']);
  }, 120_000);

  test('a scorer file without a default export fails the run naming the code and the file; the warning still prints', async () => {
    await expectBrokenScorerFails(scorers(), () => vitest('run'), { error: noDefaultError(), errorOnce: false, warnings: [COLLISION] });
  }, 120_000);
});

describe('vitest (watch mode)', () => {
  let child: ReturnType<typeof spawn>;
  let output = '';
  const seen = (pattern: RegExp, from = 0, timeout = 60_000) =>
    until(async () => stripAnsi(output).slice(from), (o) => pattern.test(o), String(pattern), timeout);
  const testFile = () => path.join(app.dir, 'test/registry.test.ts');

  beforeAll(async () => {
    child = spawn(process.execPath, [bin(app.dir, 'vitest'), '--watch'], {
      cwd: app.dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await seen(/weather keys: relevance,tone\n/);
  }, 120_000);
  afterAll(() => {
    child?.kill();
  });

  test('a saved test reruns with the registry, and the warning printed once in the session', async () => {
    const mark = stripAnsi(output).length;
    await rewriteFile(testFile(), `${fs.readFileSync(testFile(), 'utf8')}\n`);
    await seen(/RERUN[\s\S]*weather keys: relevance,tone\n/, mark);
    expect(count(stripAnsi(output), COLLISION), output).toBe(1);
  }, 120_000);

  // Vitest reruns the tests whose imports changed; an added or deleted scorer file is in no test's module
  // graph, and Vitest 5 serves a module from its own cache until its watcher reports the module's file.
  // The plugin reports its invalidated modules to that watcher, so the tests importing the registry rerun
  // by themselves and import it afresh. Before it did, nothing reran, and a rerun saw the old keys.
  const keysOfRerun = async (mark: number) =>
    (await seen(/RERUN[^\n]*\n[\s\S]*weather keys: [a-z,]+\n/, mark)).match(/RERUN[^\n]*\n[\s\S]*?weather keys: ([a-z,]+)\n/)![1];

  test('an added scorer file reruns the test importing the registry, which sees its key', async () => {
    const mark = stripAnsi(output).length;
    fs.writeFileSync(scorerFile('brevity.ts'), "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
    expect(await keysOfRerun(mark)).toMatch(/^(relevance,brevity|brevity,relevance),tone$/);
  }, 120_000);

  test('a deleted scorer file reruns it without the key; the warning still printed once in the session', async () => {
    const mark = stripAnsi(output).length;
    fs.rmSync(scorerFile('brevity.ts'), { force: true });
    expect(await keysOfRerun(mark)).toBe('relevance,tone');
    expect(count(stripAnsi(output), COLLISION), output).toBe(1);
  }, 120_000);
});

/**
 * Vitest (SPEC section 10): with the plugin in a project's `vitest.config`, its tests import
 * `virtual:agent-scorers` and the per-agent modules. Runs a nested `vitest run` in a temp copy of a
 * fixture that installs this package as `node_modules/agent-scorers` (a symlink to the repo).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { prepare, REPO, run } from '../helpers/hosts.js';

const VITEST = path.join(REPO, 'node_modules/vitest/vitest.mjs');
let dir: string;

beforeAll(() => {
  dir = prepare('dev-vitest', 'vitest', { linkSelf: true });
});

test('a nested vitest run imports the registry, the per-agent module and the manifest', async () => {
  const { code, output } = await run(process.execPath, [VITEST, 'run', 'test/registry.test.ts'], dir);
  expect(output).toMatch(/Test Files\s+1 passed \(1\)/);
  expect(output).toMatch(/Tests\s+2 passed \(2\)/);
  expect(code).toBe(0);
});

test('control: a wrong expectation about the registry fails the nested run', async () => {
  const source = fs.readFileSync(path.join(dir, 'test/registry.test.ts'), 'utf8');
  fs.writeFileSync(path.join(dir, 'test/wrong.test.ts'), source.replace("toEqual(['relevance', 'extra'])", "toEqual(['extra', 'relevance'])"));
  const { code, output } = await run(process.execPath, [VITEST, 'run', 'test/wrong.test.ts'], dir);
  expect(output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
  expect(code).toBe(1);
});

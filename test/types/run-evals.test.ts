/**
 * runEvals' types with the declaration file a real Vite build writes for a Mastra project, under strict
 * `tsc`: an agent's registry record (and a per-agent module, a `resolveScorers` result, the function
 * form) goes into `runEvals` with per-key thresholds and no cast; a key that is not in the record is a
 * type error naming it; the registry's and this package's scorers fit `@mastra/core`'s `runEvals` and
 * `@mastra/evals/vitest`'s `expectEvals` as they are (with `agent-scorers/mastra` in `types`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { build, prepare, REPO, run } from '../helpers/hosts.js';

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
let dir: string;
const tsc = (project: string) => run(process.execPath, [TSC, '-p', project], dir);

beforeAll(async () => {
  dir = prepare('types-mastra', 'types-evals', { linkSelf: true });
  const built = await build('vite8', 'types-mastra', { pluginOptions: '{}', dir });
  expect(built.code, built.output).toBe(0);
  expect([path.join(dir, 'src/agent-scorers.d.ts'), path.join(dir, 'agent-scorers.d.ts')].some((f) => fs.existsSync(f))).toBe(true);
});

describe('runEvals types against a generated declaration file', () => {
  test('registry records with thresholds, results, and Mastra interop type-check with no cast', async () => {
    const { code, output } = await tsc('tsconfig.evals.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  test('a threshold key that is not in the record is an error naming it', async () => {
    const { code, output } = await tsc('tsconfig.evals-bad.json');
    expect(code).not.toBe(0);
    expect(output).toContain(
      "src/bad-thresholds.ts(4,113): error TS2561: Object literal may only specify known properties, but 'relevence' does not exist in type " +
        `'{ readonly "answer-relevancy"?: ThresholdConfig | undefined; readonly relevance?: ThresholdConfig | undefined; readonly extra?: ThresholdConfig | undefined; readonly tone?: ThresholdConfig | undefined; }'. ` +
        "Did you mean to write 'relevance'?",
    );
    expect(output.match(/error TS/g)).toHaveLength(1);
  });
});

/**
 * A Next.js 16 app whose scorer uses this package's runtime (the relevancy scorer with
 * `offlineJudge()`) builds and serves on Turbopack and webpack with `ai` not installed: `ai` is an
 * optional peer dependency. The app lives under the system temp folder, so no lookup can climb to
 * this repository's node_modules (which has `ai`); its node_modules links what a user would install
 * (next, react, typescript and types) and holds a copy of the built package.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAnswerRelevancyScorer, offlineJudge } from '../../src/runtime/index.js';
import { DIST, FIXTURES, REPO } from '../helpers/hosts.js';
import { nextBuild, startNext } from './next-host.js';

const RUN = { input: 'What is the weather like in Berlin today?', output: 'Berlin is sunny today. Expect 22°C and a light wind.' };
const LINKED = ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/react-dom', '@types/node', 'oxc-parser', 'picomatch'];

let dir: string;

/** The deepest folder holding both paths: Turbopack refuses files outside its root, and next/react are links into this repository. */
function commonRoot(a: string, b: string): string {
  const left = a.split(path.sep);
  const right = b.split(path.sep);
  let i = 0;
  while (i < left.length && left[i] === right[i]) i++;
  return left.slice(0, i).join(path.sep) || path.sep;
}

function write(file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
}

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-next-no-ai-')));
  const modules = path.join(dir, 'node_modules');
  for (const name of LINKED) {
    if (!fs.existsSync(path.join(REPO, 'node_modules', name))) continue;
    fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name), 'dir');
  }
  // A copy, not a link: through a link Node and the bundlers would resolve `ai` from this repository.
  const self = path.join(modules, 'agent-scorers');
  fs.mkdirSync(self, { recursive: true });
  for (const file of ['package.json', 'client.d.ts', 'mastra.d.ts']) fs.copyFileSync(path.join(REPO, file), path.join(self, file));
  fs.cpSync(DIST, path.join(self, 'dist'), { recursive: true });

  write('package.json', JSON.stringify({ name: 'next-no-ai', private: true, type: 'module' }));
  fs.copyFileSync(path.join(FIXTURES, 'hosts-app/tsconfig.json'), path.join(dir, 'tsconfig.json'));
  fs.cpSync(path.join(FIXTURES, 'hosts-app/app/layout.tsx'), path.join(dir, 'app/layout.tsx'));
  const root = JSON.stringify(commonRoot(dir, REPO));
  write('next.config.mjs', `import { withAgentScorers } from 'agent-scorers/next';\n\nexport default withAgentScorers({ turbopack: { root: ${root} }, outputFileTracingRoot: ${root} });\n`);
  write(
    'src/mastra/agents/weather/scorers/relevancy.ts',
    `import { createAnswerRelevancyScorer, offlineJudge } from 'agent-scorers';\n\nexport default createAnswerRelevancyScorer({ model: offlineJudge() });\n`,
  );
  write(
    'app/api/score/route.ts',
    `import { resolveScorers } from 'virtual:agent-scorers';

export const dynamic = 'force-dynamic';

export async function GET() {
  const scorers = await resolveScorers('weather');
  const result = await scorers.relevancy.scorer.run(${JSON.stringify(RUN)});
  return Response.json({ keys: Object.keys(scorers), score: result.score });
}
`,
  );
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the app cannot resolve ai, from its own folder or from the package', () => {
  for (const from of [path.join(dir, 'package.json'), path.join(dir, 'node_modules/agent-scorers/dist/runtime/judge/model.js')]) {
    expect(() => createRequire(from).resolve('ai'), from).toThrow(/Cannot find module 'ai'/);
  }
});

describe.each(['turbopack', 'webpack'] as const)('next build (%s) without ai installed', (bundler) => {
  test('builds, and the route scores with the registry scorer', async () => {
    const built = await nextBuild(dir, bundler);
    expect(built.code, built.output).toBe(0);
    expect(built.output).not.toContain("Can't resolve 'ai'");
    const server = await startNext(dir, 'start');
    try {
      const answer = await server.get('/api/score');
      const expected = await createAnswerRelevancyScorer({ model: offlineJudge() }).run(RUN);
      expect(answer).toEqual({ keys: ['relevancy'], score: expected.score });
    } finally {
      await server.stop();
    }
    // A build takes 12-30 s on an idle machine; a shared one takes several times that.
  }, 600_000);
});

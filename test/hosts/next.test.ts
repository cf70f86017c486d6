/**
 * `agent-scorers/next` beyond the differential test's build-and-start: `next dev` (Turbopack and
 * webpack) reflecting an added and a deleted scorer file on the next request and riding out a file
 * that does not parse, and a `next build` that stops on errors, printing each once and keeping the
 * previous generated file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { count, poll, prepare, rewriteFile } from '../helpers/hosts.js';
import { nextBuild, startNext, writeNextConfig } from './next-host.js';

const PLANNER = 'src/mastra/agents/weather/subagents/planner/scorers';
const keysOf = (described: any) => described.agents['weather/planner'].scorers.map((s: string[]) => s[0]);

describe.each(['turbopack', 'webpack'] as const)('next dev (%s)', (bundler) => {
  test('an added scorer file shows on the next request, a deleted one goes; warnings print once', async () => {
    const dir = prepare('hosts-app', `next-dev-${bundler}`, { linkSelf: true });
    writeNextConfig(dir);
    const server = await startNext(dir, bundler === 'webpack' ? 'dev --webpack' : 'dev');
    try {
      expect(keysOf(await server.get('/api/scorers'))).toEqual(['brevity']);
      fs.writeFileSync(path.join(dir, PLANNER, 'added.ts'), `export default { id: 'planner:added', run: async () => ({ score: 1 }) };\n`);
      const added = await poll(() => server.get('/api/scorers'), (d) => keysOf(d).includes('added'), { timeout: 30_000, interval: 200, context: server.output });
      expect(keysOf(added)).toEqual(['added', 'brevity']);
      expect(added.agents['weather/planner'].scorers[0]).toEqual(['added', 'planner:added', null]);
      fs.rmSync(path.join(dir, PLANNER, 'added.ts'));
      await poll(() => server.get('/api/scorers'), (d) => !keysOf(d).includes('added'), { timeout: 30_000, interval: 200, context: server.output });
      // A file that does not parse: printed with its place, the server keeps running on the previous registry.
      fs.writeFileSync(path.join(dir, PLANNER, 'typo.ts'), `export default { id: 'planner:typo',, run };\n`);
      await poll(async () => server.output(), (o) => o.includes('[SCORER_SYNTAX_ERROR]'), { timeout: 30_000, interval: 200 });
      expect(server.output()).toContain(`Agent "weather/planner": scorer "typo" does not parse: Unexpected token. (${PLANNER}/typo.ts:1:37)`);
      expect(keysOf(await server.get('/api/scorers'))).toEqual(['brevity']);
      await rewriteFile(path.join(dir, PLANNER, 'typo.ts'), `export default { id: 'planner:typo', run: async () => ({ score: 1 }) };\n`);
      await poll(() => server.get('/api/scorers'), (d) => keysOf(d).includes('typo'), { timeout: 30_000, interval: 200, context: server.output });
      // Three generations, one watcher: each warning printed once for the session.
      expect(count(server.output(), '[SCORER_KEY_COLLISION]'), server.output()).toBe(1);
    } finally {
      await server.stop();
    }
    // Next loads the dev config again in a detached telemetry flush when dev stops: our watcher must
    // not keep that process (or any other of this app) alive.
    const lingering = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(dir));
    await poll(async () => lingering(), (lines) => lines.length === 0, { timeout: 30_000, interval: 250 });
  });
});

test('next build stops on errors, each printed once with its file, then one line; not as a config that failed to load', async () => {
  const dir = prepare('hosts-app', 'next-error', { linkSelf: true });
  writeNextConfig(dir);
  const previous = '// previous registry\nexport default {};\n';
  fs.writeFileSync(path.join(dir, 'src/agent-scorers.gen.mjs'), previous);
  fs.writeFileSync(path.join(dir, PLANNER, 'broken.ts'), 'export const notDefault = 1;\n');
  fs.writeFileSync(path.join(dir, 'src/mastra/agents/weather/scorers/typo.ts'), `import x from 'y';\nexport default {\n  id: 'typo' run: x,\n};\n`);
  const built = await nextBuild(dir, 'turbopack');
  expect(built.code, built.output).toBe(1);
  expect(count(built.output, '[SCORER_NO_DEFAULT_EXPORT]'), built.output).toBe(1);
  expect(built.output).toContain('(src/mastra/agents/weather/subagents/planner/scorers/broken.ts)');
  expect(count(built.output, '[SCORER_SYNTAX_ERROR]'), built.output).toBe(1);
  expect(built.output).toContain('[SCORER_SYNTAX_ERROR] Agent "weather": scorer "typo" does not parse: Expected `,` or `}` but found `Identifier`. (src/mastra/agents/weather/scorers/typo.ts:3:14)');
  expect(count(built.output, 'agent-scorers: the scorer registry has errors; fix them and build again.'), built.output).toBe(1);
  expect(built.output).not.toContain('Failed to load next.config');
  expect(built.output, 'no stack trace').not.toMatch(/^\s+at /m);
  expect(fs.readFileSync(path.join(dir, 'src/agent-scorers.gen.mjs'), 'utf8')).toBe(previous);
});

test('a first next build of an app without tsconfig.json type-checks virtual:agent-scorers (Next writes the tsconfig after the config ran)', async () => {
  const dir = prepare('hosts-app', 'next-no-tsconfig', { linkSelf: true });
  // As in a fresh app: no tsconfig.json, and a route that imports nothing with a `.ts` extension
  // (Next's own tsconfig refuses those), so only our declarations decide the type check.
  fs.rmSync(path.join(dir, 'tsconfig.json'));
  fs.rmSync(path.join(dir, 'src/main.ts'));
  fs.writeFileSync(
    path.join(dir, 'app/api/scorers/route.ts'),
    `import scorers from 'virtual:agent-scorers';\n\nexport const dynamic = 'force-dynamic';\n\nexport function GET() {\n  return Response.json(Object.keys(scorers.weather));\n}\n`,
  );
  writeNextConfig(dir);
  const built = await nextBuild(dir, 'turbopack');
  expect(built.code, built.output).toBe(0);
  expect(fs.existsSync(path.join(dir, 'tsconfig.json')), 'Next wrote its tsconfig.json').toBe(true);
  expect(fs.readFileSync(path.join(dir, 'src/agent-scorers.d.ts'), 'utf8')).toContain('declare module "virtual:agent-scorers"');
});

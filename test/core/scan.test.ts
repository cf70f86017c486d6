/** Discovery rules on real temp folders (no bundler involved). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { scan } from '../../src/core/scan.js';

let root: string;
const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-scan-')));
  dirs.push(root);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const run = (agentsDirs = ['agents'], extensions = ['.ts', '.mts', '.js', '.mjs'], isExcluded = (_: string) => false) =>
  scan({ root, agentsDirs: agentsDirs.map((d) => path.resolve(root, d)), extensions, isExcluded });

const keysOf = (result: ReturnType<typeof scan>) => Object.fromEntries(result.agents.map((a) => [a.key, a.scorers.map((s) => s.key)]));

describe('scan', () => {
  test('symlinked agent folders and scorer files are followed; the same real folder is taken once, under its own name', () => {
    tree({ 'agents/weather/scorers/a.ts': '', 'shared/b.ts': '', 'elsewhere/news/scorers/n.ts': '' });
    fs.symlinkSync(path.join(root, 'agents/weather'), path.join(root, 'agents/alias'));
    fs.symlinkSync(path.join(root, 'elsewhere/news'), path.join(root, 'agents/news'));
    fs.symlinkSync(path.join(root, 'shared/b.ts'), path.join(root, 'agents/weather/scorers/b.ts'));
    const result = run();
    expect(keysOf(result)).toEqual({ news: ['n'], weather: ['a', 'b'] });
    expect(result.diagnostics).toEqual([]);
    expect(result.agents.find((a) => a.key === 'news')!.dir).toBe('agents/news/');
  });

  test('a subagent link never takes a top-level agent away from its own name', () => {
    tree({ 'agents/weather/scorers/w.ts': '', 'agents/zeta/scorers/z.ts': '' });
    fs.mkdirSync(path.join(root, 'agents/weather/subagents'));
    fs.symlinkSync(path.join(root, 'agents/zeta'), path.join(root, 'agents/weather/subagents/helper'));
    expect(keysOf(run())).toEqual({ weather: ['w'], zeta: ['z'] });
  });

  test('a linked scorer file or scorers folder is imported by its real path, so it stays one module', () => {
    tree({ 'agents/w/scorers/a.ts': '', 'lib/shared.ts': '', 'elsewhere/scorers/b.ts': '', 'agents/v/config.ts': '' });
    fs.symlinkSync(path.join(root, 'lib/shared.ts'), path.join(root, 'agents/w/scorers/shared.ts'));
    fs.symlinkSync(path.join(root, 'elsewhere/scorers'), path.join(root, 'agents/v/scorers'));
    const result = run();
    const paths = Object.fromEntries(result.agents.flatMap((a) => a.scorers.map((s) => [`${a.key}:${s.key}`, s.path])));
    expect(paths).toEqual({
      'v:b': `${root}/elsewhere/scorers/b.ts`,
      'w:a': `${root}/agents/w/scorers/a.ts`,
      'w:shared': `${root}/lib/shared.ts`,
    });
  });

  test('under a linked agent folder, subagents keep the path the user sees (for messages, exclude and the manifest)', () => {
    tree({ 'shared/weather/scorers/a.ts': '', 'shared/weather/subagents/planner/scorers/wip-b.ts': '', 'shared/weather/subagents/planner/scorers/c.ts': '' });
    fs.mkdirSync(path.join(root, 'agents'));
    fs.symlinkSync(path.join(root, 'shared/weather'), path.join(root, 'agents/weather'));
    const result = run(['agents'], ['.ts'], (p) => p.startsWith('agents/') && p.endsWith('/wip-b.ts'));
    expect(result.agents.map((a) => [a.key, a.dir, a.path])).toEqual([
      ['weather', 'agents/weather/', `${root}/shared/weather`],
      ['weather/planner', 'agents/weather/subagents/planner/', `${root}/shared/weather/subagents/planner`],
    ]);
    expect(keysOf(result)).toEqual({ weather: ['a'], 'weather/planner': ['c'] });
  });

  test('names that are not valid UTF-8 are errors, not silently missing scorers or agents', () => {
    tree({ 'agents/w/scorers/ok.ts': '' });
    const bytes = (relative: string, tail: number[]) => Buffer.concat([Buffer.from(path.join(root, relative)), Buffer.from(tail)]);
    fs.writeFileSync(bytes('agents/w/scorers/bad', [0xff, 0x2e, 0x74, 0x73]), ''); // "bad\xff.ts"
    fs.mkdirSync(bytes('agents/x', [0xfe]));
    fs.writeFileSync(bytes('agents/w/scorers/notes', [0xff, 0x2e, 0x6d, 0x64]), ''); // not a scorer extension: ignored
    const result = run();
    expect(keysOf(result)).toEqual({ w: ['ok'] });
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.agent, d.file])).toEqual([
      ['NAME_NOT_UTF8', 'error', null, 'agents/x\uFFFD/'],
      ['NAME_NOT_UTF8', 'error', 'w', 'agents/w/scorers/bad\uFFFD.ts'],
    ]);
    expect(result.diagnostics[1].message).toBe('The scorer file "agents/w/scorers/bad\uFFFD.ts" has a name that is not valid UTF-8, so it cannot be imported; rename it.');
  });

  test('the same agent name in two agentsDir is an error naming both folders', () => {
    tree({ 'a/weather/scorers/x.ts': '', 'b/weather/scorers/y.ts': '' });
    const result = run(['a', 'b']);
    expect(result.diagnostics).toEqual([
      {
        code: 'AGENT_DUPLICATE',
        severity: 'error',
        agent: 'weather',
        file: 'b/weather/',
        message: 'Agent "weather" is defined twice: a/weather/ and b/weather/; agent keys must be unique across agentsDir.',
      },
    ]);
  });

  test('extensions and exclude narrow the scorer files', () => {
    tree({ 'agents/w/scorers/a.ts': '', 'agents/w/scorers/b.js': '', 'agents/w/scorers/wip-c.ts': '', 'agents/w/scorers/d.cts': '' });
    expect(keysOf(run())).toEqual({ w: ['a', 'b', 'wip-c'] });
    expect(keysOf(run(['agents'], ['.ts']))).toEqual({ w: ['a', 'wip-c'] });
    expect(keysOf(run(['agents'], ['.ts', '.js', '.cts'], (p) => p === 'agents/w/scorers/wip-c.ts'))).toEqual({ w: ['a', 'b', 'd'] });
  });

  test('keys sort by UTF-16 code unit, not by locale', () => {
    tree({ 'agents/w/scorers/b.ts': '', 'agents/w/scorers/B.ts': '', 'agents/w/scorers/é.ts': '', 'agents/w/scorers/_x.ts': '', 'agents/w/scorers/Z.ts': '' });
    expect(keysOf(run()).w).toEqual(['B', 'Z', '_x', 'b', 'é']);
  });

  test('watched folders cover agentsDir, agents, scorers and subagents folders; a missing agentsDir watches its parent', () => {
    tree({ 'agents/w/scorers/a.ts': '', 'agents/w/subagents/p/scorers/b.ts': '' });
    const result = run(['agents', 'missing/agents']);
    expect(result.folders).toEqual(
      [root, `${root}/agents`, `${root}/agents/w`, `${root}/agents/w/scorers`, `${root}/agents/w/subagents`, `${root}/agents/w/subagents/p`, `${root}/agents/w/subagents/p/scorers`].sort(),
    );
    expect(result.diagnostics.map((d) => d.code)).toEqual(['AGENTS_DIR_MISSING']);
  });
});

/**
 * `agent-scorers generate` under conditions users meet by accident: files and folders it may not
 * read or write (run as an unprivileged user, since root ignores permissions), config files that
 * throw, do not parse or never settle, a process killed while the config loads or while it writes,
 * and scorer files or agent configs with syntax errors. Each failure is one line naming the path and
 * the reason, with the exit code that says which kind it is.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { count, DIST, poll, prepare, run } from '../helpers/hosts.js';
import { unprivileged } from '../helpers/unprivileged.js';

const BIN = path.join(DIST, 'plugin/bin.js');
const GEN = 'src/agent-scorers.gen.mjs';
const GEN_DTS = 'src/agent-scorers.gen.d.mts';
const scorer = (id: string) => `export default { id: ${JSON.stringify(id)}, run: async () => ({ score: 1 }) };\n`;
const write = (dir: string, file: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
};
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
const generate = (dir: string, args: string[] = [], env: Record<string, string> = {}) => run(process.execPath, [BIN, 'generate', ...args], dir, env);

/** The lines that are failures of ours (not diagnostics), and no stack frame anywhere. */
function failureLines(output: string): string[] {
  expect(output, 'no stack trace').not.toMatch(/^\s+at /m);
  return output.split('\n').filter((line) => line.startsWith('agent-scorers: '));
}

/** Every path under `dir` but node_modules, sorted: what the user sees in their folder. */
function listing(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  // By hand: a recursive readdir would follow node_modules/agent-scorers back into the repository.
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    found.push(rel);
    if (entry.isDirectory()) found.push(...listing(dir, rel));
  }
  return found.sort();
}

/** Folders of ours under the system temp folder, removed at the end. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // a mode a failed test left: the system cleans its temp folder
    }
  }
});
const tempFolder = (name: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-scorers-${name}-`));
  made.push(dir);
  return dir;
};

/** A small tree in a folder of its own under the system temp folder, readable by everyone. */
function smallTree(name: string): string {
  const dir = tempFolder(name);
  fs.chmodSync(dir, 0o755);
  write(dir, 'src/mastra/agents/weather/scorers/tone.ts', scorer('weather:tone'));
  write(dir, 'src/mastra/agents/weather/config.ts', `export default { scorers: {} };\n`);
  write(dir, 'src/mastra/agents/support/scorers/brevity.ts', scorer('support:brevity'));
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
  return dir;
}

// Root reads and writes everything, so permission cases run as `nobody` (setpriv changes the user of the
// one command), from a copy of the package it can reach when the checkout is root-only. The tree is
// world-readable.
const isRoot = process.getuid?.() === 0;
const user = unprivileged();
afterAll(() => ('cleanup' in user ? user.cleanup() : undefined));

describe.skipIf('skip' in user)(`files and folders it may not read or write (as an unprivileged user)${'skip' in user ? `: skipped, ${user.skip}` : ''}`, () => {
  const generateAsUser = (dir: string, args: string[] = []) => {
    if ('skip' in user) throw new Error(user.skip);
    const [command, commandArgs] = user.node([path.join(user.dist, 'plugin/bin.js'), 'generate', ...args]);
    return run(command, commandArgs, dir);
  };
  /** The tree with its generated folder writable by the user the CLI runs as. */
  const userTree = (name: string) => {
    const dir = smallTree(name);
    if (isRoot) execFileSync('chown', ['-R', 'nobody:nogroup', path.join(dir, 'src')]);
    return dir;
  };

  test('the tree as given generates (the setup itself is sound)', async () => {
    const dir = userTree('perm-ok');
    const result = await generateAsUser(dir);
    expect(result.code, result.output).toBe(0);
    expect(read(dir, GEN)).toContain('./mastra/agents/weather/scorers/tone.ts');
  });

  test.each([
    ['a folder it cannot read', 'src/mastra/agents/weather/scorers', 0o000, 'cannot read src/mastra/agents/weather/scorers: permission denied'],
    ['a scorer file it cannot read', 'src/mastra/agents/weather/scorers/tone.ts', 0o000, 'cannot read src/mastra/agents/weather/scorers/tone.ts: permission denied'],
    ['an agent config it cannot read', 'src/mastra/agents/weather/config.ts', 0o000, 'cannot read src/mastra/agents/weather/config.ts: permission denied'],
    ['a read-only src/ for the default output', 'src', 0o555, 'cannot write src: permission denied'],
  ])('%s: exit 2, one line with the path and the reason', async (_, target, mode, line) => {
    const dir = userTree(`perm-${path.basename(target)}`);
    fs.chmodSync(path.join(dir, target), mode);
    const result = await generateAsUser(dir);
    expect(result.code, result.output).toBe(2);
    expect(failureLines(result.output)).toEqual([`agent-scorers: ${line}`]);
    fs.chmodSync(path.join(dir, target), mode === 0o555 ? 0o755 : target.endsWith('.ts') ? 0o644 : 0o755);
    expect(listing(path.join(dir, 'src')).filter((p) => p.includes('.tmp')), 'no temporary file left').toEqual([]);
  });

  test('--out in a read-only folder, and --out naming a folder: exit 2, one line each, nothing left behind', async () => {
    const dir = userTree('perm-out');
    fs.mkdirSync(path.join(dir, 'locked'), { mode: 0o555 });
    fs.chmodSync(path.join(dir, 'locked'), 0o555);
    const locked = await generateAsUser(dir, ['--out', 'locked/registry.mjs']);
    expect(locked.code, locked.output).toBe(2);
    expect(failureLines(locked.output)).toEqual(['agent-scorers: cannot write locked: permission denied']);
    expect(fs.readdirSync(path.join(dir, 'locked'))).toEqual([]);

    fs.mkdirSync(path.join(dir, 'src/taken.mjs'));
    if (isRoot) execFileSync('chown', ['-R', 'nobody:nogroup', path.join(dir, 'src')]);
    const folder = await generateAsUser(dir, ['--out', 'src/taken.mjs']);
    expect(folder.code, folder.output).toBe(2);
    expect(failureLines(folder.output)).toEqual(['agent-scorers: cannot write src/taken.mjs: it is a folder']);
    expect(fs.readdirSync(path.join(dir, 'src')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('config files that fail', () => {
  // The 30 s limit, shortened for these tests only.
  const SHORT = { AGENT_SCORERS_CONFIG_TIMEOUT_MS: '1500' };
  const withConfig = (name: string, source: string, file = 'agent-scorers.config.mjs') => {
    const dir = smallTree(name);
    write(dir, file, source);
    return dir;
  };

  test('a config that throws: exit 2, one line naming the file and the message', async () => {
    const dir = withConfig('config-throws', `throw new Error('no API key in "env"\\nsecond line');\n`);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(2);
    expect(failureLines(result.output)).toEqual(['agent-scorers: cannot load agent-scorers.config.mjs: it threw Error: no API key in "env"']);
  });

  // The message is the parser's (esbuild on Node 20, Node's own TypeScript stripping on 24, V8 for
  // JavaScript); the place is always the config's file, line and column.
  test.each(['agent-scorers.config.ts', 'agent-scorers.config.mjs'])('a config that does not parse (%s): the file, line and column', async (file) => {
    const dir = withConfig('config-syntax', `export default { agentsDir: 'x' +, };\n`, file);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(2);
    const lines = failureLines(result.output);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^agent-scorers: cannot load ${file}: ${file}:1:34: \\S`));
  });

  test('a config that throws a SyntaxError of its own is a throw, not a parse error', async () => {
    const dir = withConfig('config-throws-syntax', `JSON.parse('{');\nexport default {};\n`);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(2);
    expect(failureLines(result.output)).toHaveLength(1);
    expect(failureLines(result.output)[0]).toMatch(/^agent-scorers: cannot load agent-scorers\.config\.mjs: it threw SyntaxError: /);
  });

  test.each([
    ['awaits a promise that never settles', `export default await new Promise(() => {});\n`],
    ['awaits a promise that never settles while a timer is pending', `setInterval(() => {}, 1000);\nexport default await new Promise(() => {});\n`],
    ['exports a promise that never settles', `export default new Promise(() => {});\n`],
  ])('a config that %s: exit 2 naming the file once the limit passes (not exit 13, not a hang)', async (_, source) => {
    const dir = withConfig('config-pending', source);
    const result = await generate(dir, [], SHORT);
    expect(result.code, result.output).toBe(2);
    expect(failureLines(result.output)).toEqual([
      'agent-scorers: cannot load agent-scorers.config.mjs: it has not loaded after 1500 ms (its default export, or something it awaits, never settles)',
    ]);
  });

  test('a config that leaves a timer running does not keep the CLI alive', async () => {
    const dir = withConfig('config-timer', `setInterval(() => {}, 1000);\nexport default { dts: false };\n`);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(0);
  });

  test('--config naming a file that does not exist: exit 2, one line', async () => {
    const dir = smallTree('config-missing');
    const result = await generate(dir, ['--config', 'nope.config.mjs']);
    expect(result.code, result.output).toBe(2);
    expect(failureLines(result.output)).toEqual(['agent-scorers: cannot read nope.config.mjs: no such file or folder']);
  });

  test('a TypeScript config on Node 20 with relative and bare imports loads, and writes nothing beside the user files', async () => {
    const dir = prepare('hosts-app', 'cli-config-imports', { linkSelf: true });
    write(dir, 'config/agents.ts', `export const agentsDir: string = 'src/mastra/agents';\n`);
    write(
      dir,
      'agent-scorers.config.ts',
      `import type { Options } from 'agent-scorers';
import { mergeScorers } from 'agent-scorers/registry';
import { agentsDir } from './config/agents.ts';

if (typeof mergeScorers !== 'function') throw new Error('bare import did not resolve');
const options: Options = { agentsDir, dts: false, manifest: import.meta.url.endsWith('/agent-scorers.config.ts') ? 'scorers.json' : 'wrong.json' };
export default options;
`,
    );
    const before = listing(dir);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(0);
    expect(listing(dir)).toEqual([...before, GEN, GEN_DTS, 'src/scorers.json'].sort());
  });

  test('killed while a TypeScript config loads (Node 20): no file left in the user folder', async () => {
    const dir = prepare('hosts-app', 'cli-config-kill', { linkSelf: true });
    const marker = path.join(dir, 'node_modules/loading');
    write(
      dir,
      'agent-scorers.config.ts',
      `import fs from 'node:fs';

fs.writeFileSync(${JSON.stringify(marker)}, '');
await new Promise((resolve) => setTimeout(resolve, 120_000));
export default { dts: false } satisfies object;
`,
    );
    const before = listing(dir);
    const child = spawn(process.execPath, [BIN, 'generate'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await poll(async () => fs.existsSync(marker), (exists) => exists, { timeout: 30_000 });
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    expect(listing(dir)).toEqual(before);
  });
});

describe('SCORER_SYNTAX_ERROR', () => {
  test('a scorer file and an agent config that do not parse: exit 1, file:line:column, the previous files kept', async () => {
    const dir = smallTree('syntax');
    expect((await generate(dir)).code).toBe(0);
    const previous = [read(dir, GEN), read(dir, GEN_DTS)];
    // A hostile name, and a non-ASCII character before the error: the column counts as editors do.
    const name = `tö'ne "\${x}".ts`;
    write(dir, `src/mastra/agents/weather/scorers/${name}`, `const é = 1;\nexport default { id: "x",, run };\n`);
    write(dir, 'src/mastra/agents/support/config.ts', `export default {\n  scorers: { a: 1 \n`);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(1);
    expect(count(result.output, '[SCORER_SYNTAX_ERROR]'), result.output).toBe(2);
    expect(result.output).toContain(
      `[agent-scorers] error [SCORER_SYNTAX_ERROR] Agent "support": config.ts does not parse: Expected \`}\` but found \`EOF\`. (src/mastra/agents/support/config.ts:3:1)`,
    );
    expect(result.output).toContain(
      `[agent-scorers] error [SCORER_SYNTAX_ERROR] Agent "weather": scorer ${JSON.stringify(name.slice(0, -3))} does not parse: Unexpected token. (src/mastra/agents/weather/scorers/${name}:2:26)`,
    );
    expect(result.output).toContain('the previous files are kept');
    expect([read(dir, GEN), read(dir, GEN_DTS)]).toEqual(previous);
    expect(result.output).not.toMatch(/^\s+at /m);
  });

  test('a scorer file left out of the registry (config.scorers overrides it) is not checked: nothing imports it', async () => {
    const dir = smallTree('syntax-unused');
    write(dir, 'src/mastra/agents/weather/config.ts', `export default { scorers: { tone: { id: 'c', run: async () => ({ score: 1 }) } } };\n`);
    write(dir, 'src/mastra/agents/weather/scorers/tone.ts', `export default {{\n`);
    const result = await generate(dir);
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toContain('SCORER_SYNTAX_ERROR');
  });
});

/** Kills in the loop below; AGENT_SCORERS_KILL_ROUNDS shortens it while developing. */
const ROUNDS = Number(process.env.AGENT_SCORERS_KILL_ROUNDS) || 20;

describe('atomic writes', () => {
  test('a changed file is replaced by a rename (a hard link to the old one keeps the old text), with no temporary file left', async () => {
    const dir = smallTree('atomic');
    expect((await generate(dir)).code).toBe(0);
    const old = read(dir, GEN);
    fs.linkSync(path.join(dir, GEN), path.join(dir, 'old-link.mjs'));
    write(dir, 'src/mastra/agents/weather/scorers/added.ts', scorer('weather:added'));
    expect((await generate(dir)).code).toBe(0);
    expect(read(dir, GEN)).toContain('added.ts');
    expect(read(dir, 'old-link.mjs')).toBe(old);
    expect(fs.readdirSync(path.join(dir, 'src')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('a temporary file left by a killed run is removed by the next write', async () => {
    const dir = smallTree('atomic-stale');
    // A pid that is certainly gone: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const stale = `src/.agent-scorers.gen.mjs.${gone}.k1ll3d.tmp`;
    write(dir, stale, 'export const half = ');
    expect((await generate(dir)).code).toBe(0);
    expect(fs.existsSync(path.join(dir, stale))).toBe(false);
  });

  test('SIGKILL at random moments over 300 agents x 5 scorers: each file is whole (old or new), and the next run repairs the set', async () => {
    const dir = tempFolder('kill');
    for (let a = 0; a < 300; a++) {
      for (let s = 0; s < 5; s++) write(dir, `src/mastra/agents/agent${a}/scorers/s${s}.ts`, scorer(`agent${a}:s${s}`));
    }
    const files = [GEN, GEN_DTS, 'src/agent-scorers.manifest.json'];
    const args = ['--manifest', 'true', '--dts', 'false'];
    const snapshot = () => files.map((f) => (fs.existsSync(path.join(dir, f)) ? read(dir, f) : null));
    const first = await generate(dir, args);
    expect(first.code, first.output).toBe(0);
    let previous = snapshot();
    // How long a run takes here, so the kills spread over all of it (start-up, scan, writes).
    const started = Date.now();
    await generate(dir, args);
    const span = (Date.now() - started) * 1.2;

    let killedMidway = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Every round changes every file: one more scorer in a new agent.
      write(dir, `src/mastra/agents/added${round}/scorers/s.ts`, scorer(`added${round}`));
      const child = spawn(process.execPath, [BIN, 'generate', ...args], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * span));
      child.kill('SIGKILL');
      if ((await exited) === null) killedMidway++;
      const afterKill = snapshot();

      const repair = await generate(dir, args);
      expect(repair.code, repair.output).toBe(0);
      const next = snapshot();
      for (const [i, file] of files.entries()) {
        expect([previous[i], next[i]], `${file} after kill ${round} is the old or the new generation`).toContainEqual(afterKill[i]);
      }
      expect(JSON.parse(next[2]!).agents[`added${round}`]).toBeDefined();
      expect(next[0]).toContain(`./mastra/agents/added${round}/scorers/s.ts`);
      expect(fs.readdirSync(path.join(dir, 'src')).filter((name) => name.endsWith('.tmp')), 'repaired: no temporary file').toEqual([]);
      previous = next;
    }
    // Not a timing assertion: only that the loop exercised kills at all.
    expect(killedMidway).toBeGreaterThan(0);
  }, 600_000);
});

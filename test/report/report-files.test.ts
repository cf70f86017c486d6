/**
 * `agent-scorers report` and `report merge`, installed from the packed tarball, never lose an input and
 * never leave half a report: an output that names an input (however it is spelled: relative,
 * absolute, `./`, `..`, a symbolic link, a hard link) is refused with exit 2 and one line naming the
 * path, before anything is written; a FIFO, a device or a folder given as an input is exit 2 at once
 * (the child has a timeout, so a hang fails the test instead of stalling it); a folder that cannot be
 * written (as an unprivileged user: root writes everywhere) leaves no file of the report at all; a
 * result nested 100,000 levels deep names the file. The results are real `runEvals` runs saved as JSON.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evalReport } from '../../src/report/index.js';
import { createScorer, runEvals, type RunEvalsResult } from '../../src/runtime/index.js';
import { npm, packPackage } from '../helpers/pack.js';
import { unprivileged } from '../helpers/unprivileged.js';

const QUESTIONS = ['Weather in Paris?', 'Rain in Oslo tomorrow?', 'Is Lima warm in June?', 'Is Cairo hot?', 'Snow in Seoul?', 'Wind in Quito?'];
const mentionsCity = createScorer({ id: 'mentions-city', description: 'Names the city asked about' }).generateScore(({ run }) => {
  const city = /in ([A-Z][a-z]+)|Is ([A-Z][a-z]+)/.exec(JSON.stringify(run.input));
  return JSON.stringify(run.output).includes(city?.[1] ?? city?.[2] ?? '?') ? 1 : 0;
});
const answer = (degraded: boolean) => (question: string) => (degraded && question.length % 2 === 0 ? 'Sunny.' : `Sunny: ${question}`);
const run = (degraded: boolean, shard?: { index: number; count: number }) =>
  runEvals({ data: QUESTIONS.map((input) => ({ input })), target: answer(degraded), scorers: [mentionsCity], ...(shard ? { shard } : {}) });

let root: string;
let bin: string;
let result: RunEvalsResult;
let baseline: RunEvalsResult;
let shards: RunEvalsResult[];

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-report-files-')));
  const app = path.join(root, 'app');
  fs.mkdirSync(app);
  const { tarball } = await packPackage(root);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'evals', private: true, type: 'module' }));
  const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
  expect(installed.code, installed.output).toBe(0);
  bin = path.join(app, 'node_modules/agent-scorers/dist/plugin/bin.js');
  // The unprivileged user runs the installed CLI too: every folder on the way open to everyone.
  for (const entry of [root, ...fs.readdirSync(root, { recursive: true, withFileTypes: true }).map((e) => path.join(e.parentPath, e.name))]) {
    const stat = fs.lstatSync(entry);
    if (stat.isDirectory()) fs.chmodSync(entry, 0o755);
    else if (stat.isFile()) fs.chmodSync(entry, stat.mode & 0o100 ? 0o755 : 0o644);
  }
  result = await run(true);
  baseline = await run(false);
  shards = [await run(false, { index: 1, count: 3 }), await run(false, { index: 2, count: 3 }), await run(false, { index: 3, count: 3 })];
  expect(shards.every((s) => s.items.length > 0)).toBe(true);
}, 300_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

let cases = 0;
/** A fresh folder holding `r.json` (a degraded run), `base.json` (the good run) and `s1..s3.json` (three shards). */
function workspace(): string {
  const dir = path.join(root, `case-${++cases}`);
  fs.mkdirSync(dir, { mode: 0o777 });
  fs.chmodSync(dir, 0o777);
  const save = (name: string, value: unknown) => fs.writeFileSync(path.join(dir, name), JSON.stringify(value), { mode: 0o644 });
  save('r.json', result);
  save('base.json', baseline);
  shards.forEach((shard, i) => save(`s${i + 1}.json`, shard));
  return dir;
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The installed CLI in `cwd`, stopped after 20 s: a command that blocks fails its test, never stalls it. */
function cli(args: string[], cwd: string, as: (args: string[]) => [string, string[]] = (a) => [process.execPath, a]): Ran {
  const [command, commandArgs] = as([bin, ...args]);
  const ran = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: ran.status, signal: ran.signal, stdout: ran.stdout, stderr: ran.stderr };
}

/** Exit 2 with exactly one line, no stack. */
function refused(ran: Ran): string {
  expect(ran.signal, `the CLI was killed after 20 s (it hung): ${ran.stderr}`).toBeNull();
  expect(ran.code, ran.stderr + ran.stdout).toBe(2);
  expect(ran.stdout).toBe('');
  expect(ran.stderr).not.toMatch(/^\s+at |Maximum call stack/m);
  const lines = ran.stderr.trim().split('\n');
  expect(lines, ran.stderr).toHaveLength(1);
  return lines[0];
}

/** Every entry under `dir`, with a file's content, a link's target and a file's inode: what a refusal must leave alone. */
function snapshot(dir: string): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    seen[name] = stat.isSymbolicLink() ? `link to ${fs.readlinkSync(file)}`
      : stat.isFile() ? `file ${stat.ino}: ${fs.readFileSync(file, 'utf8')}`
      : stat.isDirectory() ? 'folder'
      : `other ${stat.mode.toString(8)}`;
  }
  return seen;
}

const reportNames = ['eval-report.html', 'eval-report.junit.xml'];

describe('an output that names an input is refused before anything is written', () => {
  test('--json naming the result, spelled six ways (relative, ./, absolute, .., a symbolic link, a hard link)', () => {
    const dir = workspace();
    fs.symlinkSync('r.json', path.join(dir, 'link.json'));
    fs.linkSync(path.join(dir, 'r.json'), path.join(dir, 'hard.json'));
    fs.mkdirSync(path.join(dir, 'sub'));
    const input = path.join(dir, 'r.json');
    const spellings: Array<[string, string]> = [
      ['r.json', input],
      ['./r.json', input],
      [input, input],
      ['sub/../r.json', input],
      ['link.json', path.join(dir, 'link.json')],
      ['hard.json', path.join(dir, 'hard.json')],
    ];
    const before = snapshot(dir);
    for (const [spelling, shown] of spellings) {
      const line = refused(cli(['report', 'r.json', '--baseline', 'base.json', '--json', spelling], dir));
      const through = shown === input ? '' : ` (${input})`;
      expect(line, spelling).toBe(`agent-scorers report: ${shown}: --json names the result file${through}, which would be overwritten; give another path. Nothing was written.`);
      expect(snapshot(dir), spelling).toEqual(before);
    }
    // The same command with a path of its own writes every file: the refusal was the path's doing.
    const ok = cli(['report', 'r.json', '--baseline', 'base.json', '--json', 'comparison.json'], dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'comparison.json'), 'utf8')).scorers[0].id).toBe('mentions-city');
    expect(fs.readFileSync(input, 'utf8')).toBe(JSON.stringify(result));
  });

  test('--summary naming the baseline, directly and through a symbolic link to it in another folder', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'ci'));
    fs.symlinkSync('../base.json', path.join(dir, 'ci/summary.md'));
    const before = snapshot(dir);
    const base = path.join(dir, 'base.json');
    expect(refused(cli(['report', 'r.json', '--baseline', 'base.json', '--summary', 'base.json'], dir))).toBe(
      `agent-scorers report: ${base}: --summary names the baseline, which would be overwritten; give another path. Nothing was written.`,
    );
    expect(refused(cli(['report', 'r.json', '--baseline', 'base.json', '--summary', 'ci/summary.md'], dir))).toBe(
      `agent-scorers report: ${path.join(dir, 'ci/summary.md')}: --summary names the baseline (${base}), which would be overwritten; give another path. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test('--out (and the default, the result file\'s folder) where the result is saved as eval-report.html', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'saved'));
    fs.copyFileSync(path.join(dir, 'r.json'), path.join(dir, 'saved/eval-report.html'));
    const before = snapshot(dir);
    const input = path.join(dir, 'saved/eval-report.html');
    const message = `agent-scorers report: ${input}: --out names the result file, which would be overwritten; give another path. Nothing was written.`;
    expect(refused(cli(['report', 'saved/eval-report.html', '--out', 'saved'], dir))).toBe(message);
    expect(refused(cli(['report', 'saved/eval-report.html'], dir))).toBe(message);
    expect(snapshot(dir)).toEqual(before);
    // Elsewhere it is an ordinary result.
    expect(cli(['report', 'saved/eval-report.html', '--out', 'elsewhere'], dir).code).toBe(0);
  });

  test('two outputs that name one file', () => {
    const dir = workspace();
    const before = snapshot(dir);
    expect(refused(cli(['report', 'r.json', '--baseline', 'base.json', '--summary', 'same.md', '--json', './same.md'], dir))).toBe(
      `agent-scorers report: ${path.join(dir, 'same.md')}: --json names the file --summary writes; give another path. Nothing was written.`,
    );
    expect(refused(cli(['report', 'r.json', '--summary', 'out/eval-report.html', '--out', 'out'], dir))).toBe(
      `agent-scorers report: ${path.join(dir, 'out/eval-report.html')}: --summary names the file --out writes; give another path. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test('merge --out naming a shard, directly and through a symbolic link; the shards merge once --out is a file of its own', () => {
    const dir = workspace();
    fs.symlinkSync('s2.json', path.join(dir, 'merged.json'));
    const before = snapshot(dir);
    expect(refused(cli(['report', 'merge', 's1.json', 's2.json', 's3.json', '--out', 's1.json'], dir))).toBe(
      `agent-scorers report merge: ${path.join(dir, 's1.json')}: --out names the shard s1.json, which would be overwritten; give another path. Nothing was written.`,
    );
    expect(refused(cli(['report', 'merge', 's1.json', 's2.json', 's3.json', '--out', 'merged.json'], dir))).toBe(
      `agent-scorers report merge: ${path.join(dir, 'merged.json')}: --out names the shard s2.json (${path.join(dir, 's2.json')}), which would be overwritten; give another path. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
    const ok = cli(['report', 'merge', 's1.json', 's2.json', 's3.json', '--out', 'whole.json'], dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'whole.json'), 'utf8')).items).toHaveLength(QUESTIONS.length);
  });

  test('an output that is a symbolic link to a file of its own is written through: the link stays, its target gets the report', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'kept'));
    fs.writeFileSync(path.join(dir, 'kept/summary.md'), 'old\n');
    fs.symlinkSync('kept/summary.md', path.join(dir, 'summary.md'));
    const ok = cli(['report', 'r.json', '--baseline', 'base.json', '--summary', 'summary.md'], dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(fs.readlinkSync(path.join(dir, 'summary.md'))).toBe('kept/summary.md');
    expect(fs.readFileSync(path.join(dir, 'kept/summary.md'), 'utf8')).toMatch(/mentions-city/);
  });
});

describe.skipIf(process.platform === 'win32')('inputs and outputs that are not regular files: exit 2 at once, never a hang', () => {
  const fifo = (dir: string, name: string) => {
    execFileSync('mkfifo', [path.join(dir, name)]);
    return path.join(dir, name);
  };

  test('a FIFO as the result, as the baseline and as a shard', () => {
    const dir = workspace();
    const pipe = fifo(dir, 'pipe.json');
    const line = (command: string) => `agent-scorers ${command}: ${pipe}: is a FIFO (named pipe), not a file: give a saved result file`;
    expect(refused(cli(['report', 'pipe.json'], dir))).toBe(line('report'));
    expect(refused(cli(['report', 'r.json', '--baseline', 'pipe.json'], dir))).toBe(line('report'));
    expect(refused(cli(['report', 'merge', 's1.json', 'pipe.json', 's3.json', '--out', 'whole.json'], dir))).toBe(line('report merge'));
    expect(Object.keys(snapshot(dir)).sort()).toEqual(['base.json', 'pipe.json', 'r.json', 's1.json', 's2.json', 's3.json']);
  });

  test('a device and a folder as inputs', () => {
    const dir = workspace();
    expect(refused(cli(['report', 'r.json', '--baseline', '/dev/zero'], dir))).toBe('agent-scorers report: /dev/zero: is a device, not a file: give a saved result file');
    expect(refused(cli(['report', dir], dir))).toBe(`agent-scorers report: ${dir}: is a folder, not a file`);
    expect(reportNames.some((name) => fs.existsSync(path.join(dir, name)))).toBe(false);
  });

  test('a FIFO or a device as an output: refused, never opened for writing, nothing written', () => {
    const dir = workspace();
    const pipe = fifo(dir, 'summary.md');
    const before = snapshot(dir);
    expect(refused(cli(['report', 'r.json', '--summary', 'summary.md'], dir))).toBe(
      `agent-scorers report: ${pipe}: --summary names a FIFO (named pipe), not a file; give a file path. Nothing was written.`,
    );
    expect(refused(cli(['report', 'r.json', '--baseline', 'base.json', '--json', '/dev/null'], dir))).toBe(
      'agent-scorers report: /dev/null: --json names a device, not a file; give a file path. Nothing was written.',
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('a result nested 100,000 levels deep names the file', () => {
  /** `value` with its first item's input replaced by `depth` nested arrays. */
  const nested = (value: RunEvalsResult, depth: number) =>
    JSON.stringify({ ...value, items: value.items.map((item, i) => (i === 0 ? { ...item, input: '@@' } : item)) }).replace('"@@"', `${'['.repeat(depth)}1${']'.repeat(depth)}`);

  test('as the result, the baseline and a shard: exit 2, the file and the field named, no stack overflow', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'deep.json'), nested(result, 100_000));
    const deep = path.join(dir, 'deep.json');
    const line = (command: string) => `agent-scorers ${command}: ${deep}: too deeply nested: items[0].input goes more than 1,000 levels of arrays and objects deep`;
    expect(refused(cli(['report', 'deep.json'], dir))).toBe(line('report'));
    expect(refused(cli(['report', 'r.json', '--baseline', 'deep.json'], dir))).toBe(line('report'));
    fs.writeFileSync(path.join(dir, 'deep.json'), nested(shards[1], 100_000));
    expect(refused(cli(['report', 'merge', 's1.json', 'deep.json', 's3.json', '--out', 'whole.json'], dir))).toBe(line('report merge'));
    expect(reportNames.some((name) => fs.existsSync(path.join(dir, name))) || fs.existsSync(path.join(dir, 'whole.json'))).toBe(false);
  });

  test('1,000 levels are read and reported; 1,001 are refused', () => {
    const dir = workspace();
    // The result, its items, the item, then the input's arrays: 997 of them make 1,000 levels.
    fs.writeFileSync(path.join(dir, 'deep.json'), nested(result, 997));
    const ok = cli(['report', 'deep.json', '--baseline', 'base.json'], dir);
    expect(ok.code, ok.stderr).toBe(0);
    // The page carries the input as indented JSON text (in its data block, so a new line is `\n`): the innermost
    // number 997 levels in, two spaces a level.
    const page = fs.readFileSync(path.join(dir, 'eval-report.html'), 'utf8');
    expect(page.includes(`\\n${' '.repeat(2 * 997)}1\\n${' '.repeat(2 * 996)}]`), 'the innermost value on the page').toBe(true);
    fs.writeFileSync(path.join(dir, 'deeper.json'), nested(result, 998));
    expect(refused(cli(['report', 'deeper.json', '--out', 'deeper'], dir))).toMatch(/deeper\.json: too deeply nested: items\[0\]\.input goes more than 1,000 levels/);
  });

  test('evalReport given such a value throws a TypeError naming the field', () => {
    const value = JSON.parse(nested(result, 100_000));
    expect(() => evalReport(value)).toThrow(new TypeError('items[0].input is too deeply nested: more than 1,000 levels of arrays and objects'));
    expect(() => evalReport(result, { baseline: value })).toThrow(/^baseline: items\[0\]\.input is too deeply nested/);
  });
});

describe('all or none', () => {
  test('--out naming a file: neither report file nor the summary is written', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine\n');
    const before = snapshot(dir);
    expect(refused(cli(['report', 'r.json', '--summary', 'summary.md', '--out', 'notes.txt'], dir))).toBe(
      `agent-scorers report: ${path.join(dir, 'notes.txt')}: is a file, not a folder, so --out cannot write ${path.join(dir, 'notes.txt/eval-report.html')}. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test('evalReport: a file that cannot be written leaves the others as they were, with no temporary file and no folder made', () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'summary.md'), 'the previous summary\n');
    fs.writeFileSync(path.join(dir, 'in-the-way'), 'a file where a folder must go\n');
    const before = snapshot(dir);
    // The page goes into a folder made for it, then the JUnit file's folder cannot be made: both undone.
    const files = { htmlFile: path.join(dir, 'new/page.html'), junitFile: path.join(dir, 'in-the-way/junit.xml'), summaryFile: path.join(dir, 'summary.md') };
    let thrown: unknown;
    try {
      evalReport(result, files);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error | undefined)?.message).toBe(`cannot write ${path.join(dir, 'in-the-way/junit.xml')}: ${path.join(dir, 'in-the-way')} is a file, not a folder`);
    expect(snapshot(dir)).toEqual(before);
    const written = evalReport(result, { ...files, junitFile: path.join(dir, 'junit.xml') });
    expect(fs.readFileSync(path.join(dir, 'new/page.html'), 'utf8')).toBe(written.html);
    expect(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(written.summary);
  });
});

// Root writes into any folder, so these run as `nobody`, with the CLI installed from the tarball.
const user = unprivileged();
afterAll(() => ('cleanup' in user ? user.cleanup() : undefined));

describe.skipIf('skip' in user)(`a folder that cannot be written: no file of the report at all${'skip' in user ? `: skipped, ${user.skip}` : ''}`, () => {
  const asUser = (args: string[]) => {
    if ('skip' in user) throw new Error(user.skip);
    return user.node(args);
  };

  test('--json into a read-only folder: neither the HTML, the JUnit, the summary nor the comparison is written', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'locked'), { mode: 0o555 });
    fs.chmodSync(path.join(dir, 'locked'), 0o555);
    const before = snapshot(dir);
    const args = ['report', 'r.json', '--baseline', 'base.json', '--summary', 'summary.md', '--out', 'report'];
    expect(refused(cli([...args, '--json', 'locked/comparison.json'], dir, asUser))).toBe(
      `agent-scorers report: ${path.join(dir, 'locked')}: cannot write --json there: permission denied. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
    // The same user, the same command, a folder it may write: everything is written.
    const ok = cli([...args, '--json', 'comparison.json'], dir, asUser);
    expect(ok.code, ok.stderr).toBe(0);
    for (const file of ['report/eval-report.html', 'report/eval-report.junit.xml', 'summary.md', 'comparison.json']) expect(fs.existsSync(path.join(dir, file)), file).toBe(true);
  });

  test('--out under a read-only folder: the summary beside it is not written either', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'locked'), { mode: 0o555 });
    fs.chmodSync(path.join(dir, 'locked'), 0o555);
    const before = snapshot(dir);
    expect(refused(cli(['report', 'r.json', '--summary', 'summary.md', '--out', 'locked/report'], dir, asUser))).toBe(
      `agent-scorers report: ${path.join(dir, 'locked')}: cannot write --out there: permission denied. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test('merge --out into a read-only folder: nothing written', () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'locked'), { mode: 0o555 });
    fs.chmodSync(path.join(dir, 'locked'), 0o555);
    const before = snapshot(dir);
    expect(refused(cli(['report', 'merge', 's1.json', 's2.json', 's3.json', '--out', 'locked/whole.json'], dir, asUser))).toBe(
      `agent-scorers report merge: ${path.join(dir, 'locked')}: cannot write --out there: permission denied. Nothing was written.`,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

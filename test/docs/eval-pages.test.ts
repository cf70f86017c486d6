/**
 * The eval pages (Evals in CI, then Reports, then Judge cache), walked as a new user walks them: in an
 * empty project folder, the package installed from its `npm pack` tarball with the install lines the
 * pages give, every block in the order a reader meets it (a titled block is a file the reader writes,
 * a `sh` block commands the reader types, a CI workflow the commands CI runs), then what no command ran:
 * each test file with Vitest, each other file and each untitled snippet with `node`. After each page,
 * `tsc` checks the folder with the `tsconfig.json` the pages give.
 *
 * Nothing here knows the pages' samples: a sample added to a page is walked too. Nothing is added that
 * a page does not say, so a sample that works only with a step the page leaves out fails the walk.
 * Models: every `fetch` to OpenAI is answered by test/helpers/openai-mock.mjs (preloaded into each
 * process), with a made-up key and no network; every request is logged for the assertions below.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO, stripAnsi } from '../helpers/hosts.js';
import { packPackage } from '../helpers/pack.js';
import { samplePages } from '../helpers/samples.js';
import { walkSteps, type Step } from '../helpers/walk.js';

/** The pages, in the order the docs lead a reader through them. */
const PAGES = ['docs/guide/evals-in-ci.md', 'docs/guide/reports.md', 'docs/guide/judge-cache.md'];
const MOCK = pathToFileURL(path.join(REPO, 'test/helpers/openai-mock.mjs')).href;

// The pages ask for Node 22.13 (`@mastra/core` 1.x) and run `.ts` files with `node`, which strips types
// from Node 22.18. CI runs this on Node 24 and 26.
const [major, minor] = process.versions.node.split('.').map(Number);
const tooOld = major < 22 || (major === 22 && minor < 18)
  ? `Node ${process.versions.node}: the eval pages need Node 22.18 or later (@mastra/core 1.x asks for 22.13, and node runs .ts files from 22.18); CI runs this walk on Node 24 and 26`
  : undefined;
if (tooOld) console.warn(`eval pages walk skipped: ${tooOld}`);

interface Ran {
  step: Step;
  code: number | null;
  output: string;
  /** Lines of the model log this command added. */
  requests: { path?: string; schema?: boolean; prompt?: string; blocked?: string }[];
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a reader's shell: this Node first on PATH, nothing of the test runner's own. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|VITE_|npm_|NODE_OPTIONS$|NODE_ENV$|TEST$|CI$|AGENT_SCORERS_)/.test(key)) env[key] = value;
  }
  return { ...env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: stripAnsi(output) }));
  });
}

/** Every file of the project but node_modules and .git, with a hash of its content. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full).split(path.sep).join('/');
    if (!entry.isFile() || /^(node_modules|\.git)\//.test(rel)) continue;
    files.set(rel, crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex'));
  }
  return files;
}

/** Relative module specifiers a sample imports, resolved against its own path. */
function importsOf(file: string, code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])));
  }
  return found;
}

const isTest = (file: string) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file);
/** Files the reader does not run: declarations, data, configs the host reads, and the scorer files the plugin reads. */
const notRun = (file: string) => /\.d\.[cm]?ts$|\.jsonc?$|(^|\/)[^/]*\.config\.[cm]?[jt]s$|^src\/mastra\/agents\//.test(file);

test('every page that runs a .ts file with node says from which Node, and what to run before it', () => {
  const pages = samplePages(REPO);
  const found: string[] = [];
  const missing: string[] = [];
  for (const page of pages) {
    const markdown = fs.readFileSync(path.join(REPO, page), 'utf8');
    const runs = walkSteps(page, markdown).filter((s) => s.kind === 'command' && /(^|\s)node\s+(\S+\s+)*?\S+\.[cm]?ts(\s|$)/.test(s.command));
    if (runs.length === 0) continue;
    found.push(page);
    if (!markdown.includes('22.18') || !/npx tsx\b/.test(markdown)) missing.push(`${page}:${runs[0].block.line}`);
  }
  expect(found).toContain('docs/guide/reports.md');
  expect(missing, 'pages that run `node file.ts` without saying that Node 22.18 strips types and `npx tsx` runs it before').toEqual([]);
});

test('a page becomes steps: files by title, snippets, shell lines and CI steps with their environment, in order', () => {
  const page = [
    '```sh',
    'npm install agent-scorers   # the package',
    'OPENAI_API_KEY=sk-... npx vitest run \\',
    '  evals',
    '```',
    '```ts [evals/a.ts]',
    'export const a = 1;',
    '```',
    '```ts',
    "console.log('snippet');",
    '```',
    '```txt',
    'output, not a step',
    '```',
    '```yaml',
    'jobs:',
    '  evals:',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - run: node evals/a.ts',
    '        env:',
    '          AGENT_SCORERS_JUDGE_CACHE: replay',
    '      - run: |',
    '          npx agent-scorers report r.json',
    '          echo done',
    '```',
    '```yaml',
    'evals:',
    '  image: node:24',
    '  script:',
    '    - npm ci',
    '  variables:',
    '    A: "1"',
    '```',
  ].join('\n');
  const steps = walkSteps('docs/guide/x.md', page).map((s) =>
    s.kind === 'file' ? [s.block.line, s.file, s.snippet] : [s.block.line, s.command, s.env, s.ci]);
  expect(steps).toEqual([
    [1, 'npm install agent-scorers', {}, false],
    [1, 'OPENAI_API_KEY=sk-... npx vitest run evals', { OPENAI_API_KEY: 'sk-...' }, false],
    [6, 'evals/a.ts', false],
    [9, 'x-sample-1.ts', true],
    [15, 'node evals/a.ts', { AGENT_SCORERS_JUDGE_CACHE: 'replay' }, true],
    [15, 'npx agent-scorers report r.json', {}, true],
    [15, 'echo done', {}, true],
    [27, 'npm ci', { A: '1' }, true],
  ]);
});

describe.skipIf(tooOld !== undefined)(`the eval pages, walked as a new user walks them${tooOld ? `: skipped, ${tooOld}` : ''}`, () => {
  test('every sample, in order, installed from the tarball, type-checked and run with mock models', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-walk-')));
    made.push(root);
    const app = path.join(root, 'app');
    const log = path.join(root, 'model-requests.jsonl');
    fs.mkdirSync(app);
    fs.writeFileSync(log, '');
    const { tarball } = await packPackage(root);

    // The reader's empty project: a package.json and a git repository, nothing else.
    fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'weather-app', version: '1.0.0', private: true }, null, 2)}\n`);
    expect((await sh('git init -q && git config user.email you@example.com && git config user.name You', app, shellEnv({}))).code).toBe(0);

    const ran: Ran[] = [];
    const passedTests = new Set<string>();
    const runFiles = new Set<string>();
    const written = new Map<string, Extract<Step, { kind: 'file' }>>();
    const readLog = () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));

    const runCommand = async (step: Step, command: string, env: Record<string, string>, ci: boolean): Promise<Ran> => {
      const before = readLog().length;
      const install = /^npm (install|i|add)\b/.test(command);
      const line = install
        ? `${command.replace(/(^|\s)agent-scorers(@\S*)?(?=\s|$)/g, `$1${tarball}`)} --prefer-offline --no-audit --no-fund`
        : command;
      const result = await sh(line, app, shellEnv({
        // The reader has the key the pages ask for; the mock answers, nothing leaves the machine.
        OPENAI_API_KEY: 'sk-walk-not-a-real-key',
        ...(install ? {} : { NODE_OPTIONS: `--import=${MOCK}`, AGENT_SCORERS_WALK_LOG: log }),
        ...(ci ? { CI: 'true' } : {}),
        ...env,
      }));
      for (const m of result.output.matchAll(/^\s*✓\s+(\S+\.(?:test|spec)\.[cm]?[jt]sx?)\b/gm)) passedTests.add(m[1]);
      for (const word of command.split(/\s+/)) if (written.has(word)) runFiles.add(word);
      const entry = { step, code: result.code, output: result.output, requests: readLog().slice(before) };
      ran.push(entry);
      return entry;
    };
    const where = (step: Step) => `${step.block.page}:${step.block.line}`;
    const failure = (entry: Ran, what: string) =>
      `${where(entry.step)}: ${what} exited with ${entry.code}:\n${entry.output.trim().split('\n').slice(-60).join('\n')}`;

    for (const page of PAGES) {
      const steps = walkSteps(page, fs.readFileSync(path.join(REPO, page), 'utf8'));
      expect(steps.length, `${page} has no blocks to walk`).toBeGreaterThan(0);
      for (const step of steps) {
        if (step.kind === 'file') {
          const file = path.join(app, step.file);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, step.block.code);
          written.set(step.file, step);
          continue;
        }
        // CI checks out a project that is installed already: its `npm ci` would only install it again.
        if (step.command === 'npm ci') continue;
        const entry = await runCommand(step, step.command, {}, step.ci);
        if (entry.code !== 0) expect.fail(failure(entry, `\`${step.command}\`${step.ci ? ' (a CI step)' : ''}`));
      }

      // What the page gives but no command ran: test files in Vitest, the rest with node. A snippet
      // must leave the reader's files alone: it may write only files of its own.
      const imported = new Set([...written.values()].flatMap((s) => importsOf(s.file, s.block.code)));
      for (const step of steps) {
        if (step.kind !== 'file' || written.get(step.file) !== step) continue;
        if (notRun(step.file) || imported.has(step.file) || runFiles.has(step.file) || passedTests.has(step.file)) continue;
        const before = snapshot(app);
        const command = isTest(step.file) ? `npx vitest run ${step.file}` : `node ${step.file}`;
        const entry = await runCommand(step, command, {}, false);
        if (entry.code !== 0) expect.fail(failure(entry, `\`${command}\`, the page's ${step.snippet ? 'snippet' : step.file}`));
        const after = snapshot(app);
        const changed = [...before].filter(([file, hash]) => after.has(file) && after.get(file) !== hash).map(([file]) => file);
        expect(changed, `${where(step)}: running ${step.snippet ? 'the snippet' : step.file} changed files that earlier steps wrote`).toEqual([]);
      }

      // The types, with the tsconfig.json the pages give (written above like any other file).
      expect(written.has('tsconfig.json'), `no page up to ${page} gives a tsconfig.json`).toBe(true);
      const checked = await runCommand({ kind: 'command', block: { page, line: 0, lang: 'sh', code: '' }, command: 'npx tsc', env: {}, ci: false }, 'npx tsc -p tsconfig.json', {}, false);
      expect(checked.output.trim(), `${page}: tsc -p tsconfig.json, after the page's samples`).toBe('');
      expect(checked.code).toBe(0);

      // A reader may copy one sample into a project of their own: each checks on its own too, with what it
      // imports and the project's declaration files (type augmentations can hold only because another
      // file of the project happened to load a package first).
      const declarations = [...snapshot(app).keys()].filter((file) => /\.d\.[cm]?ts$/.test(file) && !file.startsWith('dist/'));
      for (const step of steps) {
        if (step.kind !== 'file' || written.get(step.file) !== step || !/\.[cm]?ts$/.test(step.file) || /\.d\.[cm]?ts$/.test(step.file)) continue;
        const config = path.join(app, '.walk-tsconfig.json');
        fs.writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: [], files: [step.file, ...declarations] }));
        const alone = await runCommand(step, `npx tsc -p ${path.basename(config)}`, {}, false);
        fs.rmSync(config);
        expect(alone.output.trim(), `${where(step)}: ${step.file} on its own, with tsconfig.json`).toBe('');
        expect(alone.code).toBe(0);
      }
    }

    // Every test file the pages give passed in some Vitest run.
    const tests = [...written.keys()].filter(isTest);
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.filter((file) => !passedTests.has(file))).toEqual([]);

    // The models: answered by the mock only, nothing else fetched, and a replay run asked no judge.
    const requests = ran.flatMap((entry) => entry.requests);
    expect(requests.filter((r) => r.blocked)).toEqual([]);
    expect(requests.filter((r) => r.schema).length, 'judge calls (structured replies)').toBeGreaterThan(0);
    expect(requests.filter((r) => !r.schema).length, 'agent calls').toBeGreaterThan(0);
    const replays = ran.filter((entry) => entry.step.kind === 'command' && entry.step.env.AGENT_SCORERS_JUDGE_CACHE === 'replay');
    expect(replays.length).toBeGreaterThan(0);
    for (const entry of replays) {
      expect(entry.requests.filter((r) => r.schema), `${where(entry.step)}: a replay run called the judge`).toEqual([]);
    }
  }, 1_500_000);
});

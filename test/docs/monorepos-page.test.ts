/**
 * The Monorepos page as a workspace: its files written where the page puts them, each app's registry
 * declarations generated from the agents package by the real CLI (as the app's build writes them), and
 * each app type-checked with its own `tsconfig.json`: the one the page gives, or for a Next.js app, the one
 * Next writes (with `"strict": true`, as the page asks). The samples test checks every page under one
 * shared `tsconfig.json`; this checks what each app of this page sees, so a type setup the page leaves out
 * for one app (`agent-scorers/mastra` in the Next app) fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { DIST, REPO, run } from '../helpers/hosts.js';
import { walkSteps } from '../helpers/walk.js';

const PAGE = 'docs/guide/monorepos.md';
const workspace = path.join(REPO, 'test/.tmp', `monorepos-page-${process.pid}-${Date.now()}`);
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

/** The tsconfig.json that `create-next-app` writes (Next.js 16), with `strict` on. */
const NEXT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2017',
    lib: ['dom', 'dom.iterable', 'esnext'],
    allowJs: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    module: 'esnext',
    moduleResolution: 'bundler',
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: 'react-jsx',
    incremental: true,
    plugins: [{ name: 'next' }],
    paths: { '@/*': ['./src/*'] },
  },
  include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts', '.next/dev/types/**/*.ts', '**/*.mts'],
  exclude: ['node_modules'],
};

test('each app of the Monorepos page type-checks with its own tsconfig.json and the declarations its build writes', async () => {
  // The page's files, the last version of each (a title given again replaces the file, as a reader edits it).
  const files = new Map<string, string>();
  for (const step of walkSteps(PAGE, fs.readFileSync(path.join(REPO, PAGE), 'utf8'))) {
    if (step.kind === 'file' && !step.snippet) files.set(step.file, step.block.code);
  }
  for (const [file, code] of files) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), code);
  }
  // As installed in the workspace: the package resolves through its own `exports`.
  fs.mkdirSync(path.join(workspace, 'node_modules'), { recursive: true });
  fs.symlinkSync(REPO, path.join(workspace, 'node_modules/agent-scorers'), 'dir');

  const apps = [...new Set([...files.keys()].map((f) => /^(apps\/[^/]+)\//.exec(f)?.[1]).filter((a): a is string => a !== undefined))].sort();
  expect(apps).toEqual(['apps/api', 'apps/web']);
  expect([...files.keys()].some((f) => f.startsWith('packages/agents/') && f.includes('/scorers/')), 'the page gives a scorer file of the agents package').toBe(true);

  const problems: string[] = [];
  for (const app of apps) {
    const config = ['vite.config.ts', 'next.config.ts'].map((f) => `${app}/${f}`).find((f) => files.has(f));
    const agentsDir = config && /agentsDir:\s*'([^']+)'/.exec(files.get(config)!)?.[1];
    expect(agentsDir, `${app}: its config on the page sets agentsDir`).toBeDefined();
    const tsconfig = path.join(workspace, app, 'tsconfig.json');
    if (!files.has(`${app}/tsconfig.json`)) {
      expect(config, `${app}: the page gives no tsconfig.json for an app that is not a Next.js app`).toBe(`${app}/next.config.ts`);
      fs.writeFileSync(tsconfig, JSON.stringify(NEXT_TSCONFIG, null, 2));
    }
    // What the app's build writes (the Vite plugin and the Next wrapper share this generator).
    const generated = await run(process.execPath, [path.join(DIST, 'plugin/bin.js'), 'generate', '--root', app, '--agents-dir', agentsDir!], workspace);
    expect(generated.code, generated.output).toBe(0);
    // In the app's src/ when it has one, else at its root.
    expect(['src/agent-scorers.d.ts', 'agent-scorers.d.ts'].some((f) => fs.existsSync(path.join(workspace, app, f))), `${app}: its declaration file`).toBe(true);
    const checked = await run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], workspace);
    if (checked.code !== 0) problems.push(`${app}:\n${checked.output.trim()}`);
  }
  expect(problems, problems.join('\n\n')).toEqual([]);
});

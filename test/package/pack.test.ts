/**
 * `npm pack` gives a package that works when installed into another project: every entry point,
 * the types, and a real Vite build using `agent-scorers/vite` with the runtime from the tarball.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, REPO, run } from '../helpers/hosts.js';
import { npm, packPackage } from '../helpers/pack.js';
import { OFFLINE_ENV, startServer } from '../hosts/processes.js';

let project: string;
let tarball: string;

beforeAll(async () => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-pack-')));
  const packed = await packPackage(project);
  tarball = packed.tarball;
  const files = packed.files;
  expect(files).toContain('client.d.ts');
  expect(files).toContain('mastra.d.ts');
  expect(files).toContain('dist/plugin/vite.js');
  expect(files).toContain('dist/runtime/index.d.ts');
  expect(files).toContain('dist/report/index.js');
  expect(files).toContain('dist/report/index.d.ts');
  // What the inspector reads at run time (src/plugin/inspector/page.ts), built from src/plugin/inspector/.
  for (const file of ['client.js', 'page.css', 'page.html']) expect(files).toContain(`dist/plugin/inspector/${file}`);
  // Beside them only the inspector's own modules (tsc's .js and .d.ts of each): no tsconfig, no client.d.ts.
  const modules = fs
    .readdirSync(path.join(REPO, 'src/plugin/inspector'))
    .filter((f) => f.endsWith('.ts') && f !== 'client.ts')
    .flatMap((f) => [f.replace(/\.ts$/, '.js'), f.replace(/\.ts$/, '.d.ts')]);
  expect(modules).toContain('exec.js');
  expect(files.filter((f) => f.startsWith('dist/plugin/inspector/')).sort()).toEqual(
    ['client.js', 'page.css', 'page.html', ...modules].map((f) => `dist/plugin/inspector/${f}`).sort(),
  );
  // What the inspector serves into an environment that runs outside Node (a Worker), and the judge calls a Worker bundles.
  expect(files).toContain('dist/plugin/inspector/exec.js');
  expect(files).toContain('dist/runtime/ai.js');
  expect(files).toContain('LICENSE');
  expect(files).toContain('README.md');
  expect(files.filter((f) => !/^(dist\/|client\.d\.ts$|mastra\.d\.ts$|package\.json$|README\.md$|LICENSE)/.test(f))).toEqual([]);

  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
  expect(installed.code, installed.output).toBe(0);
  // The hosts and TypeScript come from this repo's install, as a user's project would have its own.
  for (const dep of ['vite', 'rollup', 'typescript', '@types/node', '@cloudflare/vite-plugin', 'wrangler']) {
    fs.mkdirSync(path.dirname(path.join(project, 'node_modules', dep)), { recursive: true });
    fs.symlinkSync(path.join(REPO, 'node_modules', dep), path.join(project, 'node_modules', dep));
  }
  write('src/mastra/agents/weather/scorers/relevance.ts', `import { createScorer } from 'agent-scorers';
export default createScorer({ id: 'relevance', description: 'Mentions the weather' }).generateScore(({ run }) =>
  JSON.stringify(run.output).includes('sun') ? 1 : 0,
);
`);
  write('src/main.ts', `import scorers, { manifest } from 'virtual:agent-scorers';
import weather from 'virtual:agent-scorers/weather';
import type { ScorerRecord } from 'agent-scorers';

const record: ScorerRecord = weather as ScorerRecord;
export { scorers, manifest, record };
`);
  write('vite.config.mjs', `import agentScorers from 'agent-scorers/vite';
export default { logLevel: 'warn', plugins: [agentScorers()], build: { ssr: 'src/main.ts', outDir: 'dist', rollupOptions: { output: { entryFileNames: 'main.js' } } } };
`);
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: ['agent-scorers/client', 'node'] },
    include: ['src'],
  }));
}, 300_000);

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

function write(file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  fs.writeFileSync(path.join(project, file), content);
}

test('the installed package carries its MIT licence, repository links and a README whose links work outside the repository', () => {
  const installed = path.join(project, 'node_modules/agent-scorers');
  const license = fs.readFileSync(path.join(installed, 'LICENSE'), 'utf8');
  expect(license.startsWith('MIT License\n\nCopyright (c) 2026 agent-scorers contributors\n')).toBe(true);
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  expect(pkg).toMatchObject({
    license: 'MIT',
    repository: { type: 'git', url: 'git+https://github.com/agent-scorers/agent-scorers.git' },
    homepage: 'https://github.com/agent-scorers/agent-scorers#readme',
    bugs: { url: 'https://github.com/agent-scorers/agent-scorers/issues' },
  });
  // A relative link (docs/public/inspector.png, playground/README.md) is dead on npm: the tarball has no such file.
  const readme = fs.readFileSync(path.join(installed, 'README.md'), 'utf8');
  const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  expect(targets.length).toBeGreaterThan(10);
  expect(targets.filter((t) => !t.startsWith('#') && !t.startsWith('https://'))).toEqual([]);
  expect(targets).toContain('https://raw.githubusercontent.com/agent-scorers/agent-scorers/main/docs/public/inspector.png');
  expect(targets).toContain('https://github.com/agent-scorers/agent-scorers/blob/main/playground/README.md');
  expect(targets).toContain('https://github.com/agent-scorers/agent-scorers/blob/main/bench/README.md');
});

test('every entry point loads from the installed package', async () => {
  const script = `
const vite = await import('agent-scorers/vite');
const rollup = await import('agent-scorers/rollup');
const rolldown = await import('agent-scorers/rolldown');
const runtime = await import('agent-scorers');
const report = await import('agent-scorers/report');
const names = ['createScorer', 'createAnswerRelevancyScorer', 'runEvals', 'mergeScorers', 'isScorer', 'isScorerEntry', 'shouldSample', 'offlineJudge'];
console.log(JSON.stringify({
  plugins: [vite.default, vite.agentScorers, rollup.default, rolldown.default].map((f) => f().name),
  runtime: names.filter((n) => typeof runtime[n] === 'function'),
  report: report.evalReport({ scores: { relevance: 1 }, summary: { totalItems: 1 }, verdict: 'passed' }, { generatedAt: null }).junit.includes('<testsuite name="relevance"'),
}));`;
  const result = await run(process.execPath, ['--input-type=module', '-e', script], project);
  expect(result.code, result.output).toBe(0);
  expect(JSON.parse(result.output.trim().split('\n').pop()!)).toEqual({
    plugins: ['agent-scorers', 'agent-scorers', 'agent-scorers', 'agent-scorers'],
    runtime: ['createScorer', 'createAnswerRelevancyScorer', 'runEvals', 'mergeScorers', 'isScorer', 'isScorerEntry', 'shouldSample', 'offlineJudge'],
    report: true,
  });
});

test('a Vite build with the installed plugin runs, with the runtime from the package', async () => {
  const built = await run(process.execPath, [path.join(project, 'node_modules/vite/bin/vite.js'), 'build'], project);
  expect(built.code, built.output).toBe(0);
  const m = await import(path.join(project, 'dist/main.js'));
  expect(Object.keys(m.scorers)).toEqual(['weather']);
  const result = await m.scorers.weather.relevance.scorer.run({ input: 'Weather?', output: 'sunny' });
  expect(result.score).toBe(1);
  expect(m.manifest.agents.weather.scorers.relevance.file).toBe('src/mastra/agents/weather/scorers/relevance.ts');
});

test('the published types check: client.d.ts, the plugin entries and the runtime', async () => {
  write('src/types-check.ts', `import agentScorers from 'agent-scorers/vite';
import rollupPlugin from 'agent-scorers/rollup';
import { resolveScorers } from 'virtual:agent-scorers';
import { evalReport, type EvalReportOptions } from 'agent-scorers/report';
import type { Plugin } from 'vite';

const plugin: Plugin = agentScorers({ manifest: true, strict: true });
const other = rollupPlugin();
const reportOptions: EvalReportOptions = { title: 'Weather', generatedAt: null };
export const check = [plugin.name, other.name, resolveScorers('weather'), evalReport({ scores: {}, summary: { totalItems: 0 } }, reportOptions).html];
`);
  const result = await run(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
});

test('the inspector works from the installed package: the page inlines its script and style from the tarball', async () => {
  const vite = await import(pathToFileURL(path.join(project, 'node_modules/vite/dist/node/index.js')).href);
  const server = await vite.createServer({ root: project, configFile: path.join(project, 'vite.config.mjs'), server: { host: '127.0.0.1', port: 0 } });
  try {
    await server.listen();
    const res = await fetch(new URL('__agent-scorers/', server.resolvedUrls.local[0]));
    expect(res.status).toBe(200);
    const html = await res.text();
    const installed = path.join(project, 'node_modules/agent-scorers/dist/plugin/inspector');
    const nonce = /<script type="module" nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(res.headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}'`);
    expect(html).toContain(`<script type="module" nonce="${nonce}">${fs.readFileSync(path.join(installed, 'client.js'), 'utf8')}</script>`);
    expect(html).toContain(`<style nonce="${nonce}">${fs.readFileSync(path.join(installed, 'page.css'), 'utf8')}</style>`);
    expect(html).toContain('<form id="run-form" novalidate>');
    const state = (await (await fetch(new URL('__agent-scorers/api/state', server.resolvedUrls.local[0]))).json()) as { manifest: { agents: object } };
    expect(Object.keys(state.manifest.agents)).toEqual(['weather']);
  } finally {
    await server.close();
  }
});

test('a Cloudflare Worker app from the tarball builds, answers under vite dev, and the inspector runs one scorer while another imports cloudflare:workers', async () => {
  // The fixture's files in a folder of the fresh project: every package resolves from the project.
  const worker = path.join(project, 'worker');
  fs.cpSync(path.join(FIXTURES, 'cloudflare-worker'), worker, { recursive: true });
  const vite = path.join(project, 'node_modules/vite/bin/vite.js');
  const built = await run(process.execPath, [vite, 'build'], worker, OFFLINE_ENV);
  expect(built.code, built.output).toBe(0);
  const out = path.join(worker, 'dist/scorers_worker');
  const sizes = fs.readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.js')).map((e) => fs.statSync(path.join(e.parentPath, e.name)).size);
  expect(sizes.length).toBeGreaterThan(0);
  expect(sizes.filter((size) => size > 200_000)).toEqual([]);

  const server = await startServer(process.execPath, [vite, 'dev', '--host', '127.0.0.1', '--port', '{port}', '--strictPort'], worker, { readyPath: '/agents' });
  try {
    expect(await (await fetch(`${server.base}/agents`)).json()).toEqual(['support', 'weather']);
    const run = async (key: string, output: string) => {
      const res = await fetch(`${server.base}/__agent-scorers/api/run`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ agent: 'weather', key, input: 'q', output }),
      });
      return { status: res.status, body: (await res.json()) as { score?: number; error?: string } };
    };
    expect(await run('length', 'x'.repeat(80))).toMatchObject({ status: 200, body: { score: 0.5 } });
    // greeting.ts imports cloudflare:workers and reads the Worker's vars: it ran inside the Worker.
    expect(await run('greeting', 'hello there')).toMatchObject({ status: 200, body: { score: 1 } });
  } finally {
    await server.stop();
  }
}, 300_000);

// Bundle sizes: what an app's build carries because of this package, with and without a judge model.
// Run after `npm run build`:  node bench/bundle-size.mjs [--package <dir>] [--no-ai-import] [--no-write]
//
// Four apps, each built with the real Vite 8 CLI in a fresh process, `ai` and `@ai-sdk/openai`
// installed (this repository's node_modules):
//   node         a Node server bundled whole (`vite build --ssr`, `ssr.noExternal: true`), as for a
//                deploy without node_modules; 3 agents x 3 scorers that call no model
//   node+judge   the same, one scorer with a judge (`openai('gpt-4o-mini')`), and `import 'agent-scorers/ai'`
//   node+judge-rt the same without that import: `ai` is loaded from node_modules at run time
//   worker       the same agents in a Cloudflare Worker (`@cloudflare/vite-plugin`)
//   worker+judge the Worker with the judge and `import 'agent-scorers/ai'`
// Every emitted .js file is listed with its size and gzip size; results go to bench/bundle-sizes.json.
// `--package <dir>` builds against another checkout of this package (its package.json and dist/),
// e.g. the previous commit's, to see what a change did; `--no-ai-import` leaves out the
// `agent-scorers/ai` import (a package from before that entry existed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const REPO = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const PACKAGE = path.resolve(option('--package') ?? REPO);
const WRITE = !args.includes('--no-write');
const AI_IMPORT = args.includes('--no-ai-import') ? '' : "import 'agent-scorers/ai';\n";
const TMP = path.join(REPO, 'bench/.tmp/bundles');
const VITE = path.join(REPO, 'node_modules/vite/bin/vite.js');

const SCORER = (id) => `import { createScorer } from 'agent-scorers';

export default createScorer({ id: ${JSON.stringify(id)}, description: 'Prefers short answers' }).generateScore(({ run }) =>
  Math.min(1, 40 / Math.max(String(run.output).length, 1)),
);
`;
const JUDGED = `import { openai } from '@ai-sdk/openai';
import { createScorer } from 'agent-scorers';

export default createScorer({ id: 'judged', description: 'A judge explains the score', judge: { model: openai('gpt-4o-mini'), instructions: 'You explain scores.' } })
  .generateScore(() => 1)
  .generateReason({ description: 'Why', createPrompt: ({ score }) => 'Explain the score ' + score + '.' });
`;
const NODE_SERVER = (judge, aiImport) => `${judge && aiImport ? AI_IMPORT : ''}import { createServer } from 'node:http';
import scorers from 'virtual:agent-scorers';

createServer((req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(Object.keys(scorers)));
}).listen(Number(process.env.PORT ?? 3000));
`;
const WORKER = (judge) => `${judge ? AI_IMPORT : ''}import scorers from 'virtual:agent-scorers';

export default {
  async fetch(): Promise<Response> {
    return Response.json(Object.keys(scorers));
  },
};
`;

const APPS = {
  node: { judge: false, worker: false },
  'node+judge': { judge: true, worker: false },
  'node+judge-rt': { judge: true, worker: false, aiImport: false },
  worker: { judge: false, worker: true },
  'worker+judge': { judge: true, worker: true },
};

function write(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

function project(name, { judge, worker, aiImport = true }) {
  const dir = path.join(TMP, name.replace('+', '-'));
  fs.rmSync(dir, { recursive: true, force: true });
  const files = { 'package.json': JSON.stringify({ name: `bundle-${name.replace('+', '-')}`, private: true, type: 'module' }) };
  for (const agent of ['weather', 'support', 'travel']) {
    for (const key of ['brevity', 'length', 'tone']) files[`src/mastra/agents/${agent}/scorers/${key}.ts`] = SCORER(`${agent}-${key}`);
  }
  if (judge) files['src/mastra/agents/weather/scorers/judged.ts'] = JUDGED;
  if (worker) {
    files['vite.config.ts'] = `import { cloudflare } from '@cloudflare/vite-plugin';
import agentScorers from 'agent-scorers/vite';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [agentScorers({ dts: false }), cloudflare()], build: { sourcemap: false } });
`;
    files['wrangler.jsonc'] = JSON.stringify({ name: 'bench-worker', main: './src/worker.ts', compatibility_date: '2026-10-01', compatibility_flags: ['nodejs_compat'] });
    files['src/worker.ts'] = WORKER(judge);
  } else {
    files['vite.config.ts'] = `import agentScorers from 'agent-scorers/vite';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [agentScorers({ dts: false })], ssr: { noExternal: true }, build: { ssr: 'src/server.ts', outDir: 'dist' } });
`;
    files['src/server.ts'] = NODE_SERVER(judge, aiImport);
  }
  write(dir, files);
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(PACKAGE, path.join(dir, 'node_modules/agent-scorers'), 'dir');
  return dir;
}

function build(dir) {
  const result = spawnSync(process.execPath, [VITE, 'build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', NO_COLOR: '1', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
  });
  if (result.status !== 0) throw new Error(`vite build failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
  const out = path.join(dir, 'dist');
  return fs
    .readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.m?js$/.test(e.name))
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const code = fs.readFileSync(file);
      return { file: path.relative(out, file), bytes: code.length, gzip: gzipSync(code).length, aiSdk: code.includes('vercel.ai.error') };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

const kB = (n) => (n / 1000).toFixed(1);
const rows = [];
for (const [name, app] of Object.entries(APPS)) {
  const files = build(project(name, app));
  const total = files.reduce((n, f) => n + f.bytes, 0);
  const gzip = files.reduce((n, f) => n + f.gzip, 0);
  rows.push({ app: name, files, total, gzip });
  console.log(`${name.padEnd(14)} ${String(files.length).padStart(2)} files  ${kB(total).padStart(7)} kB  gzip ${kB(gzip).padStart(6)} kB  largest ${files[0].file} ${kB(files[0].bytes)} kB${files.some((f) => f.aiSdk) ? '  (AI SDK code)' : ''}`);
  for (const f of files.slice(1)) console.log(`${''.padEnd(25)}${f.file} ${kB(f.bytes)} kB`);
}
if (WRITE) {
  const record = { date: new Date().toISOString(), node: process.version, package: path.relative(REPO, PACKAGE) || '.', rows };
  fs.writeFileSync(path.join(REPO, 'bench/bundle-sizes.json'), `${JSON.stringify(record, null, 2)}\n`);
}

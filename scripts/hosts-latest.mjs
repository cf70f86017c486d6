#!/usr/bin/env node
// `npm run hosts:latest`: the host tests of today's majors again, with each host's `latest` from the
// registry instead of the versions the fixtures pin. A new major of a host shows up here as a red line
// with the host's name, before a user meets it. Not part of `npm test`: the pinned tests say whether a
// change broke something; this says whether the world moved. Exits 1 when any line is red.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
const TMP = path.join(REPO, 'test/.tmp/hosts-latest');

/** Each host: the test file that builds, serves, type-checks and runs dev on its fixture. */
const HOSTS = [
  ['SvelteKit', 'test/hosts/sveltekit3.test.ts', 'sveltekit3'],
  ['Astro', 'test/hosts/astro7.test.ts', 'astro7'],
  ['React Router', 'test/hosts/react-router8.test.ts', 'react-router8'],
  ['TanStack Start', 'test/hosts/tanstack-start.test.ts', 'tanstack-start'],
  ['Next.js', 'test/hosts/next16.test.ts', 'next16'],
  ['Vitest and TypeScript', 'test/hosts/vitest5.test.ts', 'vitest5'],
];

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

fs.rmSync(TMP, { recursive: true, force: true });
fs.mkdirSync(TMP, { recursive: true });

// The tests run against dist/ and the packed tarball: build first, as `npm test` does.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const report = path.join(TMP, 'vitest.json');
const started = Date.now();
spawnSync(
  process.execPath,
  [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', ...HOSTS.map(([, file]) => file), '--reporter=json', `--outputFile=${report}`],
  { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, AGENT_SCORERS_HOSTS: 'latest' } },
);
const results = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')).testResults : [];

let red = 0;
console.log(`\nHosts at their latest versions (${Math.round((Date.now() - started) / 1000)} s):`);
for (const [name, file, fixture] of HOSTS) {
  const result = results.find((r) => path.relative(REPO, r.name) === file);
  const versionsFile = path.join(TMP, `${fixture}.json`);
  const versions = fs.existsSync(versionsFile)
    ? Object.entries(JSON.parse(fs.readFileSync(versionsFile, 'utf8'))).map(([pkg, version]) => `${pkg}@${version}`).join(', ')
    : 'not installed';
  const failed = (result?.assertionResults ?? []).filter((t) => t.status === 'failed');
  if (result && result.status === 'passed' && failed.length === 0) {
    console.log(`${paint(32, 'green')}  ${name} (${versions})`);
    continue;
  }
  red++;
  // The first failing check, and the first line of what it said: enough to know where to look.
  const first = failed[0];
  const why = first ? `${[...(first.ancestorTitles ?? []), first.title].join(' > ')}: ${String(first.failureMessages?.[0] ?? '').split('\n')[0]}` : String(result?.message ?? 'no result').split('\n')[0];
  console.log(`${paint(31, 'red')}    ${name} (${versions}): ${why}`);
}
console.log(red === 0 ? '\nEvery host passes at its latest version.' : `\n${red} of ${HOSTS.length} hosts fail at their latest version; run the named test file with AGENT_SCORERS_HOSTS=latest to see all of it.`);
process.exit(red === 0 ? 0 : 1);

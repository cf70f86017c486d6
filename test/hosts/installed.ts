/**
 * Host fixtures with a package.json of their own: today's majors cannot sit beside the ones before as
 * the repository's devDependencies, so each such fixture is copied to test/.tmp and installed there with
 * npm, with this package from its `npm pack` tarball, as a user's project gets it. One install per test
 * file, shared by its tests; the time it took is printed.
 *
 * `AGENT_SCORERS_HOSTS=latest` (set by `npm run hosts:latest`) installs the `latest` of every package
 * the fixture lists under `hostPackages`, instead of its pinned version: the same checks, against the
 * majors a user would get tomorrow.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prepare, REPO } from '../helpers/hosts.js';
import { npm, packPackage } from '../helpers/pack.js';
import { extractBlocks } from '../helpers/samples.js';

let packed: Promise<string> | undefined;
const packDir = path.join(REPO, 'test/.tmp', `pack-installed-${process.pid}`);
/** The tarball, packed once per test file (each file has a process of its own). */
function tarball(): Promise<string> {
  packed ??= (async () => {
    const dest = packDir;
    fs.mkdirSync(dest, { recursive: true });
    return (await packPackage(dest)).tarball;
  })();
  return packed;
}

export const latest = process.env.AGENT_SCORERS_HOSTS === 'latest';

export interface Installed {
  dir: string;
  /** What npm installed of each host package, e.g. `{ '@sveltejs/kit': '3.4.1' }`. */
  versions: Record<string, string>;
  installMs: number;
}

/** Copies `fixture` to a fresh folder under test/.tmp and runs `npm install` there. */
export async function install(fixture: string, label = fixture): Promise<Installed> {
  const dir = prepare(fixture, label);
  const file = path.join(dir, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
  const hosts: string[] = pkg.hostPackages ?? [];
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const deps: Record<string, string> | undefined = pkg[field];
    if (!deps) continue;
    if ('agent-scorers' in deps) deps['agent-scorers'] = `file:${await tarball()}`;
    if (latest) for (const name of hosts) if (name in deps) deps[name] = 'latest';
  }
  fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  const started = Date.now();
  // --prefer-offline: the npm cache answers what it holds; the registry only what it lacks. Not for
  // `latest`, whose meaning the cache may hold from an earlier day.
  const result = await npm(['install', ...(latest ? [] : ['--prefer-offline']), '--no-audit', '--no-fund', '--loglevel=error'], dir);
  const installMs = Date.now() - started;
  if (result.code !== 0) throw new Error(`npm install in ${fixture} failed:\n${result.output}`);
  const versions = Object.fromEntries(
    hosts.map((name) => [name, JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version as string]),
  );
  if (latest) {
    // For `npm run hosts:latest`, which names what it tested.
    const record = path.join(REPO, 'test/.tmp/hosts-latest', `${fixture}.json`);
    fs.mkdirSync(path.dirname(record), { recursive: true });
    fs.writeFileSync(record, JSON.stringify(versions));
  }
  console.log(`${fixture}: npm install took ${(installMs / 1000).toFixed(1)} s (${Object.entries(versions).map(([n, v]) => `${n}@${v}`).join(', ')})`);
  return { dir, versions, installMs };
}

/** Removes an installed project (a few hundred MB of node_modules) and this file's tarball. */
export function remove(app: Installed | undefined): void {
  if (app) fs.rmSync(app.dir, { recursive: true, force: true });
  fs.rmSync(packDir, { recursive: true, force: true });
}

/**
 * The script behind a package's command (`bin('@react-router/dev', 'react-router')`), from its
 * package.json: run with the current Node, as `npx` would. Files move between majors; the command does not.
 */
export function bin(dir: string, pkg: string, command?: string): string {
  const root = path.join(dir, 'node_modules', pkg);
  const field: string | Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).bin;
  const file = typeof field === 'string' ? field : field[command ?? Object.keys(field)[0]!];
  if (!file) throw new Error(`${pkg} has no command ${command}`);
  return path.join(root, file);
}

/**
 * The titled blocks of one tab of the getting-started page (`== Astro` up to the next tab), by title:
 * blocks in a language the sample check does not compile (`js`, `typescript` for packages the
 * repository does not install) are checked here, by being the fixture's own files.
 */
export function gettingStartedTab(tab: string): Map<string, string> {
  const page = fs.readFileSync(path.join(REPO, 'docs/guide/getting-started.md'), 'utf8');
  const start = page.indexOf(`\n== ${tab}\n`);
  if (start < 0) throw new Error(`no tab ${tab} in getting-started.md`);
  const end = page.indexOf('\n== ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  return new Map(extractBlocks('getting-started.md', section).filter((b) => b.title).map((b) => [b.title!, b.code]));
}

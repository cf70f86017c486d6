/**
 * Running the built package as an unprivileged user, for the permission tests: root reads and writes
 * everything, so those cases drop to `nobody` with `setpriv`.
 *
 * `nobody` must reach what it runs. A checkout often sits where only root may enter (`/root/...`, a
 * folder made by `mktemp -d`, a container's home), and so may the Node binary (`npx -y node@24` keeps
 * it under `/root/.npm`). Then the package (its `dist/` and runtime dependencies) and, where needed, the
 * Node binary are copied into a world-readable folder under the system temp folder, and run from there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, REPO } from './hosts.js';

export const DROP_PRIVILEGES = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];

export interface Unprivileged {
  /** `[command, ...args]` that runs `node` with `args` as the unprivileged user. */
  node: (args: string[]) => [string, string[]];
  /** The built package's `dist/` as that user reaches it. */
  dist: string;
  /** Removes what was staged. */
  cleanup: () => void;
}

/** How `nobody` runs this package here, or why it cannot (the reason a test prints when it skips). */
export function unprivileged(): Unprivileged | { skip: string } {
  if (process.platform !== 'linux') return { skip: `permission tests drop privileges with setpriv, which needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) {
    // Not root: file modes already apply to this user.
    return { node: (args) => [process.execPath, args], dist: DIST, cleanup: () => {} };
  }
  if (spawnSync('setpriv', ['--version']).status !== 0) return { skip: 'running as root without setpriv (util-linux), so no unprivileged user to run as' };

  if (probe(process.execPath, DIST) === undefined) return asNobody(process.execPath, DIST, () => {});

  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-unprivileged-'));
  const cleanup = () => fs.rmSync(stage, { recursive: true, force: true });
  try {
    const pkg = path.join(stage, 'node_modules/agent-scorers');
    fs.mkdirSync(pkg, { recursive: true });
    fs.cpSync(DIST, path.join(pkg, 'dist'), { recursive: true });
    fs.copyFileSync(path.join(REPO, 'package.json'), path.join(pkg, 'package.json'));
    for (const dep of runtimeDependencies()) fs.cpSync(path.join(REPO, 'node_modules', dep), path.join(stage, 'node_modules', dep), { recursive: true, dereference: true });
    let node = process.execPath;
    if (spawnSync(DROP_PRIVILEGES[0], [...DROP_PRIVILEGES.slice(1), node, '--version']).status !== 0) {
      node = path.join(stage, 'bin/node');
      fs.mkdirSync(path.dirname(node));
      // A hard link where the file system allows it (its mode already lets everyone run it), else a copy.
      try {
        fs.linkSync(process.execPath, node);
      } catch {
        fs.copyFileSync(process.execPath, node);
      }
    }
    for (const entry of [stage, ...fs.readdirSync(stage, { recursive: true, withFileTypes: true }).map((e) => path.join(e.parentPath, e.name))]) {
      const stat = fs.lstatSync(entry);
      if (stat.isDirectory()) fs.chmodSync(entry, 0o755);
      // A hard-linked Node binary keeps its own mode (changing it would change the original's).
      else if (stat.isFile() && stat.nlink === 1) fs.chmodSync(entry, stat.mode & 0o100 ? 0o755 : 0o644);
    }
    const reason = probe(node, path.join(pkg, 'dist'));
    if (reason !== undefined) {
      cleanup();
      return { skip: `the nobody user cannot run the package even from ${os.tmpdir()}: ${reason}` };
    }
    return asNobody(node, path.join(pkg, 'dist'), cleanup);
  } catch (error) {
    cleanup();
    throw error;
  }
}

const asNobody = (node: string, dist: string, cleanup: () => void): Unprivileged => ({
  node: (args) => [DROP_PRIVILEGES[0], [...DROP_PRIVILEGES.slice(1), node, ...args]],
  dist,
  cleanup,
});

/** Undefined when `nobody` can load the CLI and the runtime from `dist` with `node`; else the error. */
function probe(node: string, dist: string): string | undefined {
  const script = ['plugin/cli.js', 'runtime/index.js'].map((f) => `await import(${JSON.stringify(pathToFileURL(path.join(dist, f)).href)});`).join('');
  const result = spawnSync(DROP_PRIVILEGES[0], [...DROP_PRIVILEGES.slice(1), node, '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (result.error) return result.error.message;
  if (result.status === 0) return undefined;
  return (result.stderr || result.stdout).trim().split('\n').find((line) => /Error|EACCES|denied/.test(line)) ?? `exit ${result.status}`;
}

/** The package's `dependencies`, with theirs and the optional ones installed here (native bindings), by name. */
function runtimeDependencies(): string[] {
  const found = new Set<string>();
  const visit = (name: string) => {
    if (found.has(name) || !fs.existsSync(path.join(REPO, 'node_modules', name, 'package.json'))) return;
    found.add(name);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep);
  };
  const own = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  for (const dep of Object.keys(own.dependencies ?? {})) visit(dep);
  return [...found];
}

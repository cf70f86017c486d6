/**
 * `npm pack` of this repository, as users get it from the registry. dist/ is fresh from `npm test`'s
 * build step; --ignore-scripts keeps prepack from rebuilding it under the feet of test files running in
 * parallel.
 */
import path from 'node:path';
import { REPO, run } from './hosts.js';

export const npm = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, cwd, env);

/** Packs the package into `dest`; the tarball's path and the files it holds. */
export async function packPackage(dest: string): Promise<{ tarball: string; files: string[] }> {
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dest], REPO);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const info = JSON.parse(packed.output.slice(packed.output.indexOf('[')));
  return { tarball: path.join(dest, info[0].filename), files: info[0].files.map((f: { path: string }) => f.path) };
}

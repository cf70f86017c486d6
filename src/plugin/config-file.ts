/**
 * Loads `agent-scorers.config.{ts,mts,js,mjs}` (`export default { agentsDir, ... }`). JavaScript is
 * imported as it is. TypeScript is imported directly where Node strips types (22.18+, 24), else
 * bundled with esbuild when it is installed (Node 20), else a clear error saying what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CONFIG_FILE_NAMES = ['agent-scorers.config.ts', 'agent-scorers.config.mts', 'agent-scorers.config.js', 'agent-scorers.config.mjs'];

/** The config file in `dir`, or null. Two of them are an error, as two agent configs are. */
export function findConfigFile(dir: string): string | null {
  const found = CONFIG_FILE_NAMES.filter((name) => fs.existsSync(path.join(dir, name)));
  if (found.length > 1) throw new Error(`agent-scorers: ${dir} has ${found.length} config files (${found.join(', ')}); keep one.`);
  return found.length === 1 ? path.join(dir, found[0]) : null;
}

export async function loadConfigFile(file: string): Promise<unknown> {
  const isTs = /\.m?ts$/.test(file);
  const features = process.features as { typescript?: string | false };
  const module = !isTs || features.typescript ? await import(pathToFileURL(file).href) : await importBundled(file);
  if (!('default' in module)) throw new Error(`agent-scorers: ${file} has no default export; write \`export default { agentsDir: ... }\`.`);
  return module.default;
}

async function importBundled(file: string): Promise<Record<string, unknown>> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      `agent-scorers: cannot load ${path.basename(file)} on Node ${process.versions.node}, which does not run TypeScript; ` +
        'use Node 22.18+ or 24, install esbuild, or write the config as agent-scorers.config.mjs.',
    );
  }
  const result = await esbuild.build({ entryPoints: [file], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, logLevel: 'silent' });
  // Beside the config, so its relative and bare imports resolve from the same place.
  const temp = `${file}.${process.pid}.${Date.now()}.mjs`;
  fs.writeFileSync(temp, result.outputFiles[0].text);
  try {
    return await import(pathToFileURL(temp).href);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

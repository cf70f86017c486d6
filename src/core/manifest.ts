/** The manifest (SPEC section 6): JSON-serialisable, root-relative POSIX paths, no machine path. */
import type { DiagnosticCode, Severity } from './codes.js';

export interface ManifestScorer {
  source: 'file' | 'config';
  file: string | null;
  /** The literal sampling where statically known, else null. */
  sampling: { type: 'none' } | { type: 'ratio'; rate: number } | null;
}

export interface ManifestAgent {
  dir: string;
  config: string | null;
  configScorers: 'none' | 'record' | 'function' | 'unknown';
  /** Resolved keys known at build time, in registry order; empty for the function form. */
  scorers: Record<string, ManifestScorer>;
}

export interface Manifest {
  version: 1;
  agents: Record<string, ManifestAgent>;
  diagnostics: Array<{ code: DiagnosticCode; severity: Severity; agent: string | null; file: string | null; message: string }>;
}

const texts = new WeakMap<Manifest, string>();
/**
 * The asset's text. Memoised per manifest (a plan's is never changed after planning): a build that keeps
 * its outcome writes the same text as its asset.
 */
export function manifestJson(manifest: Manifest): string {
  let text = texts.get(manifest);
  if (text === undefined) texts.set(manifest, (text = `${JSON.stringify(manifest, null, 2)}\n`));
  return text;
}

/**
 * The manifest as the registry helper's `manifestOf` reads it: arrays only (so `__proto__` stays an
 * ordinary key), and no path it can join again: a scorer file's is its agent's folder, `scorers/` and its
 * name; a config's, the folder and its name (src/core/plan.ts `manifestAgent` joins them the same way).
 * Sampling is left out where it is null.
 */
export function compactManifest(manifest: Manifest): string {
  const agents = Object.keys(manifest.agents).map((key) => {
    const agent = manifest.agents[key];
    const scorers = Object.keys(agent.scorers).map((scorerKey) => {
      const { file, sampling } = agent.scorers[scorerKey];
      const name = file === null ? null : file.slice(`${agent.dir}/scorers/`.length);
      return sampling === null ? [scorerKey, name] : [scorerKey, name, sampling];
    });
    return [key, agent.dir, agent.config === null ? null : agent.config.slice(agent.dir.length + 1), agent.configScorers, scorers];
  });
  return JSON.stringify([manifest.version, agents, manifest.diagnostics]);
}


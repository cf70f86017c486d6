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

export const manifestJson = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

/**
 * Joins discovery with the static reading of each config and scorer file: what to import, what
 * the manifest says, and every build-time diagnostic. Pure apart from the `read` callback.
 */
import {
  agentConfigMessage,
  collisionMessage,
  functionFormMessage,
  levelOf,
  notAScorerMessage,
  notARecordMessage,
  q,
  type Diagnostic,
  type Levels,
} from './codes.js';
import { analyzeConfig, type ConfigAnalysis } from './analyze-config.js';
import type { StaticSampling } from './readings.js';
import { analyzeScorer, type ScorerFileAnalysis } from './analyze-scorer.js';
import { diagnostic, type AgentFolder, type ScanResult, type ScorerFile } from './scan.js';
import type { Manifest, ManifestAgent, ManifestScorer } from './manifest.js';

export interface PlannedFile extends ScorerFile {
  /** False when the build knows `config.scorers` overrides this file: it is then not bundled. */
  imported: boolean;
  analysis: ScorerFileAnalysis;
}

export interface AgentPlan {
  folder: AgentFolder;
  config: ConfigAnalysis | null;
  /** The config is bundled only when its `scorers` can matter. */
  importConfig: boolean;
  files: PlannedFile[];
}

export interface Plan {
  agents: AgentPlan[];
  /** The same agents by key. */
  byKey: Map<string, AgentPlan>;
  diagnostics: Diagnostic[];
  manifest: Manifest;
  folders: string[];
  /** The agents folders that do not exist (root-relative): an existing declaration file is then not rewritten. */
  missingDirs: string[];
  /** The levels the diagnostics were reported at; the generated modules pass them to the runtime. */
  levels: Levels;
}

/** `read(absolutePath)` returns a file's source; the plugin caches it by modification time. */
export type SourceReader = (absolutePath: string) => string;

/** Per-file analysis, cached by the caller; exposed so the plugin can memoise it. */
export interface Analysers {
  config: (path: string) => ConfigAnalysis;
  scorer: (path: string) => ScorerFileAnalysis;
}

export function analysersFor(read: SourceReader): Analysers {
  return {
    config: (p) => analyzeConfig(read(p), p),
    scorer: (p) => analyzeScorer(read(p), p),
  };
}

const staticValue = (s: StaticSampling) => (s.kind === 'valid' ? s.value : null);

/**
 * `levels` (from `strict` and `diagnostics`) decide each warning's reported severity: the plan's
 * diagnostics, and so the manifest and the dev inspector, hold the effective severity and leave out
 * the codes turned off.
 */
export function plan(scanned: ScanResult, analysers: Analysers, levels: Levels = {}): Plan {
  const diagnostics: Diagnostic[] = [...scanned.diagnostics];
  const agents: AgentPlan[] = [];
  const manifestAgents: Record<string, ManifestAgent> = Object.create(null);

  for (const folder of scanned.agents) {
    const { key: agent, dir } = folder;
    const configPath = folder.config && `${dir}${folder.config}`;
    const config = folder.config ? analysers.config(`${folder.path}/${folder.config}`) : null;
    const kind = config?.kind ?? 'none';
    const overridden = new Set(kind === 'record' ? config!.keys : []);
    // A function form or an Agent used as it is leaves every discovered file out of the bundle.
    const wholesale = kind === 'function' || kind === 'agent';

    const files: PlannedFile[] = folder.scorers.map((file) => {
      const analysis = analysers.scorer(file.path);
      const imported = !wholesale && !overridden.has(file.key);
      if (analysis.hasDefault && analysis.problem === null) return { key: file.key, name: file.name, path: file.path, imported, analysis };
      const rel = `${dir}scorers/${file.name}`;
      if (!analysis.hasDefault) {
        diagnostics.push(
          diagnostic('SCORER_NO_DEFAULT_EXPORT', agent, rel, `Agent ${q(agent)}: scorer ${q(file.key)} has no default export; export default a scorer or a { scorer, sampling } entry.`),
        );
      } else if (analysis.problem) {
        const what = analysis.problem.code === 'SCORER_INVALID_EXPORT' ? `the default export is ${analysis.problem.detail}, not a scorer or a { scorer, sampling } entry` : analysis.problem.detail;
        diagnostics.push(diagnostic(analysis.problem.code, agent, rel, `Agent ${q(agent)}: scorer ${q(file.key)}: ${what}.`));
      }
      return { key: file.key, name: file.name, path: file.path, imported, analysis };
    });

    if (kind === 'function' && files.length > 0) {
      diagnostics.push(diagnostic('CONFIG_SCORERS_FUNCTION', agent, configPath, functionFormMessage(agent, `${dir}scorers/`)));
    }
    if (kind === 'agent' && files.length > 0) {
      diagnostics.push(diagnostic('CONFIG_EXPORTS_AGENT', agent, configPath, agentConfigMessage(agent, folder.config!, `${dir}scorers/`)));
    }
    const invalid = new Set<string>();
    for (const problem of config?.problems ?? []) {
      const message =
        problem.key === null
          ? notARecordMessage(agent, problem.detail)
          : notAScorerMessage(agent, `config.scorers[${q(problem.key)}]`, problem.detail);
      if (problem.key !== null) invalid.add(problem.key);
      diagnostics.push(diagnostic('CONFIG_INVALID_SCORERS', agent, configPath, message));
    }
    for (const file of files) {
      if (!file.imported && kind === 'record') {
        diagnostics.push(diagnostic('SCORER_KEY_COLLISION', agent, configPath, collisionMessage(agent, file.key)));
      }
    }
    if (config && kind === 'record') {
      for (const key of config.keys) {
        const sampling = config.sampling.get(key);
        if (sampling?.kind === 'invalid' && !invalid.has(key)) {
          diagnostics.push(diagnostic('SCORER_INVALID_SAMPLING', agent, configPath, `Agent ${q(agent)}: config.scorers[${q(key)}]: ${sampling.detail}.`));
        }
      }
    }

    agents.push({ folder, config, importConfig: kind !== 'none', files });
    manifestAgents[agent] = manifestAgent(folder, config, files);
  }

  const reported = withLevels(diagnostics, levels);
  return {
    agents,
    byKey: new Map(agents.map((a) => [a.folder.key, a])),
    diagnostics: reported,
    folders: scanned.folders,
    missingDirs: scanned.missingDirs,
    manifest: { version: 1, agents: manifestAgents, diagnostics: reported.map(toManifestDiagnostic) },
    levels,
  };
}

function withLevels(diagnostics: Diagnostic[], levels: Levels): Diagnostic[] {
  const reported: Diagnostic[] = [];
  for (const d of diagnostics) {
    const level = levelOf(d.code, levels);
    if (level !== 'off') reported.push(level === d.severity ? d : { ...d, severity: level });
  }
  return reported;
}

function manifestAgent(folder: AgentFolder, config: ConfigAnalysis | null, files: PlannedFile[]): ManifestAgent {
  const kind = config?.kind ?? 'none';
  const scorers: Record<string, ManifestScorer> = Object.create(null);
  if (kind !== 'function' && kind !== 'agent') {
    for (const file of files) {
      scorers[file.key] = file.imported
        ? { source: 'file', file: `${folder.dir}scorers/${file.name}`, sampling: staticValue(file.analysis.sampling) }
        : { source: 'config', file: null, sampling: staticValue(config!.sampling.get(file.key) ?? { kind: 'unknown' }) };
    }
    if (config && kind === 'record') {
      for (const key of config.keys) {
        scorers[key] = { source: 'config', file: null, sampling: staticValue(config.sampling.get(key) ?? { kind: 'unknown' }) };
      }
    }
  }
  return {
    dir: folder.dir.slice(0, -1),
    config: folder.config && `${folder.dir}${folder.config}`,
    // The registry holds a function form resolving to the Agent's own scorers.
    configScorers: kind === 'agent' ? 'function' : kind,
    scorers,
  };
}

function toManifestDiagnostic(d: Diagnostic) {
  return { code: d.code, severity: d.severity, agent: d.agent, file: d.file, message: d.message };
}

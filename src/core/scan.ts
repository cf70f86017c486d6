/**
 * Discovery (SPEC section 4): walks the agents folders and returns what is there, sorted and with
 * POSIX paths, plus the diagnostics that the folder layout alone reveals. No bundler context.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DIAGNOSTIC_SEVERITY, q, type Diagnostic, type DiagnosticCode } from './codes.js';

export const CONFIG_NAMES = ['config.ts', 'config.mts', 'config.js', 'config.mjs'] as const;
/** Subagents nest at most this many levels below their top-level agent, as in Mastra. */
export const MAX_SUBAGENT_DEPTH = 3;

export interface ScorerFile {
  key: string;
  /** File name inside `scorers/`. */
  name: string;
  /** Absolute, POSIX; the real path when a folder on the way is a symlink. */
  path: string;
}

export interface AgentFolder {
  /** Registry key: the folder name, or the slash-joined chain for subagents. */
  key: string;
  /** Absolute real path of the agent folder, POSIX. */
  path: string;
  /** Root-relative POSIX path with a trailing slash (`src/mastra/agents/weather/`). */
  dir: string;
  /** Config file name inside the folder (`config.ts`), or null. */
  config: string | null;
  /** Scorer files in key order (UTF-16 code units). */
  scorers: ScorerFile[];
}

export interface ScanInput {
  root: string;
  /** Absolute agents folders. */
  agentsDirs: string[];
  extensions: string[];
  /** Matches a root-relative POSIX path that the user excluded. */
  isExcluded: (relativePath: string) => boolean;
  /** Lists a folder; default `listFolder`. The plugin's keeps unchanged folders' listings between builds. */
  list?: (dir: string) => readonly FolderEntry[] | null;
}

export interface ScanResult {
  agents: AgentFolder[];
  diagnostics: Diagnostic[];
  /** Every folder whose entries decide the result: watched for added and deleted files. */
  folders: string[];
  /** The agents folders that do not exist, relative to root: an existing declaration file is then kept. */
  missingDirs: string[];
}

/**
 * `path.join(dir, name)` for a normalised folder and a name read from it (never `.`, `..` or with a
 * slash): on POSIX a concatenation, which runs for every file of a scan, where `path.join` normalises again.
 */
const childPath = (dir: string, name: string): string =>
  path.sep === '/' ? (dir.endsWith('/') ? dir + name : `${dir}/${name}`) : path.join(dir, name);

/** A no-op on POSIX systems, where it runs for every folder and file of a scan. */
export const toPosix = (p: string): string => (path.sep === '/' ? p : p.split(path.sep).join('/'));

/** Root-relative POSIX path; paths outside root keep their `../` so nothing absolute leaks. */
export const relativeTo = (root: string, p: string): string => toPosix(path.relative(root, p)) || '.';

/**
 * A child's root-relative folder path with a trailing slash, from its parent's (`''` for the root):
 * concatenation, where `relativeTo` per agent made Node's path normalisation hot enough for V8 to spend
 * ~70 million instructions optimising it in a 20-agent build.
 */
const childDir = (parentDir: string, name: string): string => `${parentDir}${name}/`;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function diagnostic(code: DiagnosticCode, agent: string | null, file: string | null, message: string): Diagnostic {
  return { code, severity: DIAGNOSTIC_SEVERITY[code], agent, file, message };
}

export interface FolderEntry {
  name: string;
  isDir: boolean;
  isFile: boolean;
  isLink: boolean;
  /** The name on disk is not valid UTF-8: Node shows it with U+FFFD and cannot open it by that name. */
  unreadable?: boolean;
}

/** Directory entries with symlinks followed; null for a missing folder. */
export function listFolder(dir: string): FolderEntry[] | null {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
  return dirents.map((d) => {
    if (d.name.includes('\uFFFD') && !fs.existsSync(childPath(dir, d.name))) {
      return { name: d.name, isDir: d.isDirectory(), isFile: d.isFile(), isLink: false, unreadable: true };
    }
    if (!d.isSymbolicLink()) return { name: d.name, isDir: d.isDirectory(), isFile: d.isFile(), isLink: false };
    try {
      const stat = fs.statSync(childPath(dir, d.name));
      return { name: d.name, isDir: stat.isDirectory(), isFile: stat.isFile(), isLink: true };
    } catch {
      return { name: d.name, isDir: false, isFile: false, isLink: true }; // dangling link
    }
  });
}

const isHidden = (name: string) => name.startsWith('.') || name.startsWith('_');
/** Test files and declaration files sit in `scorers/` but are no scorers. */
const NOT_A_SCORER_FILE = /\.(?:test|spec)\.|\.d\.[mc]?ts$/;

export function scan(input: ScanInput): ScanResult {
  const { root } = input;
  const list = input.list ?? listFolder;
  const extensions = new Set(input.extensions);
  const agents: AgentFolder[] = [];
  const diagnostics: Diagnostic[] = [];
  const folders: string[] = [];
  const seenReal = new Set<string>();
  const byKey = new Map<string, AgentFolder>();

  /** Nothing is dropped silently: a name Node cannot open is an error naming the folder it is in. */
  const unreadable = (agent: string | null, shown: string, what: string): void => {
    diagnostics.push(
      diagnostic('NAME_NOT_UTF8', agent, shown, `The ${what} ${q(shown)} has a name that is not valid UTF-8, so it cannot be imported; rename it.`),
    );
  };
  const reportUnreadableDirs = (agent: string | null, shownParent: string, entries: readonly FolderEntry[]): void => {
    for (const e of entries) if (e.unreadable && e.isDir && !isHidden(e.name)) unreadable(agent, `${relativeTo(root, path.join(shownParent, e.name))}/`, 'agent folder');
  };

  /** The real path of `name` inside the real folder `parentReal`: only links need a realpath call. */
  const realOf = (parentReal: string, name: string, isLink: boolean): string =>
    isLink ? fs.realpathSync(childPath(parentReal, name)) : childPath(parentReal, name);

  /**
   * `folder` is the path as the user sees it (for keys, messages, `exclude` and the manifest); `real`
   * is where it really is (for imports and for taking one real folder once).
   */
  const readAgent = (key: string, folder: string, dir: string, real: string, depth: number, isLink: boolean): void => {
    // A link never takes a real top-level agent folder away from its own name, whatever the order.
    if (seenReal.has(real) || (isLink && topLevelReal.has(real))) return;
    seenReal.add(real);
    const realPosix = toPosix(real);
    folders.push(realPosix);
    const entries = list(real) ?? [];
    const names = new Set(entries.filter((e) => e.isFile).map((e) => e.name));

    const configs = CONFIG_NAMES.filter((n) => names.has(n));
    if (configs.length > 1) {
      diagnostics.push(
        diagnostic(
          'CONFIG_DUPLICATE',
          key,
          dir + configs[0],
          `Agent ${q(key)} has ${configs.length} config files (${configs.map((c) => dir + c).join(', ')}); keep one.`,
        ),
      );
    }

    const scorers = entries.find((e) => e.isDir && e.name === 'scorers');
    const agent: AgentFolder = {
      key,
      path: realPosix,
      dir,
      config: configs[0] ?? null,
      scorers: scorers ? readScorers(key, realOf(real, 'scorers', scorers.isLink), dir) : [],
    };
    const clash = byKey.get(key);
    if (clash) {
      diagnostics.push(
        diagnostic('AGENT_DUPLICATE', key, dir, `Agent ${q(key)} is defined twice: ${clash.dir} and ${dir}; agent keys must be unique across agentsDir.`),
      );
    } else {
      byKey.set(key, agent);
      agents.push(agent);
    }

    const subagents = entries.find((e) => e.isDir && e.name === 'subagents');
    if (subagents) {
      const subRoot = realOf(real, 'subagents', subagents.isLink);
      const shownSubRoot = childPath(folder, 'subagents');
      folders.push(toPosix(subRoot));
      const subEntries = list(subRoot) ?? [];
      reportUnreadableDirs(key, shownSubRoot, subEntries);
      for (const { name: child, isLink: childIsLink } of sortedDirs(subEntries)) {
        const childKey = `${key}/${child}`;
        if (depth + 1 > MAX_SUBAGENT_DEPTH) {
          diagnostics.push(
            diagnostic(
              'SUBAGENT_TOO_DEEP',
              childKey,
              `${relativeTo(root, path.join(shownSubRoot, child))}/`,
              `Subagent ${q(childKey)} is nested ${depth + 1} levels deep (at most ${MAX_SUBAGENT_DEPTH}); it is left out.`,
            ),
          );
          continue;
        }
        readAgent(childKey, childPath(shownSubRoot, child), childDir(`${dir}subagents/`, child), realOf(subRoot, child, childIsLink), depth + 1, childIsLink);
      }
    }
  };

  /** `scorersDir` is real; a linked scorer file is imported by its real path, so it stays one module. */
  const readScorers = (key: string, scorersDir: string, dir: string): ScorerFile[] => {
    const entries = list(scorersDir);
    if (!entries) return [];
    folders.push(toPosix(scorersDir));
    const files: ScorerFile[] = [];
    for (const entry of entries) {
      const { name } = entry;
      if (!entry.isFile || name.charCodeAt(0) === 46 || NOT_A_SCORER_FILE.test(name)) continue;
      // `path.extname` for a name that does not start with a dot: its last `.` on (a loop per character in Node).
      const dot = name.lastIndexOf('.');
      const ext = dot > 0 ? name.slice(dot) : '';
      if (!extensions.has(ext)) continue;
      if (entry.unreadable) {
        unreadable(key, `${dir}scorers/${name}`, 'scorer file');
        continue;
      }
      if (input.isExcluded(`${dir}scorers/${name}`)) continue;
      files.push({ key: name.slice(0, -ext.length), name, path: toPosix(realOf(scorersDir, name, entry.isLink)) });
    }
    files.sort((a, b) => byCodeUnit(a.key, b.key) || byCodeUnit(a.name, b.name));
    return checkKeys(key, dir, files);
  };

  /** Duplicate keys are errors (both files named); keys equal but for case are warnings. */
  const checkKeys = (agent: string, dir: string, files: ScorerFile[]): ScorerFile[] => {
    const unique: ScorerFile[] = [];
    const byLower = new Map<string, ScorerFile>();
    for (let i = 0; i < files.length; i++) {
      const file = files[i];
      if (i > 0 && files[i - 1].key === file.key) {
        const first = files[i - 1];
        diagnostics.push(
          diagnostic(
            'SCORER_DUPLICATE_KEY',
            agent,
            `${dir}scorers/${file.name}`,
            `Agent ${q(agent)}: scorer ${q(file.key)} is given by two files, ${dir}scorers/${first.name} and ${dir}scorers/${file.name}; rename or remove one.`,
          ),
        );
        continue;
      }
      const lower = file.key.toLowerCase();
      const other = byLower.get(lower);
      if (other) {
        diagnostics.push(
          diagnostic(
            'SCORER_KEY_CASE_COLLISION',
            agent,
            `${dir}scorers/${file.name}`,
            `Agent ${q(agent)}: scorers ${q(other.key)} (${dir}scorers/${other.name}) and ${q(file.key)} differ only in case; they collide on case-insensitive file systems (macOS, Windows).`,
          ),
        );
      } else {
        byLower.set(lower, file);
      }
      unique.push(file);
    }
    return unique;
  };

  const missingDirs: string[] = [];
  const topLevel = input.agentsDirs.map((agentsDir) => {
    const entries = list(agentsDir);
    const real = entries && fs.realpathSync(agentsDir);
    return { agentsDir, entries, real, dirs: entries ? sortedDirs(entries) : [] };
  });
  const topLevelReal = new Set(topLevel.flatMap((t) => t.dirs.filter((d) => !d.isLink).map((d) => childPath(t.real!, d.name))));

  for (const { agentsDir, entries, real, dirs } of topLevel) {
    if (!entries) {
      missingDirs.push(relativeTo(root, agentsDir));
      diagnostics.push(
        diagnostic('AGENTS_DIR_MISSING', null, relativeTo(root, agentsDir), `agentsDir ${q(relativeTo(root, agentsDir))} does not exist; no agents are registered from it.`),
      );
      // Watch the nearest existing parent so creating the folder later is noticed.
      folders.push(toPosix(nearestExisting(agentsDir)));
      continue;
    }
    folders.push(toPosix(agentsDir));
    reportUnreadableDirs(null, agentsDir, entries);
    const base = relativeTo(root, agentsDir);
    const baseDir = base === '.' ? '' : `${base}/`;
    for (const { name, isLink } of dirs) readAgent(name, childPath(agentsDir, name), childDir(baseDir, name), realOf(real!, name, isLink), 0, isLink);
  }

  agents.sort((a, b) => byCodeUnit(a.key, b.key));
  return { agents, diagnostics, folders: [...new Set(folders)].sort(byCodeUnit), missingDirs };
}

/**
 * Visible sub-folders, real ones before symlinks: when a link and a folder reach the same real
 * folder, the folder's own name becomes the key.
 */
function sortedDirs(entries: readonly FolderEntry[]): FolderEntry[] {
  return entries.filter((e) => e.isDir && !isHidden(e.name) && !e.unreadable).sort((a, b) => Number(a.isLink) - Number(b.isLink) || byCodeUnit(a.name, b.name));
}

function nearestExisting(p: string): string {
  let current = p;
  while (!fs.existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}

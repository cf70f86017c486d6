/**
 * Error text the inspector may send: the message only (never a stack trace), with the file that
 * failed named relative to the project root, and no absolute path. A page or a curl on the network
 * has no business learning where the project lives on disk, and a root-relative path is what the
 * user looks for in their editor anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

export interface ErrorContext {
  /** The project root (absolute). */
  root: string;
  /** The user's files the failure may come from (configs, scorer files), absolute POSIX paths. */
  files: ReadonlySet<string>;
}

export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : safeString(error);
  return text.replace(ANSI, '').trim() || 'unknown error';
}

/** `error`'s message with its file named first when known, as `src/.../config.ts: message`. */
export function describeFailure(error: unknown, context: ErrorContext): string {
  const message = withoutAbsolutePaths(messageOf(error), context.root);
  const file = failingFile(error, context);
  return file === null || message.includes(file) ? message : `${file}: ${message}`;
}

/**
 * The user's file a failure came from, relative to the root: Vite names a file it could not
 * transform (`id`, `loc.file`); a throw names it in the stack's first frame inside the project.
 * A planned config or scorer file wins over any other project file (a helper they import).
 */
export function failingFile(error: unknown, context: ErrorContext): string | null {
  const e = (error ?? {}) as { id?: unknown; loc?: { file?: unknown }; stack?: unknown };
  const candidates = [e.id, e.loc?.file, ...framesOf(e.stack)].flatMap((c) => (typeof c === 'string' ? [toPath(c)] : []));
  const root = toPosix(context.root);
  const planned = candidates.find((c) => context.files.has(c));
  const inProject = planned ?? candidates.find((c) => c.startsWith(`${root}/`) && !c.includes('/node_modules/'));
  return inProject === undefined ? null : path.posix.relative(root, inProject);
}

/** The file of each `at ...` line of a V8 stack. */
function framesOf(stack: unknown): string[] {
  if (typeof stack !== 'string') return [];
  const files: string[] = [];
  for (const line of stack.split('\n')) {
    const frame = /^\s*at (?:.*? \()?(.+?):\d+:\d+\)?\s*$/.exec(line);
    if (frame) files.push(frame[1]);
  }
  return files;
}

/** `file` relative to `root`, POSIX. */
export const relativeFile = (root: string, file: string): string => relativeTo(toPosix(root), toPath(file));

/** Vite's `/@fs/<absolute path>` ids and URLs, as the absolute path. */
const FS_PREFIX = /\/@fs(?=\/(?:[A-Za-z]:)?)/g;

/** A frame's or an id's file: no `file://`, no `/@fs`, no query, POSIX separators. */
function toPath(candidate: string): string {
  let file = candidate.startsWith('/@fs/') ? candidate.slice(4) : candidate;
  if (file.startsWith('file://')) {
    try {
      file = fileURLToPath(file);
    } catch {
      // keep as is
    }
  }
  return toPosix(file.replace(/[?#].*$/, ''));
}

const toPosix = (p: string) => p.replace(/\\/g, '/');

/**
 * Rewrites every absolute path in `text` relative to `root` (`../` when outside it). A token counts
 * as a path only when its first folder exists, so a URL path such as `/api/run` in a message stays.
 */
export function withoutAbsolutePaths(text: string, root: string): string {
  const posixRoot = toPosix(root);
  return text
    .replace(FS_PREFIX, '')
    // A file URL up to its query and `:line:col`; the query (Vite's `?t=`) goes.
    .replace(/file:\/\/(\/(?:[A-Za-z]:)?[^\s'"`()<>?#:]+)(?:[?#][^\s'"`()<>:]*)?/g, (_, file: string) => relativeTo(posixRoot, toPath(`file://${file}`)))
    .replace(/(?<![\w.:/\\-])(?:\/|[A-Za-z]:[\\/])[^\s'"`()<>:]+/g, (token) => {
      const posix = toPosix(token);
      const first = posix.match(/^(?:[A-Za-z]:)?\/[^/]+/)?.[0];
      return first !== undefined && existsFolder(first) ? relativeTo(posixRoot, posix) : token;
    });
}

function relativeTo(root: string, file: string): string {
  const relative = path.posix.relative(root, file);
  return relative === '' ? '.' : relative;
}

const folders = new Map<string, boolean>();
function existsFolder(folder: string): boolean {
  let known = folders.get(folder);
  if (known === undefined) {
    if (folders.size > 64) folders.clear();
    known = fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false;
    folders.set(folder, known);
  }
  return known;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Replaces generated files atomically, as git does its index and npm its cache entries: the new text
 * goes to a temporary file in the same folder (the same file system, so the rename cannot degrade to a
 * copy), which is then renamed over the target. A reader, or a process killed at any moment, sees the
 * old file or the new one, never half of one.
 *
 * Temporary names start with a dot and end in `.tmp` (`.agent-scorers.gen.mjs.<pid>.<random>.tmp`):
 * hidden from the scan, from editors' file lists and from every bundler's module extensions. One left
 * by a killed process is removed by the next write to the same file once that process is gone.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A file-system failure with the path it happened on and what we were doing: the CLI prints it in one line. */
export class FileError extends Error {
  constructor(
    readonly verb: 'read' | 'write' | 'load',
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot ${verb} ${file}: ${reason}`, options);
    this.name = 'FileError';
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such file or folder',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EBUSY: 'resource busy',
  EIO: 'input/output error',
};

/** The errno code of a Node file-system error, or undefined for anything else. */
export const errnoOf = (error: unknown): string | undefined =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string'
    ? (error as NodeJS.ErrnoException).code
    : undefined;

/** `permission denied` for EACCES; the code and Node's text for codes without a wording of ours. */
export function reasonOf(error: unknown): string {
  const code = errnoOf(error);
  if (code && REASONS[code]) return REASONS[code];
  const message = error instanceof Error ? error.message : String(error);
  // Node's own text is `EXAMPLE: what, syscall 'path'`: the path is printed by us already.
  return message.replace(/,\s*\w+ '.*'$/s, '');
}

/** A Node file-system error as a FileError on its own path (or `fallback`); anything else unchanged. */
export function asFileError(error: unknown, verb: FileError['verb'], fallback: string): unknown {
  if (error instanceof FileError || errnoOf(error) === undefined) return error;
  const file = (error as NodeJS.ErrnoException).path ?? fallback;
  return new FileError(verb, file, reasonOf(error), { cause: error });
}

const tempPattern = (base: string) => new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.[0-9a-z]+\\.tmp$`);

/** Whether process `pid` still runs (ours counts): a file named by a live pid may still be in use. */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM'; // alive, but another user's
  }
}

/** Temporary files of `file` left by processes that are gone (killed while writing). */
function removeStaleTemps(dir: string, base: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // the write below reports what is wrong with the folder
  }
  const pattern = tempPattern(base);
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch {
      // a folder we may not write: the write below says so
    }
  }
}

/**
 * Writes `content` to `file` unless it already holds exactly that; returns whether it wrote. Throws a
 * FileError naming the file (or its folder) on any failure, after removing its temporary file.
 */
export function replaceFile(file: string, content: string): boolean {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let existing: string | null = null;
  try {
    existing = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EISDIR') throw new FileError('write', file, 'it is a folder');
    if (code !== 'ENOENT') throw asFileError(error, 'read', file);
  }
  // Unchanged: no folder listing either, so a build that rewrites nothing costs one read per file.
  if (existing === content) return false;
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw asFileError(error, 'write', dir);
  }
  removeStaleTemps(dir, base);
  const temp = path.join(dir, `.${base}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    fs.writeFileSync(temp, content, { flag: 'wx' });
    fs.renameSync(temp, file);
  } catch (error) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // never made, or the folder refuses even that: nothing of ours is left either way
    }
    // The temporary file is ours: a failure on it is a failure to write the folder.
    const code = errnoOf(error);
    const failedOn = (error as NodeJS.ErrnoException).path === temp ? dir : file;
    throw code ? new FileError('write', failedOn, reasonOf(error), { cause: error }) : error;
  }
  return true;
}

/** A path as the user typed it or sees it: relative to `cwd` when inside it, else absolute. */
export function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/**
 * The one line printed for a failure that is not a diagnostic: the path and the reason, never a stack
 * (`agent-scorers: cannot read src/mastra/agents/weather/scorers: permission denied`).
 */
export function failureLine(error: unknown, cwd: string): string {
  const failure = asFileError(error, 'read', cwd);
  if (failure instanceof FileError) return `agent-scorers: cannot ${failure.verb} ${shownPath(failure.file, cwd)}: ${failure.reason}`;
  const message = (failure instanceof Error ? failure.message : String(failure)).trim().split('\n')[0];
  return message.startsWith('agent-scorers: ') ? message : `agent-scorers: ${message}`;
}

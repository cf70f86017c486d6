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

const isFile = (file: string): boolean => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

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

/** A file written beside its target, not yet in place: `commit` renames it over, `abort` removes it. */
export interface StagedFile {
  readonly file: string;
  commit(): void;
  abort(): void;
}

/**
 * The file a path writes to: a symbolic link's target (followed to the end), so that a link stays a
 * link, as a shell's `>` writes through one; renaming over the link would replace the link itself
 * (`/dev/stdout` as root, a file in `/dev`). A dangling link is the path itself.
 */
function writtenPath(file: string): string {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.realpathSync(file) : file;
  } catch {
    return file;
  }
}

/**
 * What `file` holds now, or null when it is not there. Opened without waiting (a FIFO's open would
 * wait for a writer) and refused unless it is a regular file: a FIFO or a device would never end.
 */
function readExisting(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = errnoOf(error);
    // Not there, or a file where one of its folders should be: making the folder says which.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'EISDIR') throw new FileError('write', file, 'it is a folder');
    throw asFileError(error, 'read', file);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new FileError('write', file, 'it is a folder');
    if (!stat.isFile()) throw new FileError('write', file, 'it is not a regular file (a FIFO or a device)');
    return fs.readFileSync(fd, 'utf8');
  } catch (error) {
    throw asFileError(error, 'read', file);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `content` beside `file` in a temporary file, ready to be renamed over it; null when `file`
 * already holds exactly that. Throws a FileError naming the file (or its folder) on any failure,
 * after removing what it made: its temporary file and any folder it created on the way.
 */
export function stageFile(given: string, content: string): StagedFile | null {
  const file = writtenPath(given);
  const dir = path.dirname(file);
  const base = path.basename(file);
  const existing = readExisting(file);
  // Unchanged: no folder listing either, so a build that rewrites nothing costs one read per file.
  if (existing === content) return null;
  let created: string | undefined;
  try {
    created = fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      // A file where a folder must go: name that file, not the folder that could not be made.
      for (let at = dir; path.dirname(at) !== at; at = path.dirname(at)) {
        if (isFile(at)) throw new FileError('write', file, `${at} is a file, not a folder`, { cause: error });
      }
    }
    throw asFileError(error, 'write', dir);
  }
  removeStaleTemps(dir, base);
  const temp = path.join(dir, `.${base}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const abort = () => {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // never made, or the folder refuses even that: nothing of ours is left either way
    }
    // The folders made on the way go too, innermost first, each only while empty (never anyone else's file).
    for (let folder = dir; created !== undefined; folder = path.dirname(folder)) {
      try {
        fs.rmdirSync(folder);
      } catch {
        break;
      }
      if (folder === created) break;
    }
  };
  // The temporary file is ours: a failure on it is a failure to write the folder.
  const failure = (error: unknown) => {
    const code = errnoOf(error);
    const failedOn = (error as NodeJS.ErrnoException).path === temp ? dir : file;
    return code ? new FileError('write', failedOn, reasonOf(error), { cause: error }) : error;
  };
  try {
    fs.writeFileSync(temp, content, { flag: 'wx' });
  } catch (error) {
    abort();
    throw failure(error);
  }
  return {
    file,
    commit: () => {
      try {
        fs.renameSync(temp, file);
      } catch (error) {
        abort();
        throw failure(error);
      }
    },
    abort,
  };
}

/**
 * Writes `content` to `file` unless it already holds exactly that; returns whether it wrote. Throws a
 * FileError naming the file (or its folder) on any failure, after removing its temporary file.
 */
export function replaceFile(file: string, content: string): boolean {
  const staged = stageFile(file, content);
  staged?.commit();
  return staged !== null;
}

/**
 * Writes a set of files, all or none as far as the file system allows: every new text goes to its
 * temporary file first, and only when all of them are written is each renamed over its target. A
 * failure before the renames (a full disk, a folder that refuses) removes every temporary file and
 * leaves every target as it was; a rename, the one step left, fails only when the folder changes
 * under it. Returns the files whose content changed.
 */
export function replaceFiles(files: ReadonlyArray<{ file: string; content: string }>): string[] {
  const staged: StagedFile[] = [];
  try {
    for (const { file, content } of files) {
      const one = stageFile(file, content);
      if (one) staged.push(one);
    }
  } catch (error) {
    for (const one of staged) one.abort();
    throw error;
  }
  for (const [i, one] of staged.entries()) {
    try {
      one.commit();
    } catch (error) {
      for (const rest of staged.slice(i + 1)) rest.abort();
      throw error;
    }
  }
  return staged.map((one) => one.file);
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

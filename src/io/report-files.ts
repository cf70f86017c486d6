/**
 * The report CLI's files: the inputs it reads (results, a baseline, shards) and the outputs it writes
 * (the HTML page, the JUnit XML, the summary, the comparison, a merged result). Everything that can
 * refuse is checked before the first byte is written, so a refused command leaves every file as it
 * was: an output that names an input (by any spelling: relative, absolute, through a symbolic link, a
 * hard link), an input or output that is not a regular file (a FIFO would block the read forever, a
 * device never ends), two outputs that name one file, and a folder that cannot be written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { errnoOf, reasonOf, replaceFiles } from './write-file.js';

/** A refusal: printed as one line and exit 2 by the CLI. */
export class ReportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportFileError';
  }
}

/** What a file is, for a message, when it is not a regular file or a folder. */
function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** An input as given (`label`: `the result file`, `the baseline`, `shard s2.json`). */
export interface ReportInputFile {
  file: string;
  label: string;
}

/** An output and the flag that named it (`--json`). */
export interface ReportOutputFile {
  file: string;
  flag: string;
}

/** The stat of a regular input file, following links; a refusal naming it otherwise. */
function statInput(file: string): fs.Stats {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = errnoOf(error);
    throw new ReportFileError(`${file}: ${code === 'ENOENT' ? 'no such file' : reasonOf(error)}`);
  }
  if (stat.isDirectory()) throw new ReportFileError(`${file}: is a folder, not a file`);
  if (!stat.isFile()) throw new ReportFileError(`${file}: is ${kindOf(stat)}, not a file: give a saved result file`);
  return stat;
}

/**
 * Reads an input as text. Its type is looked at before it is opened, so a FIFO is never opened (the
 * open itself would wait for a writer), and again on the open file, in case it was swapped meanwhile.
 */
export function readInputFile(file: string): string {
  const before = statInput(file);
  let fd: number;
  try {
    // O_NONBLOCK: were the path swapped for a FIFO after the check, the open returns at once.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new ReportFileError(`${file}: ${reasonOf(error)}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.ino !== before.ino || stat.dev !== before.dev) throw new ReportFileError(`${file}: changed while it was being opened; try again`);
    return fs.readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof ReportFileError) throw error;
    throw new ReportFileError(`${file}: ${reasonOf(error)}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** The path a file has once every symbolic link is followed; for a file not there yet, its folder's. */
function realPathOf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realPathOf(parent), path.basename(file));
  }
}

/** The nearest folder on `file`'s path that exists: where a missing output folder gets created. */
function nearestExisting(dir: string): { dir: string; stat: fs.Stats } {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      return { dir: at, stat: fs.statSync(at) };
    } catch (error) {
      // Missing, or under a file (ENOTDIR): the walk up finds what is in the way.
      const code = errnoOf(error);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(at) === at) throw new ReportFileError(`${at}: ${reasonOf(error)}. Nothing was written.`);
    }
  }
}

/**
 * Refuses the command, with one line naming the path, when any output cannot be written or would
 * overwrite an input. Checks every input is a regular file first. Writes nothing.
 */
export function checkReportFiles(inputs: ReadonlyArray<ReportInputFile>, outputs: ReadonlyArray<ReportOutputFile>): void {
  const byIdentity = new Map<string, ReportInputFile>();
  const byRealPath = new Map<string, ReportInputFile>();
  for (const input of inputs) {
    const stat = statInput(input.file);
    byIdentity.set(`${stat.dev}:${stat.ino}`, input);
    byRealPath.set(realPathOf(input.file), input);
  }
  const claimed = new Map<string, ReportOutputFile>();
  const checkedFolders = new Set<string>();
  for (const output of outputs) {
    const { file, flag } = output;
    const real = realPathOf(file);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(file);
    } catch (error) {
      const code = errnoOf(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new ReportFileError(`${file}: cannot write ${flag}: ${reasonOf(error)}. Nothing was written.`);
    }
    // One file however it is spelled: the same real path, or the same file on disk (a hard link).
    const input = byRealPath.get(real) ?? (stat ? byIdentity.get(`${stat.dev}:${stat.ino}`) : undefined);
    if (input) {
      const also = path.resolve(input.file) === path.resolve(file) ? '' : ` (${input.file})`;
      throw new ReportFileError(`${file}: ${flag} names ${input.label}${also}, which would be overwritten; give another path. Nothing was written.`);
    }
    const other = claimed.get(real);
    if (other) throw new ReportFileError(`${file}: ${flag} names the file ${other.flag} writes; give another path. Nothing was written.`);
    claimed.set(real, output);
    if (stat?.isDirectory()) throw new ReportFileError(`${file}: ${flag} names a folder; give a file path. Nothing was written.`);
    if (stat && !stat.isFile()) throw new ReportFileError(`${file}: ${flag} names ${kindOf(stat)}, not a file; give a file path. Nothing was written.`);
    const folder = path.dirname(file);
    if (checkedFolders.has(folder)) continue;
    checkedFolders.add(folder);
    const existing = nearestExisting(folder);
    if (!existing.stat.isDirectory()) throw new ReportFileError(`${existing.dir}: is a file, not a folder, so ${flag} cannot write ${file}. Nothing was written.`);
    try {
      // Write and search: to put a file into the folder, or to make the missing folders under it.
      fs.accessSync(existing.dir, fs.constants.W_OK | fs.constants.X_OK);
    } catch (error) {
      throw new ReportFileError(`${existing.dir}: cannot write ${flag} there: ${reasonOf(error)}. Nothing was written.`);
    }
  }
}

/**
 * Writes every output, all or none: each new text to a temporary file beside its target first, then
 * each renamed over its target (a reader sees the old file or the new, never half of one).
 */
export function writeReportFiles(files: ReadonlyArray<{ file: string; content: string }>): void {
  replaceFiles(files);
}

/**
 * The judge cache's file: one store per file per process, loaded once, written whole through a
 * temporary file and a rename (a killed write leaves the previous file), sorted by key, serialised.
 * Writers in other threads or processes (Vitest workers recording one file) take turns through a lock
 * file, and each merges what is on disk first, so no record is lost. A lock is taken from a writer only
 * when its process has ended, judged so that a lock just taken by a live writer is never removed (see
 * `look` and `takeOver`): two writers at once would drop each other's records.
 *
 * A paid reply must never be thrown away, so `ready()` runs before every model call that will be
 * recorded: it takes the lock for a moment (which proves the folder is writable, the lock path is a
 * file and no live writer holds it) and lets go. The lock is not held across the call: a judge call
 * takes seconds, and holding it would serialise every worker's calls. A write that fails after the
 * call anyway (the folder changed meanwhile) warns once and keeps the record in memory for the next
 * write; the caller still gets its reply.
 * `node:fs` is imported on first use, so bundles that never open a store never load it.
 */

/** One line of the cache file. `prompt` is a short preview for humans; the key decides. */
export interface JudgeCacheRecord {
  key: string;
  provider: string;
  modelId: string;
  prompt: string;
  text: string;
  finishReason: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  /**
   * The whole request as text (each message, then the call settings), so that a replay miss can show
   * where a new request differs from this one. Absent in records written by older versions, which
   * still load and replay.
   */
  fullPrompt?: string;
}


type Fs = typeof import('node:fs/promises');
type Path = typeof import('node:path');
let nodeModules: Promise<{ fs: Fs; path: Path; url: typeof import('node:url') }> | undefined;
// The specifier is built at run time so that no bundler follows it: a Workers or browser bundle
// (esbuild with platform 'neutral' or 'browser', as wrangler runs it) has no node: modules, and
// esbuild fails on a literal one even inside a lazy import().
const node = (name: string): Promise<any> => import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ `node:${name}`);
const loadNode = () =>
  (nodeModules ??= Promise.all([node('fs/promises') as Promise<Fs>, node('path') as Promise<Path>, node('url') as Promise<typeof import('node:url')>]).then(([fs, path, url]) => ({
    fs,
    path,
    url,
  })));

export interface Store {
  shown: string;
  records: Map<string, JudgeCacheRecord>;
  fileMissing: boolean;
  inflight: Map<string, Promise<JudgeCacheRecord | undefined>>;
  /**
   * Resolves when a write can happen now (see the top of this file); rejects, naming the file and the
   * reason, when it cannot. Call before asking the model for a reply that will be recorded.
   */
  ready(): Promise<void>;
  /**
   * Writes the file with every record (serialised; concurrent requests share the queued write).
   * Never rejects: false when the write failed, after one warning naming the file.
   */
  persist(): Promise<boolean>;
}

const STORES_KEY = Symbol.for('agent-scorers.judge-cache.stores');
const stores: Map<string, Promise<Store>> = ((globalThis as any)[STORES_KEY] ??= new Map());

const RECORD_FIELDS = ['key', 'provider', 'modelId', 'prompt', 'text', 'finishReason', 'usage'] as const;
const OPTIONAL_FIELDS = ['fullPrompt'] as const;
const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;
const show = (value: unknown): string => (value === undefined ? 'undefined' : JSON.stringify(value)?.slice(0, 40) ?? String(value));

/**
 * What is wrong with one parsed line, or undefined when it is a whole record. Every field is checked
 * (not only the ones a lookup needs), so a hand edit or a bad merge fails here, naming its line,
 * instead of as a TypeError when the record is replayed.
 */
function recordProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `it is ${Array.isArray(value) ? 'an array' : show(value)}, not a record`;
  const record = value as Record<string, unknown>;
  const known: readonly string[] = [...RECORD_FIELDS, ...OPTIONAL_FIELDS];
  for (const name of Object.keys(record)) if (!known.includes(name)) return `unexpected field ${JSON.stringify(name)}`;
  for (const name of RECORD_FIELDS) if (!Object.hasOwn(record, name)) return `"${name}" is missing`;
  if (typeof record.key !== 'string' || !/^[0-9a-f]{64}$/.test(record.key)) return `"key" must be a SHA-256 (64 lowercase hex digits), got ${show(record.key)}`;
  for (const name of ['provider', 'modelId', 'prompt', 'text', 'finishReason'] as const) {
    if (typeof record[name] !== 'string') return `"${name}" must be a string, got ${show(record[name])}`;
  }
  if (Object.hasOwn(record, 'fullPrompt') && typeof record.fullPrompt !== 'string') return `"fullPrompt" must be a string, got ${show(record.fullPrompt)}`;
  const usage = record.usage;
  if (usage === null || typeof usage !== 'object' || Array.isArray(usage)) return `"usage" must be { inputTokens, outputTokens, totalTokens }, got ${show(usage)}`;
  for (const name of Object.keys(usage)) if (!(USAGE_FIELDS as readonly string[]).includes(name)) return `unexpected field "usage.${name}"`;
  for (const name of USAGE_FIELDS) {
    const n = (usage as Record<string, unknown>)[name];
    if (!Object.hasOwn(usage, name)) return `"usage.${name}" is missing`;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return `"usage.${name}" must be a whole number of tokens, got ${show(n)}`;
  }
  return undefined;
}

function parseRecords(text: string, shown: string): Map<string, JudgeCacheRecord> {
  const records = new Map<string, JudgeCacheRecord>();
  // An editor may have added a byte-order mark; git on Windows may have added carriage returns (JSON.parse skips those).
  (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`agent-scorers: judge cache ${shown} line ${i + 1} is not JSON (a merge conflict?): ${line.slice(0, 80)}`);
    }
    const problem = recordProblem(value);
    if (problem) throw new Error(`agent-scorers: judge cache ${shown} line ${i + 1} is not a whole judge cache record: ${problem}`);
    const record = value as JudgeCacheRecord;
    records.set(record.key, record);
  });
  return records;
}

const serialise = (r: JudgeCacheRecord): string =>
  JSON.stringify({
    key: r.key,
    provider: r.provider,
    modelId: r.modelId,
    prompt: r.prompt,
    text: r.text,
    finishReason: r.finishReason,
    usage: { inputTokens: r.usage.inputTokens, outputTokens: r.usage.outputTokens, totalTokens: r.usage.totalTokens },
    // Last: the longest field, after what a reader of a diff looks for first.
    ...(r.fullPrompt !== undefined ? { fullPrompt: r.fullPrompt } : {}),
  });

/**
 * How long to wait for a lock held by a live writer before giving up, and how old a lock naming no
 * process must be before it is taken over (one cut short between its creation and its pid).
 * A writer holds the lock only while it writes (milliseconds), so a wait this long means something
 * is wrong. Tests shorten it.
 */
export const lockTiming = { waitMs: 10_000, staleMs: 30_000 };

/** True when `pid` names no running process (a writer killed while it held the lock). */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** A file-system failure in words, without the absolute paths Node puts in its messages. */
function why(error: unknown): string {
  switch (code(error)) {
    case 'EACCES':
    case 'EPERM':
      return `its folder is not writable (${code(error)})`;
    case 'EROFS':
      return 'its folder is on a read-only file system (EROFS)';
    case 'EISDIR':
      return 'it is a folder, not a file (EISDIR)';
    case 'ENOTDIR':
      return 'a part of its folder path is a file (ENOTDIR)';
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case undefined:
      return (error as Error)?.message ?? String(error);
    default:
      return `${code(error)}`;
  }
}

/** A reason the cache cannot be written, already in words. */
class Unwritable extends Error {}

/** What a look at a lock file found: its holder's pid when it names one, and whether that holder is gone. */
interface Holder {
  pid: number | undefined;
  abandoned: boolean;
}

/**
 * Looks at the lock file `lock` (undefined when there is none). It is abandoned when the process it
 * names has ended, or, naming none (cut short between its creation and its pid), when it is older
 * than `lockTiming.staleMs`. An abandoned verdict is confirmed by a second look after the liveness
 * check: a live holder may let go and exit between our read and the check, and a new live writer's
 * lock then sits at the path. A lock that reads the same after its holder is found gone is that
 * holder's (a process that has ended creates no lock), and only a take-over removes it.
 */
async function look(fs: Fs, lock: string, shownLock: string): Promise<Holder | undefined> {
  const seen = async () => {
    const stat = await fs.lstat(lock).catch(() => null);
    if (!stat) return undefined;
    if (!stat.isFile()) throw new Unwritable(`the lock ${shownLock} is a folder (or another non-file); remove it`);
    // Unreadable (not gone) counts as naming no process: the age decides.
    const text = await fs.readFile(lock, 'utf8').catch((error) => (code(error) === 'ENOENT' ? undefined : ''));
    return text === undefined ? undefined : { stat, text };
  };
  const first = await seen();
  if (!first) return undefined;
  const pid = Number(first.text);
  const known = Number.isInteger(pid) && pid > 0;
  const gone = known ? isDead(pid) : Date.now() - first.stat.mtimeMs > lockTiming.staleMs;
  if (!gone) return { pid: known ? pid : undefined, abandoned: false };
  const again = await seen();
  const same = again !== undefined && again.text === first.text && again.stat.ino === first.stat.ino && again.stat.mtimeMs === first.stat.mtimeMs;
  return { pid: known ? pid : undefined, abandoned: same };
}

/**
 * Removes the abandoned lock `lock`, one waiter at a time: the take-over is itself guarded by a file
 * (`<lock>.takeover`, created exclusively), and the lock is looked at again inside it. Two waiters
 * that both found the lock abandoned would otherwise both remove "it", the second removing the lock
 * a live writer took in between, and two writers would then write at once, one dropping the other's
 * records. A guard left by a waiter that ended inside it is removed the same way a lock is. False
 * when another waiter is taking over: wait for it.
 */
async function takeOver(fs: Fs, lock: string, shownLock: string): Promise<boolean> {
  const guard = `${lock}.takeover`;
  try {
    await fs.writeFile(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if (code(error) !== 'EEXIST') throw new Unwritable(why(error));
    // Another waiter is taking over (we wait for it), or ended while it did (its guard goes).
    if (!(await look(fs, guard, `${shownLock}.takeover`))?.abandoned) return false;
    await fs.rm(guard, { force: true });
    return true;
  }
  try {
    if ((await look(fs, lock, shownLock))?.abandoned) {
      await fs.rm(lock, { force: true }).catch((error) => {
        throw new Unwritable(`the lock ${shownLock} was left by a writer that is gone, and it cannot be removed (${code(error) ?? error})`);
      });
    }
    return true;
  } finally {
    await fs.rm(guard, { force: true });
  }
}

/**
 * Takes `lock` (created exclusively, holding our pid), waiting while a live writer holds it; a lock
 * whose writer is gone is taken over (see `look` and `takeOver`). Returns the release. Throws
 * `Unwritable` when the lock cannot be had: the folder refuses new files, the lock path is a folder,
 * or a live writer keeps it too long.
 */
async function acquire(fs: Fs, lock: string, shownLock: string): Promise<() => Promise<void>> {
  const start = Date.now();
  for (;;) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rm(lock, { force: true });
    } catch (error) {
      if (code(error) !== 'EEXIST') throw new Unwritable(why(error));
    }
    const holder = await look(fs, lock, shownLock);
    if (!holder) continue; // released between our two looks
    if (holder.abandoned && (await takeOver(fs, lock, shownLock))) continue;
    if (Date.now() - start > lockTiming.waitMs) {
      const wait = lockTiming.waitMs >= 1000 ? `${Math.round(lockTiming.waitMs / 1000)} s` : `${lockTiming.waitMs} ms`;
      if (holder.abandoned) throw new Unwritable(`another writer has been taking over the lock ${shownLock} for over ${wait}; remove ${shownLock}.takeover if no eval is running`);
      const who = holder.pid !== undefined ? `process ${holder.pid}, which is still running,` : 'a writer';
      throw new Unwritable(`${who} has held the lock ${shownLock} for over ${wait}; remove that file if no eval is running`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

export async function openStore(file: string | URL): Promise<Store> {
  const { fs, path, url } = await loadNode();
  const absolute = path.resolve(file instanceof URL ? url.fileURLToPath(file) : file);
  let pending = stores.get(absolute);
  if (pending) return pending;
  const shown = typeof file === 'string' ? file : path.relative(process.cwd(), absolute) || absolute;
  const lock = `${absolute}.lock`;
  const shownLock = `${shown}.lock`;
  const read = async (): Promise<Map<string, JudgeCacheRecord> | undefined> => {
    let text: string;
    try {
      text = await fs.readFile(absolute, 'utf8');
    } catch (error) {
      if (code(error) === 'ENOENT') return undefined;
      const reason = code(error) === 'EACCES' || code(error) === 'EPERM' ? `it cannot be read (${code(error)})` : why(error);
      throw Object.assign(new Error(`agent-scorers: could not read the judge cache ${shown}: ${reason}`, { cause: error }), { reason });
    }
    return parseRecords(text, shown);
  };
  pending = (async () => {
    const loaded = await read();
    const records = loaded ?? new Map<string, JudgeCacheRecord>();
    const dir = path.dirname(absolute);
    let chain: Promise<boolean> = Promise.resolve(true);
    let queued: Promise<boolean> | undefined;
    let checking: Promise<void> | undefined;

    /** Everything a write needs, checked now: the file is a file, the folder exists and takes new files, the lock can be had. */
    const check = async () => {
      try {
        const stat = await fs.stat(absolute).catch((error) => {
          if (code(error) === 'ENOENT') return null;
          throw new Unwritable(why(error));
        });
        if (stat && !stat.isFile()) throw new Unwritable('it is a folder, not a file');
        await fs.mkdir(dir, { recursive: true }).catch((error) => {
          throw new Unwritable(code(error) === 'EACCES' || code(error) === 'EPERM' ? `its folder cannot be created (${code(error)})` : why(error));
        });
        const release = await acquire(fs, lock, shownLock);
        await release();
      } catch (error) {
        const reason = error instanceof Unwritable ? error.message : why(error);
        throw new Error(`agent-scorers: cannot record judge replies in ${shown}: ${reason}. Nothing was sent to the model.`, { cause: error });
      }
    };

    const write = async () => {
      await fs.mkdir(dir, { recursive: true });
      const release = await acquire(fs, lock, shownLock);
      // Unique per write: worker threads share the pid, and each has its own copy of this module.
      const temp = path.join(dir, `.${path.basename(absolute)}.${process.pid}.${globalThis.crypto.randomUUID()}.tmp`);
      try {
        // Another thread or process may have added records since we read the file: keep them (ours win per key).
        const onDisk = await read().catch((error) => {
          // Changed under us (now a folder, or a bad line from another writer): do not write over it.
          throw new Unwritable(error.reason ?? String(error.message).replace(/^agent-scorers: /, ''));
        });
        if (onDisk) for (const [key, record] of onDisk) if (!records.has(key)) records.set(key, record);
        const lines = [...records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(serialise);
        const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
        await fs.writeFile(temp, body, 'utf8');
        await fs.rename(temp, absolute);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => {});
        throw error;
      } finally {
        await release();
      }
      store.fileMissing = false;
    };

    /** One attempt; a failure is one warning (however many callers share the write), never a lost reply. */
    const attempt = async (): Promise<boolean> => {
      try {
        await write();
        return true;
      } catch (error) {
        const reason = error instanceof Unwritable ? error.message : why(error);
        console.warn(
          `agent-scorers: could not write the judge cache ${shown}: ${reason}. The reply is used in this run; it is written with the next record, or asked for again next run.`,
        );
        return false;
      }
    };

    const store: Store = {
      shown,
      records,
      fileMissing: loaded === undefined,
      inflight: new Map(),
      ready() {
        // Concurrent misses share one check.
        return (checking ??= check().finally(() => {
          checking = undefined;
        }));
      },
      persist() {
        // A write not yet started will include every record added so far: join it instead of queueing another.
        if (queued) return queued;
        const next = chain.then(() => {
          queued = undefined;
          return attempt();
        });
        queued = next;
        chain = next;
        return next;
      },
    };
    return store;
  })();
  stores.set(absolute, pending);
  pending.catch(() => stores.delete(absolute));
  return pending;
}

/**
 * The judge cache's file: one store per file per process, loaded once, written whole through a
 * temporary file and a rename (a killed write leaves the previous file), sorted by key, serialised.
 * Writers in other threads or processes (Vitest workers recording one file) take turns through a lock
 * file, and each merges what is on disk first, so no record is lost.
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
  /** Writes the file with every record (serialised; concurrent requests share the queued write). */
  persist(): Promise<void>;
}

const STORES_KEY = Symbol.for('agent-scorers.judge-cache.stores');
const stores: Map<string, Promise<Store>> = ((globalThis as any)[STORES_KEY] ??= new Map());

function parseRecords(text: string, shown: string): Map<string, JudgeCacheRecord> {
  const records = new Map<string, JudgeCacheRecord>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let record: JudgeCacheRecord;
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`agent-scorers: judge cache ${shown} line ${i + 1} is not JSON (a merge conflict?): ${line.slice(0, 80)}`);
    }
    if (typeof record?.key !== 'string' || typeof record.text !== 'string') {
      throw new Error(`agent-scorers: judge cache ${shown} line ${i + 1} is not a record (it needs "key" and "text")`);
    }
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
  });

/** How long a lock may stay before it is taken for one left by a writer that died. */
const STALE_LOCK_MS = 30_000;
const GIVE_UP_MS = 120_000;

/** True when `pid` names no running process (a writer killed while it held the lock). */
function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes `lock` (created exclusively, holding our pid), waiting while another writer holds it; a lock
 * whose writer is gone, or that is older than STALE_LOCK_MS, is removed. Returns the release.
 */
async function acquire(fs: Fs, lock: string, shown: string): Promise<() => Promise<void>> {
  const start = Date.now();
  for (;;) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [holder, stat] = await Promise.all([fs.readFile(lock, 'utf8').catch(() => ''), fs.stat(lock).catch(() => null)]);
    const pid = Number(holder);
    if (stat && ((Number.isInteger(pid) && pid > 0 && isDead(pid)) || Date.now() - stat.mtimeMs > STALE_LOCK_MS)) {
      await fs.rm(lock, { force: true });
      continue;
    }
    if (Date.now() - start > GIVE_UP_MS) throw new Error(`agent-scorers: the judge cache ${shown} stays locked by ${lock}; remove it if no eval is running`);
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

export async function openStore(file: string | URL): Promise<Store> {
  const { fs, path, url } = await loadNode();
  const absolute = path.resolve(file instanceof URL ? url.fileURLToPath(file) : file);
  let pending = stores.get(absolute);
  if (pending) return pending;
  const shown = typeof file === 'string' ? file : path.relative(process.cwd(), absolute) || absolute;
  const read = async (): Promise<Map<string, JudgeCacheRecord> | undefined> => {
    try {
      return parseRecords(await fs.readFile(absolute, 'utf8'), shown);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  pending = (async () => {
    const loaded = await read();
    const records = loaded ?? new Map<string, JudgeCacheRecord>();
    let chain: Promise<void> = Promise.resolve();
    let queued: Promise<void> | undefined;
    const write = async () => {
      const dir = path.dirname(absolute);
      await fs.mkdir(dir, { recursive: true });
      const release = await acquire(fs, `${absolute}.lock`, shown);
      // Unique per write: worker threads share the pid, and each has its own copy of this module.
      const temp = path.join(dir, `.${path.basename(absolute)}.${process.pid}.${globalThis.crypto.randomUUID()}.tmp`);
      try {
        // Another thread or process may have added records since we read the file: keep them (ours win per key).
        const onDisk = await read();
        if (onDisk) for (const [key, record] of onDisk) if (!records.has(key)) records.set(key, record);
        const lines = [...records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(serialise);
        const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
        await fs.writeFile(temp, body, 'utf8');
        await fs.rename(temp, absolute);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => {});
        throw new Error(`agent-scorers: could not write the judge cache ${shown}: ${(error as Error).message}`, { cause: error });
      } finally {
        await release();
      }
      store.fileMissing = false;
    };
    const store: Store = {
      shown,
      records,
      fileMissing: loaded === undefined,
      inflight: new Map(),
      persist() {
        // A write not yet started will include every record added so far: join it instead of queueing another.
        if (queued) return queued;
        const next = chain.then(() => {
          queued = undefined;
          return write();
        });
        queued = next;
        chain = next.catch(() => {});
        return next;
      },
    };
    return store;
  })();
  stores.set(absolute, pending);
  pending.catch(() => stores.delete(absolute));
  return pending;
}


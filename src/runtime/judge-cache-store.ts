/**
 * The judge cache's file: one store per file per process, loaded once, written whole through a
 * temporary file and a rename (a killed write leaves the previous file), sorted by key, serialised.
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

let tempCounter = 0;

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
      // Another process may have added records since we read the file: keep them (ours win per key).
      const onDisk = await read();
      if (onDisk) for (const [key, record] of onDisk) if (!records.has(key)) records.set(key, record);
      const lines = [...records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(serialise);
      const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      const dir = path.dirname(absolute);
      await fs.mkdir(dir, { recursive: true });
      const temp = path.join(dir, `.${path.basename(absolute)}.${process.pid}.${++tempCounter}.tmp`);
      try {
        await fs.writeFile(temp, body, 'utf8');
        await fs.rename(temp, absolute);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => {});
        throw new Error(`agent-scorers: could not write the judge cache ${shown}: ${(error as Error).message}`, { cause: error });
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


/**
 * A real Vite dev server (Vite 8 or Vite 7) on a temp copy of a fixture, with the plugin from
 * `dist/`, plus helpers to change files and poll the next import until a change shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { captureLogger, DIST, poll, prepare } from '../helpers/hosts.js';

export type ViteName = 'vite8' | 'vite7';
/** `ssrLoadModule`, or (Vite 8) the `ssr` environment's own module runner. */
export type Loader = 'ssrLoadModule' | 'runner';

export const importVite = (name: ViteName): Promise<any> => (name === 'vite8' ? import('vite') : import('vite7'));
export { DIST };
export const importPlugin = async (): Promise<(options?: object) => any> =>
  (await import(pathToFileURL(path.join(DIST, 'plugin/vite.js')).href)).default;

export interface Dev {
  server: any;
  dir: string;
  agents: string;
  /** Everything the server logged (info, warn, error), colours stripped. */
  logs: string[];
  load: (id?: string) => Promise<any>;
  /** Polls `load(id)` until `check` returns true (or throws nothing); fails after `timeout` with the last value. */
  until: <T>(read: () => Promise<T>, check: (value: T) => boolean, timeout?: number) => Promise<T>;
  /** Writes a file (relative to the agents folder, or absolute), after the watcher's throttle for that path has passed. */
  write: (rel: string, content: string) => Promise<void>;
  /**
   * Resolves when the watcher reports `event` for `rel` (relative to the agents folder); call it before
   * making the change. chokidar holds each `unlink` back 100 ms (its `atomic` option) and sends the
   * ones pending together, so a test that checks only the registry can pass on an earlier event and
   * leave its own to land in the next test.
   */
  reported: (event: string, rel: string, timeout?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** chokidar drops a second `change` of one path within 50 ms of the first (its documented throttle). */
const CHANGE_THROTTLE_MS = 50;

export async function startDev(
  viteName: ViteName,
  fixture: string,
  {
    loader = 'ssrLoadModule',
    pluginOptions = { dts: false },
    plugins = [],
    watch = true,
  }: {
    loader?: Loader;
    pluginOptions?: object;
    /** Put after ours. */
    plugins?: object[];
    /** False: Vite's stand-in watcher, which reports nothing; a test emits the events itself. */
    watch?: boolean;
  } = {},
): Promise<Dev> {
  const vite = await importVite(viteName);
  const agentScorers = await importPlugin();
  const dir = prepare(fixture, `${viteName}-${loader}`);
  const logs: string[] = [];
  const logger = captureLogger(vite, logs);
  const server = await vite.createServer({
    configFile: false,
    root: dir,
    customLogger: logger,
    appType: 'custom',
    plugins: [agentScorers(pluginOptions), ...plugins],
    optimizeDeps: { noDiscovery: true, include: [] },
    ...(watch ? {} : { server: { watch: null } }),
  });
  if (watch) await watcherSettled(server.watcher, dir);
  const lastChange = new Map<string, number>();
  server.watcher.on('change', (file: string) => lastChange.set(path.resolve(file), Date.now()));
  // What the watcher reported, for the message of a timed-out `until` (a missed event or a stale module?).
  const started = Date.now();
  const events: string[] = [];
  server.watcher.on('all', (event: string, file: string) => void events.push(`${Date.now() - started}ms ${event} ${path.relative(dir, file)}`));
  server.watcher.on('error', (e: any) => void events.push(`${Date.now() - started}ms error ${e}`));

  const load = (id = 'virtual:agent-scorers') =>
    loader === 'runner' ? server.environments.ssr.runner.import(id) : server.ssrLoadModule(id);

  const recentEvents = () => `\nwatcher events:\n${events.slice(-60).join('\n')}`;
  const until = <T>(read: () => Promise<T>, check: (value: T) => boolean, timeout = 10_000): Promise<T> =>
    poll(read, check, { timeout, context: recentEvents });


  const agents = path.join(dir, 'src/mastra/agents');
  async function write(rel: string, content: string): Promise<void> {
    const file = path.resolve(agents, rel);
    // Measured from the last reported `change` and from the file's own last write (the plugin's, say,
    // whose report may still be on its way), again after each wait: a write within the throttle of
    // a report would go unreported.
    const since = () => Date.now() - Math.max(lastChange.get(file) ?? 0, Math.min(fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0, Date.now()));
    for (let gap = since(); gap <= CHANGE_THROTTLE_MS * 2; gap = since()) await sleep(CHANGE_THROTTLE_MS * 2 - gap + 1);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    events.push(`${Date.now() - started}ms (test wrote ${path.relative(dir, file)})`);
  }

  function reported(event: string, rel: string, timeout = 10_000): Promise<void> {
    const file = path.resolve(agents, rel);
    const seen = new Promise<void>((resolve, reject) => {
      const listener = (name: string, reportedFile: string) => {
        if (name !== event || path.resolve(reportedFile) !== file) return;
        clearTimeout(timer);
        server.watcher.off('all', listener);
        resolve();
      };
      const timer = setTimeout(() => {
        server.watcher.off('all', listener);
        reject(new Error(`the watcher did not report ${event} ${rel} within ${timeout} ms${recentEvents()}`));
      }, timeout);
      server.watcher.on('all', listener);
    });
    seen.catch(() => {}); // a timeout matters only to a test that awaits it (not after an earlier failure)
    return seen;
  }

  return { server, dir, agents, logs, load, until, write, reported, close: () => server.close() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the watcher reports files in every folder of `dir`. chokidar 3 (inside Vite 7 and 8)
 * can emit `ready` while its first scan still runs; a file made then counts as initial and is never
 * reported (measured: a folder created right after `ready` was watched but never announced). So a
 * probe file is written in each folder, under a new name each round, until each folder reports one.
 */
export async function watcherSettled(watcher: any, dir: string): Promise<void> {
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const folders = [dir, ...fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(entry.parentPath, entry.name))];
  const PROBE = '.watch-probe-';
  const probes = (folder: string) => fs.readdirSync(folder).filter((name) => name.startsWith(PROBE)).map((name) => path.join(folder, name));
  const waiting = new Set(folders);
  /** Probes the watcher announced: only their removal is certain to be reported. */
  const announced = new Set<string>();
  const removed = new Set<string>();
  const onAdd = (file: string) => {
    if (!path.basename(file).startsWith(PROBE)) return;
    const probe = path.resolve(file);
    announced.add(probe);
    waiting.delete(path.dirname(probe));
  };
  const onUnlink = (file: string) => void (path.basename(file).startsWith(PROBE) && removed.delete(path.resolve(file)));
  watcher.on('add', onAdd);
  watcher.on('unlink', onUnlink);
  try {
    for (let round = 0; waiting.size > 0; round++) {
      if (round === 400) throw new Error(`the watcher never reported files in: ${[...waiting].join(', ')}`);
      for (const folder of waiting) fs.writeFileSync(path.join(folder, `${PROBE}${round}`), '');
      await sleep(25);
    }
    // Remove the probes and let their events pass, so they cannot reach the tests. A probe written in
    // the round its folder was announced by an earlier one may not be known to the watcher yet; one
    // removed before the watcher sees it is reported neither added nor removed (seen on Node 20 under
    // a full suite), so only announced probes are waited for.
    for (const file of folders.flatMap(probes)) {
      if (announced.has(file)) removed.add(file);
      fs.rmSync(file);
    }
    for (let round = 0; removed.size > 0; round++) {
      if (round === 400) throw new Error(`the watcher never reported the removal of: ${[...removed].join(', ')}`);
      await sleep(25);
    }
  } finally {
    watcher.off('add', onAdd);
    watcher.off('unlink', onUnlink);
  }
}

/** A compact view of the registry: agent → scorer keys with their scorer ids, or 'function'. */
export function shape(registry: Record<string, any>): Record<string, string[] | 'function'> {
  const out: Record<string, string[] | 'function'> = {};
  for (const key of Object.keys(registry)) {
    const value = registry[key];
    out[key] = typeof value === 'function' ? 'function' : Object.keys(value).map((k) => `${k}=${value[k].scorer.id}`);
  }
  return out;
}

/** A scorer file's source; `depth` is how many folders lie between `agents/` and `scorers/` (1 for a top-level agent). */
export const scorerSource = (id: string, depth = 1, ext = 'ts') =>
  `import { makeScorer } from '${'../'.repeat(depth + 2)}helpers.${ext}';\n\nexport default makeScorer(${JSON.stringify(id)});\n`;

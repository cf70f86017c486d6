/**
 * The steps every installed host test (installed.ts) takes, whatever the framework: install the
 * fixture once per file, build once per block, check the merge warnings, break a scorer file, type-check
 * a bad key, follow an added and a deleted scorer file in dev. Each host file then says only what differs:
 * its commands, its routes, its version and its extra checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { count, REPO, run } from '../helpers/hosts.js';
import { bin, gettingStartedTab, install, remove, type Installed } from './installed.js';
import type { Started } from './processes.js';
import { until } from './processes.js';
import { get } from './serve.js';

export type Result = { code: number | null; output: string };

/** The warning a fixture's weather agent prints: `relevance` both in config.scorers and scorers/. */
export const collisionWarning = (root = 'src') =>
  `[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (${root}/mastra/agents/weather/config.ts)`;
/** The error for `<root>/mastra/agents/<agent>/scorers/broken.ts`, written by `expectBrokenScorerFails`. */
export const noDefaultError = (root = 'src', agent = 'weather') =>
  `[SCORER_NO_DEFAULT_EXPORT] Agent "${agent}": scorer "broken" has no default export; export default a scorer or a { scorer, sampling } entry. (${root}/mastra/agents/${agent}/scorers/broken.ts)`;

/** What the weather agent's route answers in the fixtures that have one: config.scorers wins `relevance`. */
export const WEATHER = { relevance: 'config-relevance', tone: 'tone' };

/** An object that a `beforeAll` hook fills in with what `make` resolves to, so tests read it as usual. */
function filledBeforeAll<T extends object>(make: () => Promise<T>, timeout: number): T {
  const value = {} as T;
  beforeAll(async () => {
    Object.assign(value, await make());
  }, timeout);
  return value;
}

/** Installs `fixture` before the file's tests and removes it (a few hundred MB of node_modules) after them. */
export function installedApp(fixture: string): Installed {
  const app = filledBeforeAll(() => install(fixture), 600_000);
  afterAll(() => remove(app.dir ? app : undefined));
  return app;
}

/** Runs `build` once before the block's tests: its code and output. */
export const buildOnce = (build: () => Promise<Result>): Result => filledBeforeAll(build, 300_000);

/** Starts a server before the block's tests and stops it after them. */
export function serverForBlock(start: () => Promise<Started>): Started {
  const server = filledBeforeAll(start, 180_000);
  afterAll(async () => {
    await server.stop?.();
  });
  return server;
}

/** For servers a test starts itself: `keep(await startServer(...))` is stopped after the block. */
export function stopAfterBlock(): (server: Started) => Started {
  const servers: Started[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });
  return (server) => (servers.push(server), server);
}

/** `tsc` of the installed project, run with the current Node. */
export const tsc = (app: Installed, ...args: string[]): Promise<Result> =>
  run(process.execPath, [bin(app.dir, 'typescript', 'tsc'), ...args], app.dir);

/** The getting-started tab's titled blocks are the fixture's own files, byte for byte. */
export function expectTabShowsFixture(tab: string, fixture: string, files: string[]): void {
  const blocks = gettingStartedTab(tab);
  const dir = path.join(REPO, 'test/fixtures', fixture);
  for (const file of files) expect(blocks.get(file), file).toBe(fs.readFileSync(path.join(dir, file), 'utf8'));
}

/**
 * The build succeeded and printed each warning exactly once; `pluginLines`, where given, is how many
 * lines the plugin printed under its `[plugin agent-scorers]` prefix (the warnings and nothing else).
 */
export function expectBuiltWarningOnce(built: Result, warnings: string[], pluginLines?: number): void {
  expect(built.code, built.output).toBe(0);
  for (const warning of warnings) expect(count(built.output, warning), built.output).toBe(1);
  if (pluginLines !== undefined) expect(count(built.output, '[plugin agent-scorers]')).toBe(pluginLines);
}

/** The browser bundle in `assets` has files, and none of them holds a scorer id or the plugin's name. */
export function expectNoScorersInClient(assets: string): void {
  const client = fs.readdirSync(assets).map((f) => fs.readFileSync(path.join(assets, f), 'utf8'));
  expect(client.length).toBeGreaterThan(0);
  expect(client.filter((code) => /config-relevance|agent-scorers/.test(code))).toEqual([]);
}

/**
 * The agents routes and the page of the fixtures with a weather and a support agent; `scorersRoute`:
 * also the `/api/scorers` route the getting-started tab shows.
 */
export async function expectServesAgents(base: string, { scorersRoute = false } = {}): Promise<void> {
  expect(await get(`${base}/api/agents/weather`)).toEqual({ status: 200, body: WEATHER });
  expect(await get(`${base}/api/agents/support`)).toEqual({ status: 200, body: { empathy: 'config-empathy' } });
  if (scorersRoute) expect(await get(`${base}/api/scorers`)).toEqual({ status: 200, body: ['relevance', 'tone'] });
  expect((await get(`${base}/`)).body).toContain('<ul id="agents"><li>support</li><li>weather</li></ul>');
}

/** A file reading a key no scorer has, from the weather agent's typed registry. */
export const BAD_KEY_SOURCE = "import weather from 'virtual:agent-scorers/weather';\n\nexport const nope = weather.nope;\n";

/**
 * The type check passes as the project stands (`clean` checks its output: none, for `tsc`), then fails
 * with `error` once `file` reads an unknown key; the file, and any folder made for it, is removed after.
 */
export async function expectTypeCheckCatchesBadKey(
  check: () => Promise<Result>,
  { file, source = BAD_KEY_SOURCE, error, clean = (output: string) => expect(output).toBe('') }: { file: string; source?: string; error: RegExp; clean?: (output: string) => void },
): Promise<void> {
  const passed = await check();
  clean(passed.output);
  expect(passed.code).toBe(0);
  const made = fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
  try {
    const failed = await check();
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(error);
  } finally {
    fs.rmSync(made ?? file, { recursive: true });
  }
}

/**
 * `tsc` with `args` passes with no output, and fails once `file` (relative to the project) reads an
 * unknown key of the weather agent's registry, with TS2339 at that line and column.
 */
export function expectTscCatchesBadKey(app: Installed, file: string, args: string[]): Promise<void> {
  const at = file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return expectTypeCheckCatchesBadKey(() => tsc(app, ...args), {
    file: path.join(app.dir, file),
    error: new RegExp(`${at}\\(3,29\\): error TS2339: Property 'nope' does not exist on type`),
  });
}

/**
 * `broken.ts` in `scorers` (no default export) fails `build` with `error` (exactly once where `errorOnce`),
 * and each of `warnings` still prints once. The file is removed after.
 */
export async function expectBrokenScorerFails(
  scorers: string,
  build: () => Promise<Result>,
  { error, errorOnce, warnings }: { error: string; errorOnce: boolean; warnings: string[] },
): Promise<void> {
  const broken = path.join(scorers, 'broken.ts');
  fs.writeFileSync(broken, "export const broken = { id: 'broken', run: async () => ({ score: 1 }) };\n");
  try {
    const failed = await build();
    expect(failed.code, failed.output).not.toBe(0);
    if (errorOnce) expect(count(failed.output, error)).toBe(1);
    else expect(failed.output).toContain(error);
    for (const warning of warnings) expect(count(failed.output, warning), failed.output).toBe(1);
  } finally {
    fs.rmSync(broken);
  }
}

/**
 * Adds `brevity.ts` to `scorers` and waits until `read` answers with it (`added`), deletes it and waits
 * until `read` answers without it (`deleted`).
 */
export async function followBrevityAddedAndDeleted<T>(
  scorers: string,
  read: () => Promise<T>,
  { added, deleted }: { added: (value: T) => boolean; deleted: (value: T) => boolean },
): Promise<void> {
  const file = path.join(scorers, 'brevity.ts');
  fs.writeFileSync(file, "export default { id: 'brevity', run: async () => ({ score: 1 }) };\n");
  await until(read, added, 'brevity.ts added');
  fs.rmSync(file);
  await until(read, deleted, 'brevity.ts deleted');
}

/**
 * The dev server of a fixture with a weather agent route answers, follows `brevity.ts` added and
 * deleted, and has printed `warning` once.
 */
export async function expectDevFollowsWeatherScorers(server: Started, scorers: string, warning: string): Promise<void> {
  const weather = () => get(`${server.base}/api/agents/weather`);
  expect(await weather()).toEqual({ status: 200, body: WEATHER });
  await followBrevityAddedAndDeleted(scorers, weather, {
    added: (r) => r.body?.brevity === 'brevity',
    deleted: (r) => r.status === 200 && !('brevity' in r.body),
  });
  expect(count(server.output(), warning), server.output()).toBe(1);
}

/**
 * Which run a shard belongs to. `report merge` joins only shards of one run, so each shard records a
 * run identity that every machine of the run agrees on without talking to the others: the one the
 * caller gives, else the CI's own id of the whole run, else the commit. The CI variables name the run,
 * not the job or the attempt: GitHub's `GITHUB_RUN_ID` stays the same when failed jobs are re-run, so a
 * re-run shard joins the shards that passed the first time.
 */

/** The CI variables that name a whole run (a workflow run, a pipeline, a build), first match wins. */
export const CI_RUN_VARIABLES = ['GITHUB_RUN_ID', 'CI_PIPELINE_ID', 'BUILDKITE_BUILD_ID'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** The environment where there is one: a Workers or browser runtime has no `process`. */
const processEnv = (): Env => (globalThis as { process?: { env?: Env } }).process?.env ?? {};

// Built at run time so that no bundler follows it (a Workers bundle has no node: modules).
const node = (name: string): Promise<any> => import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ `node:${name}`);

/** `git rev-parse HEAD` in the current folder; rejects when git is missing, fails or takes over 10 s. */
async function gitHead(): Promise<string> {
  const { execFile } = await node('child_process');
  return new Promise((resolve, reject) => {
    execFile('git', ['rev-parse', 'HEAD'], { timeout: 10_000, windowsHide: true, encoding: 'utf8' }, (error: Error | null, stdout: string, stderr: string) => {
      if (error) reject(new Error(stderr.trim().split('\n')[0] || error.message));
      else resolve(stdout.trim());
    });
  });
}

/** A run name fits in one line of a message: a non-empty string without control characters. */
// eslint-disable-next-line no-control-regex
const isRunName = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(value);

export interface ShardRunSources {
  /** The environment to read the CI variables and `GITHUB_SHA` from. Default: `process.env`. */
  env?: Env;
  /** The commit of the checkout. Default: `git rev-parse HEAD` in the current folder. */
  commit?: () => Promise<string>;
}

/**
 * The run a shard belongs to: `given` (from `shard: { index, count, run }`) when set; else the CI's
 * run id (`GITHUB_RUN_ID`, `CI_PIPELINE_ID`, `BUILDKITE_BUILD_ID`); else the commit (`GITHUB_SHA`,
 * else `git rev-parse HEAD`). Throws a TypeError that asks for `run` when none of them is found, since
 * a shard without a run could be merged with any other run's shards.
 */
export async function resolveShardRun(given: unknown, { env = processEnv(), commit = gitHead }: ShardRunSources = {}): Promise<string> {
  if (given !== undefined) {
    if (!isRunName(given)) throw new TypeError(`runEvals: shard.run must be a non-empty string on one line (the name of the run its shards share); got ${JSON.stringify(given) ?? String(given)}`);
    return given;
  }
  for (const name of [...CI_RUN_VARIABLES, 'GITHUB_SHA']) {
    const value = env[name];
    if (isRunName(value)) return value.trim();
  }
  let why: string;
  try {
    const head = await commit();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    why = `git rev-parse HEAD printed ${JSON.stringify(head.slice(0, 80))}`;
  } catch (error) {
    why = `git rev-parse HEAD failed: ${(error as Error).message}`;
  }
  throw new TypeError(
    `runEvals: a shard records the run it belongs to, so that report merge never mixes two runs, and none was found: no shard.run, no ${CI_RUN_VARIABLES.join(', ')} or GITHUB_SHA in the environment, and ${why}. Pass shard: { index, count, run } with the same run on every shard`,
  );
}

/**
 * The shape `evalReport` reads: what `runEvals` resolves to, declared here structurally so that a
 * result read back from JSON (`JSON.parse` of a saved run) is accepted as well as the live object,
 * and so that this entry imports nothing from the runtime. `checkResult` validates an unknown value
 * against it with messages that name the offending field.
 */

/** A threshold as `runEvals` takes it: a number is a minimum; `{ min?, max? }` bounds the mean. */
export type ReportThreshold = number | { min?: number; max?: number };

/** One scorer's run on one item. */
export interface ReportItemScore {
  /** `null` when the scorer declared the run not scorable. */
  score: number | null;
  reason?: string | null;
  notScorable?: boolean;
  /** The scorer was given in `gates`. */
  gate?: boolean;
  /** `true`: every judge reply came from a `cachedJudge` file; `false`: some were live; absent: no cache involved. */
  cached?: boolean;
  /** A gate that threw scores 0; this is what it threw. */
  error?: string;
}

export interface ReportItem {
  /** 0-based position in the eval's `data`. */
  index: number;
  input?: unknown;
  output?: unknown;
  groundTruth?: unknown;
  /** Keyed by scorer id. */
  scores: Record<string, ReportItemScore>;
}

/** A `runEvals` result, or the same parsed back from JSON. */
export interface ReportInput {
  /** Mean per scorer id, over the runs that were scorable. */
  scores: Record<string, number>;
  summary: { totalItems: number; notScorable?: Record<string, number> };
  verdict?: 'passed' | 'scored' | 'failed';
  gateResults?: ReadonlyArray<{ id: string; passed: boolean; score: number }>;
  thresholdResults?: ReadonlyArray<{ id: string; passed: boolean; averageScore: number; threshold: ReportThreshold }>;
  /** Per-item results. Without them the report shows the aggregates only. */
  items?: ReadonlyArray<ReportItem>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isNumber = (value: unknown): value is number => typeof value === 'number' && !Number.isNaN(value);

/**
 * Checks that `value` has the shape of a `runEvals` result; throws a `TypeError` whose message names
 * the first field that does not fit (`items[3].scores.relevance.score must be a number or null`).
 */
export function checkResult(value: unknown): ReportInput {
  const fail = (field: string, what: string): never => {
    throw new TypeError(`${field} must be ${what}`);
  };
  if (!isObject(value)) fail('the result', 'an object (what runEvals resolves to)');
  const result = value as Record<string, unknown>;
  if (!isObject(result.scores)) fail('scores', 'an object of mean scores keyed by scorer id');
  for (const [id, mean] of Object.entries(result.scores as object)) {
    if (!isNumber(mean)) fail(`scores[${JSON.stringify(id)}]`, 'a number');
  }
  if (!isObject(result.summary)) fail('summary', 'an object');
  const summary = result.summary as Record<string, unknown>;
  if (!Number.isInteger(summary.totalItems) || (summary.totalItems as number) < 0) fail('summary.totalItems', 'a whole number');
  if (summary.notScorable !== undefined) {
    if (!isObject(summary.notScorable)) fail('summary.notScorable', 'an object of counts keyed by scorer id');
    for (const [id, count] of Object.entries(summary.notScorable as object)) {
      if (!Number.isInteger(count)) fail(`summary.notScorable[${JSON.stringify(id)}]`, 'a whole number');
    }
  }
  if (result.verdict !== undefined && result.verdict !== 'passed' && result.verdict !== 'scored' && result.verdict !== 'failed') {
    fail('verdict', `'passed', 'scored' or 'failed'`);
  }
  checkList(result.gateResults, 'gateResults', (entry, at) => {
    if (typeof entry.id !== 'string') fail(`${at}.id`, 'a string');
    if (typeof entry.passed !== 'boolean') fail(`${at}.passed`, 'a boolean');
    if (!isNumber(entry.score)) fail(`${at}.score`, 'a number');
  });
  checkList(result.thresholdResults, 'thresholdResults', (entry, at) => {
    if (typeof entry.id !== 'string') fail(`${at}.id`, 'a string');
    if (typeof entry.passed !== 'boolean') fail(`${at}.passed`, 'a boolean');
    if (!isNumber(entry.averageScore)) fail(`${at}.averageScore`, 'a number');
    const t = entry.threshold;
    const bound = (b: unknown) => b === undefined || isNumber(b);
    if (!isNumber(t) && !(isObject(t) && bound(t.min) && bound(t.max))) fail(`${at}.threshold`, 'a number or { min?, max? }');
  });
  checkList(result.items, 'items', (item, at) => {
    if (!Number.isInteger(item.index) || (item.index as number) < 0) fail(`${at}.index`, 'a whole number');
    if (!isObject(item.scores)) fail(`${at}.scores`, 'an object keyed by scorer id');
    for (const [id, run] of Object.entries(item.scores as object)) {
      const field = `${at}.scores[${JSON.stringify(id)}]`;
      if (!isObject(run)) fail(field, 'an object');
      const r = run as Record<string, unknown>;
      if (r.score !== null && !isNumber(r.score)) fail(`${field}.score`, 'a number or null');
      if (r.reason !== undefined && r.reason !== null && typeof r.reason !== 'string') fail(`${field}.reason`, 'a string or null');
      if (r.error !== undefined && typeof r.error !== 'string') fail(`${field}.error`, 'a string');
      for (const flag of ['notScorable', 'gate', 'cached'] as const) {
        if (r[flag] !== undefined && typeof r[flag] !== 'boolean') fail(`${field}.${flag}`, 'a boolean');
      }
    }
  });
  return value as unknown as ReportInput;
}

function checkList(value: unknown, name: string, each: (entry: Record<string, unknown>, at: string) => void): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array`);
  value.forEach((entry, i) => {
    if (!isObject(entry)) throw new TypeError(`${name}[${i}] must be an object`);
    each(entry, `${name}[${i}]`);
  });
}

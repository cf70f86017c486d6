/**
 * The `scorers` of `runEvals`, in every form it takes, read into one plan: a flat list (Mastra's
 * array, or the registry's record with per-key `thresholds`), the registry's function form (resolved
 * per item), or Mastra's structured forms for an Agent (`{ agent, trajectory }`) and a Workflow
 * (`{ workflow, steps, trajectory }`). Thresholds are checked with Mastra's messages, naming the key
 * the user wrote in a record and the scorer id in an array, as Mastra does.
 */
import { toScorerEntry, type Sampling, type ScorerLike } from '../registry.js';
import { validateThreshold, type ThresholdConfig } from './thresholds.js';
import type { EvalScorersFunction } from './run-evals-types.js';

const where = 'runEvals';

/** One tracked scorer of a flat plan. */
export interface Slot {
  scorer: ScorerLike;
  /** The record key it came from (record and function forms). */
  key?: string;
  sampling?: Sampling;
  threshold?: ThresholdConfig;
}

/** Mastra's structured groups, with exactly the keys given (Mastra's behaviour depends on which are present). */
export interface Groups {
  agent?: ScorerLike[];
  workflow?: ScorerLike[];
  steps?: Record<string, ScorerLike[]>;
  trajectory?: ScorerLike[];
}

export type Plan =
  | { form: 'list'; slots: Slot[] }
  | { form: 'function'; resolve: (requestContext: unknown) => Promise<Slot[]> }
  | { form: 'structured'; groups: Groups };

const STRUCTURED_KEYS = ['agent', 'trajectory', 'workflow', 'steps'];

export const isWithThreshold = (entry: unknown): entry is { scorer: ScorerLike; threshold: unknown } =>
  typeof entry === 'object' && entry !== null && 'scorer' in entry && 'threshold' in entry;

export const isScorerObject = (value: unknown): value is ScorerLike =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as ScorerLike).id === 'string' && typeof (value as ScorerLike).run === 'function';

export function checkScorer(value: unknown, label: string): ScorerLike {
  if (!isScorerObject(value)) throw new TypeError(`${where}: ${label} is not a scorer (an object with a string "id" and a "run" function)`);
  return value;
}

/** A plain object whose keys are all Mastra's structured keys and whose values are lists (`steps`: a record of lists). */
function isStructured(value: object): boolean {
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => STRUCTURED_KEYS.includes(key))) return false;
  return keys.every((key) => {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || Array.isArray(v)) return true;
    return key === 'steps' && v !== null && typeof v === 'object' && Object.values(v).every(Array.isArray);
  });
}

function list(value: unknown, label: string): ScorerLike[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${where}: ${label} must be an array of scorers`);
  return value.map((v, i) => checkScorer(v, `${label}[${i}]`));
}

/** Results are keyed by id, so two different scorers of one group may not share one. */
function checkUniqueIds(scorers: readonly ScorerLike[], label: string): void {
  const seen = new Set<string>();
  for (const scorer of scorers) {
    if (seen.has(scorer.id)) throw new TypeError(`${where}: two ${label} have the id "${scorer.id}"; results are keyed by id, so ids must be unique`);
    seen.add(scorer.id);
  }
}

function slotsOf(value: unknown, thresholds: Readonly<Record<string, unknown>> | undefined): Slot[] {
  const isList = Array.isArray(value);
  if (isList && thresholds !== undefined) {
    throw new TypeError(`${where}: "thresholds" goes with a record of scorers; in an array, write { scorer, threshold } entries`);
  }
  const entries: Array<[string, string | undefined, unknown]> = isList
    ? (value as unknown[]).map((v, i) => [`scorers[${i}]`, undefined, v])
    : Object.keys(value as object).map((key) => [`scorers[${JSON.stringify(key)}]`, key, (value as Record<string, unknown>)[key]]);
  if (thresholds !== undefined) {
    const known = new Set(entries.map(([, key]) => key));
    for (const key of Object.keys(thresholds)) {
      if (!known.has(key)) {
        throw new TypeError(`${where}: thresholds has ${JSON.stringify(key)}, which is not a key of the scorers record (keys: ${[...known].map((k) => JSON.stringify(k)).join(', ') || 'none'})`);
      }
    }
  }
  const slots = entries.map(([label, key, entry]): Slot => {
    const checked = toScorerEntry(
      entry,
      (problem) => {
        throw new TypeError(`${where}: ${label}: ${problem}`);
      },
      () => {
        throw new TypeError(`${where}: ${label} is not a scorer (an object with a string "id" and a "run" function) or a { scorer } entry`);
      },
    );
    // A snapshot: the user's entry object is not read again per item.
    const slot: Slot = { scorer: checked.scorer, ...(key !== undefined ? { key } : {}), ...(checked.sampling ? { sampling: checked.sampling } : {}) };
    const given = isList ? isWithThreshold(entry) : key !== undefined && thresholds !== undefined && Object.hasOwn(thresholds, key);
    if (given) {
      const threshold = isList ? (entry as { threshold: unknown }).threshold : thresholds![key!];
      // Mastra names the scorer id; a record names the key the user wrote.
      validateThreshold(threshold, key ?? slot.scorer.id);
      slot.threshold = threshold;
    }
    return slot;
  });
  checkUniqueIds(slots.map((slot) => slot.scorer), 'scorers');
  return slots;
}

/**
 * Reads `scorers` (with `thresholds`) into a plan and checks `gates`, once, before the run; throws naming
 * what does not fit. Thresholds come first, as Mastra checks them: a bad one is reported even when the
 * gates or the data are bad too.
 */
export function planScorers(value: unknown, thresholdsValue: unknown, gatesValue: unknown): { plan: Plan; gates: ScorerLike[] | undefined } {
  const plan = planOf(value, thresholdsValue);
  if (gatesValue !== undefined && !Array.isArray(gatesValue)) throw new TypeError(`${where}: gates must be an array of scorers`);
  const gates = (gatesValue as unknown[] | undefined)?.map((gate, i) => checkScorer(gate, `gates[${i}]`));
  checkUniqueIds(gates ?? [], 'gates');
  return { plan, gates };
}

function planOf(value: unknown, thresholdsValue: unknown): Plan {
  if (thresholdsValue !== undefined && (thresholdsValue === null || typeof thresholdsValue !== 'object' || Array.isArray(thresholdsValue))) {
    throw new TypeError(`${where}: thresholds must be a record of scorer key -> threshold`);
  }
  const thresholds = thresholdsValue as Readonly<Record<string, unknown>> | undefined;
  if (value === undefined) {
    if (thresholds !== undefined) throw new TypeError(`${where}: "thresholds" goes with a record of scorers, and no scorers were given`);
    return { form: 'list', slots: [] };
  }
  if (typeof value === 'function') {
    if (thresholds !== undefined) for (const key of Object.keys(thresholds)) validateThreshold(thresholds[key], key);
    const fn = value as EvalScorersFunction;
    return { form: 'function', resolve: async (requestContext) => slotsOf(await fn({ requestContext }), thresholds) };
  }
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${where}: scorers must be an array or record of scorers / { scorer, threshold } / { scorer, sampling } entries, a function returning a record, or { agent, trajectory } / { workflow, steps, trajectory }`);
  }
  if (!Array.isArray(value) && !isScorerObject(value) && isStructured(value)) {
    if (thresholds !== undefined) throw new TypeError(`${where}: "thresholds" goes with a record of scorers, not with { ${Object.keys(value).join(', ')} }`);
    const v = value as Record<string, unknown>;
    if ('agent' in v && ('workflow' in v || 'steps' in v)) {
      throw new TypeError(`${where}: scorers mixes { agent } with { workflow, steps }; an Agent takes { agent, trajectory }, a Workflow { workflow, steps, trajectory }`);
    }
    const groups: Groups = {};
    for (const key of ['agent', 'workflow', 'trajectory'] as const) {
      if (!(key in v)) continue;
      groups[key] = v[key] === undefined ? undefined : list(v[key], `scorers.${key}`);
      checkUniqueIds(groups[key] ?? [], `${key} scorers`);
    }
    if ('steps' in v) {
      groups.steps = v.steps === undefined ? undefined : {};
      for (const [stepId, stepScorers] of Object.entries((v.steps ?? {}) as Record<string, unknown>)) {
        groups.steps![stepId] = list(stepScorers, `scorers.steps[${JSON.stringify(stepId)}]`);
        checkUniqueIds(groups.steps![stepId]!, `scorers of step "${stepId}"`);
      }
    }
    return { form: 'structured', groups };
  }
  return { form: 'list', slots: slotsOf(value, thresholds) };
}

/** The result's form: Mastra reads `{ trajectory }` alone as a Workflow's form on a Workflow, an Agent's otherwise. */
export function formOf(plan: Plan, workflowTarget: boolean): 'list' | 'agent' | 'workflow' {
  if (plan.form !== 'structured') return 'list';
  const { groups } = plan;
  if ('workflow' in groups || 'steps' in groups) return 'workflow';
  if ('agent' in groups) return 'agent';
  return workflowTarget ? 'workflow' : 'agent';
}

/** Scorer slots known before the run, as `config.scorers` names them. */
export function slotNames(plan: Plan): string[] {
  if (plan.form === 'list') return plan.slots.map((slot) => slot.scorer.id);
  if (plan.form === 'function') return [];
  const { agent, workflow, steps, trajectory } = plan.groups;
  return [
    ...(agent ?? workflow ?? []).map((s) => s.id),
    ...Object.entries(steps ?? {}).flatMap(([stepId, list]) => list.map((s) => `steps/${stepId}/${s.id}`)),
    ...(trajectory ?? []).map((s) => `trajectory/${s.id}`),
  ];
}

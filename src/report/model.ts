/**
 * What the HTML page, the JUnit file, the comparison and the Markdown summary all read from a
 * result: one row per scorer slot (its mean, gate or threshold, the item scores) and the text of
 * inputs and outputs. Pure functions.
 *
 * A slot is where a score lives in an item, and its `key` says so: `relevance` (`scores`),
 * `gates/calls-tool`, `trajectory/tool-order`, `steps/plan/accuracy`, `turns/0/helpful` and
 * `turns/0/gates/polite`. Keys are what comparisons match; labels (`steps › plan › accuracy`) are
 * what people read.
 */
import { isNested, type ReadResult, type ReportItem, type ReportItemScore, type ReportScoreGroup, type ReportThreshold } from './result.js';

export type Slot =
  | { group: 'scores' }
  | { group: 'gates' }
  | { group: 'trajectory' }
  | { group: 'steps'; step: string }
  | { group: 'turn'; turn: number; gate: boolean };

export interface ScorerView {
  /** Where the score lives, as a path: `relevance`, `gates/x`, `steps/plan/x`, `turns/0/x`. */
  key: string;
  /** What a person reads: `relevance`, `x` (a gate), `steps › plan › x`, `turn 0 › x`. */
  label: string;
  /** The scorer's own id. */
  id: string;
  slot: Slot;
  /** The 0-based turn of a per-turn scorer, else null. */
  turn: number | null;
  /** Mean over scorable runs; `null` when the result has none. */
  mean: number | null;
  /** A gate: must average 1. */
  gate: boolean;
  gatePassed: boolean | null;
  threshold: ReportThreshold | null;
  thresholdPassed: boolean | null;
  notScorable: number;
  /** Scores of the scorable runs, in item order. */
  scores: number[];
  cached: number;
  live: number;
}

const own = <T>(record: Readonly<Record<string, T>> | undefined, k: string): T | undefined =>
  record !== undefined && Object.hasOwn(record, k) ? record[k] : undefined;

/** The turn of an item with the given index (turns are stored in order, so usually at that position). */
function turnOf(item: ReportItem, index: number) {
  const turns = item.turns;
  if (!turns) return undefined;
  const at = turns[index];
  return at?.index === index ? at : turns.find((t) => t.index === index);
}

function groupOf(item: ReportItem, slot: Slot): ReportScoreGroup | undefined {
  switch (slot.group) {
    case 'scores':
      return item.scores;
    case 'gates':
      return item.gates;
    case 'trajectory':
      return item.trajectory;
    case 'steps':
      return own(item.steps, slot.step);
    case 'turn': {
      const turn = turnOf(item, slot.turn);
      return slot.gate ? turn?.gates : turn?.scores;
    }
  }
}

/** One item's run of a scorer slot, or undefined where the item has none. */
export const runOf = (item: ReportItem, view: Pick<ScorerView, 'slot' | 'id'>): ReportItemScore | undefined =>
  own(groupOf(item, view.slot), view.id);

/**
 * The number a run counts as, as the run's own aggregates count it: a gate that threw counts 0; a
 * run declared not scorable, or with no number, counts nothing (undefined).
 */
export function valueOf(run: ReportItemScore | undefined): number | undefined {
  if (run === undefined || run.notScorable) return undefined;
  if (run.error !== undefined) return 0;
  return typeof run.score === 'number' ? run.score : undefined;
}

const keyOf = (id: string, slot: Slot): string => {
  switch (slot.group) {
    case 'scores':
      return id;
    case 'gates':
      return `gates/${id}`;
    case 'trajectory':
      return `trajectory/${id}`;
    case 'steps':
      return `steps/${slot.step}/${id}`;
    case 'turn':
      return `turns/${slot.turn}/${slot.gate ? 'gates/' : ''}${id}`;
  }
};

const labelOf = (id: string, slot: Slot): string => {
  switch (slot.group) {
    case 'scores':
    case 'gates':
      return id;
    case 'trajectory':
      return `trajectory › ${id}`;
    case 'steps':
      return `steps › ${slot.step} › ${id}`;
    case 'turn':
      return `turn ${slot.turn} › ${slot.gate ? 'gate › ' : ''}${id}`;
  }
};

/**
 * Scorer rows in the order the result first names them: tracked scorers (the main group, steps,
 * trajectory), gates, then per-turn scorers and gates by turn. Each with its mean, gate or threshold
 * outcome and item scores.
 */
export function scorerViews(result: ReadResult): ScorerView[] {
  const slots = new Map<string, { id: string; slot: Slot }>();
  const add = (id: string, slot: Slot) => {
    const k = keyOf(id, slot);
    if (!slots.has(k)) slots.set(k, { id, slot });
  };
  const scores = result.scores;
  const nested = isNested(scores);
  const items = result.items ?? [];

  // The first release listed gates' means among `scores`; readResult took them out, so what is left is tracked.
  if (!nested) for (const id of Object.keys(scores)) add(id, { group: 'scores' });
  else {
    for (const id of Object.keys(scores.agent ?? {})) add(id, { group: 'scores' });
    for (const id of Object.keys(scores.workflow ?? {})) add(id, { group: 'scores' });
  }
  for (const t of result.thresholdResults ?? []) add(t.id, { group: 'scores' });
  for (const id of result.config?.gates ?? []) add(id, { group: 'gates' });
  for (const g of result.gateResults ?? []) add(g.id, { group: 'gates' });
  if (nested) {
    for (const [step, means] of Object.entries(scores.steps ?? {})) for (const id of Object.keys(means)) add(id, { group: 'steps', step });
    for (const id of Object.keys(scores.trajectory ?? {})) add(id, { group: 'trajectory' });
  }
  for (const item of items) {
    for (const id of Object.keys(item.scores)) add(id, { group: 'scores' });
    for (const [step, group] of Object.entries(item.steps ?? {})) for (const id of Object.keys(group)) add(id, { group: 'steps', step });
    for (const id of Object.keys(item.trajectory ?? {})) add(id, { group: 'trajectory' });
    for (const id of Object.keys(item.gates ?? {})) add(id, { group: 'gates' });
  }
  // Per-turn rows last, by turn, each turn's scorers before its gates.
  const turnSlots = new Map<string, { id: string; slot: Slot }>();
  const addTurn = (id: string, turn: number, gate: boolean) => {
    const slot: Slot = { group: 'turn', turn, gate };
    const k = keyOf(id, slot);
    if (!turnSlots.has(k)) turnSlots.set(k, { id, slot });
  };
  for (const turn of result.turnResults ?? []) {
    for (const id of Object.keys(turn.scores ?? {})) addTurn(id, turn.index, false);
    for (const t of turn.thresholdResults ?? []) addTurn(t.id, turn.index, false);
    for (const g of turn.gateResults ?? []) addTurn(g.id, turn.index, true);
  }
  for (const item of items) {
    for (const turn of item.turns ?? []) {
      for (const id of Object.keys(turn.scores ?? {})) addTurn(id, turn.index, false);
      for (const id of Object.keys(turn.gates ?? {})) addTurn(id, turn.index, true);
    }
  }
  type TurnSlot = { turn: number; gate: boolean };
  const sortedTurns = [...turnSlots.values()].sort((a, b) => {
    const x = a.slot as TurnSlot;
    const y = b.slot as TurnSlot;
    return x.turn - y.turn || Number(x.gate) - Number(y.gate);
  });

  return [...slots.values(), ...sortedTurns].map(({ id, slot }) => view(result, id, slot));
}

function view(result: ReadResult, id: string, slot: Slot): ScorerView {
  const scores = result.scores;
  let mean: number | undefined;
  let gate: { passed: boolean; score: number } | undefined;
  let threshold: { passed: boolean; averageScore: number; threshold: ReportThreshold } | undefined;
  if (slot.group === 'scores') {
    mean = isNested(scores) ? (own(scores.agent, id) ?? own(scores.workflow, id)) : own(scores, id);
    threshold = result.thresholdResults?.find((t) => t.id === id);
  } else if (slot.group === 'gates') {
    gate = result.gateResults?.find((g) => g.id === id);
    mean = gate?.score;
  } else if (slot.group === 'trajectory') {
    mean = isNested(scores) ? own(scores.trajectory, id) : undefined;
  } else if (slot.group === 'steps') {
    mean = isNested(scores) ? own(own(scores.steps, slot.step), id) : undefined;
  } else {
    const index = slot.turn;
    const turn = result.turnResults?.find((t) => t.index === index);
    if (slot.gate) {
      gate = turn?.gateResults?.find((g) => g.id === id);
      mean = gate?.score;
    } else {
      threshold = turn?.thresholdResults?.find((t) => t.id === id);
      mean = own(turn?.scores, id);
    }
  }
  const v: ScorerView = {
    key: keyOf(id, slot),
    label: labelOf(id, slot),
    id,
    slot,
    turn: slot.group === 'turn' ? slot.turn : null,
    mean: null,
    gate: slot.group === 'gates' || (slot.group === 'turn' && slot.gate),
    gatePassed: gate?.passed ?? null,
    threshold: threshold?.threshold ?? null,
    thresholdPassed: threshold?.passed ?? null,
    notScorable: 0,
    scores: [],
    cached: 0,
    live: 0,
  };
  for (const item of result.items ?? []) {
    const run = runOf(item, v);
    if (run === undefined) continue;
    if (run.cached === true) v.cached++;
    if (run.cached === false) v.live++;
    if (v.threshold === null && run.threshold !== undefined) v.threshold = run.threshold;
    const value = run.notScorable || run.score === null ? undefined : valueOf(run);
    if (value === undefined) v.notScorable++;
    else v.scores.push(value);
  }
  // A threshold the run was given is recorded in its config even where no item gave a number.
  if (v.threshold === null && slot.group === 'scores') v.threshold = result.config?.thresholds.find((t) => t.id === id)?.threshold ?? null;
  if (result.items === undefined && slot.group !== 'turn') {
    // Aggregates only: the summary's count (keyed by id across groups) is all there is.
    v.notScorable = own(result.summary.notScorable, id) ?? 0;
  }
  const fromItems = v.scores.length > 0 ? v.scores.reduce((a, b) => a + b, 0) / v.scores.length : null;
  v.mean = typeof mean === 'number' && !Number.isNaN(mean) ? mean : (threshold && typeof threshold.averageScore === 'number' ? threshold.averageScore : fromItems);
  return v;
}

/** `≥ 0.7`, `≤ 0.3`, `0.3 – 0.8`. */
export function formatThreshold(threshold: ReportThreshold): string {
  if (typeof threshold === 'number') return `≥ ${formatScore(threshold)}`;
  const { min, max } = threshold;
  if (min !== undefined && max !== undefined) return `${formatScore(min)} – ${formatScore(max)}`;
  if (min !== undefined) return `≥ ${formatScore(min)}`;
  if (max !== undefined) return `≤ ${formatScore(max)}`;
  return 'any';
}

/** Up to three decimals, no trailing zeros: 0.8333 -> 0.833, 1 -> 1. */
export const formatScore = (score: number): string => String(Math.round(score * 1000) / 1000);

/** A signed difference, with a true minus sign: `+0.05`, `−0.108`, `0`. */
export const formatDifference = (difference: number): string => {
  const rounded = Math.round(difference * 1000) / 1000;
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : '0';
};

/** Whether one item's score misses what its scorer asks of the mean (a gate: 1; a threshold: its bounds). */
export function itemMisses(view: Pick<ScorerView, 'gate' | 'threshold'>, score: number): boolean {
  if (view.gate && score < 1) return true;
  if (view.threshold === null) return false;
  const { min, max } = typeof view.threshold === 'number' ? { min: view.threshold, max: undefined } : view.threshold;
  return (min !== undefined && score < min) || (max !== undefined && score > max);
}

/** A value as a person reads it: strings as they are, anything else as indented JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A one-line preview of an item's input. For a message list (what an Agent takes) it is the text
 * of the last message, which is the question being asked.
 */
export function preview(value: unknown, max = 60): string {
  let text: string;
  if (Array.isArray(value) && value.length > 0) {
    const last: unknown = value[value.length - 1];
    const content = last !== null && typeof last === 'object' ? (last as { content?: unknown }).content : undefined;
    text = typeof content === 'string' ? content : asText(value);
  } else {
    text = asText(value);
  }
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}

/** Items in `index` order (a run with concurrency may list them in completion order). */
export const sortedItems = <T extends ReportItem>(result: { items?: ReadonlyArray<T> }): T[] =>
  [...(result.items ?? [])].sort((a, b) => a.index - b.index);

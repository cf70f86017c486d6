/**
 * What the HTML page and the JUnit file both need from a result: one view per scorer (its mean,
 * gate or threshold, the item scores) and the text of inputs and outputs. Pure functions.
 */
import type { ReportInput, ReportItem, ReportThreshold } from './result.js';

export interface ScorerView {
  id: string;
  /** Mean over scorable runs; `null` when the result has none. */
  mean: number | null;
  /** Given in `gates`. */
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

/** Scorer ids in the order the result first names them: means, gates, thresholds, then items. */
export function scorerViews(result: ReportInput): ScorerView[] {
  const ids = new Set<string>(Object.keys(result.scores));
  for (const g of result.gateResults ?? []) ids.add(g.id);
  for (const t of result.thresholdResults ?? []) ids.add(t.id);
  for (const item of result.items ?? []) for (const id of Object.keys(item.scores)) ids.add(id);
  return [...ids].map((id) => {
    const gateResult = result.gateResults?.find((g) => g.id === id);
    const thresholdResult = result.thresholdResults?.find((t) => t.id === id);
    const view: ScorerView = {
      id,
      // runEvals leaves gates out of `scores` (as Mastra does): their mean is the gate result's score.
      mean: Object.hasOwn(result.scores, id) ? result.scores[id] : (gateResult?.score ?? thresholdResult?.averageScore ?? null),
      gate: gateResult !== undefined,
      gatePassed: gateResult?.passed ?? null,
      threshold: thresholdResult?.threshold ?? null,
      thresholdPassed: thresholdResult?.passed ?? null,
      notScorable: 0,
      scores: [],
      cached: 0,
      live: 0,
    };
    let counted = 0;
    for (const item of result.items ?? []) {
      const run = Object.hasOwn(item.scores, id) ? item.scores[id] : undefined;
      if (run === undefined) continue;
      if (run.gate) view.gate = true;
      if (run.cached === true) view.cached++;
      if (run.cached === false) view.live++;
      if (run.score === null || run.notScorable) counted++;
      else view.scores.push(run.score);
    }
    const fromSummary = result.summary.notScorable && Object.hasOwn(result.summary.notScorable, id) ? result.summary.notScorable[id] : undefined;
    view.notScorable = fromSummary ?? counted;
    return view;
  });
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
export const sortedItems = (result: ReportInput): ReportItem[] => [...(result.items ?? [])].sort((a, b) => a.index - b.index);

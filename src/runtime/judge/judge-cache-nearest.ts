/**
 * Why a replayed request missed: the recorded request closest to it, and the first place where the two
 * differ. A miss is almost always one small part of a prompt that changes on every run (a message id, a
 * timestamp, a random order), so showing that place is what a user needs to fix the prompt.
 *
 * Which record is closest, among those of the same provider family and model id:
 * 1. one of the same scorer step first: its prompt begins with the same instructions (system messages)
 *    as the request's, where the request has any. Two requests of different scorers can share a long
 *    tail (the same answer quoted), and a user asks about the scorer that missed;
 * 2. then the most text in common at both ends: the longest common prefix plus the longest common
 *    suffix of the rest. A changed id in the middle of an otherwise equal prompt scores highest, where
 *    a prefix alone would tie every record of the scorer at the id's place;
 * 3. then the longer common prefix, then the smaller key, so the answer never depends on file order.
 * Records written before the whole prompt was kept (no `fullPrompt`) are compared by their previews,
 * and only when no record of the model has a whole prompt.
 */
import type { JudgeCacheRecord } from './judge-cache-store.js';

/** The nearest recorded request to one that missed, and where the two first differ. */
export interface JudgeCacheNearest {
  /** The recorded request's key. */
  key: string;
  /** The recorded request's prompt preview. */
  preview: string;
  /**
   * The offset (in characters) where the two prompts first differ, in the prompt as the file shows it
   * (`fullPrompt`), or in the previews where the record predates `fullPrompt` (`comparedBy: 'preview'`).
   */
  at: number;
  /** A few dozen characters of the recorded prompt from just before `at`. */
  recorded: string;
  /** The same stretch of the requested prompt. */
  requested: string;
  /** What was compared: the whole prompts, or only the previews of an older record. */
  comparedBy: 'prompt' | 'preview';
  /** The part of the prompt `at` falls in: `system`, `user`, `assistant`, `tool` or `settings`. */
  section?: string;
}

/** A request as `nearestRecord` compares it. */
export interface RequestText {
  provider: string;
  modelId: string;
  /** The whole prompt and settings as text (the record's `fullPrompt`). */
  text: string;
  /** Where the leading system messages end in `text` (0 when there are none). */
  head: number;
  /** Where each part of `text` starts, in order: `[start, 'user']`... */
  sections: Array<[number, string]>;
  preview: string;
}

const BEFORE = 24;
const AFTER = 48;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The common suffix of `a` and `b` that does not reach back into their first `from` characters. */
function commonSuffix(a: string, b: string, from: number): number {
  const n = Math.min(a.length, b.length) - from;
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

const family = (provider: string) => provider.split('.')[0];

/** The recorded request nearest to `request` (see the top of this file), or undefined when the file holds none of its model. */
export function nearestRecord(records: Iterable<JudgeCacheRecord>, request: RequestText): JudgeCacheNearest | undefined {
  const sameModel = [...records].filter((r) => family(r.provider) === family(request.provider) && r.modelId === request.modelId);
  const whole = sameModel.filter((r) => typeof r.fullPrompt === 'string');
  const comparedBy = whole.length > 0 ? 'prompt' : 'preview';
  const pool = comparedBy === 'prompt' ? whole : sameModel;
  const mine = comparedBy === 'prompt' ? request.text : request.preview;
  let best: { record: JudgeCacheRecord; theirs: string; tier: number; score: number; prefix: number } | undefined;
  for (const record of pool) {
    const theirs = comparedBy === 'prompt' ? record.fullPrompt! : record.prompt;
    const prefix = commonPrefix(mine, theirs);
    // The instructions and the start of what follows them (`\n\n[`), so a longer system text is not the same one.
    const tier = comparedBy === 'prompt' && request.head > 0 && prefix >= Math.min(request.head + 3, mine.length) ? 1 : 0;
    const score = prefix + commonSuffix(mine, theirs, prefix);
    const better =
      !best ||
      tier > best.tier ||
      (tier === best.tier && (score > best.score || (score === best.score && (prefix > best.prefix || (prefix === best.prefix && record.key < best.record.key)))));
    if (better) best = { record, theirs, tier, score, prefix };
  }
  if (!best) return undefined;
  const at = best.prefix;
  const start = Math.max(0, at - BEFORE);
  const section = comparedBy === 'prompt' ? request.sections.filter(([offset]) => offset <= at).at(-1)?.[1] : undefined;
  return {
    key: best.record.key,
    preview: best.record.prompt,
    at,
    recorded: best.theirs.slice(start, at + AFTER),
    requested: mine.slice(start, at + AFTER),
    comparedBy,
    ...(section ? { section } : {}),
  };
}

/** The sentence a miss's message gives about its nearest record. */
export function describeNearest(nearest: JudgeCacheNearest): string {
  if (nearest.comparedBy === 'prompt' && nearest.recorded === nearest.requested) {
    // Same text, another key: what differs is not in the text (a key made by another version of this package).
    return ` The nearest recorded request, ${nearest.key.slice(0, 12)}, reads the same but was keyed differently (by another version of agent-scorers): record again.`;
  }
  const where = nearest.comparedBy === 'preview' ? `their previews first differ at character ${nearest.at}` : `the prompts first differ at character ${nearest.at}${nearest.section ? ` (in the ${nearest.section === 'settings' ? 'call settings' : `${nearest.section} message`})` : ''}`;
  const old = nearest.comparedBy === 'preview' ? ' (recorded by an older version, which kept only a preview; record again to compare whole prompts)' : '';
  return (
    ` The nearest recorded request is ${nearest.key.slice(0, 12)}${old}: ${where}, recorded ${JSON.stringify(nearest.recorded)}, requested ${JSON.stringify(nearest.requested)}.` +
    ' A part that changes on every run (a message id, a timestamp) never replays: build the prompt without it.'
  );
}

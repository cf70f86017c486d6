/**
 * `createAnswerRelevancyScorer`: how relevant an assistant's answer is to the user's question.
 *
 * Pipeline (3 judge calls for a normal answer, 2 with `reason: false`, none for an empty answer):
 * 1. preprocess: split the last assistant output into statements;
 * 2. analyze: judge each statement against the first user input as yes / unsure / no, with a reason;
 * 3. generateScore: round2(((yes + uncertaintyWeight * unsure) / statements) * scale);
 * 4. generateReason: explain the score (skipped with `reason: false`).
 *
 * Differences from `@mastra/evals`: options are merged with the defaults and validated (never NaN,
 * the score always in [0, scale]); an empty or whitespace-only answer scores 0 without calling the
 * model; verdict strings are normalised once; a verdict list that does not match the statements is
 * repaired (by the verdicts' indexes) or the missing verdicts are asked for once, never silently
 * rescored; malformed JSON is read leniently, then re-asked once; very long answers are split into
 * batches; each step's token usage is in the result (`usage`, and `judge` in Mastra's shape).
 */
import { getAssistantMessageFromRunOutput, getUserMessageFromRunInput } from './messages.js';
import { assertModelInput, type ModelInput, type ModelSettings } from './model.js';
import {
  RELEVANCY_INSTRUCTIONS,
  RELEVANCY_TASKS,
  reasonPrompt,
  STATEMENTS_SCHEMA,
  statementsPrompt,
  VERDICTS_SCHEMA,
  verdictsPrompt,
} from './relevancy-prompts.js';
import { createScorer, type MastraCompatible, type Scorer, type StepContext } from '../scorer.js';

// Built from its code: hosts print escapes in literals as the character, and the bundle stays ASCII (test/plugin/ascii.test.ts).
const TIMES = String.fromCharCode(0xd7);

export type Verdict = 'yes' | 'unsure' | 'no';

export interface AnswerRelevancyOptions {
  /** Weight of an `unsure` verdict, in [0, 1]. Default 0.3. */
  uncertaintyWeight?: number;
  /** The score's maximum, > 0. Default 1. */
  scale?: number;
  /** `false` skips the explaining call: two judge calls instead of three. Default true. */
  reason?: boolean;
  /** Statements judged per call; longer lists are batched. Default 30. */
  maxStatementsPerCall?: number;
  /** Answer characters sent per statement-splitting call; longer answers are split into batches. Default 8000. */
  maxOutputChars?: number;
}

export interface AnswerRelevancyConfig extends AnswerRelevancyOptions {
  /** The judge: an AI SDK model object, a 'provider/model' string, or `offlineJudge()`. */
  model: ModelInput;
  options?: AnswerRelevancyOptions;
  /** Settings for every judge call (temperature defaults to 0). */
  modelSettings?: ModelSettings;
}

export interface RelevancyVerdict {
  result: Verdict;
  reason: string;
}

const DEFAULTS: Required<AnswerRelevancyOptions> = {
  uncertaintyWeight: 0.3,
  scale: 1,
  reason: true,
  maxStatementsPerCall: 30,
  maxOutputChars: 8000,
};
const OPTION_KEYS = Object.keys(DEFAULTS) as Array<keyof AnswerRelevancyOptions>;
const TOP_LEVEL_KEYS = ['model', 'options', 'modelSettings', ...OPTION_KEYS];

export const round2 = (value: number): number => Math.round((value + Number.EPSILON) * 100) / 100;

/** Trimmed and lower-cased; anything other than `yes` or `unsure` is `no`. Applied once, when verdicts are read. */
function normaliseVerdict(raw: unknown): Verdict {
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return text === 'yes' || text === 'unsure' ? text : 'no';
}

function resolveOptions(config: AnswerRelevancyConfig): Required<AnswerRelevancyOptions> {
  const where = 'createAnswerRelevancyScorer';
  for (const key of Object.keys(config)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      throw new TypeError(`${where}: unknown option "${key}"; known: ${TOP_LEVEL_KEYS.join(', ')}`);
    }
  }
  const nested = config.options === undefined ? {} : config.options;
  if (nested === null || typeof nested !== 'object' || Array.isArray(nested)) {
    throw new TypeError(`${where}: "options" must be an object`);
  }
  const settings = config.modelSettings;
  if (settings !== undefined && (settings === null || typeof settings !== 'object' || Array.isArray(settings))) {
    throw new TypeError(`${where}: "modelSettings" must be an object`);
  }
  for (const key of Object.keys(nested)) {
    if (!OPTION_KEYS.includes(key as keyof AnswerRelevancyOptions)) {
      throw new TypeError(`${where}: unknown option "options.${key}"; known: ${OPTION_KEYS.join(', ')}`);
    }
  }
  // Defaults, then top-level values, then `options`; an explicit `undefined` means "use the default".
  const merged: Record<string, unknown> = { ...DEFAULTS };
  for (const source of [config as unknown as Record<string, unknown>, nested as Record<string, unknown>]) {
    for (const key of OPTION_KEYS) if (source[key] !== undefined) merged[key] = source[key];
  }
  const o = merged as Required<AnswerRelevancyOptions>;
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!isNumber(o.uncertaintyWeight) || o.uncertaintyWeight < 0 || o.uncertaintyWeight > 1) {
    throw new RangeError(`${where}: uncertaintyWeight must be a number in [0, 1]; got ${String(o.uncertaintyWeight)}`);
  }
  if (!isNumber(o.scale) || o.scale <= 0) {
    throw new RangeError(`${where}: scale must be a number > 0; got ${String(o.scale)}`);
  }
  if (typeof o.reason !== 'boolean') {
    throw new TypeError(`${where}: reason must be true or false; got ${String(o.reason)}`);
  }
  for (const key of ['maxStatementsPerCall', 'maxOutputChars'] as const) {
    if (!Number.isInteger(o[key]) || o[key] < 1) {
      throw new RangeError(`${where}: ${key} must be a positive integer; got ${String(o[key])}`);
    }
  }
  return o;
}

/** Splits text into chunks of at most `max` characters, preferring paragraph, then sentence, then word breaks. */
function chunkText(text: string, max: number): string[] {
  const chunks: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    const cut =
      lastBreak(window, /\n\s*\n/g, max) ?? lastBreak(window, /[.!?\u3002\uff01\uff1f]\s+/g, max) ?? lastBreak(window, /\s+/g, max) ?? max;
    chunks.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) chunks.push(rest);
  return chunks;
}

function lastBreak(window: string, pattern: RegExp, max: number): number | undefined {
  let best: number | undefined;
  for (const match of window.matchAll(pattern)) {
    const end = match.index! + match[0].length;
    // Do not cut in the first fifth of the window: that would make tiny chunks.
    if (end <= max && end > max / 5) best = end;
  }
  return best;
}

interface RawVerdict {
  index?: unknown;
  result?: unknown;
  reason?: unknown;
}

/**
 * Matches the judge's verdicts to the statements. With every verdict numbered, by number (extra or
 * duplicate numbers are dropped); without numbers, by position only when the counts agree. Returns
 * one slot per statement, `undefined` where no verdict could be matched.
 */
function alignVerdicts(raw: readonly RawVerdict[], count: number): Array<RelevancyVerdict | undefined> {
  const slots: Array<RelevancyVerdict | undefined> = new Array(count).fill(undefined);
  const read = (item: RawVerdict): RelevancyVerdict => ({
    result: normaliseVerdict(item?.result),
    reason: typeof item?.reason === 'string' ? item.reason.trim() : '',
  });
  const items = Array.isArray(raw) ? raw.filter((item) => item !== null && typeof item === 'object') : [];
  const numberOf = (index: unknown): number | null =>
    Number.isInteger(index) ? (index as number) : typeof index === 'string' && /^\s*\d+\s*$/.test(index) ? Number(index) : null;
  const indexes = items.map((item) => numberOf(item.index));
  if (items.length > 0 && indexes.every((i) => i !== null)) {
    // We number statements from 1; a judge that counts from 0 says so by using 0.
    const base = indexes.includes(0) ? 0 : 1;
    items.forEach((item, i) => {
      const slot = (indexes[i] as number) - base;
      if (slot >= 0 && slot < count && slots[slot] === undefined) slots[slot] = read(item);
    });
  } else if (items.length === count) {
    items.forEach((item, i) => (slots[i] = read(item)));
  }
  return slots;
}

export function createAnswerRelevancyScorer(config: AnswerRelevancyConfig): MastraCompatible<Scorer<'answer-relevancy-scorer'>> {
  if (config === null || typeof config !== 'object') {
    throw new TypeError('createAnswerRelevancyScorer: takes { model, options? }');
  }
  assertModelInput(config.model, 'createAnswerRelevancyScorer');
  const options = resolveOptions(config);

  const scorer = createScorer({
    id: 'answer-relevancy-scorer',
    name: 'Answer Relevancy Scorer',
    description: "Scores how relevant an assistant's answer is to the user's input",
    judge: { model: config.model, instructions: RELEVANCY_INSTRUCTIONS, modelSettings: config.modelSettings },
    type: 'agent',
  })
    .preprocess(
      Object.assign(
        async ({ run, callJudge }: StepContext) => {
          const output = (getAssistantMessageFromRunOutput(run.output) ?? '').trim();
          if (output === '') return { statements: [] as string[] };
          const statements: string[] = [];
          for (const chunk of chunkText(output, options.maxOutputChars)) {
            const reply = await callJudge<{ statements: unknown[] }>({
              prompt: statementsPrompt(chunk),
              outputSchema: STATEMENTS_SCHEMA,
              task: { name: RELEVANCY_TASKS.statements, data: { output: chunk } },
            });
            const found = reply.statements.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim());
            // A non-empty answer always says something: if the judge found no statement, judge the text as one.
            statements.push(...(found.length > 0 ? found : [chunk]));
          }
          return { statements };
        },
        { description: "Split the assistant's answer into statements" },
      ),
    )
    .analyze(
      Object.assign(
        async ({ run, results, callJudge }: StepContext) => {
          const statements: string[] = results.preprocessStepResult?.statements ?? [];
          if (statements.length === 0) return { results: [] as RelevancyVerdict[] };
          const input = getUserMessageFromRunInput(run.input) ?? '';
          const ask = async (batch: string[]) => {
            const reply = await callJudge<{ results: RawVerdict[] }>({
              prompt: verdictsPrompt(input, batch),
              outputSchema: VERDICTS_SCHEMA,
              task: { name: RELEVANCY_TASKS.verdicts, data: { input, statements: batch } },
            });
            return alignVerdicts(reply.results, batch.length);
          };
          const verdicts: RelevancyVerdict[] = [];
          for (let start = 0; start < statements.length; start += options.maxStatementsPerCall) {
            const batch = statements.slice(start, start + options.maxStatementsPerCall);
            const slots = await ask(batch);
            const missing = slots.flatMap((slot, i) => (slot === undefined ? [i] : []));
            if (missing.length > 0) {
              // Ask once more, for the unmatched statements only.
              const again = await ask(missing.map((i) => batch[i]));
              missing.forEach((i, j) => (slots[i] = again[j]));
              const still = slots.filter((slot) => slot === undefined).length;
              if (still > 0) {
                throw new Error(
                  `the judge's verdicts did not match the ${batch.length} statements (${still} without a verdict, even after asking again)`,
                );
              }
            }
            verdicts.push(...(slots as RelevancyVerdict[]));
          }
          return { results: verdicts };
        },
        { description: 'Judge each statement against the input as yes / unsure / no' },
      ),
    )
    .generateScore(
      Object.assign(
        ({ results }: StepContext) => {
          const verdicts: RelevancyVerdict[] = results.analyzeStepResult?.results ?? [];
          if (verdicts.length === 0) return 0;
          let points = 0;
          for (const { result } of verdicts) points += result === 'yes' ? 1 : result === 'unsure' ? options.uncertaintyWeight : 0;
          const score = round2((points / verdicts.length) * options.scale);
          return Math.min(options.scale, Math.max(0, score));
        },
        { description: `(yes + ${options.uncertaintyWeight} ${TIMES} unsure) / statements ${TIMES} ${options.scale}` },
      ),
    );

  if (!options.reason) return scorer;
  return scorer.generateReason(
    Object.assign(
      async ({ run, results, score, callJudge }: StepContext) => {
        const statements: string[] = results.preprocessStepResult?.statements ?? [];
        if (statements.length === 0) {
          return `The score is ${score} because the output is empty: it says nothing that could answer the input.`;
        }
        const input = getUserMessageFromRunInput(run.input) ?? '';
        const output = getAssistantMessageFromRunOutput(run.output) ?? '';
        const verdicts: RelevancyVerdict[] = results.analyzeStepResult.results;
        const text = await callJudge<string>({
          prompt: reasonPrompt({ input, output, score: score!, scale: options.scale, statements, results: verdicts }),
          task: { name: RELEVANCY_TASKS.reason, data: { input, score, scale: options.scale, statements, results: verdicts } },
        });
        return text.trim();
      },
      { description: 'Explain the score' },
    ),
  );
}

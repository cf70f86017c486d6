/**
 * `offlineJudge()`: a deterministic local judge for demos and offline CI. No network, no key, no `ai`.
 *
 * It is an AI SDK language model object (specification v3: `doGenerate`, `doStream`), marked so that
 * this package's model adapter calls it directly. It does not read prompt text: each judge call of
 * this package carries its purpose and data in `providerOptions['agent-scorers']` (real providers
 * ignore that key), and the offline judge answers those tasks with word-overlap heuristics:
 * - answer-relevancy statements: sentence splitting;
 * - answer-relevancy verdicts: shared key terms between question and statement (after stop-word
 *   removal and light stemming), plus answer-type cues (a number for "how many", weather words for a
 *   weather question, ...): many shared terms → yes, some or a cue → unsure, none → no;
 * - answer-relevancy reason: a templated explanation.
 * For any other call it returns a placeholder: JSON that fits the requested schema (strings say
 * "heuristic", numbers are 0, booleans false, arrays empty) or a text saying no model was used.
 * Every verdict reason and explanation starts with "[offline heuristic]": results say what they are.
 */
import { LOCAL_MODEL } from './model.js';
import { RELEVANCY_TASKS } from './relevancy-prompts.js';

const TAG = '[offline heuristic]';

const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am ' +
    'do does did done have has had having can could would should will shall may might must not no nor so than too very ' +
    'this that these those there here it its it\'s i me my we our you your he him his she her they them their what which who ' +
    'whom whose when where why how please tell explain describe give show list let know want need like just also any some ' +
    'all each more most much many other such only own same again further once get got up down out over under s t'
  ).split(/\s+/),
);

function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  return w;
}

/** Content terms of a text: lower-cased words minus stop words, lightly stemmed. */
function keyTerms(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  return new Set(words.filter((w) => !STOP_WORDS.has(w)).map(stem).filter((w) => w.length > 1 || /\d/.test(w)));
}

/** Answer-type cues. A strong cue (the very kind of information asked for) counts as an answer by itself. */
const CUES: Array<{ question: RegExp; answer: RegExp; label: string; strong?: boolean }> = [
  { question: /\bhow (many|much|old|long|far|big|tall|fast)\b|\bwhat (year|time|percentage|number)\b/i, answer: /\d/, label: 'a number', strong: true },
  {
    question: /\bwhen\b/i,
    answer: /\d|\b(today|tomorrow|yesterday|morning|evening|night|week|month|year|century|january|february|march|april|may|june|july|august|september|october|november|december)\b/i,
    label: 'a time or date',
    strong: true,
  },
  {
    question: /\b(weather|temperature|forecast|rain\w*|sunny|climate)\b/i,
    answer: /°|\b(sunny|sun|rain\w*|cloud\w*|wind\w*|snow\w*|storm\w*|fog\w*|humid\w*|degrees?|celsius|fahrenheit|warm|cold|hot|mild|forecast|temperature)\b/i,
    label: 'weather terms',
    strong: true,
  },
  { question: /\bwho\b/i, answer: /(^|\s)\S*[\p{Lu}]\p{Ll}+\s+[\p{Lu}]\p{Ll}+/u, label: 'a name' },
  { question: /\bwhere\b/i, answer: /\b(in|at|near|north|south|east|west|located)\b/i, label: 'a place' },
];

/** What the verdicts read from the question, computed once for all of its statements. */
interface Question {
  terms: Set<string>;
  /** The CUES whose question pattern matches, in CUES order. */
  cues: typeof CUES;
}

function readQuestion(question: string): Question {
  return { terms: keyTerms(question), cues: CUES.filter((c) => c.question.test(question)) };
}

function heuristicVerdict(question: Question, statement: string): { result: 'yes' | 'unsure' | 'no'; reason: string } {
  const questionTerms = question.terms;
  const statementTerms = keyTerms(statement);
  const shared = [...questionTerms].filter((term) => statementTerms.has(term));
  const cue = question.cues.find((c) => c.answer.test(statement));
  const needed = Math.max(1, Math.min(questionTerms.size, 4));
  const ratio = shared.length / needed;
  const sharedText = shared.slice(0, 4).map((t) => `"${t}"`).join(', ');
  if (ratio >= 0.5 || (cue && (shared.length > 0 || cue.strong))) {
    const parts = [shared.length > 0 ? `shares ${sharedText} with the question` : '', cue ? `gives ${cue.label}` : ''].filter(Boolean);
    return { result: 'yes', reason: `${TAG} ${parts.join(' and ')}` };
  }
  if (shared.length > 0 || cue) {
    return {
      result: 'unsure',
      reason: shared.length > 0 ? `${TAG} shares only ${sharedText} with the question` : `${TAG} gives ${cue!.label} but shares no key term with the question`,
    };
  }
  return { result: 'no', reason: `${TAG} shares no key term with the question` };
}

function splitStatements(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?。！？])\s+/u)
    .map((part) => part.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((part) => /[\p{L}\p{N}]/u.test(part));
}

function placeholder(schema: any, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = placeholder(sub, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      return `${TAG} no language model was used`;
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    default:
      return schema.properties ? placeholder({ ...schema, type: 'object' }, depth) : null;
  }
}

function answer(options: any): string {
  const meta = options?.providerOptions?.['agent-scorers'] ?? {};
  const data = meta.data ?? {};
  switch (meta.task) {
    case RELEVANCY_TASKS.statements:
      return JSON.stringify({ statements: splitStatements(String(data.output ?? '')) });
    case RELEVANCY_TASKS.verdicts: {
      const statements: string[] = Array.isArray(data.statements) ? data.statements : [];
      const question = readQuestion(String(data.input ?? ''));
      return JSON.stringify({
        results: statements.map((statement, i) => ({ index: i + 1, ...heuristicVerdict(question, String(statement)) })),
      });
    }
    case RELEVANCY_TASKS.reason: {
      const results: Array<{ result: string }> = Array.isArray(data.results) ? data.results : [];
      const count = (v: string) => results.filter((r) => r.result === v).length;
      return (
        `The score is ${data.score} because ${count('yes')} of ${results.length} statements share key terms with the question, ` +
        `${count('unsure')} only touch on it and ${count('no')} do not. ${TAG} Judged by word overlap, without a language model.`
      );
    }
    default: {
      const format = options?.responseFormat;
      if (format?.type === 'json') return JSON.stringify(placeholder(format.schema) ?? {});
      return `${TAG} No language model was used; this is a placeholder reply.`;
    }
  }
}

export interface OfflineJudge {
  readonly specificationVersion: 'v3';
  readonly provider: 'agent-scorers';
  readonly modelId: 'offline-heuristic-judge';
  readonly supportedUrls: Record<string, RegExp[]>;
  /** Always true: this judge's verdicts come from word-overlap heuristics, not a language model. */
  readonly heuristic: true;
  doGenerate(options: any): Promise<any>;
  doStream(options: any): Promise<any>;
}

const ZERO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A deterministic local judge (see the module comment). Usable as `model` of `createAnswerRelevancyScorer`. */
export function offlineJudge(): OfflineJudge {
  const generate = async (options: any) => ({
    content: [{ type: 'text', text: answer(options) }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: ZERO_USAGE,
    warnings: [],
    providerMetadata: { 'agent-scorers': { heuristic: true } },
  });
  return Object.freeze({
    specificationVersion: 'v3' as const,
    provider: 'agent-scorers' as const,
    modelId: 'offline-heuristic-judge' as const,
    supportedUrls: {},
    heuristic: true as const,
    [LOCAL_MODEL]: true,
    doGenerate: generate,
    async doStream(options: any) {
      const text = answer(options);
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: ZERO_USAGE },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}


/**
 * `offlineJudge()`: a deterministic local judge for demos and offline CI. No network, no key, no `ai`.
 *
 * It is an AI SDK language model object (specification v3: `doGenerate`, `doStream`), marked so that
 * this package's model adapter calls it directly. It does not read prompt text: each judge call of
 * this package carries its purpose and data in `providerOptions['agent-scorers']` (real providers
 * ignore that key), and the offline judge answers those tasks with heuristics, not a language model:
 * - answer-relevancy statements: sentence splitting;
 * - answer-relevancy verdicts: the question's kind, read from its question word (how many -> a number,
 *   when -> a time, where -> a place, who -> a name, why -> a cause, how do I -> an instruction, yes-no,
 *   what/which -> something said about its focus term); a statement giving the asked kind of content,
 *   or a short noun phrase that is the whole answer ("Tokyo"), is `yes`; one that only mentions the
 *   question's terms, declines, or talks about the question is `unsure`; error messages and unrelated
 *   text are `no`. Calibrated against a hand-labelled set (test/runtime/calibration/): see README;
 * - answer-relevancy reason: a templated explanation.
 * For any other call it returns a placeholder: JSON that fits the requested schema (strings say
 * "heuristic", numbers are 0, booleans false, arrays empty) or a text saying no model was used.
 * Every verdict reason and explanation starts with "[offline heuristic]": results say what they are.
 */
import { LOCAL_MODEL, readOnlyModel } from './model.js';
import { RELEVANCY_TASKS } from './relevancy-prompts.js';

const TAG = '[offline heuristic]';

const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am ' +
    'do does did done have has had having can could would should will shall may might must not no nor so than too very ' +
    'this that these those there here it its i me my we our you your he him his she her they them their what which who ' +
    'whom whose when where why how please tell explain describe define give show list let know want need like just also any some ' +
    'all each more most much many other such only own same again further once get got up down out over under s t'
  ).split(/\s+/),
);

/** Plurals that no suffix rule reaches. */
const IRREGULAR: Record<string, string> = {
  children: 'child', men: 'man', women: 'woman', people: 'person', mice: 'mouse', teeth: 'tooth', feet: 'foot', geese: 'goose',
};

function stem(word: string): string {
  let w = IRREGULAR[word] ?? word;
  // Latin plurals in -i meet their singular in -us: "cacti" and "cactus" both become "cactu".
  if (w.length >= 5 && w.endsWith('i')) return `${w.slice(0, -1)}u`;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  // "compile" and "compiled" meet at "compil".
  return w.length > 3 && w.endsWith('e') && !w.endsWith('ee') ? w.slice(0, -1) : w;
}

/** Content terms of a text, in order of first appearance: lower-cased words minus stop words, lightly stemmed. */
function keyTerms(text: string): string[] {
  // Hyphenated words count by their parts: "visa-free" mentions "visa".
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'\u2019]*/gu) ?? [];
  const terms = words
    .map((w) => w.replace(/['\u2019]s$/, ''))
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem)
    .filter((w) => w.length > 1 || /\d/.test(w));
  return [...new Set(terms)];
}

/**
 * What kind of answer a question asks for, read from its question word (or its first word for
 * yes-no questions and requests). Each kind has an answer cue: the kind of content that answers it.
 */
type QuestionKind =
  | 'quantity'
  | 'time'
  | 'place'
  | 'person'
  | 'reason'
  | 'procedure'
  | 'recommendation'
  | 'yes-no'
  | 'mechanism'
  | 'entity'
  | 'topic';

const KINDS: Array<[QuestionKind, RegExp]> = [
  ['time', /\bwhen\b|\bwhat (year|time|date|day)\b|\bhow long ago\b|\b(opening|closing|business|office) (hours|times)\b|\b(timetable|schedule)\b/],
  ['quantity', /\bhow (many|much|old|long|far|big|tall|fast|often|large|heavy|high|deep|wide|small)\b|\bwhat (percentage|number|amount)\b/],
  ['place', /\bwhere\b/],
  ['person', /\bwho(m|se)?\b/],
  ['reason', /\bwhy\b/],
  ['procedure', /\bhow (do|can|should|could|would|might) (i|we|you|one)\b|\bhow to\b|\b(steps|instructions) (to|for)\b/],
  ['recommendation', /\b(recommend|suggest)\b/],
  ['yes-no', /^(is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|might|has|have|had|must)\b/],
  ['mechanism', /\bhow (does|do|did|is|are)\b/],
  ['entity', /\b(what|which)\b|^(explain|describe|define)\b/],
];

const NUMBER_WORDS =
  'zero|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|' +
  'eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|hundreds|thousand|thousands|million|millions|' +
  'billion|billions|trillion|dozen|dozens|half|once|twice';
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend';
const IMPERATIVE_VERBS =
  'add|apply|ask|avoid|boil|call|change|check|choose|click|close|connect|contact|cook|cool|copy|create|cut|delete|download|drag|' +
  'drink|drop|eat|enable|disable|enter|fill|find|follow|go|heat|install|keep|limit|log|make|mix|open|paste|pick|place|plug|press|' +
  'put|read|remove|replace|reset|restart|run|save|select|set|sign|start|stop|take|tap|try|turn|type|unplug|update|upgrade|use|' +
  'visit|wait|wash|write';

const NUMBER_WORD = new RegExp(`\\b(${NUMBER_WORDS})\\b`, 'i');
const TIME_WORD = new RegExp(
  `\\b(${MONTHS}|${DAYS}|today|tomorrow|tonight|yesterday|now|ago|soon|morning|afternoon|evening|midnight|noon|daily|weekly|century|centuries|decade|bc|bce|ad|(next|last|this) (week|month|year))\\b`,
  'i',
);
const IMPERATIVE = new RegExp(`^(?:(?:first|then|next|finally|also|or|and|now|just|simply),?\\s+)?(${IMPERATIVE_VERBS})\\b`, 'i');

/** The answer cue of each kind of question: content of the asked kind. */
const ANSWER_CUES: Partial<Record<QuestionKind, { label: string; test: (statement: string, question: Question) => boolean }>> = {
  quantity: { label: 'a number', test: (s) => /\d/.test(s) || NUMBER_WORD.test(s) },
  time: {
    label: 'a time or date',
    test: (s) =>
      /\b(1\d{3}|20\d{2})s?\b|\b\d{1,2}(:\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b|\b\d+(st|nd|rd|th) century\b/i.test(s) ||
      TIME_WORD.test(s),
  },
  place: {
    label: 'a place',
    test: (s) =>
      /\b(in|at|on|near|off|from|inside|outside|across|along|between|to)\s+(the\s+)?\p{Lu}/u.test(s) ||
      // "in an airtight container", "at the front desk": a locative phrase, named or not.
      /\b(in|at|on|inside|near)\s+(a|an|the|your|our)\s+\p{L}/iu.test(s) ||
      /\b(north|south|east|west|northern|southern|eastern|western|coast|city|town|country|island|mountains?|region|continent|ocean|sea|river|valley|online|website|office|street|shop|store|located|nearby|centre|center|downtown|abroad|home)\b/i.test(
        s,
      ),
  },
  person: { label: 'a name', test: (s, q) => personName(q, s) },
  recommendation: { label: 'a name or title', test: (s) => hasName(s) },
  reason: {
    label: 'a cause',
    test: (s) =>
      /\b(because|due to|caused by|causes?|as a result|so that|in order to|therefore|thus|which means|leads? to|results? in|the reason|when)\b|, so\b/i.test(s),
  },
  procedure: {
    label: 'an instruction',
    test: (s) =>
      IMPERATIVE.test(s) ||
      /\b(you can|you could|you should|you need to|you'll need|you must|you have to|make sure|go to|by (using|clicking|going))\b/i.test(s),
  },
  'yes-no': {
    label: 'a yes or no',
    test: (s) =>
      /^(yes|no|yeah|yep|nope|not|never|always|absolutely|definitely|certainly|of course|it depends|depends|usually|generally|sometimes|only if|probably|likely|unlikely)\b/i.test(
        s,
      ),
  },
};

const WEATHER = {
  question: /\b(weather|temperature|forecast|rain\w*|sunny|climate)\b/i,
  answer: /\u00b0|\b(sunny|sun|rain\w*|cloud\w*|wind\w*|snow\w*|storm\w*|fog\w*|humid\w*|degrees?|celsius|fahrenheit|warm|cold|hot|mild|forecast|temperature)\b/i,
};

/** A person's or a work's name: two capitalised words in a row, a capitalised word inside the sentence, or an acronym. */
function hasName(statement: string): boolean {
  if (/\p{Lu}\p{Ll}+\s+(?:(?:da|de|del|van|von|der|le|la)\s+)?\p{Lu}\p{Ll}+/u.test(statement)) return true;
  if (/\b\p{Lu}{2,}\b/u.test(statement)) return true;
  return /(?<=[\p{L},;:]\s+)\p{Lu}\p{Ll}+/u.test(statement.replace(/\bI\b/g, 'i'));
}

/** Capitalised words that are not names of people or works. */
const CALENDAR = new RegExp(`^(${MONTHS}|${DAYS})s?$`, 'i');

/**
 * A name the answer brings to a "who" question: a capitalised word, pair of words or acronym that
 * the question does not contain, outside a place phrase ("in Redmond, Washington") and not a day or
 * month. A capitalised first word counts only when the statement takes up the question's terms
 * ("Shakespeare wrote it" to "Who wrote Hamlet?"), since any sentence starts with one ("Dogs bark").
 */
function personName(question: Question, statement: string): boolean {
  const text = statement.replace(/\b(?:in|at|from|near|on)\s+(?:the\s+)?\p{Lu}[\p{L}\p{N}]*(?:,?\s+\p{Lu}[\p{L}\p{N}]*)*/gu, ' ');
  const tokens = text.match(/[\p{L}\p{N}][\p{L}\p{N}'\u2019-]*/gu) ?? [];
  const isName = (token: string) =>
    /^\p{Lu}/u.test(token) && token !== 'I' && !CALENDAR.test(token) && !question.terms.includes(stem(token.toLowerCase()));
  if (tokens.some((token, i) => i > 0 && isName(token))) return true;
  const first = tokens[0];
  if (first === undefined || STOP_WORDS.has(first.toLowerCase()) || !isName(first)) return false;
  if (tokens[1] !== undefined && /^\p{Lu}/u.test(tokens[1])) return true;
  return keyTerms(statement).some((term) => question.terms.includes(term));
}

/** A capitalised word inside the statement that the question does not contain: a name the answer brings. */
function freshName(question: Question, statement: string): boolean {
  const inside = statement.match(/(?<=\S\s+)\p{Lu}[\p{L}\p{N}]+/gu) ?? [];
  const first = statement.match(/^\p{Lu}[\p{L}\p{N}]+/u)?.[0];
  const names = first && !STOP_WORDS.has(first.toLowerCase()) ? [first, ...inside] : inside;
  return names.some((name) => !question.terms.includes(stem(name.toLowerCase())));
}

/**
 * Common English verbs (base forms; inflections are derived): with the shapes in `hasFiniteVerb`,
 * they tell a short sentence ("Trains run on time.") from a short answer phrase ("The blue whale.").
 */
const VERBS = (
  'bark bake become begin bite bleed blow boil break bring build burn buy catch change chase click climb come cook cost ' +
  'crawl cry dance die dig drift drink drive drop eat fall feed feel fight fit fix float flow fly follow forget freeze ' +
  'give glow go grow hang happen hate help hide hit hold hunt hurt jam jump keep kick kill kiss know laugh lead learn leave ' +
  'lie like listen live look lose love make matter meet melt migrate miss move need open own paint pass pay play pour ' +
  'pull push rain reach read ride ring rise roar run say see seem sell send shine shoot sing sink sit sleep smell smile ' +
  'snow speak spend spin stand stay steal stick sting sound swim take talk taste teach tell think throw travel try turn ' +
  'wait wake walk want warm watch wear win wish work worry write'
).split(' ');
const IRREGULAR_PAST =
  'ate became began bit bled blew broke brought built burnt bought caught came cost dug drank drove fell fed felt fought ' +
  'flew forgot froze gave went grew hung hid held hurt kept knew led left lay lost made met paid ran rang rose said saw ' +
  'sold sent shone shot sang sank sat slept spoke spent spun stood stole stuck stung swam took taught told thought threw ' +
  'woke wore won wrote written done gone seen';
const VERB_FORMS = new Set([
  ...VERBS.flatMap((v) => [v, v.endsWith('y') ? `${v.slice(0, -1)}ies` : /(s|sh|ch|x|o)$/.test(v) ? `${v}es` : `${v}s`, v.endsWith('e') ? `${v}d` : `${v}ed`]),
  ...IRREGULAR_PAST.split(' '),
]);
const FREQUENCY_ADVERB = /^(never|always|often|rarely|seldom|usually|sometimes|hardly|barely)$/;
const NOT_ADVERBS = new Set(['family', 'supply', 'early', 'daily', 'weekly', 'monthly', 'yearly', 'only', 'holy', 'jelly', 'belly', 'assembly', 'butterfly', 'reply', 'apply', 'rally', 'italy']);
const DETERMINER = /^(the|a|an|some|no|my|our|your|their|his|her|its)$/i;
const FUNCTION_WORD = /^(the|a|an|of|and|or|in|on|at|to|for|with|from|by|per|about|around|over|under)$/i;

/**
 * Whether a short text is a sentence rather than an answer phrase: a lower-case word after the first
 * that is a known verb form, a frequency adverb or an -ly adverb, or the shape "Nouns verb X" /
 * "Noun verbs X" (a plural subject followed by a bare word, or a singular one followed by an -s form).
 * Capitalised words are never read as verbs: "Hypertext Transfer Protocol" is a name.
 */
function hasFiniteVerb(text: string): boolean {
  const tokens = text.match(/[\p{L}\p{N}][\p{L}\p{N}'\u2019-]*/gu) ?? [];
  const lower = (t: string | undefined) => t !== undefined && /^\p{Ll}/u.test(t);
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (!lower(t)) continue;
    if (VERB_FORMS.has(t) || FREQUENCY_ADVERB.test(t) || (t.length > 4 && t.endsWith('ly') && !NOT_ADVERBS.has(t))) return true;
  }
  const words = DETERMINER.test(tokens[0] ?? '') ? tokens.slice(1) : tokens;
  if (words.length < 3 || !lower(words[1]) || FUNCTION_WORD.test(words[1])) return false;
  const plural = (t: string) => /[^su]s$/i.test(t) && t.length > 3;
  return plural(words[0]) ? !plural(words[1]) : plural(words[1]) && !/ss$/.test(words[1]);
}

/** Replies that carry no answer at all: error messages, stack-trace lines. */
const ERROR_TEXT =
  /^\s*(null|undefined|nan|\[object object\]|\{\s*\}|\[\s*\])\s*$|^\s*[\w.]*(error|exception|fatal|traceback)\b\s*[:!(]|^\s*[45]\d\d\s+\p{Lu}|\b(service unavailable|internal server error)\b|^\s*(internal server error|bad gateway|service unavailable|gateway time-?out|not found)\b|\b(cannot read propert\w+ of|is not a function|is not defined|undefined is not|econnrefused|etimedout|stack trace|request timed out|something went wrong)\b/iu;
/** Replies that decline to answer: on the question's topic, but not an answer. */
const REFUSAL =
  /\b(i (do not|don't|cannot|can't|can not|am unable|am not able|have no|am not sure|do not know|don't know)|i'm (not sure|unable|sorry)|unable to (provide|answer|check|access|help)|no access to|not able to (provide|answer|check|access))\b/i;
/** Statements about the question instead of about its answer. */
const META = /\b((good|great|interesting|common|popular|tricky|hard) question|question (that )?(many|people|often|everyone)|people (often |always )?ask|you asked|let me (think|answer|explain))\b/i;
const AUXILIARY = /\b(is|are|was|were|am|be|been|have|has|had|do|does|did|can|cannot|can't|will|won't|would|should|could|may|might|must)\b/i;
const PRONOUN_START = /^(it|its|they|their|this|these|that|those|he|she|his|her|there|you)\b/i;
/** A definition's shape: "X is a ...", "X are the ...", "X means ...". */
const DEFINITION = /\b(is|are|was|were)\s+(a|an|the|one|any|when|where|how)\b|\b(means|refers to|stands for|is called|are called)\b/i;
/**
 * Yes-no questions about what is allowed or available ("Can I bring my dog?", "Is the shop open?")
 * or about a judgement ("Is coffee bad for you?").
 */
const JUDGEMENT_QUESTION =
  /^(can|may|could) (i|we|you|guests?|visitors?|one)\b|\b(allowed|permitted|accept\w*|open|closed|bad|good|safe|healthy|harmful|dangerous|legal|necessary|required|worth)\b/;
/** Statements that say what is allowed, available, safe or required: the substance of a yes or no to such a question. */
const JUDGEMENT_ANSWER =
  /\b(welcome|allowed|permitted|accepted|acceptable|available|forbidden|prohibited|banned|fine|ok|okay|opens?|closed?|closes|may|can|cannot|can't|only|safe|unsafe|healthy|unhealthy|harmful|harmless|dangerous|risky|legal|illegal|necessary|required|recommended)\b/i;
/** Questions whose focus is a measure ("What is the population of Tokyo?"): a number answers them. */
const MEASURE_QUESTION =
  /\bwhat(?:'s| is| are| was| were)? (?:the |its |your |their )?(?:\w+ )?(population|price|cost|height|length|weight|depth|width|distance|speed|temperature|age|size|area|point|altitude|elevation|salary|fee|rate|capacity|duration)\b/;
/** Questions about a failure, which an error message answers. */
const ABOUT_FAILURE = /\b(fail\w*|error\w*|crash\w*|broke\w*|broken|wrong|exception|bug)\b/i;

/** What the verdicts read from the question, computed once for all of its statements. */
interface Question {
  kind: QuestionKind;
  /** Content terms, in order; the first is the question's focus ("capital" in "What is the capital of Japan?"). */
  terms: string[];
  weather: boolean;
  /** The question asks about a failure ("Why did the build fail?"): an error message answers it. */
  failure: boolean;
  /** The question offers alternatives ("A or B?"). */
  choice: boolean;
  /** A yes-no question about what is allowed, available, safe or required. */
  judgement: boolean;
  /** A "what" question whose focus is a measure, answered by a number. */
  measure: boolean;
}

function readQuestion(question: string): Question {
  const text = question.trim().toLowerCase().replace(/[\u2019]/g, "'");
  const kind = KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'topic';
  return {
    kind,
    terms: keyTerms(question),
    weather: WEATHER.question.test(question),
    failure: ABOUT_FAILURE.test(text),
    choice: /\S\s+or\s+\S[^?]*\?\s*$/.test(text),
    judgement: kind === 'yes-no' && JUDGEMENT_QUESTION.test(text),
    measure: kind === 'entity' && MEASURE_QUESTION.test(text),
  };
}

type Verdict = { result: 'yes' | 'unsure' | 'no'; reason: string };

/**
 * One statement against the question. `alone` says whether it is the whole answer; `previous` is the
 * verdict of the statement before it (a pronoun-led statement continues that statement's subject).
 */
function heuristicVerdict(question: Question, statement: string, alone: boolean, previous: Verdict | undefined): Verdict {
  const yes = (why: string): Verdict => ({ result: 'yes', reason: `${TAG} ${why}` });
  const unsure = (why: string): Verdict => ({ result: 'unsure', reason: `${TAG} ${why}` });
  const no = (why: string): Verdict => ({ result: 'no', reason: `${TAG} ${why}` });
  const text = statement.trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return no('says nothing');
  if (ERROR_TEXT.test(text)) {
    return question.failure ? yes('gives an error message, which the question about a failure asks for') : no('reads as an error message, not an answer');
  }
  if (REFUSAL.test(text)) return unsure('declines to answer');
  if (META.test(text)) return unsure('talks about the question instead of answering it');

  const terms = keyTerms(text);
  const shared = question.terms.filter((term) => terms.includes(term));
  const fresh = terms.filter((term) => !question.terms.includes(term));
  const quoted = shared.slice(0, 3).map((t) => `"${t}"`).join(', ');
  const cue = ANSWER_CUES[question.kind];
  if (cue?.test(text, question)) return yes(`gives ${cue.label}, which the question asks for`);
  if (question.weather && WEATHER.answer.test(text)) return yes('gives weather conditions, which the question asks for');
  if (question.measure && ANSWER_CUES.quantity!.test(text, question)) return yes('gives a number, which the question about a measure asks for');
  // "Pets are welcome." to "Can I bring my dog?": what is allowed is the substance of the yes or no.
  if (question.judgement && JUDGEMENT_ANSWER.test(text) && (alone || shared.length > 0)) {
    return yes('says what is allowed, available or safe, which the yes-no question asks');
  }

  // A short noun phrase that is the whole answer ("Tokyo", "Jane Austen.", "Mount Everest, at 8,849
  // metres") is a direct answer, except to questions whose answer must be a number, a time, a cause
  // or an instruction. Its head is what comes before an apposition (comma, colon, dash, parenthesis).
  // A short sentence is not a phrase: "Trains run on time." answers nothing by its shape alone.
  const head = text.split(/[,:;(\u2013\u2014]|\s-\s/)[0];
  const words = head.split(/\s+/).filter(Boolean).length;
  const short = words <= 4 && !AUXILIARY.test(head) && !PRONOUN_START.test(head) && !hasFiniteVerb(head);
  if (alone && short && shared.length === 0 && !['quantity', 'time', 'reason', 'procedure'].includes(question.kind)) {
    return yes('is a direct short answer');
  }
  // "Which is bigger, A or B?": a short reply naming one of the options picks it.
  if (alone && short && question.choice && shared.length > 0) return yes(`picks ${quoted} from the question's options`);

  // "What is X?" is answered by a statement about its focus X that defines it or names something new
  // ("... is the process ...", "... is Paris"); "How does X work?" by one that says what X does;
  // a yes-no question by one that takes up most of what it asks. Only repeating the question's
  // words, or naming its topic without its focus, does not answer.
  const focus = question.terms[0];
  const aboutFocus = focus !== undefined && shared.includes(focus) && fresh.length >= 1;
  if (question.kind === 'entity' && aboutFocus && (DEFINITION.test(text) || freshName(question, text))) {
    return yes(`says what "${focus}" is, the question's focus`);
  }
  if (question.kind === 'mechanism' && aboutFocus && fresh.length >= 3) return yes(`says what "${focus}" does`);
  if (question.kind === 'yes-no' && shared.length * 2 > question.terms.length && fresh.length >= 1) {
    return yes(`takes up ${quoted} from the question`);
  }
  if (question.kind === 'topic' && shared.length > 0 && fresh.length >= 2) return yes(`addresses ${quoted} from the question`);
  if (shared.length > 0) {
    return unsure(`mentions ${quoted} from the question${cue ? ` but does not give ${cue.label}` : ' but does not answer it'}`);
  }
  if (PRONOUN_START.test(text) && previous && previous.result !== 'no') return unsure('continues the previous statement');
  // "Soccer is popular there." as the first statement: "there" can only point at the question's subject.
  if (!previous && question.terms.length > 0 && /\b(there|it|them)\s*[.!?]*$/i.test(text)) {
    return unsure("refers back to the question's subject without answering it");
  }
  return no('shares no key term with the question and gives nothing it asks for');
}

function splitStatements(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?\u3002\uff01\uff1f])\s+/u)
    .map((part) => part.replace(/^\s*(?:[-*\u2022]|\d+[.)])\s+/, '').trim())
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
      const results: Verdict[] = [];
      for (const statement of statements) {
        results.push(heuristicVerdict(question, String(statement), statements.length === 1, results.at(-1)));
      }
      return JSON.stringify({ results: results.map((verdict, i) => ({ index: i + 1, ...verdict })) });
    }
    case RELEVANCY_TASKS.reason: {
      const results: Array<{ result: string }> = Array.isArray(data.results) ? data.results : [];
      const count = (v: string) => results.filter((r) => r.result === v).length;
      return (
        `The score is ${data.score} because ${count('yes')} of ${results.length} statements answer the question, ` +
        `${count('unsure')} only touch on it and ${count('no')} do not. ${TAG} Judged by word overlap and answer-type cues, without a language model.`
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
  /** Always true: this judge's verdicts come from heuristics (key terms, answer-type cues, answer shapes), not a language model. */
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
  return readOnlyModel({
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


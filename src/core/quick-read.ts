/**
 * The reading of a scorer file or config in the forms users write most, found with a few regular
 * expressions over the text, before any token is read: imports and type declarations, `const` bindings,
 * and a default export that is an object literal (or a name bound to one), a call, or a config call with
 * an object argument. Property values the readings do not judge are skipped whole (lex.ts), as are
 * function bodies and parameter lists.
 *
 * Why a second reader beside light-parse.ts: a build reads every file once in a fresh process, where
 * most of our code runs unoptimised and each JavaScript operation costs hundreds of instructions, and
 * where code that does get hot costs V8 more to optimise than it saves. Here a file costs a few dozen
 * operations (bench/README.md, "Cold builds"). It answers only what it is sure of, with the very reading
 * light-parse.ts and oxc-parser give (test/core/skeleton.test.ts compares all three on every sample);
 * anything else, every problem and every config without `scorers` included, returns null, and the
 * general reader reads the file.
 */
import { regexEnd, skipGroupAt, startsRegex, templateEnd } from './lex.js';
import { describeSamplingProblem, SCORER_EXPORT, UNKNOWN_EXPORT, type ConfigAnalysis, type ScorerFileAnalysis, type StaticSampling } from './readings.js';

/** White space and comments. */
const GAP = String.raw`(?:\s+|\/\/[^\n\r\u2028\u2029]*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/)*`;
const NAME = String.raw`[A-Za-z_$][\w$]*`;
const STRING = String.raw`'(?:[^'\\\n\r]|\\[^])*'|"(?:[^"\\\n\r]|\\[^])*"`;
/** A type as written after `:`, `as` or `satisfies` in the usual cases: a name with type arguments, a union of them, arrays. */
const TYPE_ARGS = String.raw`<(?:[^<>;=(){}]|<[^<>;=(){}]*>)*>`;
const TYPE = String.raw`${NAME}(?:\.${NAME})*(?:${TYPE_ARGS})?(?:\[\])*(?:\s*[|&]\s*${NAME}(?:\.${NAME})*(?:${TYPE_ARGS})?(?:\[\])*)*`;
/**
 * One statement of a file's head: an import (not `import x = require()`, not with attributes), or a type
 * alias or interface without braces in its head. Each ends where the next may start.
 */
const IMPORT = new RegExp(String.raw`import\s+(?:type\s+)?(?:${NAME}\s*,\s*)?(?:\{[^}'"\`/;]*\}|\*\s*as\s+${NAME}|${NAME})\s*from\s*(?:${STRING})|import\s*(?:${STRING})`, 'y');
const GAP_RE = new RegExp(GAP, 'y');
/** A string whose escapes are all valid in a module (no legacy octal, no `\8`, whole `\x` and `\u`). */
const STRICT_STRING_TEXT = String.raw`'(?:[^'\\\n\r]|\\(?:[^xu0-9\r\n]|x[\da-fA-F]{2}|u[\da-fA-F]{4}|u\{[\da-fA-F]{1,6}\}|0(?!\d)|\r\n?|\n))*'|"(?:[^"\\\n\r]|\\(?:[^xu0-9\r\n]|x[\da-fA-F]{2}|u[\da-fA-F]{4}|u\{[\da-fA-F]{1,6}\}|0(?!\d)|\r\n?|\n))*"`;
const STRICT_STRING = new RegExp(STRICT_STRING_TEXT, 'y');
/** A number, a boolean, null, or a template without substitutions or escapes, up to a non-word character. */
const LITERAL_WORD = /(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$.])|(?:true|false|null)(?![\w$])|`[^`\\$\r]*`)/y;
/** An import as the grammar has it (names and specifiers checked, escapes in strings too). */
const STRICT_IMPORT = new RegExp(String.raw`^import\s*(?:(?:(?:${NAME}\s*,\s*)?(?:\{\s*(?:(?:${NAME}(?:\s+as\s+${NAME})?|(?:${STRICT_STRING_TEXT})\s+as\s+${NAME})\s*,\s*)*(?:(?:${NAME}(?:\s+as\s+${NAME})?|(?:${STRICT_STRING_TEXT})\s+as\s+${NAME})\s*)?\}|\*\s*as\s+${NAME})|${NAME})\s*from\s*)?(?:${STRICT_STRING_TEXT})$`);
/** The local names an import binds. */
const IMPORTED_NAME = /\b(?:as\s+)?([A-Za-z_$][\w$]*)\b(?=\s*(?:,|\}|from\b))/g;
const STRING_RE = new RegExp(STRING, 'y');
const TYPE_IMPORT = /^import\s+type\s+[\w${*]|[{,]\s*type\s+(?!as\b)[\w$]/;
/** Words that start an expression that is no call (`async () => {}`, `new X()`, `typeof x`). */
const NOT_A_CALLEE = new Set(['async', 'await', 'yield', 'typeof', 'void', 'delete', 'new', 'function', 'class', 'this', 'super', 'import']);
const WORD = new RegExp(NAME, 'y');
const KEY = new RegExp(String.raw`(${NAME})|'([^'\\\n\r]*)'|"([^"\\\n\r]*)"|((?:0|[1-9]\d*)(?:\.\d+)?)(?![\w.])`, 'y');
/** `as const`, `as T` or `satisfies T` after an object literal (TypeScript only). */
const TYPE_SUFFIX = new RegExp(String.raw`(?:${GAP}(?:as\s+const\b|(?:as|satisfies)\s+${TYPE}))*`, 'y');
const SUFFIX_TYPE = new RegExp(TYPE, 'y');
const SUFFIX_KEYWORD = /\b(?:as|satisfies)\s+(?=[A-Za-z_$])/g;
/** A return type between a parameter list and its body: `: Promise<Result>`, `: number` (no object types). */
const RETURN_TYPE = new RegExp(String.raw`${GAP}:\s*${TYPE}`, 'y');
const ANNOTATION = new RegExp(String.raw`${GAP}:\s*${TYPE}`, 'y');
/** A flat object literal of literals: what a `sampling` value is written as. */
const FLAT_OBJECT = new RegExp(String.raw`\{(?:${GAP}(${NAME}|${STRING})${GAP}:${GAP}(${STRING}|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)${GAP},)*(?:${GAP}(${NAME}|${STRING})${GAP}:${GAP}(${STRING}|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))?${GAP}\}`, 'y');
const FLAT_MEMBER = new RegExp(String.raw`(${NAME}|${STRING})${GAP}:${GAP}(${STRING}|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`, 'g');
/** In a value that is skipped, everything up to a bracket, a quote, a slash, a comma or a semicolon. */
const VALUE_RUN = /[^,;{}()[\]'"`/]+/y;
/** Statements that may follow one whose end a line break marks. */
const NEXT_STATEMENT = /\s*(?:export|import|const|let|var|function|async|type|interface|class)\b/y;

/** Values that can never be a scorer: a value starting with one of these words (`scorer: function () {}`, `scorer: null`). */
const NOT_A_SCORER = new Set(['function', 'class', 'async', 'typeof', 'void', 'delete', 'await', 'yield', 'undefined', 'NaN', 'Infinity', 'true', 'false', 'null', 'import', 'super', 'in', 'instanceof', 'let', 'var', 'const', 'if', 'return', 'default', 'export', 'enum']);
/** Words that cannot be a binding's name in a module. */
const RESERVED = new Set('break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await eval arguments'.split(' '));

/**
 * What one file's reading found beside its statements: `complete` while every character read so far was
 * read by an exact grammar (imports checked strictly, literal values only, nothing skipped), so the file
 * is known to parse (a config without `scorers` is then settled here); `literals`, the [start, end)
 * ranges of the strings read, so a name in a description is not counted as a use of it.
 */
const state = { complete: true, literals: [] as number[] };

class Unsure extends Error {}
const unsure = (): never => {
  throw new Unsure();
};

/** The reading of a scorer file, or null when it is not in a form this reader knows. */
export function quickScorer(source: string, ts: boolean): ScorerFileAnalysis | null {
  try {
    const file = readFile(source, ts);
    if (file === null) return null;
    // A call's value is never evident (analyze-scorer.ts), nor one that starts with one (`f(x) ?? g`).
    if (file.exported.kind !== 'object') return UNKNOWN_EXPORT;
    const object = file.exported.object;
    const scorer = object.props.get('scorer');
    const id = object.props.has('id');
    const run = object.props.has('run');
    if (scorer !== undefined) {
      // As analyze-scorer.ts classifies an entry: `scorer`, `id` and `run` together are decided at run time.
      if (id && run) return UNKNOWN_EXPORT;
      if (scorer.kind === 'method' || !mayBeScorer(source, scorer)) return null; // a problem: the general reader words it
      const sampling = samplingOf(source, object.props.get('sampling'));
      if (sampling === null || sampling.kind === 'invalid') return null;
      return { hasDefault: true, problem: null, sampling, shape: 'entry' };
    }
    if (id && run) return SCORER_EXPORT;
    return null; // evidently not a scorer: a problem
  } catch {
    return null; // unsure (or not a string at all): the general reader decides
  }
}

/** The reading of a config, or null when it is not in a form this reader knows, has no `scorers`, or a problem. */
export function quickConfig(source: string, ts: boolean): ConfigAnalysis | null {
  try {
    const file = readFile(source, ts);
    // A call with one object literal is read as that object (analyze-config.ts), whatever the function.
    if (file === null || file.exported.kind === 'call') return null;
    const scorers = file.exported.object.props.get('scorers');
    if (scorers === undefined) {
      // Absent, and nothing can add it (a plain object or agentConfig()): `none`, which leaves the config out
      // of the bundle. Only where the whole file is known to parse (analyze-config.ts confirms it otherwise).
      const trusted = file.exported.kind === 'object' || file.exported.callee === 'agentConfig';
      return state.complete && trusted ? { kind: 'none', keys: [], open: false, sampling: new Map(), problems: [] } : null;
    }
    if (scorers.kind === 'method' || isFunctionValue(source, scorers)) return { kind: 'function', keys: [], open: false, sampling: new Map(), problems: [] };
    const record = scorers.kind === 'init' ? scorers.object : null;
    if (record === null) return null;
    const sampling = new Map<string, StaticSampling>();
    for (const [key, value] of record.props) {
      if (value.kind !== 'init') {
        sampling.set(key, { kind: 'unknown' });
        continue;
      }
      const entry = value.object;
      if (entry !== null) {
        // An entry (or a scorer) written inline: read as a scorer file's default export is.
        if (suffixEnd(source, entry.end, ts) !== entry.end) return null; // `{...} as Entry`: unwrapped by the general reader
        const inner = entry.props.get('scorer');
        const hasId = entry.props.has('id');
        const hasRun = entry.props.has('run');
        if (inner !== undefined && !(hasId && hasRun)) {
          if (inner.kind === 'method' || !mayBeScorer(source, inner)) return null;
          const entrySampling = samplingOf(source, entry.props.get('sampling'));
          if (entrySampling === null || entrySampling.kind === 'invalid') return null;
          sampling.set(key, entrySampling);
        } else if (inner === undefined && !(hasId && hasRun)) {
          return null; // evidently neither: a problem
        } else {
          sampling.set(key, samplingOf(source, entry.props.get('sampling')) ?? unsure());
        }
      } else {
        // A name bound in this file is followed by the general reader (and may be evidently wrong).
        const name = wordAt(source, value.start);
        if (!mayBeScorer(source, value) || (name !== null && file.bindings.has(name))) return null;
        sampling.set(key, { kind: 'unknown' });
      }
    }
    return { kind: 'record', keys: [...sampling.keys()], open: false, sampling, problems: [] };
  } catch {
    return null; // unsure (or not a string at all): the general reader decides
  }
}

interface Prop {
  kind: 'init' | 'method' | 'shorthand';
  /** The value's first character and the index just past its last (for a method: its key). */
  start: number;
  end: number;
  /** An object literal value (perhaps with `as`/`satisfies` after it), read: nested records and entries are read once. */
  object: ObjectLiteral | null;
}
/** A default export (or the value bound to its name): an object literal, a call with one, or another call. */
type Exported = { kind: 'object'; object: ObjectLiteral } | { kind: 'call-object'; object: ObjectLiteral; callee: string } | { kind: 'call' };

interface ObjectLiteral {
  /** By key, the property that gives it its value (the last one written). */
  props: Map<string, Prop>;
  /** Just past the closing `}`. */
  end: number;
}

/**
 * The file's statements: imports, type declarations, `const` bindings and helper functions, and its
 * default export, an object literal or a call (or a name bound to one by a `const` and used nowhere
 * else). Null for any other file; `bindings` holds every name the file declares or imports.
 */
function readFile(source: string, ts: boolean): { exported: Exported; bindings: Map<string, Exported | null> } | null {
  if (source.includes('\\u')) return null; // an escaped name is not its text
  state.complete = true;
  state.literals = [];
  let i = gap(source, source.startsWith('#!') ? lineEnd(source) : 0);
  /** `const` bindings of an object literal or a call, by name; `null` for names bound otherwise or twice. */
  const bindings = new Map<string, Exported | null>();
  const bind = (name: string, value: Exported | null): void => {
    if (RESERVED.has(name)) unsure();
    bindings.set(name, bindings.has(name) ? null : value);
  };
  let exported: Exported | null = null;
  let exportedName: string | null = null;
  let exportedAt = -1;
  while (i < source.length) {
    IMPORT.lastIndex = i;
    if (IMPORT.test(source)) {
      // `import type`, `{ type X }`: TypeScript only (a syntax error the host reports in a JS file).
      if (!ts && TYPE_IMPORT.test(source.slice(i, IMPORT.lastIndex))) return null;
      // Names imported are bound, not by a literal: a name both imported and declared is not followed.
      const text = source.slice(i, IMPORT.lastIndex);
      for (const match of text.matchAll(IMPORTED_NAME)) {
        if (bindings.has(match[1]) || RESERVED.has(match[1])) state.complete = false; // bound twice: an error
        bindings.set(match[1], null);
      }
      if (!STRICT_IMPORT.test(text) || /\btype\b/.test(text)) state.complete = false;
      i = statementEnd(source, IMPORT.lastIndex);
      continue;
    }
    const word = wordAt(source, i);
    if (word === 'export' && exportedAt === -1) {
      exportedAt = i;
      let j = gap(source, i + 6);
      if (wordAt(source, j) === 'default') {
        j = gap(source, j + 7);
        const name = wordAt(source, j);
        if (name !== null && !RESERVED.has(name) && endsStatement(source, gap(source, j + name.length))) {
          exportedName = name;
          i = statementEnd(source, gap(source, j + name.length));
          continue;
        }
        const value = objectOrCall(source, j, ts);
        exported = value.found;
        i = statementEnd(source, value.end);
        continue;
      }
      // `export { name as default }`
      const list = /\{\s*([A-Za-z_$][\w$]*)\s+as\s+default\s*,?\s*\}/y;
      list.lastIndex = j;
      const match = list.exec(source);
      if (match === null) return null;
      exportedName = match[1];
      i = statementEnd(source, list.lastIndex);
      continue;
    }
    state.complete = false; // only imports and the default export are read exactly
    if (word === 'const') {
      let j = gap(source, i + 5);
      const name = wordAt(source, j) ?? unsure();
      j += name.length;
      if (ts) {
        ANNOTATION.lastIndex = j;
        if (ANNOTATION.test(source)) j = ANNOTATION.lastIndex;
      }
      j = gap(source, j);
      if (source.charCodeAt(j) !== 61 || source.charCodeAt(j + 1) === 61 || source.charCodeAt(j + 1) === 62) unsure();
      j = gap(source, j + 1);
      const value = objectOrCall(source, j, ts);
      bind(name, value.found);
      i = statementEnd(source, value.end);
      continue;
    }
    if (word === 'function' || (word === 'async' && /async\s+function\b/y.test(source.slice(i, i + 40)))) {
      // A helper function: its name, parameters, return type and body.
      let j = gap(source, source.indexOf('function', i) + 8);
      if (source.charCodeAt(j) === 42) unsure(); // a generator
      const name = wordAt(source, j) ?? unsure();
      bind(name, null);
      j = gap(source, j + name.length);
      if (source.charCodeAt(j) !== 40) unsure();
      j = afterParameters(source, j, ts);
      i = gap(source, skipGroupAt(source, j));
      continue;
    }
    if (ts && (word === 'type' || word === 'interface')) {
      i = gap(source, typeDeclarationEnd(source, i, word));
      continue;
    }
    return null;
  }
  if (exportedAt === -1) return null;
  if (exportedName !== null) {
    // Followed only where nothing else names it (analyze-scorer.ts: a binding used elsewhere may be mutated).
    if (occurrences(source, exportedName, state.literals) > 2) return null;
    exported = bindings.get(exportedName) ?? null;
  }
  if (exported === null) return null;
  return { exported, bindings };
}

/**
 * The value at `i`: an object literal (with type suffixes), a call with one object literal
 * (`agentConfig({...})`, `x.defineConfig({...})`), or an expression that starts with a call
 * (`defineScorer<T>({...}).withSampling(...)`); `found` is null for any other value.
 */
function objectOrCall(source: string, i: number, ts: boolean): { found: Exported | null; end: number } {
  let j = i;
  if (source.charCodeAt(j) !== 123) {
    const name = wordAt(source, j);
    if (name === null || RESERVED.has(name) || NOT_A_CALLEE.has(name)) return { found: null, end: skipValue(source, i, ts) };
    j += name.length;
    let last = name;
    while (source.charCodeAt(j) === 46) {
      last = wordAt(source, j + 1) ?? unsure();
      j += 1 + last.length;
    }
    j = gap(source, j);
    const c = source.charCodeAt(j);
    if (c !== 40 && c !== 60) return { found: null, end: skipValue(source, i, ts) }; // a name, a member: not followed here
    if (c === 40) {
      // `callee({...})` and nothing more: read as the object.
      const argument = gap(source, j + 1);
      if (source.charCodeAt(argument) === 123) {
        const complete = state.complete;
        const object = readObject(source, argument, ts);
        const close = gap(source, object.end);
        if (source.charCodeAt(close) === 41 && endsStatement(source, gap(source, close + 1))) return { found: { kind: 'call-object', object, callee: last }, end: close + 1 };
        state.complete = complete;
      }
    }
    state.complete = false;
    return { found: { kind: 'call' }, end: skipValue(source, i, ts) };
  }
  const object = readObject(source, j, ts);
  const end = suffixEnd(source, object.end, ts);
  if (end !== object.end) state.complete = false; // `as`, `satisfies`: types are not read exactly
  if (!endsStatement(source, gap(source, end))) unsure();
  return { found: { kind: 'object', object }, end };
}

/**
 * The properties of the object literal at `open`, as JS applies them: a later property with the same
 * key gives it its value. Gives up on spreads, computed keys, `__proto__`, getters, setters, generators
 * and anything else unusual.
 */
function readObject(source: string, open: number, ts: boolean, depth = 0): ObjectLiteral {
  const props = new Map<string, Prop>();
  let i = gap(source, open + 1);
  for (;;) {
    if (source.charCodeAt(i) === 125) return { props, end: i + 1 };
    let method = false;
    if (wordAt(source, i) === 'async') {
      const after = i + 5;
      const next = gap(source, after);
      // `async run() {}`: a modifier only when a key follows on the same line.
      if (next > after && !/[\n\r\u2028\u2029]/.test(source.slice(after, next)) && wordAt(source, next) !== null) {
        method = true;
        i = next;
      }
    }
    KEY.lastIndex = i;
    const key = KEY.exec(source) ?? unsure();
    const name = key[1] ?? key[2] ?? key[3] ?? String(Number(key[4]));
    if (name === '__proto__' || ((name === 'get' || name === 'set') && key[1] !== undefined)) unsure();
    let j = gap(source, KEY.lastIndex);
    const c = source.charCodeAt(j);
    if (c === 40) {
      // A method: parameters, return type, body.
      const body = afterParameters(source, j, ts);
      const end = skipGroupAt(source, body);
      props.set(name, { kind: 'method', start: i, end: i, object: null });
      state.complete = false;
      j = end;
    } else if (method) {
      return unsure();
    } else if (c === 58) {
      const start = gap(source, j + 1);
      let object: ObjectLiteral | null = null;
      let end = literalEnd(source, start, 0);
      if (end !== -1) {
        const after = gap(source, end);
        if (source.charCodeAt(after) !== 44 && source.charCodeAt(after) !== 125) {
          state.complete = false;
          end = skipValue(source, start, ts);
        }
      } else if (source.charCodeAt(start) === 123 && depth < 2) {
        object = readObject(source, start, ts, depth + 1);
        end = suffixEnd(source, object.end, ts);
        const after = gap(source, end);
        // Anything but the next property after it (`{...}.x`, an operator): the value is not the object.
        if (source.charCodeAt(after) !== 44 && source.charCodeAt(after) !== 125) {
          object = null;
          state.complete = false;
          end = skipValue(source, start, ts);
        }
      } else {
        state.complete = false;
        end = skipValue(source, start, ts);
      }
      props.set(name, { kind: 'init', start, end, object });
      j = end;
    } else if ((c === 44 || c === 125) && key[1] !== undefined && !RESERVED.has(name)) {
      props.set(name, { kind: 'shorthand', start: i, end: KEY.lastIndex, object: null });
      state.complete = false;
    } else return unsure();
    j = gap(source, j);
    if (source.charCodeAt(j) === 44) i = gap(source, j + 1);
    else if (source.charCodeAt(j) === 125) i = j;
    else return unsure();
  }
}

/** Past `as const`, `as T` or `satisfies T` after an object literal (TypeScript), else `end` itself. */
function suffixEnd(source: string, end: number, ts: boolean): number {
  if (!ts) return end;
  TYPE_SUFFIX.lastIndex = end;
  TYPE_SUFFIX.test(source);
  return TYPE_SUFFIX.lastIndex;
}

/** From a parameter list's `(` to its body's `{`, past a TypeScript return type. */
function afterParameters(source: string, open: number, ts: boolean): number {
  let j = skipGroupAt(source, open);
  if (ts) {
    RETURN_TYPE.lastIndex = j;
    if (RETURN_TYPE.test(source)) j = RETURN_TYPE.lastIndex;
  }
  j = gap(source, j);
  if (source.charCodeAt(j) !== 123) unsure();
  return j;
}

/**
 * The index just past a property value or initialiser that starts at `start`: up to a `,`, `;`, `}`, `)`
 * or `]` outside brackets, or a line break before the next statement. Brackets, strings, templates,
 * comments and regular expressions are skipped whole (lex.ts); where a `/` cannot be told, it gives up.
 */
function skipValue(source: string, start: number, ts: boolean): number {
  let i = start;
  for (;;) {
    VALUE_RUN.lastIndex = i;
    if (VALUE_RUN.test(source)) {
      const end = VALUE_RUN.lastIndex;
      // A line break before the next statement ends a `const` initialiser (ASI); inside an object, `,` and `}` do.
      const lineBreak = within(source, '\n', i, end) || within(source, '\r', i, end) ? nextStatementAt(source, i, end) : -1;
      if (lineBreak !== -1) return trimEnd(source, lineBreak);
      // In a JS file, `as`, `satisfies` and `: T` are errors, and `:` in a value (a conditional) is left to the general reader.
      if (!ts && (within(source, ':', i, end) || ((within(source, 'as', i, end) || within(source, 'satisfies', i, end)) && /\bas\s|\bsatisfies\s/.test(source.slice(i, end))))) unsure();
      // A type after `as` or `satisfies` may hold commas (`Record<string, Entry>`): taken whole.
      if (ts && (within(source, 'as', i, end) || within(source, 'satisfies', i, end))) {
        let typeAt = -1;
        for (const match of source.slice(i, end).matchAll(SUFFIX_KEYWORD)) typeAt = i + match.index + match[0].length;
        i = end;
        if (typeAt !== -1) {
          SUFFIX_TYPE.lastIndex = typeAt;
          if (SUFFIX_TYPE.test(source) && SUFFIX_TYPE.lastIndex > i) i = SUFFIX_TYPE.lastIndex;
        }
      } else i = end;
    }
    const c = source.charCodeAt(i);
    if (c === 123 || c === 40 || c === 91) i = skipGroupAt(source, i);
    else if (c === 39 || c === 34) {
      STRING_RE.lastIndex = i;
      if (!STRING_RE.test(source)) unsure();
      state.literals.push(i, STRING_RE.lastIndex);
      i = STRING_RE.lastIndex;
    } else if (c === 96) i = templateEnd(source, i);
    else if (c === 47) {
      const next = source.charCodeAt(i + 1);
      if (next === 47 || next === 42) i = gap(source, i);
      else {
        const regex = startsRegex(source, start - 1, i) ?? unsure();
        i = regex ? regexEnd(source, i) : i + 1;
      }
    } else return trimEnd(source, i); // `,` `;` `}` `)` `]` or the end
    if (i === start) unsure();
  }
}

/** `i` moved back over white space before it: only the value's end, for comparing ends. */
const trimEnd = (source: string, i: number): number => {
  let j = i;
  for (let c = source.charCodeAt(j - 1); c === 32 || c === 10 || c === 13 || c === 9; c = source.charCodeAt(j - 1)) j--;
  return j;
};

/** Whether `text` occurs in `source` between `from` and `to`. */
const within = (source: string, text: string, from: number, to: number): boolean => {
  const at = source.indexOf(text, from);
  return at !== -1 && at + text.length <= to;
};

/** The line break in [from, to) after which a new statement starts (`\nexport ...`), or -1. */
function nextStatementAt(source: string, from: number, to: number): number {
  const match = /[\n\r]\s*(?:export|import|const|let|var|function|type|interface|class)\b/.exec(source.slice(from, to));
  return match === null ? -1 : from + match.index;
}

/** Past white space and comments (most gaps are one space or none: settled without the regular expression). */
function gap(source: string, i: number): number {
  const c = source.charCodeAt(i);
  if (c !== 32 && c !== 10 && c !== 47 && c !== 9 && c !== 13) return c > 127 && c === c ? regexGap(source, i) : i;
  const d = source.charCodeAt(i + 1);
  if (c === 32 && d !== 32 && d !== 10 && d !== 47 && d !== 9 && d !== 13 && !(d > 127)) return i + 1;
  return regexGap(source, i);
}
function regexGap(source: string, i: number): number {
  GAP_RE.lastIndex = i;
  GAP_RE.test(source);
  return GAP_RE.lastIndex;
}

const lineEnd = (source: string): number => {
  const end = source.search(/[\n\r]/);
  return end === -1 ? source.length : end;
};

function wordAt(source: string, i: number): string | null {
  WORD.lastIndex = i;
  const match = WORD.exec(source);
  if (match === null) return null;
  // `\u0061` or a non-ASCII letter continuing the name: not this name.
  const after = source.charCodeAt(WORD.lastIndex);
  if (after === 92 || after > 127) unsure();
  return match[0];
}

/** A statement may end here: `;`, the end, `}` is not one (top level), or a line break before a statement keyword. */
function endsStatement(source: string, i: number): boolean {
  if (i >= source.length || source.charCodeAt(i) === 59) return true;
  if (!/[\n\r]/.test(source.slice(trimEnd(source, i), i))) return false;
  NEXT_STATEMENT.lastIndex = i;
  return NEXT_STATEMENT.test(source) || source.startsWith('export', i);
}

/** Past a statement's end: its `;` if any, then white space and comments. */
function statementEnd(source: string, i: number): number {
  const j = gap(source, i);
  if (source.charCodeAt(j) === 59) return gap(source, j + 1);
  if (!endsStatement(source, j)) unsure();
  return j;
}

/** `type X<T> = ...;` or `interface X<T> extends Y {...}`: just past it. */
function typeDeclarationEnd(source: string, i: number, word: string): number {
  let j = gap(source, i + word.length);
  const name = wordAt(source, j) ?? unsure();
  j = gap(source, j + name.length);
  if (word === 'interface') {
    const head = /(?:<[^;{}()=]*>)?(?:\s*extends\s+[^;{}()=]*)?\s*\{/y;
    head.lastIndex = j;
    if (!head.test(source)) unsure();
    return skipGroupAt(source, head.lastIndex - 1);
  }
  const head = /(?:<[^;{}()=]*>)?\s*=/y;
  head.lastIndex = j;
  if (!head.test(source)) unsure();
  const end = skipValue(source, gap(source, head.lastIndex), true);
  return statementEnd(source, end);
}

/** Whether a value may be a scorer at run time: nothing about it is evident (a name, a call, a member, `new`, an object). */
function mayBeScorer(source: string, prop: Prop): boolean {
  if (prop.kind === 'shorthand') return true;
  const c = source.charCodeAt(prop.start);
  if (c === 123) return true; // an object literal: not evident in an entry (analyze-scorer.ts)
  const name = wordAt(source, prop.start);
  if (name === null || NOT_A_SCORER.has(name)) return false;
  // A name, a call, a member chain or `new X(...)`; not an arrow function (`x => ...`).
  const after = gap(source, prop.start + name.length);
  return !source.startsWith('=>', after) && /^(?:[.(,}<]|$)/.test(source[after] ?? '');
}

function isFunctionValue(source: string, prop: Prop): boolean {
  if (prop.kind !== 'init') return false;
  const text = source.slice(prop.start, Math.min(prop.end, prop.start + 200));
  return /^(?:async\s+)?function\b/.test(text) || /^(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/.test(text);
}

/** A `sampling` value written as a flat literal, as analyze-scorer.ts reads it; null when it is anything else. */
function samplingOf(source: string, prop: Prop | undefined): StaticSampling | null {
  if (prop === undefined) return { kind: 'absent' };
  if (prop.kind !== 'init') return null;
  FLAT_OBJECT.lastIndex = prop.start;
  if (!FLAT_OBJECT.test(source) || FLAT_OBJECT.lastIndex !== prop.end) return null;
  const value: Record<string, unknown> = Object.create(null);
  for (const member of source.slice(prop.start, prop.end).matchAll(FLAT_MEMBER)) {
    const key = member[1].charCodeAt(0) === 39 || member[1].charCodeAt(0) === 34 ? String(literal(member[1])) : member[1];
    if (key === '__proto__') return null;
    value[key] = literal(member[2]);
  }
  const detail = describeSamplingProblem(value);
  if (detail !== null) return { kind: 'invalid', detail };
  const { type, rate } = value as { type: string; rate?: number };
  return { kind: 'valid', value: type === 'none' ? { type: 'none' } : { type: 'ratio', rate: rate as number } };
}

/** A literal's value: a string without escapes, a number, true, false or null; anything else gives up. */
function literal(text: string): unknown {
  const c = text.charCodeAt(0);
  if (c === 39 || c === 34) return text.includes('\\') ? unsure() : text.slice(1, -1);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  return Number(text);
}

/**
 * How often `name` occurs as a whole word in the text, outside the strings the reading read (`literals`):
 * in comments, in bodies and in strings there it still counts, which is only more careful.
 */
function occurrences(source: string, name: string, literals: readonly number[]): number {
  let count = 0;
  for (let at = source.indexOf(name); at !== -1 && count < 3; at = source.indexOf(name, at + name.length)) {
    const before = at > 0 ? source.charCodeAt(at - 1) : 0;
    const after = source.charCodeAt(at + name.length);
    if (isWordCode(before) || isWordCode(after)) continue;
    let inString = false;
    for (let k = 0; k < literals.length && !inString; k += 2) inString = literals[k] <= at && at < literals[k + 1];
    if (!inString) count++;
  }
  return count;
}

/**
 * The end of a literal value at `i` written exactly: a string (escapes checked), a number, `true`,
 * `false`, `null`, a template without `${`, or an array or object of those; -1 for anything else. Its
 * strings' ranges go to `state.literals`.
 */
function literalEnd(source: string, i: number, depth: number): number {
  const c = source.charCodeAt(i);
  if (c === 39 || c === 34) {
    STRICT_STRING.lastIndex = i;
    if (!STRICT_STRING.test(source)) return -1;
    state.literals.push(i, STRICT_STRING.lastIndex);
    return STRICT_STRING.lastIndex;
  }
  if (c === 91 || c === 123) {
    if (depth > 2) return -1;
    let j = gap(source, i + 1);
    const close = c === 91 ? 93 : 125;
    while (source.charCodeAt(j) !== close) {
      if (c === 123) {
        KEY.lastIndex = j;
        const key = KEY.exec(source);
        if (key === null || key[1] === '__proto__' || key[2] === '__proto__' || key[3] === '__proto__') return -1;
        j = gap(source, KEY.lastIndex);
        if (source.charCodeAt(j) !== 58) return -1;
        j = gap(source, j + 1);
      }
      const end = literalEnd(source, j, depth + 1);
      if (end === -1) return -1;
      j = gap(source, end);
      if (source.charCodeAt(j) === 44) j = gap(source, j + 1);
      else if (source.charCodeAt(j) !== close) return -1;
    }
    return j + 1;
  }
  LITERAL_WORD.lastIndex = i;
  return LITERAL_WORD.test(source) ? LITERAL_WORD.lastIndex : -1;
}
const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

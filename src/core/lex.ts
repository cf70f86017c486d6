/**
 * The lexical layer of light-parse.ts: a module's tokens, with every function body (and the `${...}` of
 * a template) as one `group` token that is skipped, not read. A build reads every scorer file and config
 * once, in a fresh process, so this code runs mostly before V8 has optimised it, and a loop that runs
 * per character would cost more to run unoptimised, and to optimise, than the reading it serves
 * (bench/README.md, "Cold builds"). So a body is skipped by a regular expression that takes everything
 * but braces, backticks and slashes in one native step (strings and comments included), and JavaScript
 * handles only those few characters.
 *
 * Everything here answers exactly or gives up: where a scan cannot be sure (a `/` that may be a division
 * or a regular expression, an unterminated literal, syntax outside the small grammar), it throws `Bail`
 * and the caller reads the module with oxc-parser.
 */

export class Bail extends Error {}
export const bail = (): never => {
  throw new Bail();
};

/**
 * One shape for every token (V8 then reads `kind` and `value` with one hidden class): `value` is the
 * word, the punctuator, the cooked string, the number, the template's text or the regex's pattern;
 * `aux` is a regex's flags, `${` for a template with substitutions, else ''.
 */
interface TokenBase {
  /** A line break comes before it (automatic semicolons). */
  newline: boolean;
  start: number;
  end: number;
  aux: string;
}
export type Token =
  | (TokenBase & { kind: 'word'; value: string })
  | (TokenBase & { kind: 'string'; value: string })
  | (TokenBase & { kind: 'number'; value: number })
  | (TokenBase & { kind: 'template'; value: string })
  | (TokenBase & { kind: 'regex'; value: string })
  | (TokenBase & { kind: 'punct'; value: string })
  /**
   * Never read: a function body, or a type literal in a return type (`{`, from its `{` to its `}`), or
   * a parameter list (`(`, one followed by a body, `=>` or a return type), whose `aux` is its text
   * when that is empty or one name (a getter's and a setter's), else `*`.
   */
  | (TokenBase & { kind: 'group'; value: '{' | '(' });

export interface Lexed {
  tokens: Token[];
  /** [start, end) pairs, in source order: the strings, template texts, regular expressions and comments outside groups. */
  literals: number[];
}

const WORD = /[A-Za-z_$][\w$]*/y;
const NUMBER = /[\w.]+/y;
const PLAIN_NUMBER = /^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$|^\.\d+(?:[eE][+-]?\d+)?$/;
/** The rest of a quoted string: no raw line break (a syntax error), any escape. */
const SINGLE = /(?:[^'\\\n\r]|\\[^])*'/y;
const DOUBLE = /(?:[^"\\\n\r]|\\[^])*"/y;
/** A template's text up to its closing backtick or its next `${`. */
const TEMPLATE_TEXT = /(?:[^`\\$]|\\[^]|\$(?!\{))*/y;
/** White space within a line. */
const SPACE = /[\t\v\f ]+/y;
const LINE_END = /[\n\r\u2028\u2029]/g;
/**
 * Inside a body, everything up to the next brace, backtick or slash that is not in a string or comment.
 * It always matches (perhaps nothing), so it never backtracks; a quote where it stops is an unterminated string.
 */
const BODY_RUN = /(?:[^{}'"`/]+|'(?:[^'\\\n\r]|\\[^])*'|"(?:[^"\\\n\r]|\\[^])*"|\/\/[^\n\r\u2028\u2029]*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/)*/y;
/** Words after which `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
/** Keywords whose parenthesised head may be followed by a regular expression (`if (x) /re/.test(s)`). */
const CONTROL_HEADS = new Set(['if', 'while', 'for', 'with']);

const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;

function lineEnd(source: string, from: number): number {
  LINE_END.lastIndex = from;
  return LINE_END.exec(source)?.index ?? source.length;
}

/** The lexer's state between tokens; one object, so the helpers below stay small and out of the loop. */
interface Lexer {
  readonly source: string;
  i: number;
  newline: boolean;
  last: Token | null;
  /**
   * After `) :`, the bracket depth where a return type may be going on: there, a `{` after a complete
   * type opens the body, and any other `{` an object type (skipped too). -1 when none.
   */
  returnTypeAt: number;
  depth: number;
  readonly tokens: Token[];
  readonly literals: number[];
}

/**
 * The module's tokens. Comments and white space are left out (their line breaks mark the next token);
 * a `{` that opens a function body (after `)` or `=>`, or after a return type: `run(x): Promise<R> {`)
 * becomes one `group` token.
 */
export function tokenize(source: string): Lexed {
  const lx: Lexer = { source, i: 0, newline: false, last: null, returnTypeAt: -1, depth: 0, tokens: [], literals: [] };
  if (source.startsWith('#!')) {
    lx.i = lineEnd(source, 0);
    lx.literals.push(0, lx.i);
  }
  const length = source.length;
  while (lx.i < length) {
    const c = source.charCodeAt(lx.i);
    if (c === 10 || c === 13) {
      lx.newline = true;
      lx.i++;
    } else if (c === 32 || c === 9 || c === 11 || c === 12) {
      SPACE.lastIndex = lx.i;
      SPACE.test(source);
      lx.i = SPACE.lastIndex;
    } else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36) {
      WORD.lastIndex = lx.i;
      WORD.test(source);
      // `\u0061` in a name: the name is not its text.
      if (source.charCodeAt(WORD.lastIndex) === 92) bail();
      push(lx, 'word', source.slice(lx.i, WORD.lastIndex), '', WORD.lastIndex);
    } else if (c === 39 || c === 34) {
      const pattern = c === 39 ? SINGLE : DOUBLE;
      pattern.lastIndex = lx.i + 1;
      if (!pattern.test(source)) bail();
      lx.literals.push(lx.i, pattern.lastIndex);
      const raw = source.slice(lx.i + 1, pattern.lastIndex - 1);
      push(lx, 'string', raw.includes('\\') ? cook(raw) : raw, '', pattern.lastIndex);
    } else if (c === 47) slash(lx);
    else if (c === 123 && opensGroup(lx)) group(lx);
    else if (c === 40 && mayBeParameters(lx.last, lx.tokens) && parameters(lx)) continue;
    else if ((c >= 48 && c <= 57) || (c === 46 && source.charCodeAt(lx.i + 1) >= 48 && source.charCodeAt(lx.i + 1) <= 57)) number(lx);
    else if (c === 96) template(lx);
    else punct(lx, c);
  }
  return { tokens: lx.tokens, literals: lx.literals };
}

function push(lx: Lexer, kind: Token['kind'], value: string | number, aux: string, end: number): void {
  const t = { kind, value, aux, newline: lx.newline, start: lx.i, end } as Token;
  // A statement keyword on a new line ends any return type still open (`a ? f(x) : y` then `export ...`).
  if (lx.returnTypeAt !== -1 && lx.newline && kind === 'word' && STATEMENT_START.has(value as string)) lx.returnTypeAt = -1;
  lx.tokens.push(t);
  lx.last = t;
  lx.newline = false;
  lx.i = end;
}

/** A comment (skipped, its range kept), a division or a regular expression. */
function slash(lx: Lexer): void {
  const { source, i } = lx;
  const next = source.charCodeAt(i + 1);
  if (next === 47 || next === 42) {
    let end: number;
    if (next === 47) end = lineEnd(source, i);
    else {
      end = source.indexOf('*/', i + 2) + 2;
      if (end === 1) bail();
      // A comment holding a line break counts as one for automatic semicolons.
      if (lineEnd(source, i) < end) lx.newline = true;
    }
    lx.literals.push(i, end);
    lx.i = end;
  } else if (slashIsDivision(lx.last, source)) push(lx, 'punct', '/', '', i + 1);
  else {
    const end = regexEnd(source, i);
    lx.literals.push(i, end);
    const close = source.lastIndexOf('/', end - 1);
    push(lx, 'regex', source.slice(i + 1, close), source.slice(close + 1, end), end);
  }
}

/** Whether the `{` here opens a body (or, in a return type, an object type): a `group`, not read. */
function opensGroup(lx: Lexer): boolean {
  const last = lx.last;
  return last !== null && (isBodyAfter(last) || lx.returnTypeAt === lx.depth);
}

function group(lx: Lexer): void {
  const last = lx.last!;
  // In a return type, the first `{` after a complete type is the body; one after `:`, `|`, `<` an object type.
  if (isBodyAfter(last) || isTypeEnd(last)) lx.returnTypeAt = -1;
  push(lx, 'group', '{', '', skipGroupAt(lx.source, lx.i));
}

/**
 * A `(` whose group is followed by `{`, `=>` or `:` is a parameter list (a call's arguments are followed
 * by none of those, but in a conditional, `c ? f(x) : y`, which the readings never look into): pushed
 * as one `group`, found by a native scan, and true; else false, and its tokens are read as usual.
 */
function parameters(lx: Lexer): boolean {
  const { source, i } = lx;
  const end = skipGroupAt(source, i);
  AFTER_PARAMS.lastIndex = end;
  const after = AFTER_PARAMS.exec(source);
  if (after === null) return false;
  const inner = source.slice(i + 1, end - 1);
  const aux = /^\s*(?:[A-Za-z_$][\w$]*\s*)?$/.test(inner) ? inner.trim() : '*';
  push(lx, 'group', '(', aux, end);
  if (after[1] === ':') lx.returnTypeAt = lx.depth;
  return true;
}
const AFTER_PARAMS = /[\t\v\f \n\r]*(\{|=>|:)/y;

/**
 * Whether a `(` may open a parameter list, by the tokens before it: after `function name`, a method's
 * key (`{ run(`, `, async run(`), or where an arrow function may start (`= (`, `: (`, `( (`, `, (`,
 * `=> (`, `async (`, at the start). Not after a callee (`agentConfig(`, `f(x)(`), whose arguments are
 * read, so a whole config is not scanned twice.
 */
function mayBeParameters(last: Token | null, tokens: Token[]): boolean {
  if (last === null) return true;
  if (last.kind === 'punct') return last.value !== ')' && last.value !== ']' && last.value !== '}' && last.value !== '>';
  if (last.kind !== 'word') return false;
  if (last.value === 'async' || last.value === 'function' || last.value === 'return' || last.value === 'default') return true;
  const before = tokens.length > 1 ? tokens[tokens.length - 2] : null;
  if (before === null) return false;
  if (before.kind === 'punct') return before.value === '{' || before.value === ',' || before.value === '*';
  return before.kind === 'word' && (before.value === 'function' || before.value === 'async' || before.value === 'get' || before.value === 'set' || before.value === 'static');
}

/** Tokens after which a type is complete, so a `{` that follows in a return type opens the body. */
const isTypeEnd = (t: Token): boolean =>
  t.kind === 'punct' ? t.value === '>' || t.value === ')' || t.value === ']' || t.value === '}' : t.kind !== 'regex' && t.kind !== 'template';

function number(lx: Lexer): void {
  NUMBER.lastIndex = lx.i;
  NUMBER.test(lx.source);
  const raw = lx.source.slice(lx.i, NUMBER.lastIndex);
  if (!PLAIN_NUMBER.test(raw)) bail();
  push(lx, 'number', Number(raw), '', NUMBER.lastIndex);
}

function template(lx: Lexer): void {
  const { source } = lx;
  let i = lx.i + 1;
  let substitutions = false;
  for (;;) {
    TEMPLATE_TEXT.lastIndex = i;
    TEMPLATE_TEXT.test(source);
    lx.literals.push(i, TEMPLATE_TEXT.lastIndex);
    i = TEMPLATE_TEXT.lastIndex;
    if (source.charCodeAt(i) === 96) break;
    if (source.charCodeAt(i) !== 36) bail(); // unterminated
    substitutions = true;
    i = skipGroupAt(source, i + 1); // `${...}` is code, skipped like a body
  }
  const value = source.slice(lx.i + 1, i);
  // Escapes would need cooking, and `\r\n` is cooked to `\n`: leave those to oxc-parser.
  if (!substitutions && (value.includes('\\') || value.includes('\r'))) bail();
  push(lx, 'template', substitutions ? '' : value, substitutions ? '${' : '', i + 1);
}

function punct(lx: Lexer, c: number): void {
  const { source, i } = lx;
  if (c < 32) bail(); // other control characters are not white space in JS
  // `#`, `@`, `\` (an escape in a name), non-ASCII: syntax this reader does not take.
  if (c === 35 || c === 64 || c === 92 || c >= 127) bail();
  const next = source.charCodeAt(i + 1);
  if ((c === 63 && next === 46) || ((c === 43 || c === 45) && next === c)) bail(); // `?.`; `++` and `--` have ASI rules of their own
  const value = c === 61 && next === 62 ? '=>' : c === 46 && next === 46 && source.charCodeAt(i + 2) === 46 ? '...' : source[i];
  const last = lx.last;
  if (c === 123 || c === 40 || c === 91) lx.depth++;
  else if (c === 125 || c === 41 || c === 93) {
    lx.depth--;
    if (lx.returnTypeAt > lx.depth) lx.returnTypeAt = -1;
  } else if (c === 58 && last !== null && last.kind === 'punct' && last.value === ')') lx.returnTypeAt = lx.depth;
  else if (lx.returnTypeAt === lx.depth && (value === '=>' || value === ';' || value === '=' || value === ',')) lx.returnTypeAt = -1;
  push(lx, 'punct', value, '', i + value.length);
}

const STATEMENT_START = new Set(['export', 'import', 'const', 'let', 'var', 'function']);

/** `)` and `=>` are followed by a `{` only where it opens a function body or a statement block. */
const isBodyAfter = (t: Token): boolean => (t.kind === 'punct' && (t.value === ')' || t.value === '=>')) || (t.kind === 'group' && t.value === '(');

/**
 * A string literal's value, escapes cooked; gives up on escapes that strict mode forbids (legacy
 * octal, `\8`, `\9`).
 */
function cook(raw: string): string {
  let out = '';
  let from = 0;
  for (let i = raw.indexOf('\\'); i !== -1; i = raw.indexOf('\\', from)) {
    out += raw.slice(from, i);
    const c = raw[i + 1];
    from = i + 2;
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '0':
        if (/\d/.test(raw[i + 2] ?? '')) bail();
        out += '\0';
        break;
      case 'x': {
        const hex = raw.slice(i + 2, i + 4);
        if (!/^[\da-fA-F]{2}$/.test(hex)) bail();
        out += String.fromCharCode(parseInt(hex, 16));
        from = i + 4;
        break;
      }
      case 'u': {
        const match = /^(?:([\da-fA-F]{4})|\{([\da-fA-F]{1,6})\})/.exec(raw.slice(i + 2, i + 10)) ?? bail();
        const code = parseInt(match[1] ?? match[2], 16);
        if (code > 0x10ffff) bail();
        out += String.fromCodePoint(code);
        from = i + 2 + match[0].length;
        break;
      }
      case '\r':
        if (raw[i + 2] === '\n') from++; // a line continuation is no character
        break;
      case '\n':
      case '\u2028':
      case '\u2029':
        break;
      default:
        if (c >= '1' && c <= '9') bail();
        out += c; // an identity escape: `\'` is `'`
    }
  }
  return out + raw.slice(from);
}

/** Whether a top-level `/` (not a comment) divides, judged by the token before it; gives up where that is unclear. */
function slashIsDivision(last: Token | null, source: string): boolean {
  if (last === null) return false;
  switch (last.kind) {
    case 'word':
      if (last.value === 'of') bail(); // a keyword in `for (x of /re/)`, a name elsewhere
      return !REGEX_AFTER_WORD.has(last.value) || source.charCodeAt(last.start - 1) === 46;
    case 'punct':
      // After `)` either can follow (`if (a) /re/`, `f() / 2`); `}` is never a value here but in a body.
      if (last.value === ')' || last.value === '}') bail();
      return last.value === ']';
    case 'group':
      return bail();
    default:
      return true; // after a value
  }
}

/** The end of the regular expression literal that starts at `start`, flags included. */
export function regexEnd(source: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) break;
    else if (inClass) inClass = c !== 93;
    else if (c === 91) inClass = true;
    else if (c === 47) {
      let end = i + 1;
      while (end < source.length && isWordCode(source.charCodeAt(end))) end++;
      return end;
    }
  }
  return bail();
}

/** Inside parentheses (or brackets), everything up to the next one of them, a backtick or a slash not in a string or comment. */
const PAREN_RUN = /(?:[^()'"`/]+|'(?:[^'\\\n\r]|\\[^])*'|"(?:[^"\\\n\r]|\\[^])*"|\/\/[^\n\r\u2028\u2029]*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/)*/y;
const BRACKET_RUN = /(?:[^[\]'"`/]+|'(?:[^'\\\n\r]|\\[^])*'|"(?:[^"\\\n\r]|\\[^])*"|\/\/[^\n\r\u2028\u2029]*|\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/)*/y;

/**
 * The index just past the `{...}`, `(...)` or `[...]` that opens at `open` (a body, a parameter list, or
 * the `${...}` of a template): its brackets are counted outside strings, templates, comments and regular
 * expressions, each run of other text taken in one native step.
 */
export function skipGroupAt(source: string, open: number): number {
  const opener = source.charCodeAt(open);
  const closer = opener === 123 ? 125 : opener === 40 ? 41 : 93;
  const run = opener === 123 ? BODY_RUN : opener === 40 ? PAREN_RUN : BRACKET_RUN;
  let depth = 1;
  let i = open + 1;
  for (;;) {
    run.lastIndex = i;
    run.test(source);
    i = run.lastIndex;
    const c = source.charCodeAt(i);
    if (c === opener) {
      depth++;
      i++;
    } else if (c === closer) {
      i++;
      if (--depth === 0) return i;
    } else if (c === 96) {
      i = templateEnd(source, i);
    } else if (c === 47) {
      // A slash that is no comment: a regular expression or a division. After a `)` that needs the
      // parentheses' head (`if (x) /re/`), which only the careful scan knows: rare, so it rescans the group.
      const regex = startsRegex(source, open, i);
      if (regex === null) return scanGroup(source, open, null);
      i = regex ? regexEnd(source, i) : i + 1;
    } else return bail(); // the end of the source, or an unterminated string
  }
}

/** From a template's opening backtick to just past its closing one; each `${...}` is skipped as a body. */
export function templateEnd(source: string, open: number): number {
  let i = open + 1;
  for (;;) {
    TEMPLATE_TEXT.lastIndex = i;
    TEMPLATE_TEXT.test(source);
    i = TEMPLATE_TEXT.lastIndex;
    const c = source.charCodeAt(i);
    if (c === 96) return i + 1;
    if (c !== 36) bail();
    i = skipGroupAt(source, i + 1);
  }
}

/**
 * Inside a body: does the `/` at `i` start a regular expression? Judged by the character before it
 * (white space skipped), as skeleton.ts does; null after a `)`, whose head decides (`if (x) /re/` against
 * `f(x) / 2`); gives up where the character before is in a comment or cannot be classified.
 */
export function startsRegex(source: string, open: number, i: number): boolean | null {
  let p = i - 1;
  let crossedLine = false;
  while (p > open && isSpace(source.charCodeAt(p))) {
    if (source.charCodeAt(p) === 10 || source.charCodeAt(p) === 13) crossedLine = true;
    p--;
  }
  // The line before may end in a `//` comment, whose last character says nothing.
  if (crossedLine && source.lastIndexOf('//', p) > Math.max(source.lastIndexOf('\n', p), source.lastIndexOf('\r', p))) bail();
  const c = source.charCodeAt(p);
  if (c === 41) return null;
  if (c === 125 || c === 47 || c > 127) bail(); // a block or an object; a comment's or regex's end; a Unicode name
  if (c === 93 || c === 39 || c === 34 || c === 96) return false; // after an index or a string: a division
  if ((c === 43 || c === 45) && source.charCodeAt(p - 1) === c) bail(); // `x++ / 2` or `++ /re/`
  if (isWordCode(c)) {
    let start = p;
    while (start > open && isWordCode(source.charCodeAt(start - 1))) start--;
    const word = source.slice(start, p + 1);
    if (word === 'of') bail();
    return REGEX_AFTER_WORD.has(word) && source.charCodeAt(start - 1) !== 46; // not `x.in`
  }
  return true;
}

const SPECIAL = /[(){}[\]'"`/]/g;

/**
 * The careful scan of a bracket group, character class by character class: every bracket is matched
 * to its kind, every string, template, comment and regular expression is found (and its range added to
 * `literals`, when given), and a `/` after `)` is told apart by the `)`'s head. It serves the rare bodies
 * the quick skip cannot settle, and the ranges `codeOccurrences` needs inside a group.
 */
export function scanGroup(source: string, open: number, literals: number[] | null): number {
  /** Open brackets' positions; -1 for a template's `${`, which resumes the template at its `}`. */
  const stack: number[] = [open];
  let commentEnd = -1;
  let literalEnd = -1;
  /** Where the last `(...)` that closed opened: after an `if (...)`-like head, a `/` starts a regex. */
  let parenOpen = -1;
  let i = open + 1;
  const record = (start: number, end: number): void => void literals?.push(start, end);
  const templateRest = (from: number): number => {
    TEMPLATE_TEXT.lastIndex = from;
    TEMPLATE_TEXT.test(source);
    const end = TEMPLATE_TEXT.lastIndex;
    record(from, end);
    const c = source.charCodeAt(end);
    if (c === 96) return end + 1;
    if (c !== 36) bail();
    stack.push(-1);
    return end + 2;
  };
  for (;;) {
    SPECIAL.lastIndex = i;
    if (!SPECIAL.test(source)) return bail();
    i = SPECIAL.lastIndex - 1;
    const c = source.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      stack.push(i++);
      continue;
    }
    if (c === 41 || c === 93 || c === 125) {
      const opened = stack.pop()!;
      if (opened === -1) {
        if (c !== 125) bail();
        i = literalEnd = templateRest(i + 1);
        continue;
      }
      const want = source.charCodeAt(opened) === 40 ? 41 : source.charCodeAt(opened) === 91 ? 93 : 125;
      if (c !== want) bail();
      if (c === 41) parenOpen = opened;
      i++;
      if (stack.length === 0) return i;
      continue;
    }
    if (c === 39 || c === 34) {
      const pattern = c === 39 ? SINGLE : DOUBLE;
      pattern.lastIndex = i + 1;
      if (!pattern.test(source)) bail();
      record(i, pattern.lastIndex);
      i = literalEnd = pattern.lastIndex;
      continue;
    }
    if (c === 96) {
      i = literalEnd = templateRest(i + 1);
      continue;
    }
    const next = source.charCodeAt(i + 1);
    if (next === 47 || next === 42) {
      const end = next === 47 ? lineEnd(source, i) : source.indexOf('*/', i + 2) + 2;
      if (end === 1) bail();
      record(i, end);
      i = commentEnd = end;
      continue;
    }
    let p = i - 1;
    while (p >= 0 && isSpace(source.charCodeAt(p))) p--;
    let regex: boolean;
    if (p + 1 === commentEnd) regex = bail();
    else if (p + 1 === literalEnd) regex = false; // `'a' / 2`, `/re/ / 2`
    else if (source.charCodeAt(p) === 41) regex = isControlHead(source, parenOpen);
    else regex = startsRegex(source, -1, i) ?? bail();
    if (regex) {
      const end = regexEnd(source, i);
      record(i, end);
      i = literalEnd = end;
    } else i++;
  }
}

/** The keyword before the `(` at `open` when it heads a statement whose body may start with a regex. */
function isControlHead(source: string, open: number): boolean {
  let end = open;
  while (end > 0 && isSpace(source.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isWordCode(source.charCodeAt(start - 1))) start--;
  return CONTROL_HEADS.has(source.slice(start, end)) && source.charCodeAt(start - 1) !== 46; // not `x.if (`
}

/**
 * How often `word` occurs as a whole word in code, counting up to `limit`: outside the top-level
 * `literals` and, inside the `group` tokens, outside theirs (found by `scanGroup`, only for a group the
 * word occurs in). That is every occurrence of an identifier, and more (keys, members, type names).
 */
export function codeOccurrences(source: string, word: string, lexed: Lexed, limit: number): number {
  const { literals, tokens } = lexed;
  let count = 0;
  let r = 0;
  let g = 0;
  let groupLiterals: number[] | null = null;
  let groupIndex = -1;
  const groups = tokens.filter((t) => t.kind === 'group');
  for (let at = source.indexOf(word); at !== -1 && count < limit; at = source.indexOf(word, at + word.length)) {
    const before = at > 0 ? source.charCodeAt(at - 1) : 0;
    const after = at + word.length < source.length ? source.charCodeAt(at + word.length) : 0;
    if (isWordCode(before) || isWordCode(after)) continue;
    while (r < literals.length && literals[r + 1] <= at) r += 2;
    if (r < literals.length && literals[r] <= at) continue; // in a top-level string, template text, regex or comment
    while (g < groups.length && groups[g].end <= at) g++;
    if (g < groups.length && groups[g].start <= at) {
      if (groupIndex !== g) {
        groupLiterals = [];
        scanGroup(source, groups[g].start, groupLiterals);
        groupIndex = g;
      }
      if (insideRange(groupLiterals!, at)) continue;
    }
    count++;
  }
  return count;
}

function insideRange(ranges: readonly number[], at: number): boolean {
  for (let k = 0; k < ranges.length; k += 2) if (ranges[k] <= at && at < ranges[k + 1]) return true;
  return false;
}

/**
 * The module's skeleton: its source with the contents of function bodies removed (`run() {...}`
 * becomes `run() {}`). The static readings never look inside a function body (SPEC section 7 judges
 * only what is evident from literals), and on Node 20 oxc-parser hands the AST over as JSON, whose
 * size (mostly function bodies) is the dominant cost of a build with thousands of scorer files.
 *
 * A lexical scan, not a parse: it tracks strings, template literals, comments and regular
 * expressions so braces inside them are not counted, and empties a `{...}` only right after `)` or
 * `=>`, where a brace always opens a function body, a statement block or a type literal (emptying
 * any of those leaves every top-level binding and every object literal outside functions as it was).
 * Whenever it cannot tell a regular expression from a division (`/` after `)`, `}`, `++`, `--`) or
 * the text does not scan, it returns null and the caller parses the whole source.
 */

const enum Code {
  Slash = 47,
  Star = 42,
  Backslash = 92,
  Newline = 10,
  Quote = 39,
  DoubleQuote = 34,
  Backtick = 96,
  Dollar = 36,
  OpenBrace = 123,
  CloseBrace = 125,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenParen = 40,
  CloseParen = 41,
  Equals = 61,
  Greater = 62,
  Plus = 43,
  Minus = 45,
}

/** Words after which `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/** Thrown inside the scan when the text cannot be scanned with certainty. */
class Unsure extends Error {}

export function functionSkeleton(source: string): string | null {
  try {
    return scan(source);
  } catch (error) {
    if (error instanceof Unsure) return null;
    throw error;
  }
}

function scan(source: string): string {
  const length = source.length;
  const kept: string[] = [];
  let copiedUpTo = 0;
  let i = source.startsWith('#!') ? source.indexOf('\n') + 1 || length : 0;
  /** The last significant character outside comments and whitespace (0 at the start). */
  let previous = 0;
  /** Its position, to read the word or operator it ends. */
  let previousAt = -1;
  /** The `{` of the function body being emptied and the brace depth it opened at, or -1. */
  let emptyFrom = -1;
  let emptyDepth = 0;
  /** Brace depth, counting template `${` as a brace so it closes with `}`. */
  let depth = 0;
  /** Depths at which a template literal's `${` was opened, to resume the template at its `}`. */
  const templates: number[] = [];

  const skipString = (quote: number): void => {
    for (i++; i < length; i++) {
      const c = source.charCodeAt(i);
      if (c === Code.Backslash) i++;
      else if (c === quote) return void i++;
      else if (c === Code.Newline) throw new Unsure();
    }
    throw new Unsure();
  };
  /** From inside a template literal, up to and past its closing backtick or its next `${`. */
  const skipTemplate = (): void => {
    for (; i < length; i++) {
      const c = source.charCodeAt(i);
      if (c === Code.Backslash) i++;
      else if (c === Code.Backtick) return void i++;
      else if (c === Code.Dollar && source.charCodeAt(i + 1) === Code.OpenBrace) {
        templates.push(++depth);
        i += 2;
        return;
      }
    }
    throw new Unsure();
  };
  const skipRegex = (): void => {
    let inClass = false;
    for (i++; i < length; i++) {
      const c = source.charCodeAt(i);
      if (c === Code.Backslash) i++;
      else if (c === Code.Newline) throw new Unsure();
      else if (inClass) inClass = c !== Code.CloseBracket;
      else if (c === Code.OpenBracket) inClass = true;
      else if (c === Code.Slash) {
        for (i++; i < length && isWordChar(source.charCodeAt(i)); i++);
        return;
      }
    }
    throw new Unsure();
  };
  /** After a string, template or regex: `/` next is a division. */
  const endValue = (): void => {
    previous = Code.CloseBracket;
    previousAt = i - 1;
  };
  /** Past a template's closing backtick (a value), or past a `${`, where an expression starts. */
  const afterTemplate = (): void => {
    if (source.charCodeAt(i - 1) === Code.Backtick) return endValue();
    previous = Code.OpenBrace;
    previousAt = i - 1;
  };
  const wordBefore = (end: number): string => {
    let start = end;
    while (start > 0 && isWordChar(source.charCodeAt(start - 1))) start--;
    return source.slice(start, end);
  };
  const slashStartsRegex = (): boolean => {
    if (previous === 0) return true;
    if (previous === Code.CloseParen || previous === Code.CloseBrace) throw new Unsure();
    if ((previous === Code.Plus || previous === Code.Minus) && source.charCodeAt(previousAt - 1) === previous) throw new Unsure();
    if (previous === Code.CloseBracket) return false;
    if (isWordChar(previous)) {
      const word = wordBefore(previousAt + 1);
      // `of` is a keyword in `for (x of /re/...)` and a name elsewhere.
      if (word === 'of') throw new Unsure();
      // A number or a name is followed by a division, a keyword by an expression.
      return REGEX_AFTER_WORD.has(word) && source.charCodeAt(previousAt - word.length) !== 46; // not `x.in`
    }
    return true;
  };

  while (i < length) {
    const c = source.charCodeAt(i);
    if (c === Code.Slash) {
      const next = source.charCodeAt(i + 1);
      if (next === Code.Slash) {
        const end = source.indexOf('\n', i);
        i = end === -1 ? length : end;
        continue;
      }
      if (next === Code.Star) {
        const end = source.indexOf('*/', i + 2);
        if (end === -1) throw new Unsure();
        i = end + 2;
        continue;
      }
      if (slashStartsRegex()) {
        skipRegex();
        endValue(); // `/re/ / 2` divides
      } else {
        previous = c;
        previousAt = i++;
      }
      continue;
    }
    if (c === Code.Quote || c === Code.DoubleQuote) {
      skipString(c);
      endValue();
      continue;
    }
    if (c === Code.Backtick) {
      i++;
      skipTemplate();
      afterTemplate();
      continue;
    }
    if (c <= 32) {
      i++;
      continue;
    }
    // Non-ASCII outside strings and comments: a Unicode identifier or space, which the checks below do not classify.
    if (c > 127) throw new Unsure();
    if (c === Code.OpenBrace) {
      const opensBody =
        previous === Code.CloseParen || (previous === Code.Greater && source.charCodeAt(previousAt - 1) === Code.Equals);
      depth++;
      if (opensBody && emptyFrom === -1) {
        emptyFrom = i;
        emptyDepth = depth;
      }
    } else if (c === Code.CloseBrace) {
      if (depth === 0) throw new Unsure();
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        templates.pop();
        depth--;
        i++;
        skipTemplate();
        afterTemplate();
        continue;
      }
      if (emptyFrom !== -1 && depth === emptyDepth) {
        kept.push(source.slice(copiedUpTo, emptyFrom + 1));
        copiedUpTo = i;
        emptyFrom = -1;
      }
      depth--;
    }
    previous = c;
    previousAt = i;
    i++;
  }
  if (depth !== 0 || templates.length > 0 || emptyFrom !== -1) throw new Unsure();
  if (copiedUpTo === 0) return source;
  kept.push(source.slice(copiedUpTo));
  return kept.join('');
}

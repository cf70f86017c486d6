/**
 * A reader for the small module skeletons that scorer files and configs usually are (skeleton.ts):
 * imports, `const` bindings, function declarations and an `export default` of an object literal,
 * a call or a name. It builds the few ESTree nodes the static readings look at, in oxc-parser's
 * shape, in a few microseconds, where a call into oxc-parser costs tens (most of it handing the AST
 * over). Anything outside that small grammar returns null and oxc-parser reads the module instead.
 *
 * Sub-expressions the readings never judge (operators, member access on values, `new`) become
 * `Opaque` nodes, which every reading treats as "not evident", exactly as it treats those node types.
 * Identifiers inside them are not kept, so the scope is always `partial` (ast.ts): a reading that
 * needs identifier counts beyond the text check parses the whole source.
 */
import type { Program } from 'oxc-parser';

type Token =
  | { kind: 'word'; value: string; newline: boolean }
  | { kind: 'string'; value: string; newline: boolean }
  | { kind: 'number'; value: number; newline: boolean }
  | { kind: 'template'; value: string; substitutions: boolean; newline: boolean }
  | { kind: 'punct'; value: string; newline: boolean };

/** Any node we build; loose on purpose, cast to oxc-parser's Program at the end. */
type N = { type: string; [field: string]: unknown };

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(
    ' ',
  ),
);
const PLAIN_NUMBER = /^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$|^\.\d+(?:[eE][+-]?\d+)?$/;
const isWordStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isWordChar = (c: number) => isWordStart(c) || (c >= 48 && c <= 57);

/** Tokens of a skeleton; regular expressions, escapes, comments and templates with `${` bail. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let newline = false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      newline = true;
      i++;
    } else if (c === 9 || c === 11 || c === 12 || c === 32) {
      i++;
    } else if (c < 32) {
      bail(); // other control characters are not whitespace in JS
    } else if (isWordStart(c)) {
      let end = i + 1;
      while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
      tokens.push({ kind: 'word', value: text.slice(i, end), newline });
      i = end;
      newline = false;
    } else if ((c >= 48 && c <= 57) || (c === 46 && /\d/.test(text[i + 1] ?? ''))) {
      let end = i + 1;
      while (end < text.length && /[\w.]/.test(text[end])) end++;
      const raw = text.slice(i, end);
      if (!PLAIN_NUMBER.test(raw)) bail();
      tokens.push({ kind: 'number', value: Number(raw), newline });
      i = end;
      newline = false;
    } else if (c === 96) {
      const end = templateEnd(text, i);
      const value = text.slice(i + 1, end - 1);
      // Escapes would need cooking, and `\r\n` is cooked to `\n`: leave those to oxc-parser.
      if (value.includes('\\') || value.includes('\r')) bail();
      tokens.push({ kind: 'template', value, substitutions: value.includes('${'), newline });
      i = end;
      newline = false;
    } else if (c === 39 || c === 34) {
      const end = text.indexOf(text[i], i + 1);
      if (end === -1) bail();
      const value = text.slice(i + 1, end);
      // Escapes would need cooking, and a raw line break (`\n`, `\r`) ends a string too early: leave those to oxc-parser.
      if (value.includes('\\') || value.includes('\n') || value.includes('\r')) bail();
      tokens.push({ kind: 'string', value, newline });
      i = end + 1;
      newline = false;
    } else {
      const two = text.slice(i, i + 2);
      // `/` (comment, regex, division), `#`, `@`, `\` (a Unicode escape in a name), non-ASCII
      if (c === 47 || c === 35 || c === 64 || c === 92 || c >= 127) bail();
      const value = two === '=>' || two === '?.' ? two : text.startsWith('...', i) ? '...' : text[i];
      if (value === '?.' || two === '++' || two === '--') bail(); // optional chains; `++` and `--` have ASI rules of their own
      tokens.push({ kind: 'punct', value, newline });
      i += value.length;
      newline = false;
    }
  }
  return tokens;
}

/**
 * The index just past the template literal opening at `start`. Inside `${...}`, braces are counted
 * and nested strings and templates skipped; a comment or a `/` there bails.
 */
function templateEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (depth === 0) {
      if (c === 96) return i + 1;
      if (c === 36 && text.charCodeAt(i + 1) === 123) {
        depth = 1;
        i++;
      }
    } else if (c === 123) depth++;
    else if (c === 125) depth--;
    else if (c === 96) i = templateEnd(text, i) - 1;
    else if (c === 39 || c === 34) {
      const end = text.indexOf(text[i], i + 1);
      if (end === -1 || text.slice(i + 1, end).includes('\\')) bail();
      i = end;
    } else if (c === 47) bail();
  }
  return bail();
}

/**
 * `ts`: the file is TypeScript; in JS, type annotations, `as`, `satisfies` and `!` are syntax errors.
 * `complete`: every token was read by the grammar, none skipped (parameter lists, function bodies,
 * types, opaque expressions): the text is then known to be well-formed.
 */
export function lightParse(text: string, ts: boolean): { program: Program; complete: boolean } | null {
  try {
    const reader = new Reader(tokenize(text), ts);
    const program = reader.program() as unknown as Program;
    return { program, complete: !reader.skipped };
  } catch (error) {
    if (error instanceof Bail) return null;
    throw error;
  }
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set([',', ')', ']', '}', ';']);
/** First characters of binary, conditional and assignment operators (`!` only as `!=`). */
const OPERATOR_START = new Set(['+', '-', '*', '/', '%', '<', '>', '=', '!', '&', '|', '^', '?']);
/** Operators that never occur in a type outside brackets: one that follows a type ends it. */
const TYPE_ENDING = new Set(['+', '-', '*', '%', '!', '~', '?', '^']);

class Reader {
  private at = 0;
  /** Some tokens were skipped rather than read. */
  skipped = false;
  /** Names exported so far: exporting one twice is a syntax error. */
  private readonly exported = new Set<string>();
  constructor(
    private readonly tokens: Token[],
    private readonly ts: boolean,
  ) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }
  private is(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && (t.kind === 'punct' || t.kind === 'word') && t.value === value;
  }
  private next(): Token {
    return this.tokens[this.at++] ?? bail();
  }
  private expect(value: string): void {
    if (!this.is(value)) bail();
    this.at++;
  }
  private name(): string {
    const t = this.next();
    // Strict mode code (every module) cannot bind `eval` or `arguments`.
    if (t.kind !== 'word' || RESERVED.has(t.value) || t.value === 'eval' || t.value === 'arguments') bail();
    return t.value as string;
  }
  private exportName(name: string): void {
    if (this.exported.has(name)) bail();
    this.exported.add(name);
  }
  /** Skips a balanced bracket group starting at the current token. */
  private skipGroup(): void {
    this.skipped = true;
    const stack: string[] = [];
    do {
      const t = this.next();
      if (t.kind !== 'punct') continue;
      if (OPEN[t.value]) stack.push(OPEN[t.value]);
      else if (t.value === ')' || t.value === ']' || t.value === '}') {
        if (stack.pop() !== t.value) bail();
      }
    } while (stack.length > 0);
  }
  /** A statement ends at `;`, at the end, or before a line break that starts something new. */
  private endStatement(): void {
    if (this.is(';')) this.at++;
    else if (this.peek() !== undefined && !this.peek()!.newline) bail();
  }

  program(): N {
    const body: N[] = [];
    let moduleSyntax = false;
    while (this.peek() !== undefined) {
      if (this.is(';')) {
        this.at++;
        continue;
      }
      const t = this.next();
      if (t.kind !== 'word') bail();
      switch (t.value) {
        case 'import':
          moduleSyntax = true;
          body.push(this.importDeclaration());
          break;
        case 'export':
          moduleSyntax = true;
          if (this.is('default')) {
            this.at++;
            this.exportName('default');
            body.push({ type: 'ExportDefaultDeclaration', declaration: this.is('function') || (this.is('async') && this.is('function', 1)) ? this.functionNode('FunctionDeclaration', true) : this.expressionStatement() });
          } else if (this.is('const') || this.is('let') || this.is('var')) {
            const declaration = this.variableDeclaration(this.next().value as string);
            for (const d of declaration.declarations as N[]) this.exportName((d.id as N).name as string);
            body.push({ type: 'ExportNamedDeclaration', declaration, specifiers: [], source: null });
          } else if (this.is('function') || (this.is('async') && this.is('function', 1))) {
            const declaration = this.functionNode('FunctionDeclaration', false);
            this.exportName((declaration.id as N).name as string);
            body.push({ type: 'ExportNamedDeclaration', declaration, specifiers: [], source: null });
          } else if (this.is('{')) {
            body.push(this.exportList());
          } else bail();
          break;
        case 'const':
        case 'let':
        case 'var':
          body.push(this.variableDeclaration(t.value));
          break;
        case 'function':
        case 'async':
          this.at--;
          body.push(this.functionNode('FunctionDeclaration', false));
          break;
        default:
          bail();
      }
    }
    // No module syntax: CommonJS questions (`exports`) are oxc-parser's to answer.
    if (!moduleSyntax) bail();
    return { type: 'Program', body };
  }

  private importDeclaration(): N {
    const specifiers: N[] = [];
    const identifier = (name: string): N => ({ type: 'Identifier', name });
    if (this.peek()?.kind !== 'string') {
      if (this.is('type') && !this.is('from', 1) && !this.is(',', 1)) bail(); // `import type`: left to oxc-parser
      if (this.peek()?.kind === 'word' && !this.is('from')) {
        specifiers.push({ type: 'ImportDefaultSpecifier', local: identifier(this.name()) });
        // `import x, * as y` or `import x, { y }`; not `import x, from` nor `import x { y }`.
        if (this.is(',')) {
          this.at++;
          if (!this.is('*') && !this.is('{')) bail();
        } else if (!this.is('from')) bail();
      }
      if (this.is('*')) {
        this.at++;
        this.expect('as');
        specifiers.push({ type: 'ImportNamespaceSpecifier', local: identifier(this.name()) });
      } else if (this.is('{')) {
        this.at++;
        while (!this.is('}')) {
          const first = this.next();
          if (first.kind !== 'word' && first.kind !== 'string') bail();
          if (first.value === 'type' && !this.is('as') && !this.is(',') && !this.is('}')) bail();
          const imported: N = first.kind === 'word' ? identifier(first.value as string) : { type: 'Literal', value: first.value };
          let name = first.value as string;
          if (this.is('as')) {
            this.at++;
            name = this.name();
          } else if (first.kind !== 'word' || RESERVED.has(name)) bail();
          specifiers.push({ type: 'ImportSpecifier', imported, local: identifier(name) });
          if (!this.is('}')) this.expect(',');
        }
        this.at++;
      } else if (specifiers.length === 0) bail(); // `import from 'x'` (and the rare default import named `from`)
      this.expect('from');
    }
    if (this.next().kind !== 'string') bail();
    if (this.is('with') || this.is('assert')) bail();
    this.endStatement();
    return { type: 'ImportDeclaration', specifiers };
  }

  private exportList(): N {
    this.expect('{');
    const specifiers: N[] = [];
    while (!this.is('}')) {
      const first = this.next();
      if ((first.kind !== 'word' && first.kind !== 'string') || first.value === 'type') bail();
      const localNode = { type: first.kind === 'word' ? 'Identifier' : 'Literal', name: first.value, value: first.value };
      let exported = localNode;
      if (this.is('as')) {
        this.at++;
        const t = this.next();
        if (t.kind !== 'word' && t.kind !== 'string') bail();
        exported = { type: t.kind === 'word' ? 'Identifier' : 'Literal', name: t.value, value: t.value };
      }
      this.exportName(exported.value as string);
      specifiers.push({ type: 'ExportSpecifier', local: localNode, exported: { ...exported, start: -1 } });
      if (!this.is('}')) this.expect(',');
    }
    this.at++;
    let source: N | null = null;
    if (this.is('from')) {
      this.at++;
      const t = this.next();
      if (t.kind !== 'string') bail();
      source = { type: 'Literal', value: t.value };
    } else if (specifiers.some((s) => (s.local as N).type !== 'Identifier')) bail();
    this.endStatement();
    return { type: 'ExportNamedDeclaration', declaration: null, specifiers, source };
  }

  private variableDeclaration(kind: string): N {
    const declarations: N[] = [];
    do {
      if (declarations.length > 0) this.at++;
      const id: N = { type: 'Identifier', name: this.name() };
      if (this.is(':')) {
        if (!this.ts) bail();
        this.skipType(['=']);
      }
      let init: N | null = null;
      if (this.is('=')) {
        this.at++;
        init = this.assignment();
      } else if (kind === 'const') bail();
      declarations.push({ type: 'VariableDeclarator', id, init });
    } while (this.is(','));
    this.endStatement();
    return { type: 'VariableDeclaration', kind, declarations };
  }

  private expressionStatement(): N {
    const node = this.assignment();
    this.endStatement();
    return node;
  }

  /** `function name?(...) {...}`, `async`, generators; the body is not read. */
  private functionNode(type: string, nameOptional: boolean): N {
    if (this.is('async')) {
      this.at++;
      if (this.peek()?.newline) bail(); // `async\nfunction`: `async` is a name there
    }
    this.expect('function');
    if (this.is('*')) this.at++;
    const id = nameOptional && this.is('(') ? null : { type: 'Identifier', name: this.name() };
    this.params();
    return { type, id };
  }

  private params(): void {
    if (!this.is('(')) bail();
    this.skipGroup();
    // A return type annotation may hold braces of its own: oxc-parser reads those.
    if (!this.is('{')) bail();
    this.skipGroup();
  }

  /** Skips a type annotation up to one of `stops` (or `,` `)` `]` `}` `;`) outside brackets. */
  private skipType(stops: string[]): void {
    this.skipped = true;
    this.at++; // the `:`, `as` or `satisfies`
    let angle = 0;
    const start = this.at;
    for (;;) {
      const t = this.peek();
      if (t === undefined) break;
      if (t.kind === 'punct') {
        if (angle === 0 && (stops.includes(t.value) || CLOSERS.has(t.value))) break;
        if (OPEN[t.value]) {
          this.skipGroup();
          continue;
        }
        // Operators that end a type and go on with the expression (`x as T + 1`, `x as T || y`):
        // the value is then not `x`. Conditional and negative literal types go to oxc-parser too.
        if (TYPE_ENDING.has(t.value) || ((t.value === '|' || t.value === '&') && this.is(t.value, 1))) bail();
        if (t.value === '<') angle++;
        else if (t.value === '>' && --angle < 0) bail();
        else if (t.value === '=' && angle === 0) break;
      } else if (t.kind === 'word' && (t.value === 'in' || t.value === 'instanceof') && angle === 0) bail();
      else if (angle === 0 && t.newline && this.at > start) break;
      this.at++;
    }
    if (this.at === start || angle !== 0) bail();
  }

  /** An assignment-level expression: a primary with calls and members, else an opaque one. */
  private assignment(): N {
    let node = this.unary();
    // After an arrow's block body no operator may follow; after a line break one starts a statement.
    if (node.type === 'ArrowFunctionExpression') return this.atExpressionEnd() ? node : bail();
    // TS wrappers keep the value: `{...} as const`, `x satisfies T`, `x!`.
    for (;;) {
      const t = this.peek();
      if (t === undefined) return node;
      if ((this.is('as') || this.is('satisfies')) && !t.newline) {
        if (!this.ts) bail();
        const type = t.value === 'as' ? 'TSAsExpression' : 'TSSatisfiesExpression';
        this.skipType([]);
        node = { type, expression: node };
        continue;
      }
      if (t.kind === 'punct' && t.value === '!' && !t.newline && !this.is('=', 1)) {
        if (!this.ts) bail();
        this.at++;
        node = { type: 'TSNonNullExpression', expression: node };
        continue;
      }
      break;
    }
    if (this.atExpressionEnd()) return node;
    // A binary, conditional or assignment operator (or a tagged template) follows: whatever the
    // rest, the value is not evident. Anything else here (`abstract class`, `(x): T => 1`) is
    // syntax this reader does not know.
    const t = this.peek()!;
    // `x\n!y` is two statements, `x !y` an error: `!` continues an expression only as `!=`.
    if (t.kind === 'punct' && t.value === '!' && !this.is('=', 1)) bail();
    if (!(t.kind === 'template' || (t.kind === 'punct' && OPERATOR_START.has(t.value)) || (t.kind === 'word' && (t.value === 'in' || t.value === 'instanceof')))) bail();
    this.skipExpression();
    return { type: 'Opaque' };
  }

  /** At `,` `)` `]` `}` `;`, the end, or a word or literal after a line break (ASI starts the next statement). */
  private atExpressionEnd(): boolean {
    const t = this.peek();
    if (t === undefined) return true;
    if (t.kind === 'punct') return CLOSERS.has(t.value);
    return t.newline;
  }

  /**
   * Skips the rest of an expression whose value is not evident (operators follow its start). An
   * `=>` on the way may make it an arrow function, which is evident (`(x): T => 1`): oxc-parser reads those.
   */
  private skipExpression(): void {
    this.skipped = true;
    while (!this.atExpressionEnd()) {
      const t = this.peek()!;
      if (t.kind === 'punct' && t.value === '=>') bail();
      if (t.kind === 'punct' && OPEN[t.value]) this.skipGroup();
      else this.at++;
    }
  }

  private unary(): N {
    const t = this.peek() ?? bail();
    if ((t.kind === 'punct' && (t.value === '-' || t.value === '+' || t.value === '!' || t.value === '~')) || (t.kind === 'word' && (t.value === 'typeof' || t.value === 'void'))) {
      this.at++;
      if (this.is(t.value) && (t.value === '-' || t.value === '+')) bail(); // `--x`
      const argument = this.unary();
      if (argument.type === 'ArrowFunctionExpression') bail(); // `!x => 1` is a syntax error
      return { type: 'UnaryExpression', operator: t.value, argument };
    }
    const node = this.primary();
    // An arrow function is a whole assignment expression: nothing calls it or reads a member of it
    // (`() => {}\n(x)` is an arrow and a second statement).
    return node.type === 'ArrowFunctionExpression' ? node : this.postfix(node);
  }

  private postfix(start: N): N {
    let node = start;
    for (;;) {
      const t = this.peek();
      // A tagged template binds tighter than a unary operator (`!tag\`x\`` negates the call).
      if (t?.kind === 'template') bail();
      if (t === undefined || t.kind !== 'punct') return node;
      // A line break never ends an expression before `.` or `(` (`createScorer({...})\n  .generateScore(...)`).
      if (t.value === '.') {
        this.at++;
        const property = this.next();
        if (property.kind !== 'word') bail();
        node = { type: 'MemberExpression', object: node, property: { type: 'Identifier', name: property.value }, computed: false };
      } else if (t.value === '(') {
        node = { type: 'CallExpression', callee: node, arguments: this.arguments() };
      } else if (t.value === '[' || (t.value === '<' && this.ts)) {
        bail(); // `[`: computed members; `<` in TS: type arguments (`agentConfig<Ctx>({...})`), which oxc-parser reads
      } else return node;
    }
  }

  private arguments(): N[] {
    this.expect('(');
    const args: N[] = [];
    while (!this.is(')')) {
      if (this.is('...')) {
        this.at++;
        args.push({ type: 'SpreadElement', argument: this.assignment() });
      } else args.push(this.assignment());
      if (!this.is(')')) this.expect(',');
    }
    this.at++;
    return args;
  }

  private primary(): N {
    const t = this.next();
    switch (t.kind) {
      case 'string':
        return { type: 'Literal', value: t.value };
      case 'number':
        return { type: 'Literal', value: t.value };
      case 'template':
        // With substitutions, what the readings see is only that it is a string, not which; the
        // text inside `${...}` is not read, so it may not even parse.
        if (t.substitutions) {
          this.skipped = true;
          return { type: 'TemplateLiteral', expressions: [{ type: 'Opaque' }], quasis: [] };
        }
        return { type: 'TemplateLiteral', expressions: [], quasis: [{ type: 'TemplateElement', value: { cooked: t.value } }] };
      case 'word':
        return this.wordExpression(t.value);
    }
    switch (t.value) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '(': {
        this.at--;
        if (this.isArrowAhead()) return this.arrow();
        this.at++;
        const inner = this.assignment();
        if (!this.is(')')) bail(); // a sequence `(a, b)`
        this.at++;
        return inner;
      }
    }
    return bail();
  }

  private wordExpression(word: string): N {
    switch (word) {
      case 'true':
      case 'false':
        return { type: 'Literal', value: word === 'true' };
      case 'null':
        return { type: 'Literal', value: null };
      case 'function':
        this.at--;
        return this.functionNode('FunctionExpression', true);
      case 'async':
        if (this.is('function') && !this.peek()!.newline) {
          this.at--;
          return this.functionNode('FunctionExpression', true);
        }
        if ((this.is('(') || this.peek()?.kind === 'word') && !this.peek()!.newline) {
          if (this.peek()!.kind === 'word' && !this.is('=>', 1)) bail();
          if (this.is('(') && !this.isArrowAhead()) return this.postfix({ type: 'Identifier', name: 'async' });
          return this.arrow();
        }
        return { type: 'Identifier', name: word };
      case 'new': {
        // `new a.B(...)`: the callee is a name with members, the arguments optional.
        if (this.is('new') || this.is('(')) bail();
        let callee: N = { type: 'Identifier', name: this.name() };
        while (this.is('.')) {
          this.at++;
          const property = this.next();
          if (property.kind !== 'word') bail();
          callee = { type: 'MemberExpression', object: callee, property: { type: 'Identifier', name: property.value }, computed: false };
        }
        if (this.is('[') || this.is('<')) bail();
        return { type: 'NewExpression', callee, arguments: this.is('(') ? this.arguments() : [] };
      }
    }
    if (RESERVED.has(word)) bail();
    if (this.is('=>')) {
      this.at--;
      return this.arrow();
    }
    return { type: 'Identifier', name: word };
  }

  /** At `(`: does the group end in `) =>`? */
  private isArrowAhead(): boolean {
    const save = this.at;
    this.skipGroup();
    const arrow = this.is('=>');
    this.at = save;
    return arrow;
  }

  private arrow(): N {
    if (this.is('(')) this.skipGroup();
    else this.name();
    if (this.peek()?.newline) bail(); // no line break before `=>`
    this.expect('=>');
    if (this.is('{')) this.skipGroup();
    else this.assignment();
    return { type: 'ArrowFunctionExpression' };
  }

  private array(): N {
    const elements: Array<N | null> = [];
    while (!this.is(']')) {
      if (this.is(',')) {
        this.at++;
        elements.push(null);
        continue;
      }
      if (this.is('...')) {
        this.at++;
        elements.push({ type: 'SpreadElement', argument: this.assignment() });
      } else elements.push(this.assignment());
      if (!this.is(']')) this.expect(',');
    }
    this.at++;
    return { type: 'ArrayExpression', elements };
  }

  private object(): N {
    const properties: N[] = [];
    while (!this.is('}')) {
      properties.push(this.property());
      if (!this.is('}')) this.expect(',');
    }
    this.at++;
    return { type: 'ObjectExpression', properties };
  }

  private property(): N {
    if (this.is('...')) {
      this.at++;
      return { type: 'SpreadElement', argument: this.assignment() };
    }
    let kind = 'init';
    let method = false;
    // `get`, `set`, `async` and `*` are modifiers only when a key follows them.
    const modifier = () => !(this.is(':', 1) || this.is(',', 1) || this.is('}', 1) || this.is('(', 1));
    if ((this.is('get') || this.is('set')) && modifier()) kind = (this.next().value as string);
    else if (this.is('async') && modifier()) {
      if (this.peek(1)!.newline) bail(); // `async\n run() {}` is an error
      this.at++;
      method = true;
      if (this.is('*')) this.at++;
    } else if (this.is('*')) {
      this.at++;
      method = true;
    }
    let computed = false;
    let key: N;
    const t = this.next();
    if (t.kind === 'word') key = { type: 'Identifier', name: t.value };
    else if (t.kind === 'string' || t.kind === 'number') key = { type: 'Literal', value: t.value };
    else if (t.kind === 'punct' && t.value === '[') {
      computed = true;
      key = this.assignment();
      this.expect(']');
    } else return bail();
    if (this.is('(')) {
      // A getter takes no parameter and a setter exactly one: check the simple forms, leave the rest to oxc-parser.
      if (kind === 'get' && !this.is(')', 1)) bail();
      if (kind === 'set' && !(this.peek(1)?.kind === 'word' && !RESERVED.has(this.peek(1)!.value as string) && this.is(')', 2))) bail();
      this.params();
      return { type: 'Property', kind, method: kind === 'init', shorthand: false, computed, key, value: { type: 'FunctionExpression', id: null } };
    }
    if (kind !== 'init' || method) bail();
    if (this.is(':')) {
      this.at++;
      return { type: 'Property', kind, method: false, shorthand: false, computed, key, value: this.assignment() };
    }
    // Shorthand `{ scorer }`: only a plain name.
    if (computed || key.type !== 'Identifier' || RESERVED.has(key.name as string)) bail();
    return { type: 'Property', kind, method: false, shorthand: true, computed, key, value: { type: 'Identifier', name: key.name } };
  }
}

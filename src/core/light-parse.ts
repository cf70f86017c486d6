/**
 * A reader for the small modules that scorer files and configs usually are: imports, type
 * declarations, `const` bindings, function declarations and an `export default` of an object literal,
 * a call or a name. It builds the few ESTree nodes the static readings look at, in oxc-parser's shape,
 * reading the top level token by token (lex.ts) and skipping parameter lists, function bodies and
 * types without reading them. Anything outside that small grammar returns null and oxc-parser reads
 * the module instead (ast.ts), which costs a build far more: loading it alone counts ~145 million
 * instructions on Node 24, a tenth of a 20-agent build (ARCHITECTURE.md, "Cold builds").
 *
 * Sub-expressions the readings never judge (operators, member access on values, `new`) become
 * `Opaque` nodes, which every reading treats as "not evident", exactly as it treats those node types.
 * Identifiers inside them are not kept, so the scope is always `partial` (ast.ts): a reading that
 * needs identifier counts beyond the text checks parses the whole source.
 */
import type { Program } from 'oxc-parser';
import { Bail, bail, tokenize, type Lexed, type Token } from './lex.js';

/** Any node we build; loose on purpose, cast to oxc-parser's Program at the end. */
type N = { type: string; [field: string]: unknown };

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(
    ' ',
  ),
);

/**
 * `ts`: the file is TypeScript; in JS, type annotations, `as`, `satisfies` and `!` are syntax errors.
 * `complete`: every token was read by the grammar, none skipped (parameter lists, function bodies,
 * types, opaque expressions): the text is then known to be well-formed. `literals`: the ranges of its
 * strings, template texts, regular expressions and comments (lex.ts `codeOccurrences`).
 */
export function lightParse(text: string, ts: boolean): { program: Program; complete: boolean; lexed: Lexed } | null {
  try {
    const lexed = tokenize(text);
    const reader = new Reader(lexed.tokens, ts);
    const program = reader.program() as unknown as Program;
    return { program, complete: !reader.skipped, lexed };
  } catch (error) {
    if (error instanceof Bail) return null;
    throw error;
  }
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set([',', ')', ']', '}', ';']);
/** What a return type or type arguments may hold between names and brackets (`Promise<A | B>`, `() => T`, `a.B`). */
const RETURN_TYPE_PUNCT = new Set(['|', '&', '.', '=>', '<', '>', '[', ']']);
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
  /** The current token is the punctuator or word `value` (a body's `group` counts as `{`). */
  private is(value: string, offset = 0): boolean {
    const t = this.tokens[this.at + offset];
    return t !== undefined && (t.kind === 'punct' || t.kind === 'word' || t.kind === 'group') && t.value === value;
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
  /** Skips a balanced bracket group starting at the current token (a body is one token already). */
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
          } else if (!this.typeDeclaration()) bail();
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
          // `type X = ...` and `interface X {...}` declare no value: skipped, nothing bound.
          this.at--;
          if (!this.typeDeclaration()) bail();
      }
    }
    // No module syntax: CommonJS questions (`exports`) are oxc-parser's to answer.
    if (!moduleSyntax) bail();
    return { type: 'Program', body };
  }

  private importDeclaration(): N {
    const specifiers: N[] = [];
    const identifier = (name: string): N => ({ type: 'Identifier', name });
    let importKind = 'value';
    if (this.peek()?.kind !== 'string') {
      // `import type ...` (not a default import named `type`: `import type from`, `import type, {...}`).
      if (this.is('type') && !this.is('from', 1) && !this.is(',', 1)) {
        if (!this.ts) bail();
        this.at++;
        importKind = 'type';
        if (this.is('{') && this.is('type', 1)) bail(); // `import type { type X }` is an error
      }
      if (this.peek()?.kind === 'word' && !this.is('from')) {
        specifiers.push({ type: 'ImportDefaultSpecifier', local: identifier(this.name()) });
        // `import x, * as y` or `import x, { y }`; not `import x, from` nor `import x { y }`.
        if (this.is(',')) {
          this.at++;
          if (!this.is('*') && !this.is('{')) bail();
          if (importKind === 'type') bail(); // `import type A, { B }` is an error
        } else if (!this.is('from')) bail();
      }
      if (this.is('*')) {
        this.at++;
        this.expect('as');
        specifiers.push({ type: 'ImportNamespaceSpecifier', local: identifier(this.name()) });
      } else if (this.is('{')) {
        this.at++;
        while (!this.is('}')) {
          let first = this.next();
          let specifierKind = 'value';
          if (first.kind !== 'word' && first.kind !== 'string') bail();
          // `{ type X }`, `{ type X as Y }`: a type-only specifier. (`{ type as x }` imports `type`.)
          if (first.value === 'type' && !this.is('as') && !this.is(',') && !this.is('}')) {
            if (!this.ts || importKind === 'type' || this.is('as', 1)) bail();
            first = this.next();
            if (first.kind !== 'word' && first.kind !== 'string') bail();
            specifierKind = 'type';
          }
          const imported: N = first.kind === 'word' ? identifier(first.value as string) : { type: 'Literal', value: first.value };
          let name = first.value as string;
          if (this.is('as')) {
            this.at++;
            name = this.name();
          } else if (first.kind !== 'word' || RESERVED.has(name)) bail();
          specifiers.push({ type: 'ImportSpecifier', imported, local: identifier(name), importKind: specifierKind });
          if (!this.is('}')) this.expect(',');
        }
        this.at++;
      } else if (specifiers.length === 0) bail(); // `import from 'x'` (and the rare default import named `from`)
      this.expect('from');
    }
    if (this.next().kind !== 'string') bail();
    if (this.is('with') || this.is('assert')) bail();
    this.endStatement();
    if (importKind === 'type') this.skipped = true; // what TypeScript allows there is not all checked here
    return { type: 'ImportDeclaration', specifiers, importKind };
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
    const id = nameOptional && (this.is('(') || this.is('<')) ? null : { type: 'Identifier', name: this.name() };
    this.params();
    return { type, id };
  }

  /** `<T>(...): R {...}` of a function or method: type parameters, parameters, return type, body; none of it read. */
  private params(): void {
    if (this.ts && this.is('<')) this.skipAngles();
    if (!this.is('(')) bail();
    this.skipGroup();
    if (this.ts && this.is(':')) this.skipReturnType();
    if (!this.is('{')) bail();
    this.skipGroup();
  }

  /**
   * A return type up to the body's `{`: the first `{` outside angle brackets that follows a complete
   * type (a name, `>`, or a closing bracket); any other `{` opens an object type (`: { score: number } {`).
   */
  private skipReturnType(): void {
    this.skipped = true;
    this.at++; // the `:`
    let angle = 0;
    let complete = false;
    for (;;) {
      const t = this.peek() ?? bail();
      if (t.kind === 'group' && angle === 0 && complete) return; // the body
      if (t.kind === 'punct') {
        if (t.value === '{' && angle === 0 && complete) return;
        if (OPEN[t.value]) {
          this.skipGroup();
          complete = true;
          continue;
        }
        if (t.value === '<') angle++;
        else if (t.value === '>') {
          if (--angle < 0) bail();
        } else if (t.value === ',') {
          if (angle === 0) bail();
        } else if (!RETURN_TYPE_PUNCT.has(t.value)) bail();
        complete = t.value === '>';
      } else if (t.kind === 'regex' || t.kind === 'template') bail();
      else complete = true;
      this.at++;
    }
  }

  /** Type parameters or arguments, `<...>`, from the current `<` to its `>`. */
  private skipAngles(): void {
    this.skipped = true;
    let angle = 0;
    do {
      const t = this.peek() ?? bail();
      if (t.kind === 'punct') {
        if (OPEN[t.value]) {
          this.skipGroup();
          continue;
        }
        if (t.value === '<') angle++;
        else if (t.value === '>') angle--;
        else if (t.value !== ',' && !RETURN_TYPE_PUNCT.has(t.value)) bail();
      } else if (t.kind === 'regex' || t.kind === 'template') bail();
      this.at++;
    } while (angle > 0);
  }

  /**
   * `type X<T> = ...;` or `interface X<T> extends Y {...}` (and `declare`d neither), when TypeScript:
   * consumed, false when the current tokens are not one.
   */
  private typeDeclaration(): boolean {
    if (!this.ts || this.peek(1)?.kind !== 'word' || this.peek(1)!.newline) return false;
    if (this.is('type')) {
      this.at++;
      this.name();
      if (this.is('<')) this.skipAngles();
      if (!this.is('=')) bail();
      this.skipType([]);
      this.endStatement();
      return true;
    }
    if (this.is('interface')) {
      this.at++;
      this.name();
      this.skipped = true;
      // Up to the body: `extends A<B>, C` holds no `{` outside angle brackets.
      let angle = 0;
      while (!(angle === 0 && this.is('{'))) {
        const t = this.next();
        if (t.kind === 'punct') {
          if (t.value === '<') angle++;
          else if (t.value === '>') angle--;
          else if (OPEN[t.value] && angle > 0) {
            this.at--;
            this.skipGroup();
          } else if (t.value !== ',' && t.value !== '.') bail();
        } else if (t.kind !== 'word') bail();
      }
      this.skipGroup();
      return true;
    }
    return false;
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
      else if (t.kind === 'regex') bail();
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
      } else if (t.value === '<' && this.ts) {
        // Type arguments of a call (`agentConfig<Ctx>({...})`): TypeScript reads `<` so only when `(` follows.
        this.skipAngles();
        if (!this.is('(')) bail();
      } else if (t.value === '[') {
        bail(); // computed members
      } else return node;
    }
  }

  private arguments(): N[] {
    if (this.peek()?.kind === 'group') bail(); // `c ? f(x) : y`: not read
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
        if (t.aux === '${') {
          this.skipped = true;
          return { type: 'TemplateLiteral', expressions: [{ type: 'Opaque' }], quasis: [] };
        }
        return { type: 'TemplateLiteral', expressions: [], quasis: [{ type: 'TemplateElement', value: { cooked: t.value } }] };
      case 'word':
        return this.wordExpression(t.value);
      case 'group':
        // Parameters read as one token: an arrow function's; a body where a value should be is an error.
        this.at--;
        if (t.value === '(' && this.isArrowAhead()) return this.arrow();
        return bail();
      case 'regex': {
        // As oxc-parser gives it: the value is the RegExp where this engine can build one.
        let value: RegExp | null = null;
        try {
          value = new RegExp(t.value, t.aux);
        } catch {
          value = null;
        }
        return { type: 'Literal', value, regex: { pattern: t.value, flags: t.aux } };
      }
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
        if (this.is('[')) bail();
        if (this.is('<')) {
          if (!this.ts) bail();
          this.skipAngles();
          if (!this.is('(')) bail();
        }
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

  /** At `(`: does the group end in `) =>`, or in TypeScript `): ReturnType =>`? */
  private isArrowAhead(): boolean {
    const save = this.at;
    const skipped = this.skipped;
    this.skipGroup();
    let arrow = this.is('=>');
    if (!arrow && this.ts && this.is(':')) {
      this.at++;
      for (let angle = 0; this.peek() !== undefined; ) {
        const t = this.peek()!;
        if (t.kind === 'punct' && OPEN[t.value]) {
          this.skipGroup();
          continue;
        }
        this.at++;
        if (t.kind === 'regex' || t.kind === 'template' || t.kind === 'group') break;
        if (t.kind !== 'punct') continue;
        if (t.value === '=>' && angle === 0) {
          arrow = true;
          break;
        }
        if (t.value === '<') angle++;
        else if (t.value === '>') angle--;
        else if (!RETURN_TYPE_PUNCT.has(t.value) && !(t.value === ',' && angle > 0)) break;
      }
    }
    this.at = save;
    this.skipped = skipped;
    return arrow;
  }

  private arrow(): N {
    if (this.is('(')) {
      this.skipGroup();
      if (this.ts && this.is(':')) this.skipType(['=>']);
    } else this.name();
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
    if (this.is('(') || (this.ts && this.is('<') && kind === 'init')) {
      // A getter takes no parameter and a setter exactly one: check the simple forms, leave the rest to oxc-parser.
      const list = this.peek()!;
      if (kind === 'get' && !(list.kind === 'group' ? list.aux === '' : this.is(')', 1))) bail();
      if (kind === 'set') {
        const single = list.kind === 'group' ? (list.aux === '' || list.aux === '*' ? null : list.aux) : this.peek(1)?.kind === 'word' && this.is(')', 2) ? (this.peek(1)!.value as string) : null;
        if (single === null || RESERVED.has(single)) bail();
      }
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

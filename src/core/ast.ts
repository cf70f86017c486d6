/**
 * Shared helpers for reading modules statically: parse once, peel off type-only wrappers, evaluate
 * literals, resolve top-level `const` bindings. Everything here is pure and must stay total: callers
 * wrap their work in try/catch, but nothing in here is meant to throw on well-formed ASTs.
 */
import { createRequire } from 'node:module';
import type { Node, ObjectExpression, ObjectProperty, Program } from 'oxc-parser';
import { codeOccurrences, type Lexed } from './lex.js';
import { lightParse } from './light-parse.js';
import { functionSkeleton } from './skeleton.js';

/** One parsed module plus lazily built lookups, so each file is parsed and walked at most once. */
export interface ModuleScope {
  readonly program: Program;
  readonly source: string;
  readonly hasModuleSyntax: boolean;
  /** Start offsets of `export type { x as default }` names: the 'js' AST drops `exportKind`. */
  readonly typeOnlyDefaults: ReadonlySet<number>;
  /**
   * The program was parsed from the source's skeleton (function bodies emptied, see skeleton.ts):
   * `source` is still the whole text, but identifiers inside function bodies are not in `program`.
   */
  readonly partial: boolean;
  /**
   * The whole source was read and found well-formed (by oxc-parser, or by light-parse.ts with nothing
   * skipped). A reading of a scope that is not checked may have missed a syntax error.
   */
  readonly checked: boolean;
  /** Read by light-parse.ts: its tokens and literal ranges, to count names in code only. */
  readonly lexed?: Lexed;
  bindings?: Map<string, Node | null>;
  identifierCounts?: Map<string, number>;
}

type ParserLang = 'js' | 'jsx' | 'ts' | 'tsx';

const NO_OFFSETS: ReadonlySet<number> = new Set();

function langOf(filename: string): ParserLang {
  const query = filename.indexOf('?');
  const path = (query === -1 ? filename : filename.slice(0, query)).toLowerCase();
  if (path.endsWith('.tsx')) return 'tsx';
  if (path.endsWith('.jsx')) return 'jsx';
  // Another plugin may already have compiled a `.ts` file to JS; the TS grammar accepts that too.
  if (path.endsWith('.ts') || path.endsWith('.mts') || path.endsWith('.cts')) return 'ts';
  return 'js';
}

/**
 * How many files each reader has settled in this process: a default export that is a call (one regular
 * expression), quick-read.ts, light-parse.ts, oxc-parser over the skeleton, oxc-parser over the whole
 * source. Only counted, never read by the plugin: bench/readers.mjs reports which files still fall back,
 * and tests check that the usual shapes do not.
 */
export const readerCounts = { call: 0, quick: 0, light: 0, oxcSkeleton: 0, oxc: 0 };

/** 'js' or 'ts' for a file the small readers take (quick-read.ts, light-parse.ts), else null (JSX). */
export function quickLang(filename: string): 'js' | 'ts' | null {
  const lang = langOf(filename);
  return lang === 'js' || lang === 'ts' ? lang : null;
}

/** Thrown by a reading of a partial scope that needs what the skeleton left out: parse the whole source. */
export class NeedsFullParse extends Error {}

/**
 * Parses `source`, or returns null on any parse error: the host reports real syntax errors itself.
 * With `skeleton`, reads only what the readings look at, leaving function bodies out: with
 * light-parse.ts when its small grammar covers the module, else with oxc-parser over the source with
 * its function bodies emptied (skeleton.ts) when that made it shorter (a much smaller AST to transfer).
 * The scope is then `partial`; a parse error, or no module syntax left (an `import.meta` may have been
 * in a body), falls back to the whole source.
 */
export function parseModule(source: string, filename: string, skeleton = false): ModuleScope | null {
  const lang = langOf(filename);
  if (skeleton && (lang === 'js' || lang === 'ts')) {
    // The usual small module is read in JS; anything beyond that reader's grammar goes to oxc-parser.
    const light = lightParse(source, lang === 'ts');
    if (light !== null) {
      readerCounts.light++;
      return { program: light.program, source, hasModuleSyntax: true, typeOnlyDefaults: NO_OFFSETS, partial: true, checked: light.complete, lexed: light.lexed };
    }
    const text = functionSkeleton(source);
    if (text !== null && text !== source) {
      const scope = parseText(text, source, filename, lang, true);
      if (scope !== null && scope.hasModuleSyntax) return scope;
    }
  }
  return parseText(source, source, filename, lang, false);
}

type Oxc = typeof import('oxc-parser');
let oxc: { parseSync: Oxc['parseSync']; options: object } | null = null;

/**
 * oxc-parser, loaded on first use: the skeleton reader settles most projects' files alone, and loading
 * the parser costs a build ~4 ms. `require` of this ES module works on every Node the package supports
 * (`engines`: require(esm) is on by default from 20.19 and 22.12). Node 22+: raw transfer hands the AST
 * over as a buffer read in JS, several times cheaper than the JSON path Node 20 has to take (it cannot
 * allocate the buffer there); untyped in oxc-parser's declarations, hence the loose options object.
 */
function parser(): NonNullable<typeof oxc> {
  if (oxc === null) {
    let loaded: Oxc;
    try {
      loaded = createRequire(import.meta.url)('oxc-parser') as Oxc;
    } catch (error) {
      throw new ParserUnavailable(error);
    }
    oxc = { parseSync: loaded.parseSync, options: loaded.rawTransferSupported() ? { experimentalRawTransfer: true } : {} };
  }
  return oxc;
}

/**
 * oxc-parser could not be loaded (a missing native binding, say): never read as "not evident", which
 * would silently drop build-time checks; the readers let it through and the build fails with it.
 */
export class ParserUnavailable extends Error {
  constructor(cause: unknown) {
    super(`agent-scorers: cannot load oxc-parser (${cause instanceof Error ? cause.message : String(cause)}); reinstall dependencies.`, { cause });
    this.name = 'ParserUnavailable';
  }
}

/** Where a source does not parse: oxc-parser's first error, with a 1-based line and column (UTF-16 units, as editors count). */
export interface SyntaxProblem {
  message: string;
  line: number;
  column: number;
}

/**
 * The first syntax error in `source`, or null when it parses: for hosts where no bundler parses the
 * file after us (`agent-scorers generate`, Next.js), which would otherwise report nothing.
 */
export function syntaxProblem(source: string, filename: string): SyntaxProblem | null {
  const { parseSync, options } = parser();
  const result = parseSync(filename, source, { lang: langOf(filename), sourceType: 'module', astType: 'js', ...options });
  const error = result.errors.find((e) => (e.severity as string) === 'Error');
  if (error === undefined) return null;
  const offset = Math.min(error.labels[0]?.start ?? 0, source.length);
  const before = source.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  const line = (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
  return { message: error.message, line, column: offset - lineStart + 1 };
}

function parseText(text: string, source: string, filename: string, lang: ParserLang, partial: boolean): ModuleScope | null {
  if (partial) readerCounts.oxcSkeleton++;
  else readerCounts.oxc++;
  // The 'js' AST shape still carries TS expression nodes but skips type fields we never read,
  // which makes the (dominant) JSON deserialisation noticeably cheaper.
  const { parseSync, options } = parser();
  const result = parseSync(filename, text, {
    lang,
    sourceType: 'module',
    astType: 'js',
    preserveParens: false,
    ...options,
  });
  for (const error of result.errors) {
    if ((error.severity as string) === 'Error') return null;
  }
  const typeOnlyDefaults = new Set<number>();
  for (const statement of result.module.staticExports) {
    for (const entry of statement.entries) {
      const name = entry.exportName;
      if (entry.isType && name.name === 'default' && name.start !== null) typeOnlyDefaults.add(name.start);
    }
  }
  return {
    program: result.program,
    source,
    hasModuleSyntax: result.module.hasModuleSyntax,
    typeOnlyDefaults,
    partial,
    checked: !partial,
  };
}

const TS_WRAPPERS = new Set([
  'ParenthesizedExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSTypeAssertion',
  'TSNonNullExpression',
  'TSInstantiationExpression',
]);

/** Strips wrappers that do not change the runtime value: parentheses, `as`, `satisfies`, `<T>x`, `x!`. */
export function unwrap(node: Node): Node {
  let current = node;
  while (TS_WRAPPERS.has(current.type)) current = (current as { expression: Node }).expression;
  return current;
}

/** Returned by `evalLiteral` when the value is not a literal. */
export const NOT_LITERAL: unique symbol = Symbol('not a literal');

const MAX_LITERAL_DEPTH = 16;

/**
 * The value of a literal expression: primitives, unary +/-/!/void on literals, no-substitution
 * templates, and arrays and objects made only of those. Objects get a null prototype so that any key
 * is an ordinary key.
 */
export function evalLiteral(node: Node, scope: ModuleScope, depth = 0): unknown {
  if (depth > MAX_LITERAL_DEPTH) return NOT_LITERAL;
  const n = unwrap(node);
  switch (n.type) {
    case 'Literal':
      return 'regex' in n ? NOT_LITERAL : n.value;
    case 'TemplateLiteral':
      return n.expressions.length === 0 ? (n.quasis[0]?.value.cooked ?? NOT_LITERAL) : NOT_LITERAL;
    case 'Identifier':
      return globalConstant(n.name, scope);
    case 'UnaryExpression': {
      const value = evalLiteral(n.argument, scope, depth + 1);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      if (n.operator === 'void') return undefined;
      if (n.operator === '!') return !value;
      if (n.operator === '-' && (typeof value === 'number' || typeof value === 'bigint')) return -value;
      if (n.operator === '+' && typeof value === 'number') return value;
      return NOT_LITERAL;
    }
    case 'ArrayExpression': {
      const values: unknown[] = [];
      for (const element of n.elements) {
        if (element === null || element.type === 'SpreadElement') return NOT_LITERAL;
        const value = evalLiteral(element, scope, depth + 1);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        values.push(value);
      }
      return values;
    }
    case 'ObjectExpression': {
      const object: Record<string, unknown> = Object.create(null);
      for (const property of n.properties) {
        if (property.type === 'SpreadElement' || property.kind !== 'init' || property.method) return NOT_LITERAL;
        if (isProtoSetter(property)) return NOT_LITERAL;
        const key = propertyKey(property, scope);
        if (key === null) return NOT_LITERAL;
        const value = evalLiteral(property.value, scope, depth + 1);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        object[key] = value;
      }
      return object;
    }
    default:
      return NOT_LITERAL;
  }
}

function globalConstant(name: string, scope: ModuleScope): unknown {
  if (name !== 'undefined' && name !== 'NaN' && name !== 'Infinity') return NOT_LITERAL;
  // A module may legally declare its own `undefined`; then it is not the global one.
  if (topLevelBindings(scope).has(name)) return NOT_LITERAL;
  return name === 'undefined' ? undefined : name === 'NaN' ? NaN : Infinity;
}

/**
 * The own key a property creates, as JS stringifies it (`1e3` → "1000", `0x10` → "16"), or null when
 * it is not statically known (computed from a non-literal).
 */
export function propertyKey(property: ObjectProperty, scope: ModuleScope): string | null {
  const key = property.key;
  if (!property.computed) {
    if (key.type === 'Identifier') return key.name;
    if (key.type === 'Literal') return String(key.value);
    return null;
  }
  const value = evalLiteral(key, scope);
  if (value === NOT_LITERAL || (typeof value === 'object' && value !== null)) return null;
  return String(value);
}

/**
 * `__proto__: v` (plain, non-computed, non-shorthand) sets the prototype instead of creating an own key.
 * Computed `['__proto__']`, shorthand `{ __proto__ }` and methods do create an own key.
 */
export function isProtoSetter(property: ObjectProperty): boolean {
  if (property.computed || property.shorthand || property.method || property.kind !== 'init') return false;
  const key = property.key;
  return (
    (key.type === 'Identifier' && key.name === '__proto__') || (key.type === 'Literal' && key.value === '__proto__')
  );
}

export type PropertyLookup =
  | { kind: 'found'; property: ObjectProperty }
  | { kind: 'missing' }
  /** A spread, a computed key or a prototype may supply or override the property at run time. */
  | { kind: 'unknown' };

/** Which property of an object literal provides `name` at run time, applying properties in order like JS. */
export function lookupProperty(object: ObjectExpression, name: string, scope: ModuleScope): PropertyLookup {
  let found: ObjectProperty | null = null;
  let overridable = false;
  let prototypeSet = false;
  for (const property of object.properties) {
    if (property.type === 'SpreadElement') {
      overridable = true;
      continue;
    }
    if (isProtoSetter(property)) {
      const proto = unwrap(property.value);
      prototypeSet = !(proto.type === 'Literal' && proto.value === null);
      continue;
    }
    const key = propertyKey(property, scope);
    if (key === null) {
      overridable = true;
    } else if (key === name) {
      found = property;
      overridable = false;
    }
  }
  if (overridable) return { kind: 'unknown' };
  if (found !== null) return { kind: 'found', property: found };
  // A missing own property is still read through the prototype.
  return prototypeSet ? { kind: 'unknown' } : { kind: 'missing' };
}

export type DefaultExport =
  | { kind: 'none' }
  /** CommonJS or `export =`: what a default import sees is up to the host's interop. */
  | { kind: 'commonjs' }
  /** Re-exported from another module, or a namespace object. */
  | { kind: 'foreign' }
  | { kind: 'local'; node: Node };

/** Finds the runtime default export; type-only default exports do not count. */
export function findDefaultExport(scope: ModuleScope): DefaultExport {
  for (const statement of scope.program.body) {
    switch (statement.type) {
      case 'ExportDefaultDeclaration': {
        const declaration = statement.declaration;
        if (declaration.type === 'TSInterfaceDeclaration' || declaration.type === 'TSDeclareFunction') break;
        return { kind: 'local', node: declaration };
      }
      case 'ExportNamedDeclaration':
        for (const specifier of statement.specifiers) {
          const exported = specifier.exported;
          if (moduleExportName(exported) !== 'default' || scope.typeOnlyDefaults.has(exported.start)) continue;
          if (statement.source !== null) return { kind: 'foreign' };
          return { kind: 'local', node: specifier.local };
        }
        break;
      case 'ExportAllDeclaration':
        if (statement.exported !== null && moduleExportName(statement.exported) === 'default') {
          return { kind: 'foreign' };
        }
        break;
      case 'TSExportAssignment':
        return { kind: 'commonjs' };
    }
  }
  // Cheap and deliberately generous: a script mentioning `exports` anywhere is left to the host.
  if (!scope.hasModuleSyntax && scope.source.includes('exports')) return { kind: 'commonjs' };
  return { kind: 'none' };
}

function moduleExportName(name: { type: string; name?: string; value?: unknown }): unknown {
  return name.type === 'Identifier' ? name.name : name.value;
}

/**
 * What a top-level name is bound to: the initialiser of a `const`, or a function/class declaration.
 * Null for anything else that binds the name (let, var, imports, destructuring, enums, namespaces) and
 * for names bound twice (declaration merging), because their value is not evident.
 */
export function resolveTopLevel(name: string, scope: ModuleScope): Node | null {
  const target = topLevelBindings(scope).get(name) ?? null;
  // A binding referenced anywhere else may be mutated (`config.scorers = ...`), so only follow single-use ones.
  return target !== null && isReferencedAtMost(name, scope, 2) ? target : null;
}

function topLevelBindings(scope: ModuleScope): Map<string, Node | null> {
  if (scope.bindings) return scope.bindings;
  const bindings = new Map<string, Node | null>();
  const bind = (name: string, node: Node | null): void => {
    bindings.set(name, bindings.has(name) ? null : node);
  };
  for (const statement of scope.program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration'
        ? statement.declaration
        : statement;
    if (declaration === null) continue;
    switch (declaration.type) {
      case 'VariableDeclaration':
        for (const declarator of declaration.declarations) {
          if (declaration.kind === 'const' && declarator.id.type === 'Identifier') {
            bind(declarator.id.name, declarator.init);
          } else {
            for (const name of patternNames(declarator.id)) bind(name, null);
          }
        }
        break;
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
        if (declaration.id) bind(declaration.id.name, declaration);
        break;
      case 'TSDeclareFunction':
        // Overload signatures precede the implementation; they must not make the name ambiguous.
        break;
      case 'ImportDeclaration':
        for (const specifier of declaration.specifiers) bind(specifier.local.name, null);
        break;
      case 'TSEnumDeclaration':
      case 'TSImportEqualsDeclaration':
        bind(declaration.id.name, null);
        break;
      case 'TSModuleDeclaration':
        if (declaration.id.type === 'Identifier') bind(declaration.id.name, null);
        break;
    }
  }
  scope.bindings = bindings;
  return bindings;
}

function patternNames(pattern: Node): string[] {
  const names: string[] = [];
  const stack: Node[] = [pattern];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.type) {
      case 'Identifier':
        names.push(node.name);
        break;
      case 'ObjectPattern':
        for (const property of node.properties) stack.push(property.type === 'RestElement' ? property : property.value);
        break;
      case 'ArrayPattern':
        for (const element of node.elements) if (element !== null) stack.push(element);
        break;
      case 'RestElement':
        stack.push(node.argument);
        break;
      case 'AssignmentPattern':
        stack.push(node.left);
        break;
    }
  }
  return names;
}

/** True when `name` occurs as an identifier at most `max` times, declaration included. */
export function isReferencedAtMost(name: string, scope: ModuleScope, max: number): boolean {
  // Every identifier occurrence is also a textual one (escaped identifiers aside), so a low text count
  // settles it without walking the AST; so does a low count outside literals and comments (a scorer's
  // description often names it: `description: 'A scorer that...'`).
  if (!scope.source.includes('\\u')) {
    if (textOccurrences(scope.source, name, max + 1) <= max) return true;
    if (scope.lexed !== undefined && codeOccurrences(scope.source, name, scope.lexed, max + 1) <= max) return true;
  }
  if (scope.partial) throw new NeedsFullParse();
  scope.identifierCounts ??= countIdentifiers(scope.program);
  return (scope.identifierCounts.get(name) ?? 0) <= max;
}

function isIdentifierChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36
  );
}

function textOccurrences(source: string, word: string, limit: number): number {
  let count = 0;
  for (let at = source.indexOf(word); at !== -1 && count < limit; at = source.indexOf(word, at + word.length)) {
    const before = at > 0 ? source.charCodeAt(at - 1) : 0;
    const after = at + word.length < source.length ? source.charCodeAt(at + word.length) : 0;
    if (!isIdentifierChar(before) && !isIdentifierChar(after)) count++;
  }
  return count;
}

const TYPE_KEYS = new Set(['typeAnnotation', 'typeArguments', 'typeParameters', 'returnType', 'superTypeArguments', 'implements']);
const KEYED_MEMBERS = new Set(['Property', 'MethodDefinition', 'PropertyDefinition', 'AccessorProperty', 'TSAbstractMethodDefinition', 'TSAbstractPropertyDefinition', 'TSAbstractAccessorProperty']);

/** Counts identifier occurrences that may denote a binding; over-counting only makes callers more careful. */
function countIdentifiers(program: Program): Map<string, number> {
  const counts = new Map<string, number>();
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    const node = value as Record<string, unknown>;
    const type = node.type;
    if (type === 'Identifier') {
      const name = node.name as string;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      continue;
    }
    const skip =
      node.computed === true ? null : KEYED_MEMBERS.has(type as string) ? 'key' : type === 'MemberExpression' ? 'property' : null;
    for (const key in node) {
      if (key === skip || TYPE_KEYS.has(key)) continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return counts;
}

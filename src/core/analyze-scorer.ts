/**
 * Reads a scorer file without running it: does it have a default export, and is that export evidently
 * not a scorer or entry (a build error) or an entry with invalid literal sampling? Only what is evident
 * from literals and literal-like syntax is judged; calls, imports and members are left to run time.
 * Never throws.
 */
import type { Class, Node, ObjectExpression } from 'oxc-parser';
import {
  NOT_LITERAL,
  evalLiteral,
  findDefaultExport,
  isReferencedAtMost,
  lookupProperty,
  NeedsFullParse,
  ParserUnavailable,
  parseModule,
  resolveTopLevel,
  unwrap,
  type ModuleScope,
} from './ast.js';
import { describeValue } from './codes.js';
import { quickLang, readerCounts } from './ast.js';
import { quickScorer } from './quick-read.js';
import { readSampling, SCORER_EXPORT, UNKNOWN_EXPORT, type Reading, type ScorerFileAnalysis } from './readings.js';

export type { ScorerFileAnalysis } from './readings.js';


function unknownExport(hasDefault = true): ScorerFileAnalysis {
  return hasDefault ? UNKNOWN_EXPORT : { hasDefault, problem: null, sampling: { kind: 'unknown' }, shape: 'unknown' };
}

function invalid(detail: string): ScorerFileAnalysis {
  return { hasDefault: true, problem: { code: 'SCORER_INVALID_EXPORT', detail }, sampling: { kind: 'unknown' }, shape: 'unknown' };
}

/**
 * `export default name(`, `export default a.b.c(` or `export default name<T>(` at the start of a line:
 * the usual scorer file (`export default createScorer({...}).generateScore(...)`). A call's value is
 * never evident, so the full reading would answer "unknown" too (and where `<` compares, in a JS file,
 * so does it); this skips reading the file for it.
 */
const DEFAULT_CALL = /^export default ([A-Za-z_$][\w$]*)(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*(?:<[^;()`/=]*>\s*)?\(/m;
const KEYWORDS = new Set(['async', 'await', 'class', 'delete', 'function', 'import', 'new', 'super', 'this', 'typeof', 'void', 'yield']);

function isEvidentlyDefaultCall(source: string): boolean {
  const match = DEFAULT_CALL.exec(source);
  if (match === null || KEYWORDS.has(match[1])) return false;
  // Exactly one `export default`, no aliased default, and nothing before it that could make the
  // match sit inside a template literal or a block comment (strings cannot span lines).
  if (source.indexOf('export default', match.index + 1) !== -1 || /\bas\s+default\b/.test(source)) return false;
  const before = source.slice(0, match.index);
  return !before.includes('`') && !before.includes('/*') && !before.includes('export default');
}


export function analyzeScorer(source: string, filename: string, reading: Reading = 'quick'): ScorerFileAnalysis {
  if (isEvidentlyDefaultCall(source)) {
    readerCounts.call++;
    return unknownExport();
  }
  const lang = quickLang(filename);
  if (reading === 'quick' && lang !== null) {
    const quick = quickScorer(source, lang === 'ts');
    if (quick !== null) {
      readerCounts.quick++;
      return quick;
    }
  }
  if (reading !== 'full') {
    try {
      const quick = read(source, filename, true);
      if (quick === null) return unknownExport(); // the whole source does not parse either
      // The skeleton's reading is the whole source's whenever the whole source parses. A problem is
      // read again from the whole source, which may not parse: then the host's syntax error is the
      // one the user should see. A valid file's reading differs only for a file that does not parse,
      // whose build fails in the host anyway.
      if (quick.checked || (quick.analysis.hasDefault && quick.analysis.problem === null)) return quick.analysis;
    } catch (error) {
      if (error instanceof ParserUnavailable) throw error;
      if (!(error instanceof NeedsFullParse)) return unknownExport();
    }
  }
  try {
    return read(source, filename, false)?.analysis ?? unknownExport();
  } catch (error) {
    if (error instanceof ParserUnavailable) throw error;
    return unknownExport();
  }
}

function read(source: string, filename: string, skeleton: boolean): { analysis: ScorerFileAnalysis; checked: boolean } | null {
  const scope = parseModule(source, filename, skeleton);
  if (scope === null) return null;
  const exported = findDefaultExport(scope);
  const analysis = exported.kind === 'none' ? unknownExport(false) : exported.kind !== 'local' ? unknownExport() : classify(exported.node, scope, false);
  return { analysis, checked: scope.checked };
}

function classify(node: Node, scope: ModuleScope, followed: boolean): ScorerFileAnalysis {
  const n = unwrap(node);
  if (n.type === 'ObjectExpression') return classifyObject(n, scope);
  if (n.type === 'Identifier' && !followed) {
    const target = resolveTopLevel(n.name, scope);
    if (target !== null) return classify(target, scope, true);
  }
  // `export default function f() {}` binds `f`, which could get `id`/`run` assigned elsewhere.
  const named = (n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') && n.id !== null;
  if (named && !followed && !isReferencedAtMost(n.id!.name, scope, 1)) return unknownExport();
  const detail = evidentNonScorer(n, scope);
  return detail === null ? unknownExport() : invalid(detail);
}

/**
 * What a value evidently is when it can never be a scorer (a string `id` plus a `run` function), or
 * null when that is not evident. Functions cannot carry `id`/`run` unless assigned later, which the
 * callers rule out; classes can, through static members.
 */
function evidentNonScorer(node: Node, scope: ModuleScope): string | null {
  const n = unwrap(node);
  switch (n.type) {
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
    case 'FunctionDeclaration':
      return 'a function';
    case 'ClassExpression':
    case 'ClassDeclaration':
      return mayHaveStaticScorerMembers(n) ? null : 'a class';
    case 'ArrayExpression':
      return 'an array';
    case 'TemplateLiteral':
      return 'a string';
    case 'UnaryExpression':
      if (n.operator === 'typeof') return 'a string';
      if (n.operator === '!') return 'a boolean';
      if (n.operator === 'void') return 'undefined';
      break;
  }
  if (n.type === 'ObjectExpression') return null;
  const value = evalLiteral(n, scope);
  return value === NOT_LITERAL ? null : describeValue(value);
}

/** Static members, a superclass or decorators can all give a class `id` and `run`. */
function mayHaveStaticScorerMembers(node: Class): boolean {
  if (node.superClass !== null || node.decorators.length > 0) return true;
  for (const member of node.body.body) {
    if (member.type === 'StaticBlock') return true;
    if (member.type === 'TSIndexSignature' || !member.static) continue;
    if (member.computed) return true;
    const key = member.key;
    const name = key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : null;
    if (name === 'id' || name === 'run' || name === 'scorer') return true;
  }
  return false;
}

function classifyObject(object: ObjectExpression, scope: ModuleScope): ScorerFileAnalysis {
  const scorer = lookupProperty(object, 'scorer', scope);
  const id = lookupProperty(object, 'id', scope);
  const run = lookupProperty(object, 'run', scope);
  if (scorer.kind === 'unknown' || id.kind === 'unknown' || run.kind === 'unknown') return unknownExport();
  const looksLikeScorer = id.kind === 'found' && run.kind === 'found';
  if (scorer.kind === 'found') {
    // With `scorer`, `id` and `run` all present, which check wins depends on runtime values.
    if (looksLikeScorer) return unknownExport();
    const property = scorer.property;
    const inner =
      property.method ? 'a function' : property.kind === 'init' ? evidentNonScorer(property.value, scope) : null;
    if (inner !== null) return invalid(`an object whose "scorer" is ${inner}`);
    const sampling = readSampling(object, scope);
    const problem = sampling.kind === 'invalid' ? { code: 'SCORER_INVALID_SAMPLING' as const, detail: sampling.detail } : null;
    return { hasDefault: true, problem, sampling, shape: 'entry' };
  }
  if (looksLikeScorer) return SCORER_EXPORT;
  if (id.kind === 'found') return invalid('an object with "id" but without "run" or "scorer"');
  if (run.kind === 'found') return invalid('an object with "run" but without "id" or "scorer"');
  return invalid('an object without "scorer", "id" or "run"');
}

/**
 * What a value (a `config.scorers` record's entry) evidently is when it can never be a scorer or an
 * entry, read by the same rules as a default export; null when that is not evident.
 */
export function evidentScorerProblem(node: Node, scope: ModuleScope): string | null {
  const result = classify(node, scope, false);
  return result.problem?.code === 'SCORER_INVALID_EXPORT' ? result.problem.detail : null;
}

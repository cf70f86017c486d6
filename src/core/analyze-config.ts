/**
 * Reads an agent's `config.ts` without running it: is `config.scorers` evidently absent, a record
 * (which keys, which literal sampling) or a function, or is the default export a `new Agent()`?
 * Evidently invalid `scorers` values are reported as problems. Anything not evident is 'unknown' and
 * left to run time. Never throws.
 */
import type { Node, ObjectExpression } from 'oxc-parser';
import {
  NOT_LITERAL,
  evalLiteral,
  findDefaultExport,
  isProtoSetter,
  lookupProperty,
  NeedsFullParse,
  ParserUnavailable,
  parseModule,
  propertyKey,
  resolveTopLevel,
  quickLang,
  readerCounts,
  unwrap,
  type ModuleScope,
} from './ast.js';
import { evidentScorerProblem } from './analyze-scorer.js';
import { quickConfig } from './quick-read.js';
import { readSampling, type ConfigAnalysis, type ConfigProblem, type Reading, type StaticSampling } from './readings.js';

export type { ConfigAnalysis, ConfigProblem } from './readings.js';

// Shared and frozen: callers read it, they never own it.
const UNKNOWN: StaticSampling = Object.freeze({ kind: 'unknown' });

function analysis(kind: ConfigAnalysis['kind'], problems: ConfigProblem[] = []): ConfigAnalysis {
  return { kind, keys: [], open: false, sampling: new Map(), problems };
}

/** `reading` as for analyzeScorer: `quick`, then the general reader, then the whole source (the tests compare them). */
export function analyzeConfig(source: string, filename: string, reading: Reading = 'quick'): ConfigAnalysis {
  const lang = quickLang(filename);
  if (reading === 'quick' && lang !== null) {
    const quick = quickConfig(source, lang === 'ts');
    if (quick !== null) {
      readerCounts.quick++;
      return quick;
    }
  }
  if (reading !== 'full') {
    try {
      const scope = parseModule(source, filename, true);
      if (scope === null) return analysis('unknown');
      const quick = readConfig(scope);
      // As for scorer files (analyze-scorer.ts): the skeleton reads exactly what a parsable source
      // says. A problem, and a `none` (which stops the config being bundled), are confirmed on the
      // whole source: a config that does not parse must stay in the bundle, where the host reports
      // its syntax error.
      if (scope.checked || (quick.kind !== 'none' && quick.problems.length === 0)) return quick;
    } catch (error) {
      if (error instanceof ParserUnavailable) throw error;
      if (!(error instanceof NeedsFullParse)) return analysis('unknown');
    }
  }
  try {
    const scope = parseModule(source, filename, false);
    return scope === null ? analysis('unknown') : readConfig(scope);
  } catch (error) {
    if (error instanceof ParserUnavailable) throw error;
    return analysis('unknown');
  }
}

function readConfig(scope: ModuleScope): ConfigAnalysis {
  const exported = findDefaultExport(scope);
  // A config without a default export has no scorers at run time either.
  if (exported.kind === 'none') return analysis('none');
  if (exported.kind !== 'local') return analysis('unknown');
  if (isNewAgent(exported.node, scope)) return analysis('agent');
  const found = configObject(exported.node, scope);
  if (found === null) return analysis('unknown');
  const lookup = lookupProperty(found.object, 'scorers', scope);
  if (lookup.kind === 'missing') {
    // Absence is evident only where nothing can add scorers: a plain object or Mastra's agentConfig().
    // A 'none' stops the config being bundled, so an unknown helper (withEvals({...})) must not give it.
    return analysis(found.callee === null || TRUSTED_WRAPPERS.has(found.callee) ? 'none' : 'unknown');
  }
  if (lookup.kind !== 'found') return analysis('unknown');
  const property = lookup.property;
  if (property.method) return analysis('function');
  if (property.kind !== 'init') return analysis('unknown');
  return scorersValue(property.value, scope, 0);
}

const MAX_FOLLOW = 3;

/** Helpers known to return their argument's fields unchanged (Mastra's file-based agent config). */
const TRUSTED_WRAPPERS = new Set(['agentConfig']);

/**
 * The config object literal behind the default export, and the name of the call wrapping it (null
 * for a plain object). A call whose only argument is an object literal (`agentConfig({...})`,
 * `x.defineConfig({...})`) is read as that object: scorers written there are evident (and checked
 * again at run time). A call with more arguments (`Object.assign({...}, base)`) is not read.
 */
function configObject(node: Node, scope: ModuleScope): { object: ObjectExpression; callee: string | null } | null {
  let current = node;
  for (let hop = 0; hop <= MAX_FOLLOW; hop++) {
    const n = unwrap(current);
    if (n.type === 'ObjectExpression') return { object: n, callee: null };
    if (n.type === 'CallExpression') {
      const first = n.arguments[0];
      if (n.arguments.length !== 1 || first.type === 'SpreadElement') return null;
      const argument = unwrap(first);
      if (argument.type !== 'ObjectExpression') return null;
      const callee = unwrap(n.callee);
      const name =
        callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' ? callee.property.name : '';
      return { object: argument, callee: name };
    }
    if (n.type !== 'Identifier') return null;
    const target = resolveTopLevel(n.name, scope);
    if (target === null) return null;
    current = target;
  }
  return null;
}

function scorersValue(node: Node, scope: ModuleScope, depth: number): ConfigAnalysis {
  const n = unwrap(node);
  switch (n.type) {
    case 'ObjectExpression':
      return record(n, scope);
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
    case 'FunctionDeclaration':
      return analysis('function');
    case 'Identifier': {
      const value = evalLiteral(n, scope);
      if (value === undefined) return analysis('none');
      const target = depth < MAX_FOLLOW ? resolveTopLevel(n.name, scope) : null;
      return target === null ? analysis('unknown') : scorersValue(target, scope, depth + 1);
    }
    case 'Literal':
      if (n.value === null) return analysis('none');
      break;
    case 'UnaryExpression':
      if (n.operator === 'void' && evalLiteral(n, scope) !== NOT_LITERAL) return analysis('none');
      break;
  }
  return analysis('unknown', notARecord(n, scope));
}

/** `scorers: 42`, `'x'`, `true`, `[...]`: evidently neither a record nor a function. */
function notARecord(node: Node, scope: ModuleScope): ConfigProblem[] {
  if (node.type === 'ArrayExpression') return [{ key: null, detail: 'an array' }];
  if (node.type === 'TemplateLiteral') return [{ key: null, detail: 'a string' }];
  const value = evalLiteral(node, scope);
  if (value === NOT_LITERAL || value === null || value === undefined) return [];
  return [{ key: null, detail: Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}` }];
}

/**
 * \`new Agent({...})\` (directly or through a local \`const\`), \`Agent\` being imported under that name
 * (\`import { Agent } from '@mastra/core/agent'\`, aliases followed) or read from a namespace import.
 * A local class called Agent is not Mastra's, so it is not taken.
 */
function isNewAgent(node: Node, scope: ModuleScope): boolean {
  let current = node;
  for (let hop = 0; hop <= MAX_FOLLOW; hop++) {
    const n = unwrap(current);
    if (n.type === 'NewExpression') {
      const callee = unwrap(n.callee);
      if (callee.type === 'Identifier') return importedAs(callee.name, scope) === 'Agent';
      return (
        callee.type === 'MemberExpression' &&
        !callee.computed &&
        callee.object.type === 'Identifier' &&
        callee.property.type === 'Identifier' &&
        callee.property.name === 'Agent' &&
        importedAs(callee.object.name, scope) === '*'
      );
    }
    if (n.type !== 'Identifier') return false;
    const target = resolveTopLevel(n.name, scope);
    if (target === null) return false;
    current = target;
  }
  return false;
}

/** The exported name a top-level local binding imports ('*' for a namespace), or null. */
function importedAs(local: string, scope: ModuleScope): string | null {
  for (const statement of scope.program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.local.name !== local) continue;
      if (specifier.type === 'ImportNamespaceSpecifier') return '*';
      if (specifier.type === 'ImportDefaultSpecifier' || specifier.importKind === 'type') return null;
      const imported = specifier.imported;
      return imported.type === 'Identifier' ? imported.name : String(imported.value);
    }
  }
  return null;
}

function record(object: ObjectExpression, scope: ModuleScope): ConfigAnalysis {
  const sampling = new Map<string, StaticSampling>();
  // The last property written for a key decides its value, unless a later spread may replace it.
  const problems = new Map<string, string | null>();
  let open = false;
  for (const property of object.properties) {
    let key: string | null = null;
    if (property.type !== 'SpreadElement') {
      if (isProtoSetter(property)) continue;
      key = propertyKey(property, scope);
    }
    if (key === null) {
      // A spread or computed key may also replace the value of any key written before it.
      open = true;
      for (const earlier of sampling.keys()) sampling.set(earlier, UNKNOWN);
      problems.clear();
      continue;
    }
    const plain = property.type === 'Property' && property.kind === 'init' && !property.method;
    sampling.set(key, plain ? entrySampling(property.value, scope) : UNKNOWN);
    problems.set(key, plain ? evidentScorerProblem(property.value, scope) : null);
  }
  const found: ConfigProblem[] = [];
  for (const [key, detail] of problems) if (detail !== null) found.push({ key, detail });
  return { kind: 'record', keys: [...sampling.keys()], open, sampling, problems: found };
}

function entrySampling(node: Node, scope: ModuleScope): StaticSampling {
  const n = unwrap(node);
  return n.type === 'ObjectExpression' ? readSampling(n, scope) : UNKNOWN;
}

/**
 * Generates a Mastra-style project of N agents × 10 scorers for the build benchmark, in one of the
 * shapes users write (SHAPES below), plus one entry file and one Vite config per variant:
 *   a  the plugin:            import scorers from 'virtual:agent-scorers'
 *   b  hand-written registry: one static import per bundled file (the physical floor)
 *   c  import.meta.glob:      Vite's eager glob, the registry assembled in user code
 * All three produce the same registry: agent → frozen, null-prototype record of `{ scorer, sampling? }`,
 * with config.scorers winning on a collision (keeping its place) and its other keys appended.
 *
 * The tree is deterministic (seeded), and regenerated only when this file, the size or the shape changes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SCORERS = ['accuracy', 'brevity', 'completeness', 'faithfulness', 'format', 'helpfulness', 'relevance', 'safety', 'tone', 'toxicity'];
const WORDS = (
  'forecast temperature rain invoice refund shipping order account password billing travel flight hotel ' +
  'booking delay recipe calories allergy schedule meeting reminder contract clause policy claim premium ' +
  'diagnosis symptom dosage portfolio dividend mortgage tenant lease warranty repair battery firmware ' +
  'latency outage deploy rollback ticket priority escalation summary citation source evidence tariff'
).split(' ');

/** mulberry32: a tiny seeded PRNG, so every run generates the same tree. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const agentName = (i) => `agent-${String(i).padStart(4, '0')}`;

const LIB_SCORING = `// A minimal scorer factory with the shape agent-scorers recognises (string id + run function).
export interface Run {
  input: string;
  output: string;
  runId?: string;
}

export interface ScorerSpec {
  id: string;
  description: string;
  score: (run: Run) => number;
  reason?: (run: Run, score: number) => string;
}

export function defineScorer(spec: ScorerSpec) {
  return {
    id: spec.id,
    name: spec.id,
    description: spec.description,
    async run(run: Run) {
      const score = Math.max(0, Math.min(1, spec.score(run)));
      return { runId: run.runId ?? spec.id, score, reason: spec.reason ? spec.reason(run, score) : null };
    },
  };
}

export const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
`;

const LIB_AGENT = `export interface AgentConfig {
  name: string;
  model: string;
  instructions: string | ((context: { requestContext?: Map<string, unknown> }) => string);
  scorers?: Record<string, unknown>;
  tools?: Record<string, unknown>;
  maxSteps?: number;
  onFinish?: (result: { text: string }) => unknown;
}

export const agentConfig = <T extends AgentConfig>(config: T): T => config;
`;

function scorerBody(agent, key, pick, random) {
  const id = `${agent}-${key}`;
  const kw = JSON.stringify(pick(3));
  switch (key) {
    case 'brevity':
    case 'format': {
      const max = 40 + Math.floor(random() * 160);
      return {
        head: `const MAX_WORDS = ${max};\n`,
        scorer: `defineScorer({
  id: '${id}',
  description: 'Penalises answers longer than ${max} words.',
  score: ({ output }) => {
    const n = words(output).length;
    return n <= MAX_WORDS ? 1 : MAX_WORDS / n;
  },
  reason: (_run, score) => (score === 1 ? 'Short enough.' : \`Too long by \${Math.round((1 - score) * 100)}%.\`),
})`,
      };
    }
    case 'safety':
    case 'toxicity': {
      return {
        head: `const BLOCKED = new Set(${JSON.stringify(pick(4))});\n`,
        scorer: `defineScorer({
  id: '${id}',
  description: 'Scores 0 when the answer contains a blocked term.',
  score: ({ output }) => (words(output).some((w) => BLOCKED.has(w)) ? 0 : 1),
})`,
      };
    }
    default:
      return {
        head: `const KEYWORDS = ${kw};\n`,
        scorer: `defineScorer({
  id: '${id}',
  description: 'Share of expected ${key} keywords found in the answer.',
  score: ({ input, output }) => {
    const seen = new Set(words(output));
    const asked = words(input).filter((w) => KEYWORDS.includes(w));
    const expected = asked.length > 0 ? asked : KEYWORDS;
    return expected.filter((w) => seen.has(w)).length / expected.length;
  },
})`,
      };
  }
}


const LIB_TOOLS = `export const searchTool = { id: 'search', description: 'Searches the knowledge base.', execute: async ({ query }: { query: string }) => [query] };
export const ticketTool = { id: 'ticket', description: 'Opens a ticket.', execute: async ({ title }: { title: string }) => ({ id: title.length }) };
`;

/** Types the `typed` shape's files import: what a TypeScript project declares for its scorers. */
const LIB_TYPES = `export interface Run {
  input: string;
  output: string;
  runId?: string;
}
export interface Result {
  score: number;
  reason?: string;
}
export interface Scorer {
  id: string;
  description?: string;
  run(run: Run): Promise<Result>;
}
export type Sampling = { type: 'none' } | { type: 'ratio'; rate: number };
export interface Entry {
  scorer: Scorer;
  sampling?: Sampling;
}
export const defineTyped = <T extends Run = Run>(spec: { id: string; description: string; score: (run: T) => number }): Scorer => ({
  id: spec.id,
  description: spec.description,
  async run(run: Run) {
    return { score: spec.score(run as T) };
  },
});
`;

/**
 * The `typed` shape's scorer files, one form per key: what a TypeScript user writes (typed parameters
 * and return types in methods and arrows, \`satisfies\`, \`as const\`, identifier-bound defaults, generic
 * calls, \`export { x as default }\`, type declarations, comments, a regular expression). `entry` says
 * whether the default export is a \`{ scorer, sampling }\` entry.
 */
function typedScorer(s, id, pick, rate) {
  const kw = JSON.stringify(pick(3));
  const imports = "import type { Entry, Result, Run, Scorer } from '../../../../lib/types';\nimport { defineTyped } from '../../../../lib/types';\n";
  const body = `{
    const seen = new Set(String(input.output).toLowerCase().split(/[^a-z0-9]+/));
    const expected = ${kw}.filter((w) => !String(input.input).includes(w));
    const score = expected.length === 0 ? 1 : expected.filter((w) => seen.has(w)).length / expected.length;
    return { score, reason: \`\${Math.round(score * 100)}% of the keywords\` };
  }`;
  switch (s) {
    case 0: // the issue's shape: identifier-bound, a typed method, a description naming the binding
      return { entry: false, source: `${imports}\nconst scorer = {\n  id: '${id}',\n  description: 'A scorer that counts the expected keywords.',\n  async run(input: Run): Promise<Result> ${body},\n};\n\nexport default scorer;\n` };
    case 1: // an arrow with typed parameters and a return type, the object checked with satisfies
      return { entry: false, source: `${imports}\nexport default {\n  id: '${id}',\n  description: 'Keyword share, as an arrow.',\n  run: async (input: Run): Promise<Result> => ${body},\n} satisfies Scorer;\n` };
    case 2: // an entry as const, its scorer from a generic call
      return { entry: true, source: `${imports}\nconst scorer = defineTyped<Run>({ id: '${id}', description: 'Generic call.', score: ({ output }) => (output.length > 0 ? 1 : 0) });\n\nexport default { scorer, sampling: { type: 'ratio', rate: ${rate} } } as const;\n` };
    case 3: // a generic call as the default export
      return { entry: false, source: `${imports}\nexport default defineTyped<Run & { extra?: string }>({\n  id: '${id}',\n  description: 'Generic call with a type argument.',\n  score: ({ output }: Run): number => (output.includes('${pick(1)[0]}') ? 1 : 0),\n});\n` };
    case 4: // export { x as default } of an annotated binding
      return { entry: false, source: `${imports}\nconst keywordScorer: Scorer = {\n  id: '${id}',\n  description: 'Exported under another name.',\n  async run(input: Run): Promise<Result> ${body},\n};\n\nexport { keywordScorer as default };\n` };
    case 5: // type declarations first, then an identifier-bound object with a typed method
      return { entry: false, source: `import type { Result, Run } from '../../../../lib/types';\n\ninterface Options {\n  keywords: string[];\n  caseSensitive?: boolean;\n}\n\ntype Outcome = Result & { matched: number };\n\nconst options: Options = { keywords: ${kw} };\n\nconst scorer = {\n  id: '${id}',\n  description: 'Declares its own types.',\n  async run(input: Run): Promise<Outcome> {\n    const matched = options.keywords.filter((w) => input.output.includes(w)).length;\n    return { score: matched / options.keywords.length, matched };\n  },\n};\n\nexport default scorer;\n` };
    case 6: // comments and a regular expression at the top level
      return { entry: false, source: `${imports}\n/**\n * Scores 0 when the answer apologises; the scorer's id is '${id}'.\n */\nconst APOLOGY = /\\b(sorry|apologi[sz]e)\\b/i;\n\n// The default export: a plain scorer object.\nexport default {\n  id: '${id}', // unique per agent\n  description: 'Penalises apologies.',\n  run: async ({ output }: Run): Promise<Result> => ({ score: APOLOGY.test(output) ? 0 : 1 }),\n} satisfies Scorer;\n` };
    case 7: // a helper function with a return type, then an object using it
      return { entry: false, source: `${imports}\nfunction share(text: string, words: readonly string[]): number {\n  const seen = new Set(text.toLowerCase().split(/\\W+/));\n  return words.filter((w) => seen.has(w)).length / words.length;\n}\n\nconst KEYWORDS = ${kw} as const;\n\nexport default {\n  id: '${id}',\n  description: 'Uses a helper.',\n  async run({ output }: Run): Promise<Result> {\n    return { score: share(output, KEYWORDS) };\n  },\n};\n` };
    case 8: // an entry with satisfies, its scorer an annotated object
      return { entry: true, source: `${imports}\nconst scorer: Scorer = {\n  id: '${id}',\n  description: 'Sampled.',\n  run: async (input: Run): Promise<Result> => ${body},\n};\n\nexport default { scorer, sampling: { type: 'none' } } satisfies Entry;\n` };
    default: // an identifier-bound generic call
      return { entry: false, source: `${imports}\nconst scorer = defineTyped<Run>({\n  id: '${id}',\n  description: 'Bound to a name.',\n  score: ({ output }) => output.split(' ').length / 100,\n});\n\nexport default scorer;\n` };
  }
}

const KEYS10 = Array.from({ length: 10 }, (_, s) => `s${String(s).padStart(2, '0')}`);

/** A scorer as a plain object literal, the form Mastra's own sampling example uses. */
function objectScorer(id, pick, indent = '') {
  const kw = JSON.stringify(pick(3));
  return `{
  id: '${id}',
  description: 'Share of expected keywords found in the answer.',
  async run({ input, output }: { input: string; output: string }) {
    const seen = new Set(String(output).toLowerCase().split(/[^a-z0-9]+/));
    const expected = ${kw}.filter((w) => !String(input).includes(w));
    const score = expected.length === 0 ? 1 : expected.filter((w) => seen.has(w)).length / expected.length;
    return { score, reason: \`\${Math.round(score * 100)}% of the keywords\` };
  },
}`.replace(/\n/g, `\n${indent}`);
}

const configHead = (extra = '') => `import { agentConfig } from '../../../lib/agent';\n${extra}`;

/**
 * Each shape gives, per agent: the config source (or null), the keys its `scorers` record writes (in
 * order; every value is an entry), whether the plugin imports the config, and the scorer files.
 */
export const SHAPES = {
  /** defineScorer(...) factory calls, two `{ scorer, sampling }` entry files in every other agent, every 5th config with a record. */
  factory(i, agent, pick, random) {
    const withRecord = i % 5 === 0;
    const config = `import { agentConfig } from '../../../lib/agent';
${withRecord ? "import { defineScorer } from '../../../lib/scoring';\n" : ''}
export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: 'You are a support agent for ${pick(2).join(' and ')}. Answer briefly and cite the policy you rely on.',
  maxSteps: ${1 + (i % 5)},${
    withRecord
      ? `
  scorers: {
    policy: {
      scorer: defineScorer({
        id: '${agent}-policy',
        description: 'Answers must not promise ${pick(1)[0]} outcomes.',
        score: ({ output }) => (/guarantee|promise/i.test(output) ? 0 : 1),
      }),
      sampling: { type: 'ratio', rate: 0.1 },
    },
  },`
      : ''
  }
});
`;
    const files = SCORERS.map((key, s) => {
      const { head, scorer } = scorerBody(agent, key, pick, random);
      const entry = i % 2 === 1 && (s === 3 || s === 7);
      const rate = [0.5, 0.25, 0.1][i % 3];
      const body = entry ? `export default {\n  scorer: ${scorer.replace(/\n/g, '\n  ')},\n  sampling: { type: 'ratio', rate: ${rate} },\n};\n` : `export default ${scorer};\n`;
      return { key, entry, source: `import { defineScorer, words } from '../../../../lib/scoring';\n\n${head}\n${body}` };
    });
    return { config, configKeys: withRecord ? ['policy'] : [], importConfig: withRecord, files };
  },

  /** `const scorer = { id, description, async run() {} }; export default scorer;` and a config whose record collides with a file in every agent. */
  object(i, agent, pick) {
    const config = `${configHead()}
export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: 'You are a support agent for ${pick(2).join(' and ')}.',
  scorers: {
    s00: { scorer: ${objectScorer(`${agent}-s00-config`, pick, '    ')} },
    extra: {
      scorer: ${objectScorer(`${agent}-extra`, pick, '      ')},
      sampling: { type: 'ratio', rate: 0.5 },
    },
  },
});
`;
    const files = KEYS10.map((key) => ({ key, entry: false, source: `const scorer = ${objectScorer(`${agent}-${key}`, pick)};\n\nexport default scorer;\n` }));
    return { config, configKeys: ['s00', 'extra'], importConfig: true, files };
  },

  /** Mastra's own `createScorer({...}).preprocess(...).generateScore(...)` chains; configs without scorers. */
  mastra(i, agent, pick) {
    const config = `${configHead()}
export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: 'You are a support agent for ${pick(2).join(' and ')}.',
});
`;
    const files = KEYS10.map((key) => ({
      key,
      entry: false,
      source: `import { createScorer } from '@mastra/core/evals';

const KEYWORDS = ${JSON.stringify(pick(3))};

export default createScorer({
  id: '${agent}-${key}',
  description: 'Share of expected keywords found in the answer.',
})
  .preprocess(({ run }) => String(run.output?.text ?? run.output).toLowerCase().split(/[^a-z0-9]+/))
  .generateScore(({ results }) => {
    const seen = new Set(results.preprocessStepResult);
    return KEYWORDS.filter((w) => seen.has(w)).length / KEYWORDS.length;
  });
`,
    }));
    return { config, configKeys: [], importConfig: false, files };
  },

  /** Every file a `{ scorer, sampling }` entry (an inline object or a bound one); configs without scorers. */
  entry(i, agent, pick) {
    const config = `${configHead()}
export default agentConfig({ name: '${agent}', model: 'openai/gpt-4o-mini', instructions: 'Support for ${pick(1)[0]}.' });
`;
    const files = KEYS10.map((key, s) => {
      const rate = [0.5, 0.25, 0.1, 1][(i + s) % 4];
      const source =
        s % 2 === 0
          ? `export default {\n  scorer: ${objectScorer(`${agent}-${key}`, pick, '  ')},\n  sampling: { type: 'ratio', rate: ${rate} },\n};\n`
          : `import { defineScorer, words } from '../../../../lib/scoring';\n\nconst scorer = defineScorer({\n  id: '${agent}-${key}',\n  description: 'Keyword share.',\n  score: ({ output }) => (words(output).includes('${pick(1)[0]}') ? 1 : 0),\n});\n\nexport default { scorer, sampling: { type: 'ratio', rate: ${rate} } };\n`;
      return { key, entry: true, source };
    });
    return { config, configKeys: [], importConfig: false, files };
  },

  /**
   * What a TypeScript project writes (typedScorer): typed methods and arrows, `satisfies`, `as const`,
   * generic calls, `export { x as default }`; a config with a typed instructions function, a generic
   * call and a record (with `satisfies`) colliding in every agent.
   */
  typed(i, agent, pick) {
    const typedConfig = `import type { Entry, Run } from '../../../lib/types';
import { agentConfig } from '../../../lib/agent';
import { defineTyped } from '../../../lib/types';

type Context = { requestContext?: Map<string, unknown> };

export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: ({ requestContext }: Context): string => \`You help with ${pick(2).join(' and ')} for \${String(requestContext?.get('user') ?? 'anyone')}.\`,
  scorers: {
    s01: { scorer: defineTyped<Run>({ id: '${agent}-s01-config', description: 'Override.', score: ({ output }) => (output ? 1 : 0) }), sampling: { type: 'ratio', rate: 0.1 } },
    audit: { scorer: defineTyped({ id: '${agent}-audit', description: 'Audit trail.', score: (): number => 1 }) },
  } satisfies Record<string, Entry>,
});
`;
    const files = KEYS10.map((key, s) => ({ key, ...typedScorer(s, `${agent}-${key}`, pick, [0.5, 0.25, 0.1][(i + s) % 3]) }));
    return { config: typedConfig, configKeys: ['s01', 'audit'], importConfig: true, files };
  },

  /** Configs with imports, function-valued fields and a record colliding in every agent; factory-call scorer files. */
  imports(i, agent, pick) {
    const config = `import { agentConfig } from '../../../lib/agent';
import { defineScorer } from '../../../lib/scoring';
import { searchTool, ticketTool } from '../../../lib/tools';

const topic = '${pick(2).join(' and ')}';

export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: ({ requestContext }) => \`You help with \${topic} for \${String(requestContext?.get('user') ?? 'anyone')}.\`,
  tools: { searchTool, ticketTool },
  maxSteps: ${1 + (i % 4)},
  scorers: {
    s03: { scorer: defineScorer({ id: '${agent}-s03-config', description: 'Override.', score: ({ output }) => (output.length > 0 ? 1 : 0) }), sampling: { type: 'ratio', rate: 0.1 } },
    audit: { scorer: defineScorer({ id: '${agent}-audit', description: 'Audit trail.', score: () => 1 }) },
  },
  async onFinish({ text }) {
    if (text.includes('${pick(1)[0]}')) console.log('${agent} mentioned it');
  },
});
`;
    const files = KEYS10.map((key, s) => ({
      key,
      entry: false,
      source:
        s % 3 === 0
          ? `import { defineScorer, words } from '../../../../lib/scoring';\n\nconst scorer = defineScorer({\n  id: '${agent}-${key}',\n  description: 'Keyword share.',\n  score: ({ output }) => (words(output).includes('${pick(1)[0]}') ? 1 : 0),\n});\n\nexport default scorer;\n`
          : `import { defineScorer, words } from '../../../../lib/scoring';\n\nexport default defineScorer({\n  id: '${agent}-${key}',\n  description: 'Keyword share.',\n  score: ({ output }) => words(output).length / 100,\n});\n`,
    }));
    return { config, configKeys: ['s03', 'audit'], importConfig: true, files };
  },
};

/**
 * The builds of one project, by letter (bench/README.md): the plugin (a; n keeping nothing from the build
 * before; k and f cold, in CI and outside; o another build of it, for --compare), the stand-in (s: the
 * plugin's own output served with no work at all, the floor of any plugin that generates this registry),
 * the hand-written registry as the entry (b) and imported by it (e), and `import.meta.glob` (c).
 * bench/run.mjs and bench/build-one.mjs check their arguments against it.
 */
export const VARIANTS = {
  a: { what: 'plugin', plugin: true },
  n: { what: 'plugin, nothing kept', plugin: true },
  k: { what: 'plugin, cold in CI: its cache folder emptied before every build, CI=true', plugin: true, cold: true, env: { CI: 'true' } },
  f: { what: 'plugin, cold outside CI: its cache folder emptied before every build, CI unset (so it writes the cache)', plugin: true, cold: true },
  o: { what: 'another plugin build', plugin: true },
  p: { what: 'another plugin build, cold in CI (as k)', plugin: true, cold: true, env: { CI: 'true' } },
  s: { what: 'stand-in: a plugin that only serves the registry text the plugin generated for this tree (captured from a real build)', plugin: false, standIn: true },
  b: { what: 'hand-written', plugin: false },
  c: { what: 'import.meta.glob', plugin: false },
  e: { what: 'hand-written, imported', plugin: false },
};
export const isPluginVariant = (v) => VARIANTS[v]?.plugin === true;
/** Where a variant's Vite keeps its cache: k and f have a folder of their own, emptied before each of its builds (bench/run.mjs). */
export const cacheDirOf = (variant) => (VARIANTS[variant]?.cold ? `node_modules/.vite-${variant}` : 'node_modules/.vite');

/**
 * The Vite options of every benchmark build, as a user would write them for a server bundle: SSR,
 * everything bundled (`ssr.noExternal`) except `@mastra/core`, no minification. Shared by the
 * `vite build` configs and by `build()` in bench/build-one.mjs, so both build the same thing.
 */
export const viteOptions = (variant) => ({
  logLevel: 'warn',
  cacheDir: cacheDirOf(variant),
  mode: 'production',
  publicDir: false,
  ssr: { noExternal: true, external: ['@mastra/core'] },
  build: {
    ssr: `src/main-${variant}.ts`,
    outDir: `dist-${variant}`,
    emptyOutDir: true,
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: { output: { entryFileNames: 'main.js', format: 'es' } },
  },
});

/**
 * Variant s, the stand-in: serves, for the plugin's two virtual ids, the text the plugin itself generated
 * for this tree (captured by bench/capture.mjs before the stand-in's first build: `stand-in/registry.js`
 * and `stand-in/once.js`), through filtered `resolveId` and `load` hooks, and does nothing else: no scan,
 * no reading, no warnings. What a build costs above it is the plugin's own work; what it costs above the
 * hand-written registry (b) is the host's cost of the generated code.
 */
const STAND_IN_PLUGIN = `import fs from 'node:fs';

const served = {
  '\\0virtual:agent-scorers': new URL('./registry.js', import.meta.url),
  '\\0virtual:agent-scorers:once': new URL('./once.js', import.meta.url),
};

export default function standIn() {
  return {
    name: 'agent-scorers-stand-in',
    enforce: 'pre',
    resolveId: { filter: { id: /^virtual:agent-scorers(?::once)?$/ }, handler: (source) => '\\0' + source },
    load: {
      filter: { id: /^\\0virtual:agent-scorers(?::once)?$/ },
      handler: (id) => (served[id] ? { code: fs.readFileSync(served[id], 'utf8'), moduleType: 'js', map: { mappings: '' } } : null),
    },
  };
}
`;

/** Returns `{ dir, agents, scorers, shape }`; writes the tree under `dir` unless it is already current. */
export function generate(baseDir, agents, shape = 'factory') {
  const make = SHAPES[shape];
  if (!make) throw new Error(`unknown shape ${shape}; known: ${Object.keys(SHAPES).join(', ')}`);
  const dir = path.join(baseDir, `${shape}-${agents}`);
  const stamp = crypto.createHash('sha256').update(fs.readFileSync(new URL(import.meta.url))).update(`${agents}:${shape}`).digest('hex');
  const stampFile = path.join(dir, '.stamp');
  const result = { dir, agents, scorers: agents * 10, shape };
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return result;

  fs.rmSync(dir, { recursive: true, force: true });
  const src = path.join(dir, 'src');
  fs.mkdirSync(path.join(src, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `bench-${shape}-${agents}`, private: true, type: 'module' }, null, 2)}\n`);
  fs.writeFileSync(path.join(src, 'lib/scoring.ts'), LIB_SCORING);
  fs.writeFileSync(path.join(src, 'lib/agent.ts'), LIB_AGENT);
  fs.writeFileSync(path.join(src, 'lib/tools.ts'), LIB_TOOLS);
  fs.writeFileSync(path.join(src, 'lib/types.ts'), LIB_TYPES);

  const random = rng(agents * 7919 + shape.length);
  const pick = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);

  const importsB = [];
  const registryB = [];
  for (let i = 0; i < agents; i++) {
    const agent = agentName(i);
    const agentDir = path.join(src, 'mastra/agents', agent);
    fs.mkdirSync(path.join(agentDir, 'scorers'), { recursive: true });
    const { config, configKeys, importConfig, files } = make(i, agent, pick, random);
    if (config !== null) fs.writeFileSync(path.join(agentDir, 'config.ts'), config);
    if (importConfig) importsB.push(`import c${i} from './mastra/agents/${agent}/config.ts';`);
    const overridden = new Set(configKeys);
    const fields = [];
    files.forEach(({ key, entry, source }, s) => {
      fs.writeFileSync(path.join(agentDir, 'scorers', `${key}.ts`), source);
      if (overridden.has(key)) {
        // What a careful user writes: the config's value in the file's place, the file not imported.
        fields.push(`${JSON.stringify(key)}: c${i}.scorers[${JSON.stringify(key)}]`);
        return;
      }
      const local = `a${i}_${s}`;
      // Relative with the extension: the form Vite 8 resolves fastest (no probing), so (b) is a true floor.
      importsB.push(`import ${local} from './mastra/agents/${agent}/scorers/${key}.ts';`);
      fields.push(entry ? `${JSON.stringify(key)}: ${local}` : `${JSON.stringify(key)}: { scorer: ${local} }`);
    });
    const fileKeys = new Set(files.map((f) => f.key));
    for (const key of configKeys) if (!fileKeys.has(key)) fields.push(`${JSON.stringify(key)}: c${i}.scorers[${JSON.stringify(key)}]`);
    registryB.push(`  ${JSON.stringify(agent)}: r({ ${fields.join(', ')} }),`);
  }

  // main-o.ts is main-a.ts for another build of the plugin (bench/run.mjs --compare).
  for (const v of Object.keys(VARIANTS).filter((x) => isPluginVariant(x) || VARIANTS[x].standIn)) fs.writeFileSync(path.join(src, `main-${v}.ts`), `import scorers from 'virtual:agent-scorers';\n\nexport default scorers;\n`);
  // e: the same hand-written registry imported by the entry, as an app imports it (the graph of a).
  fs.writeFileSync(path.join(src, 'main-e.ts'), `import scorers from './main-b.ts';\n\nexport default scorers;\n`);
  fs.writeFileSync(
    path.join(src, 'main-b.ts'),
    `// Hand-written registry: what a careful user would write without the plugin.
${importsB.join('\n')}

const r = <T extends object>(o: T): Readonly<T> => Object.freeze(Object.setPrototypeOf(o, null));

export default r({
${registryB.join('\n')}
});
`,
  );
  fs.writeFileSync(
    path.join(src, 'main-c.ts'),
    `// Vite's eager glob, with the registry assembled (and merged with config.scorers) in user code.
const files = import.meta.glob('./mastra/agents/*/scorers/*.ts', { eager: true }) as Record<string, { default: any }>;
const configs = import.meta.glob('./mastra/agents/*/config.ts', { eager: true }) as Record<string, { default: any }>;

const isEntry = (v: any) => v !== null && typeof v === 'object' && 'scorer' in v;
const byAgent: Record<string, Record<string, unknown>> = Object.create(null);
for (const file of Object.keys(files).sort()) {
  const [, agent, key] = /agents\\/([^/]+)\\/scorers\\/([^/]+)\\.ts$/.exec(file)!;
  const value = files[file].default;
  (byAgent[agent] ??= Object.create(null))[key] = isEntry(value) ? value : { scorer: value };
}
for (const file of Object.keys(configs)) {
  const [, agent] = /agents\\/([^/]+)\\/config\\.ts$/.exec(file)!;
  const record = (byAgent[agent] ??= Object.create(null));
  Object.assign(record, configs[file].default.scorers);
}
for (const agent of Object.keys(byAgent)) Object.freeze(byAgent[agent]);

export default Object.freeze(byAgent);
`,
  );
  fs.mkdirSync(path.join(dir, 'stand-in'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'stand-in/plugin.mjs'), STAND_IN_PLUGIN);
  for (const variant of Object.keys(VARIANTS)) {
    // What a user writes: the plugin by its package name (bench/run.mjs links it), the rest inline.
    // n: the plugin with nothing kept from the previous build (a first build, or CI without a cache).
    const plugin = isPluginVariant(variant);
    const standIn = VARIANTS[variant].standIn === true;
    const pkg = variant === 'o' || variant === 'p' ? 'agent-scorers-other' : 'agent-scorers';
    fs.writeFileSync(
      path.join(dir, `vite.config.${variant}.ts`),
      `import { defineConfig } from 'vite';
${plugin ? `import agentScorers from '${pkg}/vite';\n` : ''}${standIn ? `import standIn from './stand-in/plugin.mjs';\n` : ''}
export default defineConfig({
  ...${JSON.stringify(viteOptions(variant))},
  plugins: [${plugin ? `agentScorers({ dts: false${variant === 'n' ? ', cache: false' : ''} })` : standIn ? 'standIn()' : ''}],
});
`,
    );
  }
  fs.writeFileSync(stampFile, stamp);
  return { ...result, writtenAt: Date.now() };
}

/**
 * Generates a Mastra-style project of N agents × 10 scorers for the build benchmark, plus one entry
 * file per variant:
 *   src/main-a.ts  the plugin:           import scorers from 'virtual:agent-scorers'
 *   src/main-b.ts  hand-written registry: one static import per file (the physical floor)
 *   src/main-c.ts  import.meta.glob:      Vite's eager glob, the registry assembled in user code
 * All three produce the same shape: agent → frozen, null-prototype record of `{ scorer, sampling? }`.
 *
 * The tree is deterministic (seeded), and regenerated only when this file or the size changes.
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
/** Every 5th agent's config.ts carries a `scorers` record (one extra key, no collision). */
export const hasConfigScorers = (i) => i % 5 === 0;
/** In every other agent, two scorer files export a `{ scorer, sampling }` entry. */
const isEntry = (i, s) => i % 2 === 1 && (s === 3 || s === 7);

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
  instructions: string;
  scorers?: Record<string, unknown>;
  maxSteps?: number;
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

/** Returns `{ dir, agents, scorers }`; writes the tree under `dir` unless it is already current. */
export function generate(baseDir, agents) {
  const dir = path.join(baseDir, `agents-${agents}`);
  const stamp = crypto
    .createHash('sha256')
    .update(fs.readFileSync(new URL(import.meta.url)))
    .update(String(agents))
    .digest('hex');
  const stampFile = path.join(dir, '.stamp');
  const result = { dir, agents, scorers: agents * SCORERS.length };
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return result;

  fs.rmSync(dir, { recursive: true, force: true });
  const src = path.join(dir, 'src');
  fs.mkdirSync(path.join(src, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(src, 'lib/scoring.ts'), LIB_SCORING);
  fs.writeFileSync(path.join(src, 'lib/agent.ts'), LIB_AGENT);

  const random = rng(agents * 7919);
  const pick = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);

  const importsB = [];
  const registryB = [];
  for (let i = 0; i < agents; i++) {
    const agent = agentName(i);
    const agentDir = path.join(src, 'mastra/agents', agent);
    fs.mkdirSync(path.join(agentDir, 'scorers'), { recursive: true });
    const topic = pick(2).join(' and ');
    const configScorers = hasConfigScorers(i)
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
      : '';
    fs.writeFileSync(
      path.join(agentDir, 'config.ts'),
      `import { agentConfig } from '../../../lib/agent';
${configScorers ? "import { defineScorer } from '../../../lib/scoring';\n" : ''}
export default agentConfig({
  name: '${agent}',
  model: 'openai/gpt-4o-mini',
  instructions: 'You are a support agent for ${topic}. Answer briefly and cite the policy you rely on.',
  maxSteps: ${1 + (i % 5)},${configScorers}
});
`,
    );

    const fields = [];
    SCORERS.forEach((key, s) => {
      const { head, scorer } = scorerBody(agent, key, pick, random);
      const entry = isEntry(i, s);
      const rate = [0.5, 0.25, 0.1][i % 3];
      const body = entry
        ? `export default {\n  scorer: ${scorer.replace(/\n/g, '\n  ')},\n  sampling: { type: 'ratio', rate: ${rate} },\n};\n`
        : `export default ${scorer};\n`;
      fs.writeFileSync(
        path.join(agentDir, 'scorers', `${key}.ts`),
        `import { defineScorer, words } from '../../../../lib/scoring';\n\n${head}\n${body}`,
      );
      const local = `a${i}_${s}`;
      // Relative with the extension: the form Vite 8 resolves fastest (no probing), so (b) is a true floor.
      importsB.push(`import ${local} from './mastra/agents/${agent}/scorers/${key}.ts';`);
      fields.push(entry ? `${JSON.stringify(key)}: ${local}` : `${JSON.stringify(key)}: { scorer: ${local} }`);
    });
    if (hasConfigScorers(i)) {
      importsB.push(`import c${i} from './mastra/agents/${agent}/config.ts';`);
      fields.push(`...c${i}.scorers`);
    }
    registryB.push(`  ${JSON.stringify(agent)}: r({ ${fields.join(', ')} }),`);
  }

  fs.writeFileSync(
    path.join(src, 'main-a.ts'),
    `import scorers from 'virtual:agent-scorers';\n\nexport default scorers;\n`,
  );
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
  fs.writeFileSync(stampFile, stamp);
  return result;
}

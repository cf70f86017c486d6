/**
 * The docs text of every diagnostic code: the one source of the diagnostics reference page
 * (`scripts/gen-docs.mjs` renders it). Plain data, never imported by the plugin or the runtime:
 * `codes.ts` stays tiny because the registry helper ships it. `satisfies Record<DiagnosticCode, ...>`
 * makes a new code without docs a type error.
 *
 * Each `example` is a small situation, not a printed line: the generator runs the real scanner and
 * planner (or the real message builder) over it and prints the result with `formatDiagnostic`, so
 * the page shows exactly what a user sees.
 */
import type { DiagnosticCode } from './codes.js';

export type CodeExample =
  /** Files under a temporary root (root-relative POSIX paths; `%XX` in a name is a raw byte), run through scan and plan. */
  | { kind: 'tree'; files: Record<string, string>; agentsDir?: string[] }
  /** `unknownAgentError` over the plan of `files`, for an import of `virtual:agent-scorers/<agent>`. */
  | { kind: 'unknown-agent'; files: Record<string, string>; agent: string }
  /** `syntaxDiagnostics` over the plan of `files`, as `agent-scorers generate` reports them. */
  | { kind: 'syntax'; files: Record<string, string> };


export interface CodeDoc {
  /** When it happens, in one sentence: the text under the heading. */
  when: string;
  /** Why it matters: what goes wrong if it is ignored. */
  why: string;
  /** How to fix it. */
  fix: string;
  /** How to silence it on purpose; null for errors, which cannot be silenced. */
  silence: string | null;
  /** Where it is reported: build, dev server, run time. */
  reported: string;
  example: CodeExample;
}

const SCORER = "import { createScorer } from 'agent-scorers';\n\nexport default createScorer({ id: 'tone', description: 'Tone' }).generateScore(() => 1);\n";
const configWith = (scorers: string): string =>
  `import { agentConfig } from '@mastra/core/agent';\nimport { createScorer } from 'agent-scorers';\n\nconst tone = createScorer({ id: 'tone', description: 'Tone' }).generateScore(() => 1);\n\nexport default agentConfig({ model: 'openai/gpt-4o-mini', scorers: ${scorers} });\n`;

const BUILD = 'At build time (Vite, Rollup, Rolldown, esbuild, Next.js, `agent-scorers generate`), in the dev server and in the inspector.';
const BUILD_AND_RUN =
  'At build time when the source shows it; otherwise when the registry module is evaluated at run time.';

export const CODE_DOCS = {
  SCORER_KEY_COLLISION: {
    when: 'A key is given both by a file in `scorers/` and by `config.scorers`. The config value wins and keeps the file\'s place; the file is not bundled.',
    why: 'Mastra resolves the clash the same way, so nothing breaks, but an edit to the file has no effect, which is easy to miss.',
    fix: 'Remove one of the two, or rename the file to give it its own key.',
    silence: 'When the override is deliberate, set `diagnostics: { SCORER_KEY_COLLISION: \'off\' }`.',
    reported: BUILD_AND_RUN,
    example: {
      kind: 'tree',
      files: { 'src/mastra/agents/weather/config.ts': configWith('{ relevance: tone }'), 'src/mastra/agents/weather/scorers/relevance.ts': SCORER },
    },
  },
  CONFIG_SCORERS_FUNCTION: {
    when: '`config.scorers` is a function and the agent also has files in `scorers/`. The registry holds the function; the files are ignored and not bundled.',
    why: 'Mastra does the same, so the files never run. They are likely leftovers or a mistake.',
    fix: 'Return the discovered scorers from the function yourself (import them), or delete the files.',
    silence: 'When the files are kept on purpose, set `diagnostics: { CONFIG_SCORERS_FUNCTION: \'off\' }`.',
    reported: BUILD_AND_RUN,
    example: {
      kind: 'tree',
      files: { 'src/mastra/agents/support/config.ts': configWith('() => ({ tone })'), 'src/mastra/agents/support/scorers/tone.ts': SCORER },
    },
  },
  SCORER_KEY_CASE_COLLISION: {
    when: 'Two scorer files of one agent have keys that differ only in case, such as `Tone.ts` and `tone.ts`.',
    why: 'On a case-insensitive file system (macOS, Windows) the two files cannot both exist, so a checkout there loses one.',
    fix: 'Rename one of the files.',
    silence: 'Set `diagnostics: { SCORER_KEY_CASE_COLLISION: \'off\' }` if every machine that checks out the project is case-sensitive.',
    reported: BUILD,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/scorers/Tone.ts': SCORER, 'src/mastra/agents/weather/scorers/tone.ts': SCORER } },
  },
  SCORER_DUPLICATE_KEY: {
    when: 'Two files in one `scorers/` folder give the same key, such as `relevance.ts` and `relevance.js`. Both are named.',
    why: 'One key can hold one scorer; picking either file silently would hide the other.',
    fix: 'Delete or rename one file. A compiled `.js` beside its `.ts` source usually means a build output landed in the source tree.',
    silence: null,
    reported: BUILD,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/scorers/relevance.js': SCORER, 'src/mastra/agents/weather/scorers/relevance.ts': SCORER } },
  },
  SCORER_NO_DEFAULT_EXPORT: {
    when: 'A scorer file has no default export.',
    why: 'The registry takes each file\'s default export; without one there is nothing to register.',
    fix: 'Add `export default` of a scorer or of a `{ scorer, sampling }` entry. Move helpers without one into a sub-folder of `scorers/`, which is not scanned.',
    silence: null,
    reported: BUILD,
    example: {
      kind: 'tree',
      files: { 'src/mastra/agents/weather/scorers/tone.ts': "import { createScorer } from 'agent-scorers';\n\nexport const tone = createScorer({ id: 'tone', description: 'Tone' });\n" },
    },
  },
  SCORER_INVALID_EXPORT: {
    when: 'A scorer file\'s default export is neither a scorer (an object with a string `id` and a `run` function) nor a `{ scorer, sampling }` entry. The message says what it is.',
    why: 'Mastra would accept it and fail later, when the agent first scores a run.',
    fix: 'Export the scorer itself, not its factory or its config. A function usually means a call is missing.',
    silence: null,
    reported: BUILD_AND_RUN,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/scorers/tone.ts': "export default 'tone';\n" } },
  },
  SCORER_INVALID_SAMPLING: {
    when: 'A `sampling` value is neither `{ type: \'none\' }` nor `{ type: \'ratio\', rate }` with `0 <= rate <= 1`.',
    why: 'A wrong rate would score every run or none without a word.',
    fix: 'Write one of the two forms; a rate is a fraction (`0.25`), not a percentage.',
    silence: null,
    reported: BUILD_AND_RUN,
    example: {
      kind: 'tree',
      files: {
        'src/mastra/agents/weather/scorers/tone.ts':
          "import { createScorer } from 'agent-scorers';\n\nconst scorer = createScorer({ id: 'tone', description: 'Tone' }).generateScore(() => 1);\n\nexport default { scorer, sampling: { type: 'ratio', rate: 25 } };\n",
      },
    },
  },
  CONFIG_DUPLICATE: {
    when: 'An agent folder holds more than one config file (`config.ts`, `config.mts`, `config.js`, `config.mjs`).',
    why: 'Only one can be the agent\'s config; which one would be an accident of ordering.',
    fix: 'Keep one config file.',
    silence: null,
    reported: BUILD,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/config.js': configWith('{}'), 'src/mastra/agents/weather/config.ts': configWith('{}') } },
  },
  AGENTS_DIR_MISSING: {
    when: 'An `agentsDir` folder does not exist. For the default folder this is a warning and the registry is empty; for a folder you set it is an error, because it is almost always a typo.',
    why: 'An empty registry builds fine and fails much later, when an agent has no scorers. A declaration file that exists is never rewritten to an empty registry.',
    fix: 'Create the folder or correct `agentsDir`. Paths are relative to `root`.',
    silence: 'The warning for the default folder can be turned off with `diagnostics: { AGENTS_DIR_MISSING: \'off\' }`, for a project that has no agents yet.',
    reported: BUILD,
    example: { kind: 'tree', files: {}, agentsDir: ['src/mastra/agnets'] },
  },
  SUBAGENT_TOO_DEEP: {
    when: 'A subagent sits more than 3 levels below its top-level agent (`a/b/c/d/e`). It is left out of the registry.',
    why: 'Mastra stops at the same depth, so the deeper agent would not exist there either.',
    fix: 'Move the subagent up, or make it a top-level agent.',
    silence: 'Set `diagnostics: { SUBAGENT_TOO_DEEP: \'off\' }` to keep deeper folders that are not agents.',
    reported: BUILD,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/subagents/planner/subagents/critic/subagents/deep/subagents/deeper/scorers/tone.ts': SCORER } },
  },
  CONFIG_EXPORTS_AGENT: {
    when: 'The config default-exports a `new Agent()` and the agent also has files in `scorers/`. As in Mastra, the Agent is used as it is: the registry resolves to its own scorers and the files are not bundled.',
    why: 'The files never run, which is easy to miss.',
    fix: 'Export a config object (`agentConfig({...})`) instead of an Agent, or pass the scorers to `new Agent({ scorers })` yourself and delete the files.',
    silence: 'Set `diagnostics: { CONFIG_EXPORTS_AGENT: \'off\' }` when the files are kept on purpose.',
    reported: BUILD_AND_RUN,
    example: {
      kind: 'tree',
      files: {
        'src/mastra/agents/weather/config.ts':
          "import { Agent } from '@mastra/core/agent';\n\nexport default new Agent({ id: 'weather', name: 'Weather', instructions: 'Forecasts.', model: 'openai/gpt-4o-mini' });\n",
        'src/mastra/agents/weather/scorers/tone.ts': SCORER,
      },
    },
  },
  CONFIG_INVALID_SCORERS: {
    when: '`config.scorers` is neither a record nor a function (`scorers: 42`), or one of its values is not a scorer or entry (`{ tone: \'tone\' }`).',
    why: 'Mastra would fail on it later, at the first scored run, far from the config.',
    fix: 'Make `scorers` a record of scorers or entries, or a function returning one.',
    silence: null,
    reported: BUILD_AND_RUN,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/config.ts': configWith("{ tone: 'tone' }") } },
  },
  AGENT_UNKNOWN: {
    when: 'An import of `virtual:agent-scorers/<key>`, or a `resolveScorers(key)` call, names an agent that does not exist. The message lists the agents that do.',
    why: 'A typo in an agent key would otherwise give an agent no scorers.',
    fix: 'Use one of the listed keys. A subagent\'s key is its path: `weather/planner`.',
    silence: null,
    reported: 'At build time for an import; at run time for `resolveScorers`.',
    example: { kind: 'unknown-agent', files: { 'src/mastra/agents/weather/scorers/tone.ts': SCORER, 'src/mastra/agents/support/scorers/tone.ts': SCORER }, agent: 'wether' },
  },
  SCORER_SYNTAX_ERROR: {
    when: 'A scorer file or config does not parse, where no bundler reads the file after this package: `agent-scorers generate` and Next.js\'s `withAgentScorers`. The message gives the file, line and column. Under Vite, Rollup, Rolldown and esbuild the bundler reports the syntax error itself.',
    why: 'The generated registry file would import a file that cannot load. The previous generated files are kept.',
    fix: 'Fix the syntax error at the given line and column.',
    silence: null,
    reported: 'By `agent-scorers generate` (exit code 1) and by `next build` / `next dev` through `withAgentScorers`.',
    example: {
      kind: 'syntax',
      files: {
        'src/mastra/agents/weather/scorers/tone.ts':
          "import { createScorer } from 'agent-scorers';\n\nexport default createScorer({ id: 'tone', description: 'Tone' }).generateScore(() => 1))\n",
      },
    },
  },
  AGENT_DUPLICATE: {
    when: 'Two `agentsDir` folders each hold an agent folder of the same name.',
    why: 'Agent keys must be unique: one would shadow the other.',
    fix: 'Rename one of the agent folders.',
    silence: null,
    reported: BUILD,
    example: {
      kind: 'tree',
      files: { 'src/mastra/agents/weather/scorers/tone.ts': SCORER, 'shared/agents/weather/scorers/tone.ts': SCORER },
      agentsDir: ['src/mastra/agents', 'shared/agents'],
    },
  },
  NAME_NOT_UTF8: {
    when: 'A scorer file or agent folder has a name that is not valid UTF-8 (possible on Linux).',
    why: 'Node cannot import such a file, so it would be dropped without a word.',
    fix: 'Rename the file or folder.',
    silence: null,
    reported: BUILD,
    example: { kind: 'tree', files: { 'src/mastra/agents/weather/scorers/caf%E9.ts': SCORER } },
  },
} satisfies Record<DiagnosticCode, CodeDoc>;

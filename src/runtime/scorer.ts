/**
 * `createScorer`: a Mastra-compatible scorer builder.
 *
 * A scorer is a pipeline of up to four steps, run in this order whatever order they were added in:
 * `preprocess` -> `analyze` -> `generateScore` -> `generateReason`. Each step is either
 * - a function `({ run, results, score?, callJudge }) => value` (may be async), or
 * - a prompt object `{ description, createPrompt, outputSchema?, judge? }` answered by the judge model.
 *
 * Step results accumulate as `results.preprocessStepResult`, `results.analyzeStepResult`,
 * `results.generateScoreStepResult` (as in Mastra); `generateReason` also receives `score`.
 * `run()` resolves to Mastra's result shape. Scorer objects expose what Mastra code inspects: `id`,
 * `name`, `description`, `type`, `judge`, `config`, `run`, `getSteps()`, `__registerMastra()`.
 */
import {
  assertModelInput,
  addUsage,
  callJudge,
  describeModel,
  emptyUsage,
  JudgeOutputError,
  type JudgeUsage,
  type ModelInput,
  type ModelSettings,
} from './judge/model.js';

export type ScorerStepName = 'preprocess' | 'analyze' | 'generateScore' | 'generateReason';
const STEP_ORDER: readonly ScorerStepName[] = ['preprocess', 'analyze', 'generateScore', 'generateReason'];

export interface ScorerJudgeConfig {
  model: ModelInput;
  instructions: string;
  /** Per-call model settings (temperature, maxOutputTokens, providerOptions, ...); temperature defaults to 0. */
  modelSettings?: ModelSettings;
}

export type ScorerType = 'agent' | 'trajectory' | { input: unknown; output: unknown };

export interface ScorerConfig<TId extends string = string> {
  id: TId;
  name?: string;
  description: string;
  judge?: ScorerJudgeConfig;
  /** Mastra's run shape hint: `'agent'` means `input` is the agent run input and `output` its messages. */
  type?: ScorerType;
  /** Transforms the run before the pipeline sees it (Mastra's `prepareRun`). */
  prepareRun?: (run: ScorerRun) => ScorerRun | Promise<ScorerRun>;
}

export interface ScorerRun<TInput = any, TOutput = any> {
  runId?: string;
  input?: TInput;
  output: TOutput;
  groundTruth?: any;
  requestContext?: any;
  [extra: string]: unknown;
}

/** A judge call made from inside a function step; its prompt and usage are recorded for the step. */
export interface StepJudgeRequest {
  prompt: string;
  /** Structured output: zod / Standard Schema, AI SDK schema or JSON Schema. Omit for text. */
  outputSchema?: unknown;
  /** Defaults to the scorer's `judge`. */
  model?: ModelInput;
  instructions?: string;
  modelSettings?: ModelSettings;
  /** Machine-readable purpose of the call (read by the offline judge; ignored by real providers). */
  task?: { name: string; data?: unknown };
}

export interface StepContext<TInput = any, TOutput = any> {
  run: ScorerRun<TInput, TOutput> & { runId: string };
  results: Record<string, any>;
  /** Only for `generateReason`: the score. */
  score?: number;
  /** Calls the judge model and records the prompt and usage under this step. */
  callJudge: <T = unknown>(request: StepJudgeRequest) => Promise<T>;
}

export type FunctionStep<TInput = any, TOutput = any> = ((context: StepContext<TInput, TOutput>) => unknown) & {
  description?: string;
};

export interface PromptStep<TInput = any, TOutput = any> {
  description: string;
  createPrompt: (context: StepContext<TInput, TOutput>) => string | Promise<string>;
  /** Structured output for `preprocess`/`analyze`; `generateScore` always asks for `{ score: number }`. */
  outputSchema?: unknown;
  judge?: Partial<ScorerJudgeConfig>;
}

export type StepDefinition<TInput = any, TOutput = any> = FunctionStep<TInput, TOutput> | PromptStep<TInput, TOutput>;

export interface JudgeExecution {
  status: 'success' | 'failed';
  prompt: string;
  output?: unknown;
  judgeModelId: string;
  judgeProvider?: string;
  usage: JudgeUsage;
  attemptCount: number;
  modelCallCount: number;
  /** How many of `modelCallCount` were answered from a judge cache (`cachedJudge`) instead of the provider. */
  cachedCallCount: number;
  /** Present when some of `modelCallCount` went through a judge cache that did not know them (live, then recorded). */
  cacheMissCount?: number;
  durationMs: number;
  error?: { name: string; message: string };
}

export interface StepUsage extends JudgeUsage {
  /** Judge requests, including those a judge cache answered. */
  modelCalls: number;
  /** Judge requests answered from a judge cache (`cachedJudge`); `modelCalls - cachedCalls` were sent to the provider. */
  cachedCalls: number;
}

export interface ScorerRunResult<TInput = any, TOutput = any> extends ScorerRun<TInput, TOutput> {
  runId: string;
  /** Absent when a step returned `notScorable()`. */
  score?: number;
  reason?: any;
  preprocessStepResult?: any;
  preprocessPrompt?: string;
  analyzeStepResult?: any;
  analyzePrompt?: string;
  generateScorePrompt?: string;
  generateReasonPrompt?: string;
  /** Judge calls per step, in Mastra's shape. Present when the judge was called. */
  judge?: Partial<Record<ScorerStepName, { executions: JudgeExecution[] }>>;
  /** Token usage and model calls per step that called the judge. Present when the judge was called. */
  usage?: Partial<Record<ScorerStepName, StepUsage>> & { total: StepUsage };
  notScorable?: { step: ScorerStepName; reason?: string };
}

interface StoredStep {
  name: ScorerStepName;
  definition: StepDefinition;
  isPrompt: boolean;
}

/** A scorer run failed in one of its steps. `failedStep` and `scorerId` say where. */
export class ScorerRunError extends Error {
  readonly failedStep: ScorerStepName;
  readonly completedSteps: ScorerStepName[];
  readonly scorerId: string;
  /** What the run had produced before the failure. */
  readonly result: Partial<ScorerRunResult>;
  constructor(options: {
    scorerId: string;
    failedStep: ScorerStepName;
    completedSteps: ScorerStepName[];
    result: Partial<ScorerRunResult>;
    cause: unknown;
  }) {
    const causeMessage = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`Scorer "${options.scorerId}" failed in step "${options.failedStep}": ${causeMessage}`, { cause: options.cause });
    this.name = 'ScorerRunError';
    this.scorerId = options.scorerId;
    this.failedStep = options.failedStep;
    this.completedSteps = options.completedSteps;
    this.result = options.result;
  }
}

// Same registered symbol as Mastra's `notScorable()`, so markers from either package are recognised by both.
const NOT_SCORABLE = Symbol.for('mastra.evals.notScorable');

export interface NotScorable {
  readonly reason?: string;
}

/** Return from a step to declare the run not scorable: the remaining steps are skipped and there is no score. */
export function notScorable(reason?: string): NotScorable {
  return Object.freeze({ [NOT_SCORABLE]: true, ...(reason !== undefined ? { reason } : {}) }) as NotScorable;
}

export function isNotScorable(value: unknown): value is NotScorable {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[NOT_SCORABLE] === true;
}

function isPromptStep(definition: unknown): definition is PromptStep {
  return (
    definition !== null &&
    typeof definition === 'object' &&
    typeof (definition as PromptStep).createPrompt === 'function'
  );
}

const newRunId = (): string => {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
};

const SCORE_SCHEMA = {
  type: 'object',
  properties: { score: { type: 'number' } },
  required: ['score'],
  additionalProperties: false, // strict structured output (OpenAI) requires closed objects
} as const;

/** The judge a call uses: a step's or request's fields over the scorer's `judge`. */
interface ResolvedJudge {
  model: ModelInput;
  instructions: string | undefined;
  modelSettings: ModelSettings | undefined;
}

/**
 * Filled in by `agent-scorers/mastra` (types only): with it loaded, this package's scorers are typed
 * as Mastra's `MastraScorer` too, so they go into Mastra's typed APIs. Empty otherwise.
 */
export interface Register {}

/**
 * A scorer of this package as Mastra's types see it. Mastra's `MastraScorer` has `#private` members,
 * so no structural type is ever assignable to it: only its own declaration, which `agent-scorers/mastra`
 * registers. `steps` is private there and public here, and an intersection with such a conflict is
 * `never`, so it is left out of the intersection (it is still there at run time).
 */
export type MastraCompatible<S> = Register extends { mastraScorer: infer M }
  ? // \`any\`: \`agent-scorers/mastra\` is loaded but \`@mastra/core\` is not installed, so its import fell back
    // to \`any\` (silently under \`skipLibCheck\`). \`any\` would swallow this package's own types too
    // (TS7031 on \`generateScore(({ run }) => ...)\`): keep them, and name the missing package.
    // (Tested through a tuple: a conditional on an unresolved type itself resolves to \`any\`.)
    [M] extends [{ readonly __agentScorersAnyProbe: never }]
    ? S & InstallMastraCoreToUseAgentScorersMastraTypes
    : Omit<S, 'steps'> & M
  : S & AddAgentScorersMastraToTsconfigTypes;

/**
 * \`agent-scorers/mastra\` is in \`compilerOptions.types\` but \`@mastra/core\` is not installed, so Mastra's
 * \`MastraScorer\` cannot be read. This empty interface has no effect; its name, in hovers and messages,
 * says what to do: \`npm install @mastra/core\`, or drop \`agent-scorers/mastra\` from \`types\` until you
 * pass scorers to Mastra.
 */
export interface InstallMastraCoreToUseAgentScorersMastraTypes {}

/**
 * Without `agent-scorers/mastra`, this package's scorers do not fit Mastra's types (`new Agent({ scorers
 * })` fails with TS2322/TS2740, "missing the following properties from type 'MastraScorer'..."). This
 * empty interface has no members and no effect; its name is in that message, so it points at the fix:
 * add `"agent-scorers/mastra"` to `compilerOptions.types` (or `import type {} from 'agent-scorers/mastra'`).
 */
export interface AddAgentScorersMastraToTsconfigTypes {}

/**
 * A scorer of this package: `createScorer(...)` and its steps, `createAnswerRelevancyScorer(...)`.
 * To pass one to Mastra's typed APIs (`new Agent({ scorers })`, Mastra's `runEvals`), add
 * `"agent-scorers/mastra"` to `compilerOptions.types`: without it TypeScript reports TS2322/TS2740,
 * "Type 'Scorer<...> & AddAgentScorersMastraToTsconfigTypes' is missing the following properties
 * from type 'MastraScorer<...>': #private, ...".
 */
export class Scorer<TId extends string = string, TInput = any, TOutput = any> {
  readonly config: Readonly<ScorerConfig<TId>>;
  readonly steps: readonly StoredStep[];
  /** Set by Mastra when it registers scorers; kept for compatibility, unused here. */
  source?: unknown;

  /** Use `createScorer()`; the constructor is public only so Mastra-style code can subclass. */
  constructor(config: ScorerConfig<TId>, steps: readonly StoredStep[] = []) {
    this.config = Object.freeze({ ...config });
    this.steps = Object.freeze([...steps]);
  }

  get id(): TId {
    return this.config.id;
  }
  get name(): string {
    return this.config.name ?? this.config.id;
  }
  get description(): string {
    return this.config.description;
  }
  get type(): ScorerType | undefined {
    return this.config.type;
  }
  get judge(): ScorerJudgeConfig | undefined {
    return this.config.judge;
  }

  preprocess(definition: StepDefinition<TInput, TOutput>): MastraCompatible<Scorer<TId, TInput, TOutput>> {
    return this.withStep('preprocess', definition);
  }
  analyze(definition: StepDefinition<TInput, TOutput>): MastraCompatible<Scorer<TId, TInput, TOutput>> {
    return this.withStep('analyze', definition);
  }
  generateScore(definition: StepDefinition<TInput, TOutput>): MastraCompatible<Scorer<TId, TInput, TOutput>> {
    return this.withStep('generateScore', definition);
  }
  generateReason(definition: StepDefinition<TInput, TOutput>): MastraCompatible<Scorer<TId, TInput, TOutput>> {
    return this.withStep('generateReason', definition);
  }

  /** Mastra's step listing: `{ name, type: 'function' | 'prompt', description }` in run order. */
  getSteps(): Array<{ name: ScorerStepName; type: 'function' | 'prompt'; description?: string }> {
    return this.steps.map((step) => ({
      name: step.name,
      type: step.isPrompt ? 'prompt' : 'function',
      description: (step.definition as { description?: string }).description,
    }));
  }

  /** Mastra calls this when a scorer is registered with an agent or a Mastra instance; nothing to do here. */
  __registerMastra(_mastra: unknown): void {}

  private withStep(name: ScorerStepName, definition: unknown): Scorer<TId, TInput, TOutput> {
    const isPrompt = isPromptStep(definition);
    if (!isPrompt && typeof definition !== 'function') {
      throw new TypeError(
        `Scorer "${this.id}": .${name}() takes a function or a prompt object { description, createPrompt, outputSchema? }; got ${
          definition === null ? 'null' : typeof definition
        }`,
      );
    }
    if (isPrompt && (definition as PromptStep).judge?.model !== undefined) {
      assertModelInput((definition as PromptStep).judge!.model, `Scorer "${this.id}" step "${name}"`);
    }
    // Adding a step again replaces it; steps always run in the canonical order.
    const steps = this.steps.filter((step) => step.name !== name);
    steps.push({ name, definition: definition as StepDefinition, isPrompt });
    steps.sort((a, b) => STEP_ORDER.indexOf(a.name) - STEP_ORDER.indexOf(b.name));
    return new Scorer<TId, TInput, TOutput>(this.config, steps);
  }

  async run(input: ScorerRun<TInput, TOutput>): Promise<ScorerRunResult<TInput, TOutput>> {
    if (!this.steps.some((step) => step.name === 'generateScore')) {
      const present = this.steps.map((step) => step.name).join(', ') || 'none';
      throw new Error(
        `Scorer "${this.id}" has no generateScore step (steps: ${present}); add .generateScore(...) before running it`,
      );
    }
    if (input === null || typeof input !== 'object') {
      throw new TypeError(`Scorer "${this.id}": run() takes { input, output, groundTruth?, requestContext?, runId? }`);
    }
    const { _internal: _ignored, ...given } = input as ScorerRun & { _internal?: unknown };
    const prepared = this.config.prepareRun ? await this.config.prepareRun(given as ScorerRun) : given;
    const run = { ...prepared, runId: typeof prepared.runId === 'string' && prepared.runId ? prepared.runId : newRunId() } as ScorerRun<
      TInput,
      TOutput
    > & { runId: string };

    const results: Record<string, any> = {};
    const prompts: Partial<Record<ScorerStepName, string[]>> = {};
    const judge: NonNullable<ScorerRunResult['judge']> = {};
    const usage: Partial<Record<ScorerStepName, StepUsage>> = {};
    const completed: ScorerStepName[] = [];
    let notScorableOutcome: ScorerRunResult['notScorable'];

    const snapshot = (): ScorerRunResult<TInput, TOutput> => {
      const promptOf = (step: ScorerStepName) => (prompts[step] ? prompts[step]!.join('\n\n---\n\n') : undefined);
      const result: ScorerRunResult<TInput, TOutput> = {
        ...run,
        ...(notScorableOutcome ? { notScorable: notScorableOutcome } : { score: results.generateScoreStepResult }),
        generateScorePrompt: promptOf('generateScore'),
        reason: results.generateReasonStepResult,
        generateReasonPrompt: promptOf('generateReason'),
        preprocessStepResult: results.preprocessStepResult,
        preprocessPrompt: promptOf('preprocess'),
        analyzeStepResult: results.analyzeStepResult,
        analyzePrompt: promptOf('analyze'),
      };
      const judged = Object.keys(usage) as ScorerStepName[];
      if (judged.length > 0) {
        const total: StepUsage = { ...emptyUsage(), modelCalls: 0, cachedCalls: 0 };
        for (const step of judged) {
          addUsage(total, usage[step]);
          total.modelCalls += usage[step]!.modelCalls;
          total.cachedCalls += usage[step]!.cachedCalls;
        }
        result.judge = judge;
        result.usage = { ...usage, total };
      }
      return result;
    };

    for (const step of this.steps) {
      const stepName = step.name;
      const record = (execution: JudgeExecution, prompt: string) => {
        (prompts[stepName] ??= []).push(prompt);
        (judge[stepName] ??= { executions: [] }).executions.push(execution);
        const stepUsage = (usage[stepName] ??= { ...emptyUsage(), modelCalls: 0, cachedCalls: 0 });
        addUsage(stepUsage, execution.usage);
        stepUsage.modelCalls += execution.modelCallCount;
        stepUsage.cachedCalls += execution.cachedCallCount;
      };
      const context: StepContext<TInput, TOutput> = {
        run,
        results: { ...results },
        ...(stepName === 'generateReason' ? { score: results.generateScoreStepResult } : {}),
        callJudge: (request) => this.judgeCall(stepName, request, record),
      };
      let value: unknown;
      try {
        value = step.isPrompt
          ? await this.runPromptStep(stepName, step.definition as PromptStep, context, record)
          : await (step.definition as FunctionStep)(context);
        if (isNotScorable(value)) {
          notScorableOutcome = { step: stepName, ...(value.reason !== undefined ? { reason: value.reason } : {}) };
          break;
        }
        if (stepName === 'generateScore' && (typeof value !== 'number' || !Number.isFinite(value))) {
          throw new TypeError(`generateScore must return a finite number; got ${describeValue(value)}`);
        }
      } catch (error) {
        throw new ScorerRunError({
          scorerId: this.id,
          failedStep: stepName,
          completedSteps: [...completed],
          result: snapshot(),
          cause: error,
        });
      }
      results[`${stepName}StepResult`] = value;
      completed.push(stepName);
    }
    return snapshot();
  }

  private resolveJudge(stepName: ScorerStepName, override?: Partial<ScorerJudgeConfig>): ResolvedJudge {
    const model = override?.model ?? this.config.judge?.model;
    const instructions = override?.instructions ?? this.config.judge?.instructions;
    const modelSettings = override?.modelSettings ?? this.config.judge?.modelSettings;
    if (model === undefined) {
      throw new Error(
        `step "${stepName}" calls the judge, but no judge model is configured: pass judge: { model, instructions } to createScorer or to the step`,
      );
    }
    return { model, instructions, modelSettings };
  }

  /** A function step's `callJudge`: the request's judge fields override the scorer's. */
  private async judgeCall<T>(
    stepName: ScorerStepName,
    request: StepJudgeRequest,
    record: (execution: JudgeExecution, prompt: string) => void,
  ): Promise<T> {
    const judge = this.resolveJudge(stepName, {
      model: request.model,
      instructions: request.instructions,
      modelSettings: request.modelSettings,
    });
    return this.callResolvedJudge<T>(judge, request, record);
  }

  /** One judge call with an already resolved judge; the request's own judge fields are not read. */
  private async callResolvedJudge<T>(
    judge: ResolvedJudge,
    request: StepJudgeRequest,
    record: (execution: JudgeExecution, prompt: string) => void,
  ): Promise<T> {
    const started = Date.now();
    try {
      const response = await callJudge<T>({
        model: judge.model,
        instructions: judge.instructions,
        prompt: request.prompt,
        schema: request.outputSchema,
        settings: judge.modelSettings,
        task: request.task,
      });
      record(
        {
          status: 'success',
          prompt: request.prompt,
          output: response.value as unknown,
          judgeModelId: response.modelId,
          judgeProvider: response.provider,
          usage: response.usage,
          attemptCount: response.modelCalls,
          modelCallCount: response.modelCalls,
          cachedCallCount: response.cachedCalls,
          ...(response.cacheMisses > 0 ? { cacheMissCount: response.cacheMisses } : {}),
          durationMs: response.durationMs,
        },
        request.prompt,
      );
      return response.value;
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      const output = error instanceof JudgeOutputError ? error : undefined;
      record(
        {
          status: 'failed',
          prompt: request.prompt,
          judgeModelId: describeModel(judge.model),
          usage: output?.usage ?? emptyUsage(),
          attemptCount: output?.modelCalls ?? 1,
          modelCallCount: output?.modelCalls ?? 1,
          cachedCallCount: output?.cachedCalls ?? 0,
          durationMs: Date.now() - started,
          error: { name: err.name, message: err.message },
        },
        request.prompt,
      );
      throw error;
    }
  }

  private async runPromptStep(
    stepName: ScorerStepName,
    definition: PromptStep,
    context: StepContext,
    record: (execution: JudgeExecution, prompt: string) => void,
  ): Promise<unknown> {
    const prompt = await definition.createPrompt(context);
    if (typeof prompt !== 'string') throw new TypeError(`createPrompt must return a string; got ${describeValue(prompt)}`);
    const judge = this.resolveJudge(stepName, definition.judge);
    if (!judge.instructions) {
      throw new Error(`step "${stepName}" needs judge instructions: pass judge: { model, instructions }`);
    }
    if (stepName === 'generateScore') {
      const value = await this.callResolvedJudge<{ score: number }>(judge, { prompt, outputSchema: SCORE_SCHEMA }, record);
      return value.score;
    }
    if (stepName === 'generateReason' || definition.outputSchema === undefined) {
      return this.callResolvedJudge<string>(judge, { prompt }, record);
    }
    return this.callResolvedJudge(judge, { prompt, outputSchema: definition.outputSchema }, record);
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  try {
    const text = JSON.stringify(value);
    return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return typeof value;
  }
}

/**
 * Creates a scorer builder. Each of `.preprocess`, `.analyze`, `.generateScore`, `.generateReason`
 * returns a new scorer; the original is never modified. For Mastra's typed APIs (`new Agent({ scorers
 * })`), add `"agent-scorers/mastra"` to `compilerOptions.types` (see `Scorer`).
 */
export function createScorer<TId extends string = string, TInput = any, TOutput = any>(
  config: ScorerConfig<TId>,
): MastraCompatible<Scorer<TId, TInput, TOutput>> {
  if (config === null || typeof config !== 'object') {
    throw new TypeError('createScorer: takes a config object { id, description, name?, judge?, type? }');
  }
  if (typeof config.id !== 'string' || config.id.trim() === '') {
    throw new TypeError('createScorer: "id" is required and must be a non-empty string');
  }
  if (config.description !== undefined && typeof config.description !== 'string') {
    throw new TypeError(`createScorer "${config.id}": "description" must be a string`);
  }
  if (config.prepareRun !== undefined && typeof config.prepareRun !== 'function') {
    throw new TypeError(`createScorer "${config.id}": "prepareRun" must be a function`);
  }
  if (config.judge !== undefined) {
    if (config.judge === null || typeof config.judge !== 'object') {
      throw new TypeError(`createScorer "${config.id}": "judge" must be { model, instructions }`);
    }
    assertModelInput(config.judge.model, `createScorer "${config.id}" judge`);
    if (typeof config.judge.instructions !== 'string') {
      throw new TypeError(`createScorer "${config.id}": judge.instructions must be a string`);
    }
  }
  const type = config.type;
  if (
    type !== undefined &&
    type !== 'agent' &&
    type !== 'trajectory' &&
    !(type !== null && typeof type === 'object' && 'input' in type && 'output' in type)
  ) {
    throw new TypeError(`createScorer "${config.id}": "type" must be 'agent', 'trajectory' or { input, output } schemas`);
  }
  return new Scorer<TId, TInput, TOutput>({
    ...config,
    name: config.name ?? config.id,
    description: config.description ?? '',
  });
}

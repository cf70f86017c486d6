/**
 * `agent-scorers`: the runtime. The registry helpers come from `./registry.js` (tiny, no model code);
 * everything that may call a model loads `ai` lazily, only when a judge is actually called.
 */
export { mergeScorers, isScorer, isScorerEntry } from './registry.js';
export type { ScorerLike, ScorerEntry, Sampling, ScorerRecord, ScorersFunction, ResolvedScorers } from './registry.js';
export type {
  LooseScorerEntry,
  LooseScorerRecord,
  LooseScorersFunction,
  LooseAgentScorers,
  FileEntry,
  ConfigEntry,
  ConfigFunction,
  AgentScorersFunction,
  EntriesOf,
  ResolvedEntries,
} from './types.js';
export type { Manifest, ManifestAgent, ManifestScorer } from '../core/manifest.js';
export type { DiagnosticCode } from '../core/codes.js';

export {
  createScorer,
  Scorer,
  ScorerRunError,
  notScorable,
  isNotScorable,
} from './scorer.js';
export type {
  Register,
  MastraCompatible,
  AddAgentScorersMastraToTsconfigTypes,
  InstallMastraCoreToUseAgentScorersMastraTypes,
  ScorerConfig,
  ScorerJudgeConfig,
  ScorerType,
  ScorerRun,
  ScorerRunResult,
  ScorerStepName,
  StepContext,
  StepDefinition,
  StepJudgeRequest,
  FunctionStep,
  PromptStep,
  JudgeExecution,
  StepUsage,
  NotScorable,
} from './scorer.js';

export { shouldSample } from './sampling.js';
export type { SamplingContext } from './sampling.js';

export { JudgeOutputError } from './judge/model.js';
export type { ModelInput, ModelSettings, LanguageModelLike, JudgeUsage } from './judge/model.js';

export { createAnswerRelevancyScorer } from './judge/relevancy.js';
export type { AnswerRelevancyConfig, AnswerRelevancyOptions, RelevancyVerdict, Verdict } from './judge/relevancy.js';

export { offlineJudge } from './judge/offline-judge.js';
export type { OfflineJudge } from './judge/offline-judge.js';

export { runEvals, RunEvalsError } from './evals/run-evals.js';
export type {
  RunEvalsConfig,
  RunEvalsResult,
  EvalItem,
  EvalTurn,
  EvalItemResult,
  EvalTurnItemResult,
  EvalItemScore,
  EvalScoreGroup,
  EvalRunConfig,
  EvalShard,
  EvalShardInfo,
  EvalTargetContext,
  AgentScorerConfig,
  WorkflowScorerConfig,
  TurnResult,
  NestedScores,
  ScoresOf,
  EvalScorers,
  EvalScorerList,
  EvalScorerRecord,
  EvalTarget,
  EvalVerdict,
  GateResult,
  ThresholdResult,
  ThresholdsFor,
  ScorerWithThreshold,
  ItemCompleteEvent,
} from './evals/run-evals.js';
export { InvalidThresholdError, validateThreshold, meetsThreshold } from './evals/thresholds.js';
export type { ThresholdConfig } from './evals/thresholds.js';

export { getUserMessageFromRunInput, getAssistantMessageFromRunOutput } from './judge/messages.js';

// The judge cache. Its node:fs use is loaded lazily, inside the functions that touch the file.
export { cachedJudge, judgeCacheMiddleware, JudgeCacheMiss, JUDGE_CACHE_ENV } from './judge/judge-cache.js';
export type { CachedJudge, JudgeCacheMode, JudgeCacheOptions, JudgeCacheRecord, JudgeCacheMiddleware, JudgeCacheNearest } from './judge/judge-cache.js';

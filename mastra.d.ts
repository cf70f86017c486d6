// Types only, for projects with @mastra/core installed: `compilerOptions.types: ["agent-scorers/mastra"]`
// (or `import type {} from 'agent-scorers/mastra'` in any file). With it, the scorers that this package's
// `createScorer` and `createAnswerRelevancyScorer` return are typed as Mastra's `MastraScorer` too, so
// they go into `new Agent({ scorers })` and Mastra's `runEvals` with no cast.
// `MastraScorer` has `#private` members, so nothing else could make them fit. Nothing changes at run
// time: they run inside Mastra as they are.
import type { MastraScorer } from '@mastra/core/evals';

declare module 'agent-scorers' {
  interface Register {
    mastraScorer: MastraScorer<any, any, any, any>;
  }
}

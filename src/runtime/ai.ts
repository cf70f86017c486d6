/**
 * `import 'agent-scorers/ai'`: puts the AI SDK's judge calls into this bundle, for code that runs
 * without node_modules (a Cloudflare Worker, a server bundled into one file). Elsewhere the runtime
 * imports `ai` from node_modules on the first judge call and nothing of it is bundled.
 *
 * Only the functions the judge adapter calls are imported, so a bundler keeps just what they need.
 */
import { asSchema, generateText, jsonSchema, NoObjectGeneratedError, Output } from 'ai';
import { BUNDLED_AI } from './judge/model.js';

(globalThis as { [BUNDLED_AI]?: unknown })[BUNDLED_AI] = { asSchema, generateText, jsonSchema, NoObjectGeneratedError, Output };

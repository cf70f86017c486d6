/**
 * Shared pieces of the port of Mastra's own `runEvals` tests (`packages/core/src/evals/run/` in
 * Mastra's repository). Every ported case runs twice, once per implementation in `IMPLEMENTATIONS`,
 * so a case that passes on `@mastra/core` proves the port is faithful and the same case on
 * `agent-scorers` says whether this package matches it.
 *
 * What replaces Mastra's internal test doubles:
 * - its `MockLanguageModelV2` agents and its AIMock HTTP server: the AI SDK's `MockLanguageModelV3`
 *   (`agentModel`), answering generate and stream calls alike, with tool calls where a test needs them;
 * - its `MockLanguageModelV1` (the legacy `generateLegacy` path, for AI SDK v4 models): `legacyModel`,
 *   a minimal model object of specification v1 written here, since the AI SDK 6 ships no v1 mock;
 * - its `InMemoryStore` and mocked storage objects: a real LibSQL file (`tmpStorage`), read back with
 *   Mastra's own store API (`savedScores`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '@mastra/core/agent';
import { runEvals as mastraRunEvals, type RunEvalsResult } from '@mastra/core/evals';
import { LibSQLStore } from '@mastra/libsql';
import { MockLanguageModelV3 } from 'ai/test';
import { simulateReadableStream } from 'ai';
import { runEvals } from '../../../src/runtime/index.js';
import { usage } from '../helpers.js';

/** Both implementations take any configuration here: the cases pass what Mastra's tests pass. */
export type RunEvalsUnderTest = (config: any) => Promise<RunEvalsResult>;

/**
 * The implementations every case runs on. Filter one with Vitest's `-t`, e.g.
 * `npx vitest run test/runtime/mastra-suite -t @mastra/core`.
 */
export const IMPLEMENTATIONS: Array<[string, RunEvalsUnderTest]> = [
  ['@mastra/core', mastraRunEvals as RunEvalsUnderTest],
  ['agent-scorers', runEvals as unknown as RunEvalsUnderTest],
];

// ─── Models ─────────────────────────────────────────────────────────────────────

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What a mock model answers to one call: text, or tool calls. */
export type Reply = string | { toolCalls: ToolCall[] };

const finishReason = (reply: Reply) =>
  typeof reply === 'string' ? { unified: 'stop' as const, raw: 'stop' } : { unified: 'tool-calls' as const, raw: 'tool_calls' };

/**
 * A `MockLanguageModelV3` answering generate and stream calls alike with `reply(options, index)`,
 * `index` counting every call of either kind from 0. It records each call (`doGenerateCalls`,
 * `doStreamCalls`); `modelCalls(model)` counts both.
 */
export function agentModel(reply: (options: any, index: number) => Reply) {
  let index = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options: any) => {
      const answer = reply(options, index++);
      return {
        content:
          typeof answer === 'string'
            ? [{ type: 'text' as const, text: answer }]
            : answer.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
        finishReason: finishReason(answer),
        usage: usage(10, 20),
        warnings: [],
      };
    },
    doStream: async (options: any) => {
      const answer = reply(options, index++);
      const body: any[] =
        typeof answer === 'string'
          ? [
              { type: 'text-start', id: 'text-1' },
              { type: 'text-delta', id: 'text-1', delta: answer },
              { type: 'text-end', id: 'text-1' },
            ]
          : answer.toolCalls.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) }));
      return {
        stream: simulateReadableStream({
          chunks: [{ type: 'stream-start', warnings: [] }, ...body, { type: 'finish', finishReason: finishReason(answer), usage: usage(10, 20) }] as any[],
        }),
      };
    },
  });
}

/** A model that always answers `text`. */
export const textModel = (text: string) => agentModel(() => text);

/** How many times a mock model was called (generate and stream). */
export const modelCalls = (model: MockLanguageModelV3) => model.doGenerateCalls.length + model.doStreamCalls.length;

/** Whether a call's prompt already holds a tool result (AIMock's `hasToolResult`). */
export const hasToolResult = (options: { prompt: Array<{ role: string }> }) => options.prompt.some((message) => message.role === 'tool');

/**
 * A model of the AI SDK's specification v1 (what AI SDK 4 providers return), answering `text`. Mastra
 * runs such a model through `agent.generateLegacy`; its own tests use `MockLanguageModelV1` for it.
 */
export function legacyModel(text: string) {
  const calls: unknown[] = [];
  return {
    specificationVersion: 'v1' as const,
    provider: 'mock-provider',
    modelId: 'mock-model-v1',
    defaultObjectGenerationMode: 'json' as const,
    calls,
    doGenerate: async (options: unknown) => {
      calls.push(options);
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason: 'stop' as const,
        usage: { promptTokens: 10, completionTokens: 20 },
        text,
      };
    },
    doStream: async () => {
      throw new Error('legacyModel answers generate calls only');
    },
  };
}

/** Mastra's `textAgent(response)` in its scenario tests: an Agent whose model always answers `response`. */
export function textAgent(response: string, id = 'text-agent') {
  const model = textModel(response);
  return { model, agent: new Agent({ id, name: 'Text Agent', instructions: 'Respond with the scripted text.', model }) };
}

// ─── Storage ────────────────────────────────────────────────────────────────────

const TMP = path.resolve(import.meta.dirname, '../../.tmp');

/**
 * Real LibSQL file stores under `test/.tmp/<label>-<unique>/`. `store()` opens a new file each call;
 * `cleanup()` (for `afterAll`) closes every store and removes the folder.
 */
export function tmpStorage(label: string) {
  let dir: string | undefined;
  const stores: LibSQLStore[] = [];
  let count = 0;
  return {
    store(): LibSQLStore {
      dir ??= (fs.mkdirSync(TMP, { recursive: true }), fs.mkdtempSync(path.join(TMP, `${label}-`)));
      const file = path.join(dir, `store-${++count}.db`);
      const store = new LibSQLStore({ id: `${label}-${count}`, url: `file:${file}` });
      stores.push(store);
      return store;
    },
    async cleanup() {
      for (const store of stores.splice(0)) await store.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}

/** The rows Mastra's own store API lists for a scorer (every page, oldest first). */
export async function savedScores(storage: LibSQLStore, scorerId: string): Promise<any[]> {
  const scores = await storage.getStore('scores');
  if (!scores) throw new Error('the LibSQL store has no scores domain');
  const rows: any[] = [];
  for (let page = 0; ; page++) {
    const { scores: batch, pagination } = await scores.listScoresByScorerId({ scorerId, pagination: { page, perPage: 100 } });
    rows.push(...batch);
    if (!pagination.hasMore) break;
  }
  return rows.sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
}

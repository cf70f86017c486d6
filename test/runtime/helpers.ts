import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

export const usage = (input = 10, output = 5) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A mock model answering successive calls with the given replies (an Error is thrown instead). */
export function scriptedModel(replies: Array<string | Error>) {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const reply = replies[next++];
      if (reply === undefined) throw new Error(`unexpected model call #${next}`);
      if (reply instanceof Error) throw reply;
      return {
        content: [{ type: 'text', text: reply }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(),
        warnings: [],
      };
    },
  });
}

/** A mock answering generate and stream calls alike (Mastra's agents and judges stream) with `answer(call)`; it records every call. */
export function answeringModel(answer: (call: any) => string) {
  return new MockLanguageModelV3({
    doGenerate: async (options: any) => ({
      content: [{ type: 'text', text: answer(options) }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(),
      warnings: [],
    }),
    doStream: async (options: any) => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: answer(options) },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage() },
        ] as any[],
      }),
    }),
  });
}

/** The text of the user message of a recorded call. */
export function userText(call: { prompt: any[] }): string {
  const user = call.prompt.filter((m) => m.role === 'user').at(-1);
  return user.content.map((p: any) => p.text ?? '').join('');
}

export function systemText(call: { prompt: any[] }): string | undefined {
  return call.prompt.find((m) => m.role === 'system')?.content;
}

export const statements = (...items: string[]) => JSON.stringify({ statements: items });
export const verdicts = (...items: Array<[string, string?] | { index?: number; result: string; reason?: string }>) =>
  JSON.stringify({
    results: items.map((item) => (Array.isArray(item) ? { result: item[0], reason: item[1] ?? 'r' } : item)),
  });

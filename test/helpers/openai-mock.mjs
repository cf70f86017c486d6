/**
 * Preloaded (`node --import`, through NODE_OPTIONS) into every process of a docs walk, so a page's
 * samples run unchanged, with their `'openai/...'` models and a made-up key, and no network: every
 * `fetch` to api.openai.com is answered here, deterministically, and every other request outside this
 * machine fails. Each request is appended as one JSON line to AGENT_SCORERS_WALK_LOG, so the walk can
 * assert what was asked and how often.
 *
 * Answers (OpenAI's Responses and Chat Completions APIs, not streamed):
 * - a request with a JSON schema (a judge step) gets a value of that schema: one item per array, a
 *   `yes` for verdict-like fields, `1` for numbers, `true` for booleans;
 * - any other request (an agent under test) gets WALK_ANSWER, a short weather answer.
 */
import fs from 'node:fs';

export const WALK_ANSWER = 'It is 21 °C and sunny in Paris today.';
const LOG = process.env.AGENT_SCORERS_WALK_LOG;
const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const original = globalThis.fetch;

function log(entry) {
  if (LOG) fs.appendFileSync(LOG, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

/** A value of `schema`, small and deterministic; `key` is the property it is for. */
function fake(schema, key = '') {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum)) return schema.enum.includes('yes') ? 'yes' : schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return fake(union.find((s) => s.type !== 'null') ?? union[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out = {};
      for (const [name, sub] of Object.entries(schema.properties ?? {})) out[name] = fake(sub, name);
      return out;
    }
    case 'array':
      return [fake(schema.items, key)];
    case 'string':
      return /verdict|result|answer|label|decision/i.test(key) ? 'yes' : /reason|explanation/i.test(key) ? 'The answer addresses the question.' : WALK_ANSWER;
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

const usage = { input_tokens: 20, output_tokens: 10, total_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };

function answer(path, body) {
  const schema = body.text?.format?.type === 'json_schema' ? body.text.format.schema
    : body.response_format?.type === 'json_schema' ? body.response_format.json_schema?.schema
    : undefined;
  const text = schema ? JSON.stringify(fake(schema)) : body.response_format?.type === 'json_object' ? '{}' : WALK_ANSWER;
  if (path.endsWith('/responses')) {
    return {
      id: 'resp_walk', object: 'response', created_at: 1767225600, model: body.model, status: 'completed',
      output: [{ type: 'message', id: 'msg_walk', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
      usage, incomplete_details: null,
    };
  }
  return {
    id: 'chatcmpl_walk', object: 'chat.completion', created: 1767225600, model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  };
}

/** The text of a request's messages, for the log: what the walk asserts prompts on. */
function promptText(body) {
  const messages = body.input ?? body.messages ?? [];
  return (Array.isArray(messages) ? messages : [messages])
    .map((m) => (typeof m === 'string' ? m : typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(' ')))
    .join('\n');
}

globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url);
  if (LOCAL.has(url.hostname)) return original(input, init);
  if (url.hostname !== 'api.openai.com') {
    log({ blocked: url.href });
    throw new TypeError(`fetch failed: the docs walk has no network (${url.href})`);
  }
  const raw = init?.body ?? (input instanceof Request ? await input.clone().text() : '{}');
  const body = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw));
  const schema = Boolean(body.text?.format?.type === 'json_schema' || body.response_format);
  log({ path: url.pathname, model: body.model, schema, stream: Boolean(body.stream), prompt: promptText(body).slice(0, 2000) });
  if (body.stream) {
    return new Response(JSON.stringify({ error: { message: 'the docs walk answers only requests that are not streamed' } }), { status: 400, headers: { 'content-type': 'application/json' } });
  }
  return new Response(JSON.stringify(answer(url.pathname, body)), { status: 200, headers: { 'content-type': 'application/json' } });
};

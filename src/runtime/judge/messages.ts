/**
 * Reading text out of the input/output shapes that Mastra hands to scorers: plain strings, message
 * arrays (`{ role, content }` with string content or content parts), `{ text }`, AI SDK content parts,
 * Mastra's stored messages (`{ role, content: { format: 2, parts, content? } }`) and the agent run
 * input (`{ inputMessages, rememberedMessages, systemMessages, taggedSystemMessages }`).
 */

type AnyRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is AnyRecord => value !== null && typeof value === 'object';

/** Mastra stores signal messages with `role: 'signal'` and the real role in metadata or `type`. */
function roleOf(message: AnyRecord): string | undefined {
  if (message.role !== 'signal') return typeof message.role === 'string' ? message.role : undefined;
  const content = isRecord(message.content) ? message.content : undefined;
  const signal = content && isRecord(content.metadata) && isRecord(content.metadata.signal) ? content.metadata.signal : undefined;
  const candidates = [signal?.tagName, signal?.type, message.type];
  return candidates.find((value): value is string => typeof value === 'string');
}

/** Text of a list of content parts: the `text` parts, joined by newlines. */
function textOfParts(parts: unknown[]): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The text of one message or message-like value; '' when it has none. */
function textOfMessage(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return textOfParts(value);
  if (!isRecord(value)) return '';
  const content = value.content;
  if (typeof content === 'string' && content !== '') return content;
  if (Array.isArray(content)) {
    const text = textOfParts(content);
    if (text !== '') return text;
  }
  if (isRecord(content)) {
    // Mastra's stored format: `content.content` is the flattened text when present; else its parts.
    if (typeof content.content === 'string' && content.content !== '') return content.content;
    if (Array.isArray(content.parts)) {
      const text = textOfParts(content.parts);
      if (text !== '') return text;
    }
    if (typeof content.text === 'string') return content.text;
  }
  if (typeof value.text === 'string' && value.text !== '') return value.text;
  if (Array.isArray(value.parts)) return textOfParts(value.parts);
  return '';
}

function messagesWithRole(messages: unknown, role: string): AnyRecord[] {
  return Array.isArray(messages) ? messages.filter((m): m is AnyRecord => isRecord(m) && roleOf(m) === role) : [];
}

/**
 * The first user message's text of a scorer run input, or undefined when there is none.
 * Accepts a string, a message array, the agent run input (`inputMessages`), `{ messages }`,
 * `{ prompt }`, `{ text }`, `{ content }` and `{ input }`.
 */
export function getUserMessageFromRunInput(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    const first = messagesWithRole(input, 'user')[0];
    if (first) return textOfMessage(first);
    // A bare list of strings or content parts with no roles is the user's input.
    if (input.every((item) => typeof item === 'string' || (isRecord(item) && item.role === undefined))) {
      return textOfParts(input) || undefined;
    }
    return undefined;
  }
  if (!isRecord(input)) return undefined;
  for (const list of [input.inputMessages, input.messages]) {
    const first = messagesWithRole(list, 'user')[0];
    if (first) return textOfMessage(first);
  }
  if (typeof input.prompt === 'string') return input.prompt;
  if (input.role === undefined || input.role === 'user') {
    const text = textOfMessage(input);
    if (text !== '') return text;
  }
  if (input.input !== undefined && input.input !== input) return getUserMessageFromRunInput(input.input);
  return undefined;
}

/**
 * The last assistant message's text of a scorer run output, or undefined when there is none.
 * Accepts a string, a message array (the last assistant message with text wins), `{ text }`,
 * `{ role: 'assistant', content }`, content parts and Mastra's stored messages.
 */
export function getAssistantMessageFromRunOutput(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const assistants = messagesWithRole(output, 'assistant');
    for (let i = assistants.length - 1; i >= 0; i--) {
      const text = textOfMessage(assistants[i]);
      if (text !== '') return text;
    }
    if (assistants.length > 0) return '';
    if (output.every((item) => typeof item === 'string' || (isRecord(item) && item.role === undefined))) {
      return textOfParts(output);
    }
    return undefined;
  }
  if (!isRecord(output)) return undefined;
  if (output.role !== undefined && output.role !== 'assistant') return undefined;
  if (Array.isArray(output.messages)) return getAssistantMessageFromRunOutput(output.messages);
  return textOfMessage(output);
}

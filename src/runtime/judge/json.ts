/**
 * Lenient JSON reading for judge replies, and a small JSON Schema checker for the schemas this
 * package writes itself (so structured output works without a schema library at run time).
 */

export type LenientParse = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Reads the JSON value in a model reply that may wrap it in a code fence or in prose
 * ("Sure! ```json {...}``` Hope this helps"), or end it with a trailing comma before `}`/`]`.
 * Tries, in order: the whole text, each fenced block, then each balanced `{...}` / `[...]` span.
 */
export function parseJsonLenient(text: string): LenientParse {
  const values = parseJsonCandidates(text);
  if (values.ok && values.value.length > 0) return { ok: true, value: values.value[0] };
  return values.ok ? { ok: false, error: `no JSON value could be read from the reply: ${preview(text.trim())}` } : values;
}

/**
 * Every JSON value readable from the reply, in the order `parseJsonLenient` tries them, so a caller
 * with a schema can take the first that fits ("For statements [1, 2]: {...}" holds two).
 */
export function parseJsonCandidates(text: string): { ok: true; value: unknown[] } | { ok: false; error: string } {
  if (typeof text !== 'string') return { ok: false, error: 'the reply is not text' };
  const trimmed = text.trim().replace(/^\uFEFF/, '');
  if (trimmed === '') return { ok: false, error: 'the reply is empty' };

  const candidates: string[] = [trimmed];
  for (const match of trimmed.matchAll(/```[a-zA-Z0-9_-]*[^\S\n]*\n?([\s\S]*?)```/g)) candidates.push(match[1].trim());
  for (const span of balancedSpans(trimmed)) candidates.push(span);

  const values: unknown[] = [];
  for (const candidate of candidates) {
    const parsed = tryParse(candidate);
    if (parsed.ok) values.push(parsed.value);
  }
  return { ok: true, value: values };
}

function tryParse(candidate: string): LenientParse {
  if (candidate === '') return { ok: false, error: 'empty' };
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch {
    // Trailing commas are the most common near-miss; strip them outside strings and retry once.
    const repaired = stripTrailingCommas(candidate);
    if (repaired !== candidate) {
      try {
        return { ok: true, value: JSON.parse(repaired) };
      } catch {
        /* fall through */
      }
    }
    return { ok: false, error: 'invalid JSON' };
  }
}

/** Each top-level balanced `{...}` or `[...]` span, string-aware, in order of appearance. */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const end = matchingClose(text, start);
    if (end !== -1) {
      spans.push(text.slice(start, end + 1));
      start = end;
    }
    if (spans.length >= 8) break;
  }
  return spans;
}

function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function stripTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      const rest = text.slice(i + 1).trimStart();
      if (rest.startsWith('}') || rest.startsWith(']')) continue;
    }
    out += ch;
  }
  return out;
}

export function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 3)}...` : flat);
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  [key: string]: unknown;
};

/**
 * Checks `value` against the subset of JSON Schema this package's own step schemas use
 * (`type`, `properties`, `required`, `items`, `enum`, `minimum`, `maximum`). Returns null when it
 * conforms, else where and how it does not. Unknown keywords are ignored (never rejected).
 */
export function checkJsonSchema(schema: JsonSchema, value: unknown, path = 'reply'): string | null {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.enum && !schema.enum.some((option) => Object.is(option, value))) {
    return `${path} must be one of ${JSON.stringify(schema.enum)}`;
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return `${path} must be ${types.join(' or ')}, got ${kindOf(value)}`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `${path} must be >= ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `${path} must be <= ${schema.maximum}`;
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkJsonSchema(schema.items, value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      // Strict structured output spells "optional" as required-but-nullable: an absent key is null.
      if (!(key in record) && !allowsNull(schema.properties?.[key])) return `${path}.${key} is missing`;
    }
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (key in record && record[key] !== undefined) {
        const problem = checkJsonSchema(sub, record[key], `${path}.${key}`);
        if (problem) return problem;
      }
    }
  }
  return null;
}

function allowsNull(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(allowsNull));
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

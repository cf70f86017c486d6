/** The answer-relevancy scorer's prompts and step schemas (this project's own wording). */

export const RELEVANCY_INSTRUCTIONS = `You assess whether an assistant's answer is relevant to what the user asked.
Relevance means the answer addresses the user's question; factual correctness is not your concern.
Always reply in exactly the format that is asked for.`;

const fence = (text: string) => `<<<\n${text}\n>>>`;

export function statementsPrompt(output: string): string {
  return `Split the assistant answer below into standalone statements, so that each one can be judged on its own.

Rules:
- One statement per claim, fact, instruction or suggestion; keep each claim together with the qualifiers it needs to make sense.
- Keep the answer's own wording; do not add, correct, merge or summarise content.
- A one-word or one-phrase answer is a single statement. An error message is a single statement.

Reply with JSON only, in this form: {"statements": ["first statement", "second statement"]}

Answer:
${fence(output)}`;
}

export function verdictsPrompt(input: string, statements: readonly string[]): string {
  const numbered = statements.map((statement, i) => `${i + 1}. ${statement}`).join('\n');
  return `The user asked:
${fence(input)}

Statements taken from the assistant's answer:
${numbered}

For each numbered statement, decide whether it helps answer what the user asked:
- "yes": it answers the question, or gives information the question asks for.
- "unsure": it is on the question's topic or partly useful, but does not answer it on its own.
- "no": it has nothing to do with the question.
Judge relevance only, not truth.

Reply with JSON only: exactly ${statements.length} verdict${statements.length === 1 ? '' : 's'}, one per statement, in order, each with the statement's number:
{"results": [{"index": 1, "result": "yes", "reason": "one short sentence"}]}`;
}

export function reasonPrompt(args: {
  input: string;
  output: string;
  score: number;
  scale: number;
  statements: readonly string[];
  results: ReadonlyArray<{ result: string; reason: string }>;
}): string {
  const lines = args.results
    .map((verdict, i) => `${i + 1}. [${verdict.result}] ${args.statements[i] ?? ''}${verdict.reason ? ` (${verdict.reason})` : ''}`)
    .join('\n');
  return `An assistant's answer received a relevance score of ${args.score} on a scale from 0 to ${args.scale}.

The user asked:
${fence(args.input)}

The assistant answered:
${fence(args.output)}

Verdict per statement of the answer:
${lines}

In one or two sentences, explain the score: say which parts of the answer address the question and which do not.
Start with "The score is ${args.score} because". Do not recompute or dispute the score.`;
}

// Shaped for providers' strict structured output (OpenAI's default through @ai-sdk/openai): every
// object closed with `additionalProperties: false` and every property required; what may be left out
// is nullable, which our own validation reads as optional.
export const STATEMENTS_SCHEMA = {
  type: 'object',
  properties: { statements: { type: 'array', items: { type: 'string' } } },
  required: ['statements'],
  additionalProperties: false,
} as const;

export const VERDICTS_SCHEMA = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          // Weaker judges write "1" or omit it: a string or null is accepted and read leniently.
          index: { anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'null' }] },
          result: { type: 'string' },
          reason: { type: ['string', 'null'] },
        },
        required: ['index', 'result', 'reason'],
        additionalProperties: false,
      },
    },
  },
  required: ['results'],
  additionalProperties: false,
} as const;

/** Task names sent with each call (`providerOptions['agent-scorers'].task`); the offline judge reads them. */
export const RELEVANCY_TASKS = {
  statements: 'answer-relevancy.statements',
  verdicts: 'answer-relevancy.verdicts',
  reason: 'answer-relevancy.reason',
} as const;

/**
 * One multi-turn eval: each support conversation in conversations.json is sent turn by turn, as a
 * user would chat. The first reply must show empathy (a gate on turn 0), the second must say what
 * happens next (a threshold on turn 1), and the whole conversation is scored too. The target answers
 * from the file; point it at a Mastra Agent with memory to evaluate it live.
 */
import { runEvals, type RunEvalsResult, type ScorerEntry } from 'agent-scorers';
import conversations from '../mastra/agents/support/conversations.json';

interface Turn {
  question: string;
  answer: string;
}

export async function evalConversations(support: Readonly<Record<string, ScorerEntry>>): Promise<RunEvalsResult> {
  const answers = new Map<string, string>(conversations.flatMap((c) => c.turns.map((t: Turn): [string, string] => [t.question, t.answer])));
  return runEvals({
    data: conversations.map((c) => ({
      id: c.id,
      turns: c.turns.map((t: Turn, index) => ({
        input: t.question,
        ...(index === 0 ? { gates: [support.empathy!.scorer] } : {}),
        ...(index === 1 ? { scorers: [{ scorer: support['next-step']!.scorer, threshold: 0.75 }] } : {}),
      })),
    })),
    scorers: [support['next-step']!.scorer],
    target: (question: string) => answers.get(question) ?? '',
  });
}

/** `turn 0: gate support-empathy 0.50 (missed)` lines, one per per-turn assertion. */
export function describeTurns(result: RunEvalsResult): string[] {
  return (result.turnResults ?? []).flatMap((turn) => [
    ...(turn.gateResults ?? []).map((g) => `turn ${turn.index}: gate ${g.id} ${g.score.toFixed(2)} (${g.passed ? 'passed' : 'missed'})`),
    ...(turn.thresholdResults ?? []).map((t) => `turn ${turn.index}: ${t.id} ${t.averageScore.toFixed(2)} ${t.passed ? '>=' : '<'} ${JSON.stringify(t.threshold)}`),
  ]);
}

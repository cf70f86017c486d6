/**
 * The playground's server program: loads the registry that agent-scorers compiled from
 * src/mastra/agents/**, runs every agent's scorers over that agent's dataset with runEvals and
 * prints one row per scorer, then writes each agent's HTML and JUnit reports (and its result as
 * JSON, which `agent-scorers report` reads) to dist/reports/<agent>/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import registry, { manifest, resolveScorers } from 'virtual:agent-scorers';
import { runEvals, type ScorerEntry } from 'agent-scorers';
import { evalReport } from 'agent-scorers/report';
import { judgeDescription } from './mastra/judge';
import { formatMean, formatSampling, formatTable, scaleOf } from './eval/table';
import { describeTurns, evalConversations } from './eval/conversation';
import { recordExperiment } from './eval/experiment';

interface Example {
  question: string;
  answer: string;
}

// Each agent folder holds a dataset.json; the agent key is the folder path below agents/, with
// `subagents/` dropped (agents/weather/subagents/planner → weather/planner), as in the registry.
const datasets: Record<string, Example[]> = {};
const files = import.meta.glob<Example[]>('./mastra/agents/**/dataset.json', { eager: true, import: 'default' });
for (const [file, examples] of Object.entries(files)) {
  const key = file.replace(/^\.\/mastra\/agents\//, '').replace(/\/dataset\.json$/, '').split('/subagents/').join('/');
  datasets[key] = examples;
}

// What a request to a function-form agent carries (Mastra passes a RequestContext, a Map-like).
const requestContext = new Map([['tier', 'premium']]);

// What must hold for an agent, as a CI job would gate on it: a minimum mean per scorer key.
const thresholds: Partial<Record<string, Record<string, number>>> = {
  weather: { 'answer-relevancy': 0.6, units: 0.5 },
  'weather/planner': { brevity: 0.5 },
};

async function main(): Promise<void> {
  console.log(`\nagent-scorers playground: ${Object.keys(registry).length} agents in the registry`);
  console.log(`judge: ${judgeDescription}\n`);

  const rows: string[][] = [];
  const lowest: string[] = [];
  const reports: string[] = [];
  const verdicts: string[] = [];
  const reportsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reports');
  // The plugin's `dts` option writes src/agent-scorers.d.ts, so agent keys are typed literally.
  for (const agent of Object.keys(registry) as Array<keyof typeof registry>) {
    const value = registry[agent];
    const functionForm = typeof value === 'function';
    // resolveScorers calls the function form with the request context; records come back as they are.
    const scorers: Readonly<Record<string, ScorerEntry>> = await resolveScorers(agent, { requestContext });
    const data = datasets[agent];
    if (!data || data.length === 0) throw new Error(`agent ${JSON.stringify(agent)} has no dataset.json`);
    const keys = Object.keys(scorers);
    if (keys.length === 0) continue;

    const scored = new Map<string, number>();
    let worst: { index: number; score: number; reason: string } | null = null;
    const result = await runEvals({
      data: data.map((example) => ({ input: example.question, answer: example.answer })),
      scorers,
      thresholds: thresholds[agent],
      // The "agent" answers from the dataset; point `target` at a real Mastra agent to evaluate it live.
      target: (_input, { item }) => item.answer,
      onItemComplete: ({ index, scorerResults }) => {
        for (const [id, run] of Object.entries(scorerResults)) {
          if (typeof run?.score === 'number') scored.set(id, (scored.get(id) ?? 0) + 1);
        }
        const relevancy = scorerResults['answer-relevancy-scorer'];
        if (relevancy && (worst === null || relevancy.score < worst.score)) worst = { index, score: relevancy.score, reason: relevancy.reason };
      },
    });

    if (result.verdict !== undefined) {
      const checks = (result.thresholdResults ?? []).map((t) => `${t.id} ${t.averageScore.toFixed(2)} ${t.passed ? '>=' : '<'} ${JSON.stringify(t.threshold)}`);
      verdicts.push(`  ${agent}: ${result.verdict} (${checks.join('; ')})`);
    }
    const outDir = path.join(reportsDir, agent);
    const { files } = evalReport(result, { outDir, title: `Playground eval: ${agent}` });
    fs.writeFileSync(path.join(outDir, 'result.json'), JSON.stringify(result, null, 2));
    reports.push(`  ${agent}: ${path.relative(process.cwd(), files!.html!)}, ${path.relative(process.cwd(), files!.junit!)}`);

    for (const key of keys) {
      const entry = scorers[key];
      const id = entry.scorer.id;
      const source = functionForm ? 'config()' : (manifest.agents[agent]?.scorers[key]?.source ?? 'config');
      const mean = result.scores[id];
      rows.push([agent, key, source, formatSampling(entry.sampling), formatMean(mean, scaleOf(entry.scorer)), String(scored.get(id) ?? 0)]);
    }
    if (worst !== null) {
      const { index, score, reason } = worst as { index: number; score: number; reason: string };
      lowest.push(`  ${agent}, item ${index} (${JSON.stringify(data[index].question)}): ${score}\n    ${reason}`);
    }
  }

  console.log(formatTable(['agent', 'scorer', 'source', 'sampling', 'mean / scale', 'items'], rows, new Set([4, 5])));
  console.log('\nsource: file = scorers/<key>.ts; config = config.scorers record; config() = config.scorers function,');
  console.log(`called with requestContext ${JSON.stringify(Object.fromEntries(requestContext))}. Evals run every scorer on every item;`);
  console.log('sampling applies in production (Mastra runs a ratio scorer on that share of traces).');
  if (lowest.length > 0) console.log(`\nlowest answer relevancy per agent:\n${lowest.join('\n')}`);
  if (verdicts.length > 0) console.log(`\nverdicts ("failed": a gate missed; "scored": a threshold missed; a CI job fails on either as it chooses):\n${verdicts.join('\n')}`);
  console.log(`\nreports (HTML, JUnit; open the HTML in a browser, or rebuild both with \`agent-scorers report <agent>/result.json\`):\n${reports.join('\n')}`);

  // A multi-turn eval: support conversations, judged per turn and as a whole.
  const conversation = await evalConversations(await resolveScorers('support', { requestContext }));
  const conversationDir = path.join(reportsDir, 'support-conversations');
  const { files: conversationFiles } = evalReport(conversation, { outDir: conversationDir, title: 'Playground eval: support conversations' });
  fs.writeFileSync(path.join(conversationDir, 'result.json'), JSON.stringify(conversation, null, 2));
  console.log(`\nmulti-turn eval (support conversations, ${conversation.summary.totalItems} items, each turn judged on its own): ${conversation.verdict}`);
  console.log(describeTurns(conversation).map((line) => `  ${line}`).join('\n'));
  console.log(`  report: ${path.relative(process.cwd(), conversationFiles!.html!)}`);

  // A Mastra experiment, recorded in a LibSQL file that Mastra Studio reads.
  const storeFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mastra.db');
  const experiment = await recordExperiment(await resolveScorers('weather', { requestContext }), storeFile);
  console.log(`\nMastra experiment ${experiment.result.experiment!.id} of dataset "weather questions" (${experiment.result.items.length} items, version ${experiment.result.dataset!.version}), in ${path.relative(process.cwd(), storeFile)}`);
  console.log('  to open it in Mastra Studio: give your Mastra instance this storage, then run `npx mastra dev`,');
  console.log('  open http://localhost:4111, Datasets, "weather questions", Experiments:');
  console.log(`    new LibSQLStore({ id: 'mastra', url: 'file:${storeFile}' })`);

  const manifestFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'agent-scorers.manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`the build did not emit ${manifestFile}`);
  const warnings = manifest.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code);
  console.log(`\nmanifest: ${path.relative(process.cwd(), manifestFile)} (build warnings: ${warnings.join(', ') || 'none'})`);
}

main().catch((error: unknown) => {
  // One readable line instead of a stack: the usual failures are a missing key, no network or a
  // scorer that throws, and runEvals' message names the item and the scorer.
  console.error(`\nplayground failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

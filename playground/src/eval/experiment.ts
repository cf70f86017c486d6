/**
 * One Mastra experiment: the weather questions kept as a Mastra dataset in a LibSQL file, run with
 * runEvals and recorded as an experiment of that dataset, where Mastra Studio lists it (Datasets, then
 * the dataset's Experiments tab) and compares it with any other run.
 */
import fs from 'node:fs';
import { Mastra } from '@mastra/core/mastra';
import { LibSQLStore } from '@mastra/libsql';
import { runEvals, type RunEvalsResult, type ScorerEntry } from 'agent-scorers';
import examples from '../mastra/agents/weather/dataset.json';

export async function recordExperiment(weather: Readonly<Record<string, ScorerEntry>>, file: string): Promise<{ result: RunEvalsResult; dataset: string }> {
  // A fresh file on every run, so the playground shows exactly one experiment.
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  const storage = new LibSQLStore({ id: 'playground', url: `file:${file}` });
  try {
    const mastra = new Mastra({ storage, logger: false });
    const dataset = await mastra.datasets.create({ name: 'weather questions' });
    await dataset.addItems({ items: examples.map((example) => ({ input: example.question, groundTruth: example.answer })) });
    const answers = new Map(examples.map((example) => [example.question, example.answer]));
    const result = await runEvals({
      data: dataset,
      // The "agent" answers from the file; pass your Mastra Agent to record a live run.
      target: function weatherAgent(question: string) {
        return answers.get(question) ?? '';
      },
      scorers: Object.values(weather).map((entry) => entry.scorer),
      experiment: { name: 'playground run' },
    });
    return { result, dataset: dataset.id };
  } finally {
    await storage.close();
  }
}

/**
 * Every judge prompt the docs show replays against a real Mastra Agent: the samples are read from the
 * pages themselves (so a page cannot drift from what is tested), written to a folder as the reader
 * writes them, their scorers run through `runEvals` on an Agent twice, and the second run, in replay
 * mode as in CI, calls the judge zero times. The Agent writes new message ids and times on every run,
 * which is what a prompt quoting `run.output` whole never replays.
 *
 * What is changed in the samples, and only this: `agent-scorers` is this repository's source, a
 * `'openai/...'` judge is a mock (wrapped in `cachedJudge` where the sample gives the bare string), and
 * the cache file is a temporary one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from '@mastra/core/agent';
import { createScorer as createMastraScorer } from '@mastra/core/evals';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedJudge, runEvals } from '../../src/runtime/index.js';
import { extractSamples, samplePages, type Sample } from '../helpers/samples.js';
import { answeringModel, userText } from './helpers.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const STORES = Symbol.for('agent-scorers.judge-cache.stores');
const newProcessState = () => (globalThis as any)[STORES].clear();
const work = path.join(REPO, 'test/.tmp', `judge-cache-docs-${process.pid}-${Date.now()}`);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** What a judge sample is: it builds a prompt, makes a judge or a scorer judged by one (the docs call it `judge`); an `offlineJudge()` is no model. */
const isJudgeSample = (code: string) => /createPrompt|cachedJudge\(|'openai\/|model: judge\b/.test(code);
/** What the test can import: the package, Mastra, zod, and the page's own files. */
const importable = (code: string) =>
  [...code.matchAll(/from '([^']+)'/g)].every(([, spec]) => spec === 'agent-scorers' || spec === 'zod' || spec.startsWith('@mastra/') || spec.startsWith('.'));
const isTestFile = (sample: Sample) => /from 'vitest'/.test(sample.code);

/** The smallest value a JSON schema accepts (first enum value, one item per array), for prompts this file has no answer for. */
function fromSchema(schema: any): unknown {
  if (Array.isArray(schema?.enum)) return schema.enum[0];
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'object') return Object.fromEntries(Object.entries<any>(schema.properties ?? {}).map(([name, value]) => [name, fromSchema(value)]));
  if (type === 'array') return [fromSchema(schema.items)];
  if (type === 'boolean') return true;
  if (type === 'number' || type === 'integer') return Math.max(1, Number(schema.minimum ?? 1));
  return 'x';
}

/**
 * A judge that answers the prompts the docs' scorers send by what they ask, so their scores mean
 * something; a structured prompt it does not know gets the smallest reply its schema accepts (given as
 * the call's response format, or in the text as Mastra appends it), a plain one a sentence.
 */
function docsJudge() {
  return answeringModel((call) => {
    const ask = userText(call).trim();
    if (/standalone statements|^Given the text/.test(ask)) return JSON.stringify({ statements: ['Paris is the capital of France.'] });
    if (/^Evaluate each statement|Statements taken from/.test(ask)) return JSON.stringify({ results: [{ index: 1, result: 'yes', reason: 'It answers.' }] });
    if (ask.startsWith('Is this answer polite?')) return JSON.stringify({ polite: ask.includes('Paris') });
    if (ask.startsWith('List the impolite phrases in:')) return JSON.stringify({ impolite: ask.includes('Paris') ? [] : ['unexpected answer'] });
    if (ask.startsWith('Question:')) return JSON.stringify({ answers: ask.includes('Paris') });
    const inText = /matching this schema:\s*(\{[\s\S]*\})\s*Return only valid JSON/.exec(ask)?.[1];
    const schema = call.responseFormat?.schema ?? (inText ? JSON.parse(inText) : undefined);
    return schema ? JSON.stringify(fromSchema(schema)) : 'The answer names the capital.';
  });
}

/** Each page's samples written as the reader writes them; returns the files that hold judge samples. */
function writeSamples(file: string): { entries: Array<{ sample: Sample; path: string }>; prompts: string[] } {
  const src = pathToFileURL(path.join(REPO, 'src/runtime/index.ts')).href;
  const entries: Array<{ sample: Sample; path: string }> = [];
  const prompts: string[] = [];
  for (const page of samplePages(REPO)) {
    const samples = extractSamples(page, fs.readFileSync(path.join(REPO, page), 'utf8'));
    if (!samples.some((s) => isJudgeSample(s.code))) continue;
    const dir = path.join(work, page.replace(/[/.]/g, '_'));
    for (const sample of samples) {
      for (const line of sample.code.split('\n')) if (/createPrompt: \(\{ run/.test(line)) prompts.push(line.trim());
      const code = sample.code
        .replaceAll("from 'agent-scorers'", `from '${src}'`)
        .replace(/cachedJudge\('openai\/[^']+'/g, 'cachedJudge((globalThis as any).__docsJudge.model')
        .replace(/'openai\/[^']+'/g, '(globalThis as any).__docsJudge.cached')
        .replaceAll("'evals/judge-cache.jsonl'", JSON.stringify(file))
        // A page's Mastra instance keeps its LibSQL file in the reader's project, here the test's folder.
        .replaceAll("'file:./mastra.db'", JSON.stringify(`file:${path.join(work, 'mastra.db')}`));
      const target = path.join(dir, sample.file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, code);
      // A file the page gives again (a later version of it) replaces the earlier one.
      const kept = entries.findIndex((entry) => entry.path === target);
      if (kept >= 0) entries.splice(kept, 1);
      if (isJudgeSample(sample.code) && importable(sample.code) && !isTestFile(sample)) entries.push({ sample, path: target });
    }
  }
  return { entries, prompts };
}

const isScorer = (value: any) => value !== null && typeof value === 'object' && typeof value.run === 'function' && typeof value.id === 'string';

describe("the docs' judge prompts against a Mastra Agent", () => {
  it('replay with zero judge calls on a second run, though every run gives the answer new message ids and times', async () => {
    const file = path.join(work, 'judge-cache.jsonl');
    const model = docsJudge();
    (globalThis as any).__docsJudge = { model, cached: cachedJudge(model, { file }) };
    const { entries, prompts } = writeSamples(file);

    const scorers: Array<{ scorer: any; where: string }> = [];
    for (const { sample, path: modulePath } of entries) {
      const module = await import(pathToFileURL(modulePath).href);
      for (const [name, value] of Object.entries(module)) {
        if (isScorer(value) && !scorers.some((s) => s.scorer === value)) scorers.push({ scorer: value, where: `${sample.page}:${sample.line} ${name}` });
      }
    }
    // The pages' judge samples were found: this package's, Mastra's createScorer and @mastra/evals' prebuilt scorer.
    const ids = scorers.map((s) => s.scorer.id);
    expect(ids).toEqual(expect.arrayContaining(['politeness', 'polite', 'answers-the-question', 'answer-relevancy-scorer']));
    expect(scorers.some((s) => s.where.startsWith('docs/guide/judge-cache.md') && s.scorer.id === 'answer-relevancy-scorer' && typeof s.scorer.getSteps === 'function')).toBe(true);
    // A prompt that reads `run` in a sample this test does not run (a test file's) is one it runs.
    const ran = new Set(entries.flatMap(({ sample }) => sample.code.split('\n').map((line) => line.trim())));
    expect(prompts.length).toBeGreaterThan(3);
    expect(prompts.filter((line) => !ran.has(line))).toEqual([]);

    // What the Agent gives the scorers, to show the two runs differ where a prompt must not look.
    const outputs: any[] = [];
    const watch = createMastraScorer({ id: 'watch', description: 'keeps run.output' }).generateScore(({ run }) => {
      outputs.push(run.output);
      return 1;
    });
    const data = [{ input: 'What is the capital of France?' }, { input: 'Which city is the capital of France?' }];
    const evalRun = async () => {
      const results = [];
      for (const { scorer } of scorers) {
        const agent = new Agent({ id: 'geo', name: 'geo', instructions: 'Answer briefly.', model: answeringModel(() => 'Paris is the capital of France.') });
        results.push(await runEvals({ data, target: agent, scorers: [scorer, watch] }));
      }
      return results;
    };

    const recorded = await evalRun();
    const paid = model.doGenerateCalls.length + model.doStreamCalls.length;
    expect(paid).toBeGreaterThan(scorers.length);
    // Each score says whether its replies came from the file; the same request of an earlier scorer or item already did.
    const firstScores = recorded.flatMap((result, i) => result.items.map((item: any) => item.scores[scorers[i]!.scorer.id]));
    for (const score of firstScores) expect(score).toMatchObject({ score: expect.any(Number), cached: expect.any(Boolean) });
    expect(firstScores.some((score) => score.cached === false)).toBe(true);

    newProcessState();
    const before = process.env.AGENT_SCORERS_JUDGE_CACHE;
    process.env.AGENT_SCORERS_JUDGE_CACHE = 'replay';
    let replayed;
    try {
      replayed = await evalRun();
    } finally {
      if (before === undefined) delete process.env.AGENT_SCORERS_JUDGE_CACHE;
      else process.env.AGENT_SCORERS_JUDGE_CACHE = before;
    }
    expect(model.doGenerateCalls.length + model.doStreamCalls.length - paid).toBe(0);
    for (const [i, result] of replayed.entries()) {
      const id = scorers[i]!.scorer.id;
      result.items.forEach((item: any, n: number) => {
        expect(item.scores[id], scorers[i]!.where).toMatchObject({ cached: true, score: recorded[i]!.items[n]!.scores[id]!.score });
      });
    }
    // The answers were word for word the same, their message ids and times were not.
    const [first, second] = [outputs[0][0], outputs[outputs.length / 2][0]];
    expect(second.content.content).toBe(first.content.content);
    expect(second.id).not.toBe(first.id);
    expect(second.createdAt).not.toEqual(first.createdAt);
  });
});

/**
 * Differential test against Mastra 1.71: each agent's resolved scorers in the built registry (keys,
 * order, the very scorer objects, sampling) equal what Mastra's own `assembleAgentFromFsEntry`, fed
 * the same config and scorer modules, gives through `await agent.listScorers()`; and the merge
 * warnings (build time plus run time) are Mastra's, apart from the code, the file and the folder
 * being named relative to the project root.
 */
import { assembleAgentFromFsEntry } from '@mastra/core/agent';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { build, HOSTS, type BuildResult } from '../helpers/hosts.js';

type Source = { config?: unknown; scorers: Array<[string, unknown]>; subagents?: Record<string, Source> };
type Entry = { scorer: { id: string }; sampling?: unknown };

const MERGE_CODES = /\[(SCORER_KEY_COLLISION|CONFIG_SCORERS_FUNCTION|CONFIG_EXPORTS_AGENT)\] (.*?) \(src\/mastra\/[^)\n]*\)/g;
/** Our printed form to Mastra's: no code, no file, agents folder named as Mastra names it. */
const asMastra = (text: string) => [...text.matchAll(MERGE_CODES)].map((m) => m[2].replaceAll('src/mastra/agents/', 'agents/'));

describe.each(HOSTS)('parity with Mastra on %s', (host) => {
  let result: BuildResult;
  let m: any;
  let runtimeWarnings: string[] = [];
  const mastraWarnings: string[] = [];
  const agents: Record<string, any> = {};

  beforeAll(async () => {
    result = await build(host, 'mastra-parity');
    expect(result.code, result.output).toBe(0);
    const spy = vi.spyOn(console, 'warn').mockImplementation((text: unknown) => void runtimeWarnings.push(String(text)));
    try {
      m = await result.load();
    } finally {
      spy.mockRestore();
    }
    const entry = (name: string, source: Source): any => ({
      name,
      // Mastra needs a model and instructions even where this package needs no config at all.
      config: source.config ?? { model: m.model },
      ...(source.config ? {} : { instructionsMd: 'No config.' }),
      scorers: source.scorers.map(([key, scorer]) => ({ key, scorer })),
      subagents: Object.entries(source.subagents ?? {}).map(([child, s]) => entry(child, s)),
    });
    for (const [name, source] of Object.entries(m.sources as Record<string, Source>)) {
      agents[name] = assembleAgentFromFsEntry(entry(name, source), { onWarn: (text) => mastraWarnings.push(text) });
    }
  });
  afterAll(() => {
    runtimeWarnings = [];
  });

  const compare = (ours: Record<string, Entry>, theirs: Record<string, Entry | Entry['scorer']>) => {
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    for (const key of Object.keys(theirs)) {
      const t = theirs[key];
      const their = 'scorer' in t ? t : { scorer: t };
      expect(ours[key].scorer, key).toBe(their.scorer);
      expect(ours[key].sampling, key).toEqual(their.sampling);
    }
  };

  // fn without a request context: Mastra passes a fresh, empty RequestContext, resolveScorers an
  // empty Map, so the config's `requestContext.get('lang')` works in both.
  test.each(['plain', 'record', 'config-only', 'fn', 'agent', 'parent'])('%s resolves to the scorers Mastra gives', async (name) => {
    compare(await m.resolveScorers(name), await agents[name].listScorers());
  });

  test('the function form gets the request context, as in Mastra', async () => {
    const requestContext = new m.RequestContext([['lang', 'fr']]);
    const ours = await m.resolveScorers('fn', { requestContext });
    expect(ours.dyn.scorer.id).toBe('config-fr');
    compare(ours, await agents.fn.listScorers({ requestContext }));
  });

  test("a subagent resolves to the scorers of Mastra's assembled child agent", async () => {
    const child = (await agents.parent.listAgents()).child;
    compare(await m.resolveScorers('parent/child'), await child.listScorers());
  });

  test('the record keeps its place for colliding keys and appends config-only keys, like Mastra', async () => {
    expect(Object.keys(await m.resolveScorers('record'))).toEqual(['a', 'b', 'c', 'extra']);
    expect(Object.keys(await m.resolveScorers('config-only'))).toEqual(['z', 'y']);
  });

  test("the merge warnings are Mastra's, each once: build time plus run time", () => {
    const ours = [...asMastra(result.output), ...asMastra(runtimeWarnings.join('\n'))];
    expect(ours.sort()).toEqual([...mastraWarnings].sort());
    expect(mastraWarnings.length).toBe(4);
  });
});

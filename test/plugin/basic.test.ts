/**
 * The `basic` fixture built by every real host: discovery rules, merge precedence and order,
 * identity of scorer objects, function form, manifest, and the printed warnings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { build, count, HOSTS, type BuildResult } from '../helpers/hosts.js';

const W = 'src/mastra/agents/weather';
const WARNINGS = [
  `[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (${W}/config.ts)`,
  '[CONFIG_SCORERS_FUNCTION] Agent "news": config.scorers is a function, so discovered scorers under src/mastra/agents/news/scorers/ are ignored. (src/mastra/agents/news/config.ts)',
  `[SUBAGENT_TOO_DEEP] Subagent "weather/planner/critic/deep/deeper" is nested 4 levels deep (at most 3); it is left out. (${W}/subagents/planner/subagents/critic/subagents/deep/subagents/deeper/)`,
];

describe.each(HOSTS)('basic fixture on %s', (host) => {
  let result: BuildResult;
  let m: any;
  let warn: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    result = await build(host, 'basic', { pluginOptions: '{ dts: false, manifest: true }' });
    expect(result.output).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    m = await result.load();
  });
  afterAll(() => warn.mockRestore());

  test('every agent and subagent folder, sorted; hidden, private and too-deep ones left out', () => {
    expect(Object.keys(m.registry)).toEqual([
      'empty',
      'news',
      'support',
      'weather',
      'weather/planner',
      'weather/planner/critic',
      'weather/planner/critic/deep',
    ]);
    expect(m.registry.empty).toEqual({});
    expect(Object.keys(m.registry.support)).toEqual(['a-first', 'helpfulness', 'z-last']);
  });

  test('files first in key order, config keys override in place, config-only keys follow in config order', () => {
    const weather = m.registry.weather;
    expect(Object.keys(weather)).toEqual(['_draft', 'accuracy', 'my.scorer', 'relevance', 'tone', 'toString', 'extra']);
    expect(weather.relevance.scorer).toBe(m.configRelevance);
    expect(weather.relevance.scorer.id).toBe('config-relevance');
    expect(weather.toString.scorer.id).toBe('config-tostring');
    expect(weather.extra.sampling).toEqual({ type: 'ratio', rate: 0.25 });
  });

  test('a bare scorer is wrapped as { scorer }; an entry file is kept as written', () => {
    const weather = m.registry.weather;
    expect(weather._draft).toEqual({ scorer: m.draft });
    expect(weather._draft.scorer).toBe(m.draft);
    expect(weather.tone).toBe(m.tone);
    expect(weather.tone.sampling).toEqual({ type: 'ratio', rate: 0.5 });
    expect(weather.accuracy.scorer.id).toBe('accuracy');
  });

  test('per-agent modules are the very records of the registry', () => {
    expect(m.weather).toBe(m.registry.weather);
    expect(m.planner).toBe(m.registry['weather/planner']);
    expect(Object.keys(m.planner)).toEqual(['brevity']);
    expect(Object.keys(m.registry['weather/planner/critic/deep'])).toEqual(['third']);
  });

  test('records and the registry are frozen with a null prototype', () => {
    for (const value of [m.registry, m.registry.weather, m.registry.empty]) {
      expect(Object.isFrozen(value)).toBe(true);
      expect(Object.getPrototypeOf(value)).toBe(null);
    }
  });

  test('the function form is kept as the same function and resolveScorers calls it', async () => {
    expect(typeof m.registry.news).toBe('function');
    const news = await m.resolveScorers('news', { requestContext: new Map([['lang', 'de']]) });
    expect(Object.keys(news)).toEqual(['fresh']);
    expect(news.fresh.scorer.id).toBe('fresh-de');
    expect(await m.resolveScorers('weather')).toBe(m.registry.weather);
    await expect(m.resolveScorers('nope')).rejects.toThrow(/^\[AGENT_UNKNOWN\] Unknown agent "nope"; known agents: "empty", "news", "support", "weather"/);
  });

  test('overridden and ignored files are not in the bundle', () => {
    const bundle = result.bundle();
    for (const marker of ['FILE_RELEVANCE_MARKER', 'NEWS_IGNORED_MARKER', 'TOO_DEEP_MARKER', "id: 'private'", "id: 'hidden'"]) {
      expect(bundle).not.toContain(marker);
    }
  });

  test('each build-time warning is printed exactly once, with code and relative path; none at run time', () => {
    for (const text of WARNINGS) expect(count(result.output, text), text).toBe(1);
    expect(count(result.output, 'agent-scorers')).toBe(WARNINGS.length);
    expect(result.output).not.toContain(result.dir);
    expect(warn).not.toHaveBeenCalled();
  });

  test('the manifest export and the emitted asset agree and hold no machine path', () => {
    const asset = JSON.parse(fs.readFileSync(path.join(result.dir, 'dist/agent-scorers.manifest.json'), 'utf8'));
    expect(asset).toEqual(m.manifest);
    expect(JSON.stringify(asset)).not.toContain(result.dir);
    expect(m.manifest.version).toBe(1);
    expect(m.manifest.agents.weather).toEqual({
      dir: W,
      config: `${W}/config.ts`,
      configScorers: 'record',
      scorers: {
        _draft: { source: 'file', file: `${W}/scorers/_draft.ts`, sampling: null },
        accuracy: { source: 'file', file: `${W}/scorers/accuracy.js`, sampling: null },
        'my.scorer': { source: 'file', file: `${W}/scorers/my.scorer.ts`, sampling: null },
        relevance: { source: 'config', file: null, sampling: null },
        tone: { source: 'file', file: `${W}/scorers/tone.ts`, sampling: { type: 'ratio', rate: 0.5 } },
        toString: { source: 'config', file: null, sampling: null },
        extra: { source: 'config', file: null, sampling: { type: 'ratio', rate: 0.25 } },
      },
    });
    expect(Object.keys(m.manifest.agents.weather.scorers)).toEqual(Object.keys(m.registry.weather));
    expect(m.manifest.agents.news).toEqual({ dir: 'src/mastra/agents/news', config: 'src/mastra/agents/news/config.ts', configScorers: 'function', scorers: {} });
    expect(m.manifest.agents['weather/planner'].configScorers).toBe('none');
    expect(m.manifest.diagnostics.map((d: any) => d.code).sort()).toEqual(['CONFIG_SCORERS_FUNCTION', 'SCORER_KEY_COLLISION', 'SUBAGENT_TOO_DEEP']);
    expect(m.manifest.diagnostics.find((d: any) => d.code === 'SCORER_KEY_COLLISION')).toEqual({
      code: 'SCORER_KEY_COLLISION',
      severity: 'warning',
      agent: 'weather',
      file: `${W}/config.ts`,
      message: 'Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins.',
    });
  });
});

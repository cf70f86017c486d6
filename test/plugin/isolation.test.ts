/**
 * Scorers made by @mastra/core pass through untouched, and a per-agent import bundles only that
 * agent's files.
 */
import { describe, expect, test } from 'vitest';
import { build, HOSTS } from '../helpers/hosts.js';

describe.each(HOSTS)('on %s', (host) => {
  test("a scorer made with @mastra/core's createScorer is accepted and passed through untouched", async () => {
    const result = await build(host, 'mastra-core');
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toContain('agent-scorers');
    const m = await result.load();
    expect(Object.keys(m.registry.weather)).toEqual(['entry', 'mastra']);
    expect(m.registry.weather.mastra.scorer).toBe(m.mastra);
    expect(m.registry.weather.entry).toBe(m.entry);
    expect(m.registry.weather.entry.sampling).toEqual({ type: 'ratio', rate: 0.2 });
    expect(m.mastra.constructor.name).toBe('MastraScorer');
    const run = await m.registry.weather.mastra.scorer.run({ input: 'Weather?', output: 'sunny' });
    expect(run.score).toBe(1);
  });

  test('a bundle that imports only virtual:agent-scorers/weather has no other agent in it', async () => {
    const result = await build(host, 'per-agent');
    expect(result.code, result.output).toBe(0);
    const bundle = result.bundle();
    expect(bundle).toContain('WEATHER_MARKER');
    for (const marker of ['NEWS_MARKER', 'NEWS_CONFIG_MARKER', 'PLANNER_MARKER', 'src/mastra/agents/news']) expect(bundle).not.toContain(marker);
    const m = await result.load();
    expect(Object.keys(m.weather)).toEqual(['w']);
    expect(m.weather.w.scorer.id).toBe('WEATHER_MARKER');
  });
});

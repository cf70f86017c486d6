/**
 * The plan applies `strict` and `diagnostics` (effective severities, 'off' left out, manifest alike)
 * and reads a config that exports `new Agent()` or evidently invalid scorers.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { agentModule } from '../../src/core/codegen.js';
import { checkOptions, withRoot, type Options } from '../../src/core/options.js';
import { analysersFor, plan } from '../../src/core/plan.js';
import { scan } from '../../src/core/scan.js';
import fs from 'node:fs';
import { FIXTURES } from '../helpers/hosts.js';

function planOf(fixture: string, options: Options = {}) {
  const o = withRoot(checkOptions({ dts: false, ...options }), path.join(FIXTURES, fixture), () => false);
  const scanned = scan({ root: o.root, agentsDirs: o.agentsDirs, extensions: o.extensions, isExcluded: o.isExcluded });
  return plan(scanned, analysersFor((p) => fs.readFileSync(p, 'utf8')), o.levels);
}
const codes = (p: ReturnType<typeof planOf>) => p.diagnostics.map((d) => `${d.code}:${d.severity}`);

describe('levels in the plan', () => {
  test('by default warnings stay warnings', () => {
    expect(codes(planOf('basic'))).toEqual(['SUBAGENT_TOO_DEEP:warning', 'CONFIG_SCORERS_FUNCTION:warning', 'SCORER_KEY_COLLISION:warning']);
  });

  test("strict makes them errors except codes that diagnostics sets; 'off' leaves a code out of diagnostics and manifest", () => {
    const p = planOf('basic', { strict: true, diagnostics: { SCORER_KEY_COLLISION: 'warn', SUBAGENT_TOO_DEEP: 'off' } });
    expect(codes(p)).toEqual(['CONFIG_SCORERS_FUNCTION:error', 'SCORER_KEY_COLLISION:warning']);
    expect(p.manifest.diagnostics.map((d) => `${d.code}:${d.severity}`)).toEqual(codes(p));
    expect(p.levels).toEqual({ SCORER_KEY_CASE_COLLISION: 'error', AGENTS_DIR_MISSING: 'error', SUBAGENT_TOO_DEEP: 'off', CONFIG_SCORERS_FUNCTION: 'error', CONFIG_EXPORTS_AGENT: 'error' });
  });

  test('errors are never affected, and the generated module passes non-default levels to defineAgent only when there are some', () => {
    const p = planOf('err-config-invalid', { diagnostics: { SCORER_KEY_COLLISION: 'off' } });
    expect(codes(p)).toEqual(['CONFIG_INVALID_SCORERS:error', 'CONFIG_INVALID_SCORERS:error', 'CONFIG_INVALID_SCORERS:error']);
    const weather = p.byKey.get('weather')!;
    expect(agentModule(weather, 'helper')).toMatch(/,"config\.ts"\);\n$/);
    expect(agentModule(weather, 'helper', undefined, p.levels)).toMatch(/,"config\.ts",\{"SCORER_KEY_COLLISION":"off"\}\);\n$/);
  });
});

describe('a config that exports new Agent()', () => {
  test('its files are not imported, its config is; the manifest says function with no keys; the warning only where files exist', () => {
    const p = planOf('warn-config-agent');
    const weather = p.byKey.get('weather')!;
    expect(weather.config?.kind).toBe('agent');
    expect(weather.importConfig).toBe(true);
    expect(weather.files.map((f) => [f.key, f.imported])).toEqual([['relevance', false]]);
    expect(p.byKey.get('quiet')!.config?.kind).toBe('agent');
    expect(p.byKey.get('support')!.config?.kind).toBe('unknown');
    expect(p.manifest.agents.weather).toMatchObject({ configScorers: 'function', scorers: {} });
    expect(p.diagnostics).toEqual([
      {
        code: 'CONFIG_EXPORTS_AGENT',
        severity: 'warning',
        agent: 'weather',
        file: 'src/mastra/agents/weather/config.ts',
        message: 'Agent "weather": config.ts exports a new Agent(), so discovered scorers under src/mastra/agents/weather/scorers/ are ignored.',
      },
    ]);
  });
});

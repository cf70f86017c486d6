/** Which watcher events matter to discovery, and which agent's modules they make stale. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DIST } from './helpers.js';

const { affectsDiscovery, affectedAgent } = (await import(pathToFileURL(path.join(DIST, 'plugin/dev.js')).href)) as typeof import('../../src/plugin/dev.js');

const A = '/p/src/mastra/agents';

describe('affectsDiscovery', () => {
  test.each([
    [A, true],
    ['/p/src', true], // a folder above agentsDir (created or removed)
    [`${A}/weather`, true],
    [`${A}/weather/config.ts`, true],
    [`${A}/weather/config.mjs`, true],
    [`${A}/weather/scorers`, true],
    [`${A}/weather/scorers/tone.ts`, true],
    [`${A}/weather/subagents`, true],
    [`${A}/weather/subagents/planner`, true],
    [`${A}/weather/subagents/planner/scorers/brevity.ts`, true],
    [`${A}/weather/subagents/planner/config.ts`, true],
    [`${A}/weather/instructions.md`, false],
    [`${A}/weather/scorers/helpers/util.ts`, false],
    [`${A}/weather/subagents/planner/notes.md`, false],
    ['/p/src/main.ts', false],
    ['/elsewhere/x.ts', false],
  ])('%s → %s', (file, expected) => {
    expect(affectsDiscovery(file, [A], [])).toBe(expected);
  });

  test('a folder the plan read through a symlink is matched by its real path', () => {
    expect(affectsDiscovery('/real/shared/scorers/x.ts', [A], ['/real/shared/scorers'])).toBe(true);
    expect(affectsDiscovery('/real/shared/other/x.ts', [A], ['/real/shared/scorers'])).toBe(false);
  });
});

describe('affectedAgent', () => {
  test.each([
    [`${A}/weather/scorers/tone.ts`, 'weather'],
    [`${A}/weather/config.ts`, 'weather'],
    [`${A}/weather`, 'weather'],
    [`${A}/weather/subagents`, 'weather'],
    [`${A}/weather/subagents/planner`, 'weather/planner'],
    [`${A}/weather/subagents/planner/subagents/critic/scorers/d.ts`, 'weather/planner/critic'],
    [A, null],
    ['/p/src', null],
    ['/real/shared/scorers/x.ts', null],
  ])('%s → %s', (file, expected) => {
    expect(affectedAgent(file, [A])).toBe(expected);
  });
});

/**
 * What a new user trips over first, on every host's real CLI (Vite 8, Vite 7, Rollup, Rolldown):
 * an agentsDir that does not exist, an agent key that does not exist, how an error prints (no stack
 * of ours), and one printed form for a bad value at build time and at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, count, HOSTS, prepare } from '../helpers/hosts.js';

/** A committed declaration file, as a user's checkout has it. */
const COMMITTED = '// committed declarations: must survive a build that finds no agents\n';
const DTS = 'src/agent-scorers.d.ts';
/** A frame of our code: the built plugin, or Vite's bundled copy of a config that imports it. */
const OUR_FRAME = /^\s*at .*(\/dist\/plugin\/|\.vite-temp\/)/m;
const ANY_FRAME = /^\s*at \S/m;
/** An agent folder whose name needs quoting: the list of known agents must quote it. */
const ODD = 'it\'s "odd"';

function withOddAgent(dir: string): void {
  const odd = path.join(dir, 'src/mastra/agents', ODD, 'scorers');
  fs.mkdirSync(odd, { recursive: true });
  fs.writeFileSync(path.join(odd, 'x.ts'), `export default { id: 'x', run: async () => ({ score: 1 }) };\n`);
}

describe.each(HOSTS)('first contact on %s', (host) => {
  test('an agentsDir set explicitly that does not exist fails the build and leaves the declaration file alone', async () => {
    const dir = prepare('warn-missing-dir', host);
    fs.writeFileSync(path.join(dir, DTS), COMMITTED);
    const result = await build(host, 'warn-missing-dir', { dir, pluginOptions: `{ dts: ${JSON.stringify(DTS)}, agentsDir: 'src/agnets' }` });
    expect(result.code, result.output).not.toBe(0);
    expect(count(result.output, '[AGENTS_DIR_MISSING] agentsDir "src/agnets" does not exist; no agents are registered from it. (src/agnets)'), result.output).toBe(1);
    expect(fs.readFileSync(path.join(dir, DTS), 'utf8')).toBe(COMMITTED);
  });

  test('the default agentsDir missing warns once, builds an empty registry and leaves the declaration file alone', async () => {
    const dir = prepare('warn-missing-dir', host);
    fs.rmSync(path.join(dir, 'src/mastra'), { recursive: true });
    fs.writeFileSync(path.join(dir, DTS), COMMITTED);
    const result = await build(host, 'warn-missing-dir', { dir, pluginOptions: `{ dts: ${JSON.stringify(DTS)} }` });
    expect(result.code, result.output).toBe(0);
    const text = '[AGENTS_DIR_MISSING] agentsDir "src/mastra/agents" does not exist; no agents are registered from it. (src/mastra/agents)';
    expect(count(result.output, text), result.output).toBe(1);
    expect(Object.keys((await result.load()).registry)).toEqual([]);
    expect(fs.readFileSync(path.join(dir, DTS), 'utf8')).toBe(COMMITTED);
  });

  test('with no declaration file yet, a missing default agentsDir still writes one, so the types resolve', async () => {
    const dir = prepare('warn-missing-dir', host);
    fs.rmSync(path.join(dir, 'src/mastra'), { recursive: true });
    const result = await build(host, 'warn-missing-dir', { dir, pluginOptions: `{ dts: ${JSON.stringify(DTS)} }` });
    expect(result.code, result.output).toBe(0);
    expect(fs.readFileSync(path.join(dir, DTS), 'utf8')).toContain('declare module "virtual:agent-scorers"');
  });

  test('an import of an agent that does not exist fails with AGENT_UNKNOWN, listing the known agents', async () => {
    const dir = prepare('warn-missing-dir', host);
    withOddAgent(dir);
    fs.writeFileSync(path.join(dir, 'src/main.ts'), `import planner from 'virtual:agent-scorers/weather/planner';\n\nexport { planner };\n`);
    const result = await build(host, 'warn-missing-dir', { dir });
    expect(result.code, result.output).not.toBe(0);
    const text = `[AGENT_UNKNOWN] Unknown agent "weather/planner" in "virtual:agent-scorers/weather/planner"; known agents: ${JSON.stringify(ODD)}, "weather".`;
    expect(count(result.output, text), result.output).toBe(1);
    expect(result.output).not.toMatch(OUR_FRAME);
  });

  test('resolveScorers for an agent that does not exist throws AGENT_UNKNOWN, listing the known agents', async () => {
    const dir = prepare('warn-missing-dir', host);
    withOddAgent(dir);
    fs.writeFileSync(path.join(dir, 'src/main.ts'), `export { resolveScorers } from 'virtual:agent-scorers';\n`);
    const result = await build(host, 'warn-missing-dir', { dir });
    expect(result.code, result.output).toBe(0);
    const { resolveScorers } = await result.load();
    const error: Error | null = await resolveScorers('nope').then(() => null, (e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toBe(`[AGENT_UNKNOWN] Unknown agent "nope"; known agents: ${JSON.stringify(ODD)}, "weather".`);
  });

  test('a build error prints our diagnostic lines with no stack trace of ours', async () => {
    const result = await build(host, 'err-invalid-export');
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('[SCORER_INVALID_EXPORT] Agent "weather": scorer "tone"');
    expect(result.output).toContain('(src/mastra/agents/weather/scorers/tone.ts)');
    expect(result.output).not.toMatch(OUR_FRAME);
    // Rollup's CLI and Vite 7 print a stack only when the error has one; Rolldown (and Vite 8 on it)
    // always print the frames of their own summary error, which are not ours.
    if (host === 'rollup' || host === 'vite7') expect(result.output).not.toMatch(ANY_FRAME);
  });

  test('a bad sampling value prints the same at build time and at run time', async () => {
    const rule = /sampling must be [^\n]*?; got (.*?)\. \(/;
    const atBuild = await build(host, 'err-invalid-sampling');
    expect(atBuild.code, atBuild.output).not.toBe(0);
    const dir = prepare('err-invalid-sampling', host);
    const tone = path.join(dir, 'src/mastra/agents/weather/scorers/tone.ts');
    // The same value, known only at run time.
    fs.writeFileSync(tone, fs.readFileSync(tone, 'utf8').replace('rate: 2', "rate: Number('2')"));
    const atRun = await build(host, 'err-invalid-sampling', { dir });
    expect(atRun.code, atRun.output).toBe(0);
    const thrown = await atRun.load().then(() => new Error("loaded without an error"), (e: Error) => e);
    const shownAtBuild = rule.exec(atBuild.output)?.[1];
    expect(shownAtBuild).toBe("{ type: 'ratio', rate: 2 }");
    expect(rule.exec(thrown.message)?.[1]).toBe(shownAtBuild);
  });
});

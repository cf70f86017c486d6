/** Hostile file and folder names, written at test time (git and some file systems cannot hold them all). */
import fs from 'node:fs';
import path from 'node:path';

export const KEYS = [
  `a'b"`,
  'x${y}',
  'back\\slash',
  'ünïcødé',
  'with space',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'new\nline',
  'a"+(globalThis.PWNED=1)+"',
  "');globalThis.PWNED=1;('",
  'line\u2028separator',
  '😀 emoji',
  '100%',
  'what?',
  'hash#tag',
];
export const AGENT = `qu"o'te $\{x} \\ ü`;
export const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Writes a scorer file for each of KEYS in each agent folder; returns the keys the file system took in the first. */
export function writeHostile(dir: string, agents: readonly string[] = ['hostile', AGENT], keys: readonly string[] = KEYS): string[] {
  const written: string[] = [];
  for (const agent of agents) {
    const scorers = path.join(dir, 'src/mastra/agents', agent, 'scorers');
    fs.mkdirSync(scorers, { recursive: true });
    for (const key of keys) {
      try {
        fs.writeFileSync(path.join(scorers, `${key}.ts`), `export default { id: ${JSON.stringify(`${agent}:${key}`)}, run: async () => ({ score: 1 }) };\n`);
        if (agent === agents[0]) written.push(key);
      } catch {
        // A file system that refuses a name simply has no such scorer; the rest must still work.
      }
    }
  }
  return written;
}

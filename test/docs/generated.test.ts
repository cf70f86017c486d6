/**
 * The two generated reference pages are committed (the site builds from them) and must match what
 * the generator makes from the code now: a changed option, JSDoc, code or message fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');

interface Rendered {
  file: string;
  content: string;
}
interface Generator {
  renderAll: () => Promise<Rendered[]>;
  loadCodeDocs: () => Promise<Record<string, unknown>>;
  printedLine: (code: string, example: unknown) => Promise<string>;
}
const generator = (): Promise<Generator> => import(path.join(repo, 'scripts/gen-docs.mjs')) as Promise<Generator>;

describe('generated reference pages', () => {
  it('are up to date with the Options type and the diagnostics catalogue', async () => {
    const pages = await (await generator()).renderAll();
    expect(pages.map((p) => path.relative(repo, p.file))).toEqual(['docs/reference/options.md', 'docs/reference/diagnostics.md']);
    for (const page of pages) expect(fs.readFileSync(page.file, 'utf8'), `${path.relative(repo, page.file)}: run npm run docs:gen`).toBe(page.content);
  });

  it('documents every option with its type and @default', async () => {
    const [options] = await (await generator()).renderAll();
    for (const name of ['root', 'agentsDir', 'extensions', 'exclude', 'dts', 'manifest', 'strict', 'diagnostics', 'cache']) {
      expect(options.content).toMatch(new RegExp(`## ${name}\\n\\n- \\*\\*Type:\\*\\* \`[^\\n]+\`\\n- \\*\\*Default:\\*\\* \\S`));
    }
    expect(options.content).toContain("      agentsDir: 'src/mastra/agents',\n");
  });

  it('prints each code from the real scanner and planner, and refuses an example that does not produce its code', async () => {
    const g = await generator();
    const docs = await g.loadCodeDocs();
    const collision = docs.SCORER_KEY_COLLISION as { example: unknown };
    expect(await g.printedLine('SCORER_KEY_COLLISION', collision.example)).toBe(
      '[SCORER_KEY_COLLISION] Agent "weather": scorer "relevance" defined in both config.scorers and scorers/; config.scorers wins. (src/mastra/agents/weather/config.ts)',
    );
    // The same situation does not produce a case collision: the generator says so instead of printing a made-up line.
    await expect(g.printedLine('SCORER_KEY_CASE_COLLISION', collision.example)).rejects.toThrow(/reports SCORER_KEY_COLLISION, not SCORER_KEY_CASE_COLLISION/);
  });
});

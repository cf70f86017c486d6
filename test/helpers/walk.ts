/**
 * Walking docs pages as a reader does: every fenced block, in the order met, becomes a step. A titled
 * code block is a file the reader writes (`ts [evals/weather.ts]`; a title met again replaces the file),
 * an untitled `ts` block a snippet the reader runs, a `sh` block commands the reader types, and a CI
 * workflow (`yaml`: GitHub Actions `run:` steps, GitLab `script:` lines) commands CI runs, with its `env:`
 * or `variables:`.
 */
import { extractBlocks, type Block } from './samples.js';

export type Step =
  | { kind: 'file'; block: Block; file: string; snippet: boolean }
  | { kind: 'command'; block: Block; command: string; env: Record<string, string>; ci: boolean };

const CODE = new Set(['ts', 'js', 'mts', 'mjs', 'json', 'jsonc']);
const SHELL = new Set(['sh', 'bash', 'shell', 'zsh']);

/** The steps of one page, in order. Untitled snippets are written as `<page name>-sample-N.ts`. */
export function walkSteps(page: string, markdown: string): Step[] {
  const steps: Step[] = [];
  const name = page.replace(/^.*\//, '').replace(/\.md$/, '');
  let untitled = 0;
  for (const block of extractBlocks(page, markdown)) {
    if (CODE.has(block.lang) && block.title) steps.push({ kind: 'file', block, file: block.title, snippet: false });
    else if (block.lang === 'ts' || block.lang === 'js') {
      steps.push({ kind: 'file', block, file: `${name}-sample-${++untitled}.${block.lang}`, snippet: true });
    } else if (SHELL.has(block.lang)) {
      for (const command of shellCommands(block.code)) steps.push({ kind: 'command', block, command, env: leadingEnv(command), ci: false });
    } else if (block.lang === 'yaml' || block.lang === 'yml') {
      for (const { command, env } of ciCommands(block.code)) steps.push({ kind: 'command', block, command, env: { ...env, ...leadingEnv(command) }, ci: true });
    }
  }
  return steps;
}

/** The commands of a shell block: continuation lines joined, comments and blank lines left out. */
export function shellCommands(code: string): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const raw of code.split('\n')) {
    const line = stripComment(raw.replace(/^\s*\$ /, '')).trim();
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    if (whole) commands.push(whole);
  }
  return commands;
}

/** A line without its `# comment` (a `#` that starts a word outside quotes). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** `A=1 B=2 command ...`: the variables set for the command. */
export function leadingEnv(command: string): Record<string, string> {
  const env: Record<string, string> = {};
  let rest = command;
  for (;;) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)\s+/.exec(rest);
    if (!m) return env;
    env[m[1]] = m[2].replace(/^(["'])(.*)\1$/, '$2');
    rest = rest.slice(m[0].length);
  }
}

/** The commands a CI file runs, in order: GitHub Actions' `run:` steps, GitLab's `script:` lines. */
export function ciCommands(code: string): { command: string; env: Record<string, string> }[] {
  const doc = parseYaml(code);
  const found: { command: string; env: Record<string, string> }[] = [];
  const strings = (value: unknown): Record<string, string> =>
    Object.fromEntries(Object.entries(isMap(value) ? value : {}).map(([k, v]) => [k, String(v)]));
  if (!isMap(doc)) return found;
  if (isMap(doc.jobs)) {
    for (const job of Object.values(doc.jobs)) {
      if (!isMap(job) || !Array.isArray(job.steps)) continue;
      for (const step of job.steps) {
        if (!isMap(step) || typeof step.run !== 'string') continue;
        for (const command of shellCommands(step.run)) found.push({ command, env: { ...strings(doc.env), ...strings(job.env), ...strings(step.env) } });
      }
    }
    return found;
  }
  for (const job of Object.values(doc)) {
    if (!isMap(job) || !Array.isArray(job.script)) continue;
    for (const line of job.script) for (const command of shellCommands(String(line))) found.push({ command, env: { ...strings(doc.variables), ...strings(job.variables) } });
  }
  return found;
}

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The YAML that CI files use: block maps and lists, `key: value`, `- item`, `|` blocks, quoted and
 * plain scalars, `[a, b]` flow lists. Not a general YAML parser.
 */
export function parseYaml(text: string): unknown {
  const lines = text.split('\n').map((raw) => ({ indent: raw.length - raw.trimStart().length, text: raw.trim(), raw }));
  let i = 0;
  const skip = () => {
    while (i < lines.length && (lines[i].text === '' || lines[i].text.startsWith('#'))) i++;
  };
  const scalar = (value: string): unknown => {
    const v = stripComment(value).trim();
    if (/^(["']).*\1$/.test(v)) return v.slice(1, -1);
    if (v.startsWith('[') && v.endsWith(']')) return v.slice(1, -1).split(',').map((s) => scalar(s.trim())).filter((s) => s !== '');
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    if (v === 'true' || v === 'false') return v === 'true';
    return v;
  };
  const blockScalar = (parentIndent: number): string => {
    const body: string[] = [];
    let indent = -1;
    while (i < lines.length && (lines[i].text === '' || lines[i].indent > parentIndent)) {
      if (lines[i].text !== '' && indent < 0) indent = lines[i].indent;
      body.push(lines[i].text === '' ? '' : lines[i].raw.slice(indent));
      i++;
    }
    return `${body.join('\n').trimEnd()}\n`;
  };
  const value = (rest: string, indent: number): unknown => {
    if (rest === '|' || rest === '>' || rest === '|-' || rest === '>-') return blockScalar(indent);
    if (rest !== '') return scalar(rest);
    skip();
    return i < lines.length && lines[i].indent > indent ? node(lines[i].indent) : null;
  };
  const entry = (text: string, indent: number, into: Record<string, unknown>) => {
    const m = /^("[^"]*"|'[^']*'|[^:]+?):(?:\s+(.*)|$)/.exec(text);
    if (!m) throw new Error(`walk: cannot read this YAML line: ${text}`);
    into[m[1].replace(/^(["'])(.*)\1$/, '$2')] = value(m[2] ?? '', indent);
  };
  const node = (indent: number): unknown => {
    skip();
    if (lines[i].text.startsWith('- ') || lines[i].text === '-') {
      const list: unknown[] = [];
      while ((skip(), i < lines.length) && lines[i].indent === indent && (lines[i].text.startsWith('- ') || lines[i].text === '-')) {
        const content = lines[i].text.slice(1).trim();
        const itemIndent = indent + 2;
        i++;
        if (/^[^"'[{][^:]*:(\s|$)/.test(content)) {
          const map: Record<string, unknown> = {};
          entry(content, itemIndent, map);
          while ((skip(), i < lines.length) && lines[i].indent === itemIndent) entry(lines[i++].text, itemIndent, map);
          list.push(map);
        } else list.push(value(content, indent));
      }
      return list;
    }
    const map: Record<string, unknown> = {};
    while ((skip(), i < lines.length) && lines[i].indent === indent) entry(lines[i++].text, indent, map);
    return map;
  };
  skip();
  return i < lines.length ? node(lines[i].indent) : null;
}

/**
 * The sample check: every fenced block whose info string starts with `ts` in the README and the docs
 * is a complete module, type-checked under strict TypeScript against the built package and the
 * repository's own `@mastra/core`, `ai`, `zod`, `vite` and `vitest`.
 *
 * A page's blocks share one fixture project, so its `config.ts` and its scorer files can import each
 * other: a block is written at its `[title]` path (`ts [src/mastra/agents/weather/config.ts]`), else
 * as `sample-N.ts`. A title seen again on the same page (the same `vite.config.ts` in each tab of a
 * code group) starts a new project holding the page's files so far, so every tab is checked on its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Sample {
  /** Page path relative to the repository, POSIX. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** File the block is written as, relative to its project. */
  file: string;
  code: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/;

/** A fenced block of a page: its language (the info string's first word, minus `:line-numbers` and the like) and title. */
export interface Block {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The `[title]` of the info string, if any. */
  title?: string;
  code: string;
}

/** Every fenced block of one page, in order. Indented fences (inside lists or containers) count too. */
export function extractBlocks(page: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length && close[3] === '' && close[4].trim() === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const title = /\[([^\]]+)\]/.exec(lang + rest)?.[1]?.trim();
    blocks.push({ page, line: i + 1, lang: lang.replace(/[:{[].*$/, ''), ...(title ? { title } : {}), code: body.join('\n') + '\n' });
    i = j;
  }
  return blocks;
}

/** The `ts` blocks of one page, in order, each with the file it is written as. */
export function extractSamples(page: string, markdown: string): Sample[] {
  let untitled = 0;
  return extractBlocks(page, markdown)
    .filter((block) => block.lang === 'ts')
    .map((block) => ({ page, line: block.line, file: block.title ?? `sample-${++untitled}.ts`, code: block.code }));
}

/** Groups a page's samples into projects: a repeated file name starts a copy of the page so far. */
export function projectsOf(samples: readonly Sample[]): Map<string, Sample>[] {
  const projects: Map<string, Sample>[] = [];
  let current = new Map<string, Sample>();
  for (const sample of samples) {
    if (current.has(sample.file)) {
      projects.push(current);
      current = new Map(current);
    }
    current.set(sample.file, sample);
  }
  if (current.size > 0) projects.push(current);
  return projects;
}

export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  types: ['agent-scorers/client', 'agent-scorers/mastra', 'node'],
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  esModuleInterop: true,
};

/** The same options as a user's tsconfig.json. */
const TSCONFIG = {
  strict: true,
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'ESNext',
  moduleResolution: 'bundler',
  moduleDetection: 'force',
  types: COMPILER_OPTIONS.types,
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  esModuleInterop: true,
};

export interface SampleError {
  sample: Sample | null;
  /** 1-based line in the page, when the error is in a sample. */
  pageLine: number | null;
  code: number;
  text: string;
}

/**
 * Writes each project under `workDir` (which gets a `node_modules/agent-scorers` link to the
 * repository, so the package resolves through its own `exports`, as installed) and type-checks it.
 * Declaration files outside the projects are parsed once and shared between them.
 */
export function checkSamples(samples: readonly Sample[], workDir: string, repo: string): SampleError[] {
  fs.mkdirSync(path.join(workDir, 'node_modules'), { recursive: true });
  const link = path.join(workDir, 'node_modules/agent-scorers');
  if (!fs.existsSync(link)) fs.symlinkSync(repo, link, 'dir');

  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const shared = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
    if (fileName.startsWith(workDir) && !fileName.includes('/node_modules/')) return getSourceFile(fileName, languageVersion, onError, fresh);
    if (!shared.has(fileName)) shared.set(fileName, getSourceFile(fileName, languageVersion, onError, fresh));
    return shared.get(fileName);
  };

  const byPage = new Map<string, Sample[]>();
  for (const s of samples) byPage.set(s.page, [...(byPage.get(s.page) ?? []), s]);
  const errors: SampleError[] = [];
  const seen = new Set<string>();
  let n = 0;
  for (const [page, pageSamples] of byPage) {
    for (const project of projectsOf(pageSamples)) {
      const dir = path.join(workDir, `${page.replace(/[^A-Za-z0-9]+/g, '-')}-${++n}`);
      const owner = new Map<string, Sample>();
      for (const [file, sample] of project) {
        const abs = path.join(dir, file);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, sample.code);
        owner.set(path.resolve(abs), sample);
      }
      const roots = [...owner.keys()].filter((f) => /\.[mc]?tsx?$/.test(f));
      // `types` entries resolve from the tsconfig's folder; the file is there to re-run `tsc -p` by hand.
      const configFilePath = path.join(dir, 'tsconfig.json');
      fs.writeFileSync(configFilePath, `${JSON.stringify({ compilerOptions: TSCONFIG, files: [...project.keys()] }, null, 2)}\n`);
      const program = ts.createProgram({ rootNames: roots, options: { ...COMPILER_OPTIONS, configFilePath }, host });
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const sample = d.file ? (owner.get(path.resolve(d.file.fileName)) ?? null) : null;
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : null;
        const pageLine = sample && line !== null ? sample.line + 1 + line : null;
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        const key = `${sample?.page}:${pageLine}:${d.code}:${text}:${sample ? '' : d.file?.fileName}`;
        if (seen.has(key)) continue;
        seen.add(key);
        errors.push({ sample, pageLine, code: d.code, text: sample ? text : `${d.file?.fileName ?? ''}: ${text}` });
      }
    }
  }
  return errors;
}

export const formatSampleError = (e: SampleError): string =>
  e.sample
    ? `${e.sample.page}:${e.pageLine} (block at line ${e.sample.line}, ${e.sample.file}): TS${e.code}: ${e.text}`
    : `TS${e.code}: ${e.text}`;

/** README.md and every page under docs/ (not the VitePress folder), repository-relative and sorted. */
export function samplePages(repo: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(rel);
      else if (entry.isFile() && entry.name.endsWith('.md')) pages.push(rel);
    }
  };
  walk('docs');
  return pages.sort();
}

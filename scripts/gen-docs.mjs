/**
 * Writes the two generated reference pages from the code's single sources, so they cannot drift:
 * - docs/reference/options.md from the `Options` interface in src/core/options.ts (read with the
 *   TypeScript compiler API: type text, JSDoc prose, `@default`);
 * - docs/reference/diagnostics.md from src/core/code-docs.ts, each printed line produced by running
 *   the built scanner and planner (or message builder) over the code's example and `formatDiagnostic`.
 *
 * `node scripts/gen-docs.mjs` writes them; `--check` only compares and exits 1 when one is stale.
 * Needs `npm run build` first (it runs the built core, the code the package ships).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(import.meta.dirname, '..');
const HEADER = (source) => `<!-- Generated from ${source} by \`npm run docs:gen\`. Do not edit by hand. -->\n\n`;

// ---------------------------------------------------------------------------------------------------
// Options

/** Every property of `Options`, in source order: name, type text, prose, default text. */
export function readOptions(file = path.join(repo, 'src/core/options.ts')) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map(source.statements.filter(ts.isInterfaceDeclaration).map((s) => [s.name.text, s]));
  const options = interfaces.get('Options');
  if (!options) throw new Error(`gen-docs: no "interface Options" in ${file}`);
  const read = (declaration, prefix) =>
    declaration.members.filter(ts.isPropertySignature).map((member) => {
      const name = `${prefix}${member.name.getText(source)}`;
      const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
      const doc = docs.at(-1);
      const text = (c) => clean(ts.getTextOfJSDocComment(c) ?? '');
      const tag = doc?.tags?.find((t) => t.tagName.text === 'default');
      if (!doc || !tag) throw new Error(`gen-docs: option "${name}" needs a JSDoc comment ending with @default`);
      // An option whose type names another interface of the file (`boolean | InspectorOptions`) has
      // settings of its own: each is documented as `option.setting`, from its own JSDoc.
      const settings = [];
      member.type.forEachChild(function visit(node) {
        if (ts.isTypeReferenceNode(node) && interfaces.has(node.typeName.getText(source))) settings.push(...read(interfaces.get(node.typeName.getText(source)), `${name}.`));
        else node.forEachChild(visit);
      });
      if (ts.isTypeReferenceNode(member.type) && interfaces.has(member.type.typeName.getText(source))) settings.push(...read(interfaces.get(member.type.typeName.getText(source)), `${name}.`));
      // The type as written, with such an interface spelled out, so the reader sees every setting's name.
      const spelled = (declaration) =>
        `{ ${declaration.members.filter(ts.isPropertySignature).map((m) => `${m.name.getText(source)}${m.questionToken ? '?' : ''}: ${m.type.getText(source)}`).join('; ')} }`;
      const type = member.type
        .getText(source)
        .replace(/\b[A-Z]\w*\b/g, (word) => (interfaces.has(word) && word !== 'Options' ? spelled(interfaces.get(word)) : word))
        .replace(/\s+/g, ' ');
      return { name, type, prose: text(doc.comment), default: text(tag.comment), settings };
    });
  return read(options, '');
}

// A JSDoc comment cannot hold `*/`, so the source writes `*\/`; lines of one paragraph are joined.
const clean = (s) => s.replace(/\*\\\//g, '*/').replace(/\s*\n\s*/g, ' ').trim();

/** `` `x` `` alone is a value to show as code; anything else is prose. */
const codeValue = (text) => (/^`[^`]+`$/.test(text) ? text.slice(1, -1) : null);

const firstSentence = (prose) => {
  const match = /^(.+?(?:[.:]|, e\.g\.))(\s|$)/.exec(prose);
  return (match ? match[1] : prose).replace(/(:|, e\.g\.)$/, '.');
};

/** Words into lines of at most `width` characters (a longer word stays whole). */
const wrap = (text, width) => {
  const lines = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
};

export function renderOptions(options = readOptions()) {
  const lines = [];
  for (const [i, o] of options.entries()) {
    if (i > 0) lines.push('');
    for (const line of wrap(firstSentence(o.prose).replace(/`/g, ''), 64)) lines.push(`      // ${line}`);
    const value = codeValue(o.default);
    lines.push(value === null ? `      // ${o.name}: ${o.default.replace(/`/g, '')}` : `      ${o.name}: ${value},`);
  }
  const block = [
    '```ts [vite.config.ts]',
    "import { defineConfig } from 'vite';",
    "import agentScorers from 'agent-scorers/vite';",
    '',
    'export default defineConfig({',
    '  plugins: [',
    '    agentScorers({',
    ...lines,
    '    }),',
    '  ],',
    '});',
    '```',
  ].join('\n');
  const section = (o, level) =>
    [
      `${level} ${o.name}`,
      '',
      `- **Type:** \`${o.type}\``,
      `- **Default:** ${codeValue(o.default) === null ? o.default : `\`${codeValue(o.default)}\``}`,
      '',
      o.prose,
      ...o.settings.flatMap((setting) => ['', section(setting, `${level}#`)]),
    ].join('\n');
  const sections = options.map((o) => section(o, '##'));
  return (
    HEADER('the `Options` type') +
    [
      '# Options',
      '',
      'Every entry takes the same options: `agent-scorers/vite`, `agent-scorers/rollup`, `agent-scorers/rolldown`, `agent-scorers/esbuild`, `withAgentScorers(nextConfig, options)` from `agent-scorers/next`, and the flags of `agent-scorers generate`. Every option is optional. A misspelt or mistyped option fails when the plugin is created, before any build work starts.',
      '',
      'Here is every option with its default:',
      '',
      block,
      '',
      ...sections.flatMap((s) => [s, '']),
    ].join('\n')
  );
}

// ---------------------------------------------------------------------------------------------------
// Diagnostics

/** src/core/code-docs.ts, transpiled in memory: it is plain data with a type-only import. */
export async function loadCodeDocs(file = path.join(repo, 'src/core/code-docs.ts')) {
  const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  return (await import(`data:text/javascript,${encodeURIComponent(outputText)}`)).CODE_DOCS;
}

const dist = (p) => import(pathToFileURL(path.join(repo, 'dist', p)).href);

/** `%XX` in a name is a raw byte, so an example can hold a name that is not UTF-8. */
const rawPath = (p) => (/%[0-9A-F]{2}/.test(p) ? Buffer.from(p.replace(/%([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1') : p);

/** The printed line of one code's example, from the built scanner, planner and formatter. */
export async function printedLine(code, example) {
  const [{ scan }, { plan, analysersFor }, { checkOptions, withRoot }, { formatDiagnostic }, { unknownAgentError }, { syntaxDiagnostics }, { syntaxProblem }] = await Promise.all([
    dist('core/scan.js'),
    dist('core/plan.js'),
    dist('core/options.js'),
    dist('core/codes.js'),
    dist('plugin/tree.js'),
    dist('core/generate.js'),
    dist('core/ast.js'),
  ]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-scorers-docs-'));
  try {
    fs.mkdirSync(path.join(root, 'src/mastra/agents'), { recursive: true });
    for (const [file, content] of Object.entries(example.files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(rawPath(path.join(root, file)), content);
    }
    const options = withRoot(checkOptions(example.agentsDir ? { agentsDir: example.agentsDir } : {}), root, () => false);
    const scanned = scan({ root, agentsDirs: options.agentsDirs, extensions: options.extensions, isExcluded: options.isExcluded });
    const planned = plan(scanned, analysersFor((p) => fs.readFileSync(p, 'utf8')), options.levels);
    if (example.kind === 'unknown-agent') return unknownAgentError(planned, example.agent);
    const reported = example.kind === 'syntax' ? syntaxDiagnostics(planned, (p) => syntaxProblem(fs.readFileSync(p, 'utf8'), p)) : planned.diagnostics;
    const found = reported.find((d) => d.code === code);
    if (!found) {
      const got = reported.map((d) => d.code).join(', ') || 'none';
      throw new Error(`gen-docs: the example of ${code} reports ${got}, not ${code}: fix its example in src/core/code-docs.ts`);
    }
    return formatDiagnostic(found);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function renderDiagnostics() {
  const docs = await loadCodeDocs();
  const { DIAGNOSTIC_SEVERITY } = await dist('core/codes.js');
  const codes = Object.keys(DIAGNOSTIC_SEVERITY).sort();
  const missing = codes.filter((c) => !docs[c]);
  if (missing.length) throw new Error(`gen-docs: no docs for ${missing.join(', ')} in src/core/code-docs.ts`);
  const anchor = (code) => code.toLowerCase().replace(/_/g, '-');
  const rows = codes.map((c) => `| [\`${c}\`](#${anchor(c)}) | ${DIAGNOSTIC_SEVERITY[c]} |`);
  const sections = [];
  for (const code of codes) {
    const d = docs[code];
    const severity = DIAGNOSTIC_SEVERITY[code];
    sections.push(
      [
        `## ${code}`,
        '',
        `**Severity:** ${severity === 'warning' ? 'warning (can be set per code)' : 'error (stops the build)'}`,
        '',
        '```txt',
        await printedLine(code, d.example),
        '```',
        '',
        d.when,
        '',
        `**Why it matters.** ${d.why}`,
        '',
        `**How to fix it.** ${d.fix}`,
        '',
        ...(d.silence ? [`**Silencing it.** ${d.silence}`, ''] : []),
        `**Reported:** ${d.reported}`,
        '',
      ].join('\n'),
    );
  }
  return (
    HEADER('the diagnostics catalogue') +
    [
      '# Diagnostics',
      '',
      'Every problem the plugin finds has a stable code. The printed line always holds the code, the message and the file, relative to `root`:',
      '',
      '```txt',
      '[CODE] message (file)',
      '```',
      '',
      'Errors stop the build with a non-zero exit. Warnings are printed once per build, and once per distinct warning in a dev server. A problem that only shows at run time throws when the registry module is evaluated, with the same code and file.',
      '',
      'You decide how strict to be. `strict: true` turns every warning into an error, for CI. `diagnostics` sets single warning codes to `\'off\'`, `\'warn\'` or `\'error\'`, and wins over `strict`, so a deliberate override still passes a strict build. Errors cannot be turned down.',
      '',
      '```ts [vite.config.ts]',
      "import { defineConfig } from 'vite';",
      "import agentScorers from 'agent-scorers/vite';",
      '',
      'export default defineConfig({',
      "  plugins: [agentScorers({ strict: true, diagnostics: { SCORER_KEY_COLLISION: 'off' } })],",
      '});',
      '```',
      '',
      '| Code | Severity |',
      '|---|---|',
      ...rows,
      '',
      ...sections,
    ].join('\n')
  );
}

export async function renderAll() {
  return [
    { file: path.join(repo, 'docs/reference/options.md'), content: renderOptions() },
    { file: path.join(repo, 'docs/reference/diagnostics.md'), content: await renderDiagnostics() },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { file, content } of await renderAll()) {
    const rel = path.relative(repo, file);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (current === content) continue;
    if (check) {
      console.error(`${rel} is out of date: run npm run docs:gen`);
      stale++;
    } else {
      fs.writeFileSync(file, content);
      console.log(`wrote ${rel}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}

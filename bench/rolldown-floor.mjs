/**
 * Plain Rolldown, no Vite and no plugin: two costs of the host that bound any plugin's a/b at 1,000
 * agents (bench/README.md, "Why the targets are still missed"), in a graph small enough to report
 * upstream.
 *
 *   node bench/rolldown-floor.mjs [--sizes 1000,2000,4000] [--time]
 *
 * For each size n it generates (under bench/.tmp/rolldown-floor) n leaf modules, each default-exporting
 * a scorer, and one registry module that imports them all and nests each in an object literal, as a
 * registry does (`{ "k0": { s: { scorer: m0 } }, ... }`). Leaves come in two kinds: `shared`, each
 * built by one helper imported from one module (`import { helper } from '../lib.ts'`, like
 * `createScorer` or a local `defineScorer`), and `own`, an object literal of their own. Each graph is
 * built twice: with the registry as the entry (b's graph in bench/run.mjs) and imported by a one-line
 * entry (e's graph, and every plugin's: an app imports `virtual:agent-scorers` from its own code).
 *
 * It prints the instructions of each build (all threads, valgrind's callgrind, one build at a time;
 * repeatable to ~1%), or with --time the CPU time of each (median of 5; at these sizes mostly Node's
 * start-up, so read the counts). What it showed (Rolldown 1.3.3, Node 20.20, million instructions,
 * as entry / imported):
 *
 *   n      own            shared
 *   1000   1,207 / 1,208  914 / 925     (1.012)
 *   2000   2,369 / 2,377  1,160 / 1,218 (1.050)
 *   4000   6,656 / 6,596  1,732 / 1,998 (1.154)
 *
 * - `imported / entry` grows with n for `shared` leaves only. callgrind_annotate names one leaf
 *   function of the binding that walks every reference to the shared helper, called once per importing
 *   module (n x n) when the registry is the entry and twice per importing module when it is imported.
 *   The bench's `imports` shape is this graph: at 1,000 agents that function is 28% of the hand-written
 *   build's instructions and 43% of e's (plain Rolldown: b 4,773 million, e 6,146).
 * - `own` leaves (Mastra's sampling-example objects, the bench's `object` shape) cost the same either
 *   way, but one more leaf costs more the more there are: ~1.2 million instructions each from 1,000 to
 *   2,000, ~2.1 million from 2,000 to 4,000.
 * Both are the host's, in hand-written builds as much as in a plugin's; the first is why a plugin's
 * registry, which an app imports, pays more than b at 1,000 agents whatever the plugin does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLGRIND, median, splitValgrind } from './stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const TMP = path.join(path.dirname(SELF), '.tmp/rolldown-floor');

// A child: one build of one graph, nothing else in the process; prints its CPU time (all threads).
if (process.argv[2] === '--build') {
  const [dir, entry] = process.argv.slice(3);
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({ input: path.join(dir, entry), platform: 'node', logLevel: 'silent' });
  await bundle.write({ dir: path.join(dir, `out-${entry}`), format: 'es' });
  const { user, system } = process.cpuUsage();
  console.log(`cpu ${(user + system) / 1000}`);
  process.exit(0);
}

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const sizes = (arg('sizes') ?? '1000,2000,4000').split(',').map(Number);
const timed = process.argv.includes('--time');
if (!timed && spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind not found: install it, or pass --time');

/** Writes the graph of `n` leaves of `kind` once; returns its folder. */
function graph(n, kind) {
  const dir = path.join(TMP, `${kind}-${n}`);
  if (fs.existsSync(path.join(dir, '.done'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'm'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'lib.ts'), 'export function helper(id: string) {\n  return { id, run: async () => ({ score: id.length }) };\n}\n');
  const leaf = (i) =>
    kind === 'shared'
      ? `import { helper } from '../lib.ts';\n\nconst scorer = helper('m${i}');\nexport default scorer;\n`
      : `const scorer = { id: 'm${i}', run: async () => ({ score: ${i} }) };\nexport default scorer;\n`;
  const imports = [];
  const fields = [];
  for (let i = 0; i < n; i++) {
    fs.writeFileSync(path.join(dir, 'm', `m${i}.ts`), leaf(i));
    imports.push(`import m${i} from './m/m${i}.ts';`);
    fields.push(`  "k${i}": { s: { scorer: m${i} } },`);
  }
  fs.writeFileSync(path.join(dir, 'registry.ts'), `${imports.join('\n')}\n\nexport default {\n${fields.join('\n')}\n};\n`);
  fs.writeFileSync(path.join(dir, 'main.ts'), "import registry from './registry.ts';\n\nexport default registry;\n");
  fs.writeFileSync(path.join(dir, '.done'), '');
  return dir;
}

/** Millions of instructions, or CPU milliseconds with --time (median of 5), of one build in a fresh process. */
function measure(dir, entry) {
  const child = [SELF, '--build', dir, entry];
  if (!timed) {
    const r = spawnSync('valgrind', [...CALLGRIND, process.execPath, ...child], { encoding: 'utf8' });
    const { ins } = splitValgrind(r.stderr);
    if (r.status !== 0 || ins === null) throw new Error(`build of ${dir} (${entry}) failed:\n${r.stdout}${r.stderr}`);
    return ins / 1e6;
  }
  const runs = Array.from({ length: 5 }, () => Number(/cpu ([\d.]+)/.exec(execFileSync(process.execPath, child, { encoding: 'utf8' }))[1]));
  return median(runs);
}

const unit = timed ? 'CPU ms' : 'million instructions';
console.log(`Rolldown ${JSON.parse(fs.readFileSync(new URL('../node_modules/rolldown/package.json', import.meta.url), 'utf8')).version}, Node ${process.version}: ${unit} per build`);
console.log('n      leaves  as entry  imported  imported/entry');
const entryCost = {};
for (const n of sizes) {
  for (const kind of ['own', 'shared']) {
    const dir = graph(n, kind);
    measure(dir, 'registry.ts'); // warm-up: the first run after writing the tree reads cold files
    const [b, e] = [measure(dir, 'registry.ts'), measure(dir, 'main.ts')];
    (entryCost[n] ??= {})[kind] = b;
    console.log(`${String(n).padEnd(6)} ${kind.padEnd(7)} ${b.toFixed(0).padStart(8)}  ${e.toFixed(0).padStart(8)}  ${(e / b).toFixed(3).padStart(14)}`);
  }
}
// Fixed costs (Node, Rolldown's start-up) cancel out between two sizes: what is left is what one
// more leaf costs, which grows with n wherever the host's work is superlinear (header).
console.log('\nper added leaf, as entry (thousand instructions, or microseconds of CPU):');
for (let i = 1; i < sizes.length; i++) {
  const [m, n] = [sizes[i - 1], sizes[i]];
  const per = (kind) => (((entryCost[n][kind] - entryCost[m][kind]) / (n - m)) * 1000).toFixed(1);
  console.log(`  ${m} -> ${n}: own ${per('own')}, shared ${per('shared')}`);
}

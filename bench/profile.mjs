/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package, and
 * inclusive (total) time of the functions whose URL matches a filter.
 *   node bench/profile.mjs <file.cpuprofile> [urlFilter=dist/] [top=25]
 * `npm run bench -- --profile` writes one profile of a plugin build per size under bench/.tmp/prof.
 */
import fs from 'node:fs';

const [file, filter = '/dist/', topArg = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile.mjs <file.cpuprofile> [urlFilter] [top]');
  process.exit(2);
}
const top = Number(topArg);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the sample stream.
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, 'pkg:$1')
    .replace(/.*\/(dist|src)\//, '$1/');
const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const bySelf = new Map();
const byPkg = new Map();
for (const [id, ms] of self) {
  const n = nodes.get(id);
  bySelf.set(label(n), (bySelf.get(label(n)) ?? 0) + ms);
  const pkg = n.callFrame.url ? short(n.callFrame.url).split(':')[0].replace(/^(dist|src)\/.*/, 'agent-scorers $1') : n.callFrame.functionName;
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + ms);
}

// Inclusive time of matching functions: a sample counts once per distinct matching frame on its stack.
const inclusive = new Map();
for (const [id, ms] of self) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = nodes.get(cur);
    if (!n.callFrame.url.includes(filter)) continue;
    const l = label(n);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
  }
}

const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${v.toFixed(0).padStart(8)} ms ${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  }
};
console.log(`total sampled: ${total.toFixed(0)} ms`);
print('self time by package', byPkg);
print('self time by function', bySelf);
print(`inclusive time, frames matching ${JSON.stringify(filter)}`, inclusive);

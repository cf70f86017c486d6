/**
 * The least JavaScript work any plugin must do to check a tree at build time as SPEC section 7 asks
 * (an invalid default export or sampling visible in the source is a build error): list the folders
 * and read every config and scorer file, synchronously, doing nothing with the text. Run by
 * bench/run.mjs in its own process, like a build, and timed the same way:
 *   node bench/read-floor.mjs <projectDir>   prints `{ ms, files }`
 * A plugin that reads the files can only be as fast as b + this; the benchmark reports that bound.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [projectDir] = process.argv.slice(2);
if (!projectDir) {
  console.error('usage: node bench/read-floor.mjs <projectDir>');
  process.exit(2);
}
const agentsDir = path.join(projectDir, 'src/mastra/agents');

const start = performance.now();
let files = 0;
for (const agent of fs.readdirSync(agentsDir, { withFileTypes: true })) {
  if (!agent.isDirectory()) continue;
  const dir = `${agentsDir}/${agent.name}`;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.startsWith('config.')) {
      fs.readFileSync(`${dir}/${entry.name}`, 'utf8');
      files++;
    } else if (entry.isDirectory() && entry.name === 'scorers') {
      for (const file of fs.readdirSync(`${dir}/scorers`, { withFileTypes: true })) {
        if (!file.isFile()) continue;
        fs.readFileSync(`${dir}/scorers/${file.name}`, 'utf8');
        files++;
      }
    }
  }
}
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ ms, files })}\n`);

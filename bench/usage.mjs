/**
 * Preloaded (`node --import bench/usage.mjs`) into each timed `vite build` process by bench/run.mjs:
 * on exit, writes the process's CPU time (all threads) and peak RSS to the file named by BENCH_USAGE.
 */
import fs from 'node:fs';

const file = process.env.BENCH_USAGE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    fs.writeFileSync(file, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS }));
  });
}

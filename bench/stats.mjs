/** The value after `--name` on this process's command line, or `fallback` when it is not given. */
export function option(name, fallback) {
  const at = process.argv.indexOf(name, 2);
  return at === -1 ? fallback : process.argv[at + 1];
}

/** The median of a list of numbers (the mean of the two middle values for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * callgrind counts every instruction of every thread (it runs them one at a time), so the count of a
 * build moves by ~1% between runs whatever else the machine does, where wall and CPU time move by 15%.
 */
export const CALLGRIND = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];
/** valgrind's own lines (`==pid== ...`) out of a build's output, and the instruction count they hold. */
export function splitValgrind(out) {
  const refs = /^==\d+== I\s+refs:\s+([\d,]+)/m.exec(out);
  return { ins: refs ? Number(refs[1].replaceAll(',', '')) : null, out: out.replace(/^==\d+==.*\n?/gm, '') };
}

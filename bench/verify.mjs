/**
 * Checks that two built registries have the same shape: agent keys and scorer keys in the same order,
 * entries with the same scorer id and sampling, every record frozen with a null prototype.
 * Returns null when they match, else a description of the first difference.
 */
const shapeProblem = (label, record) => {
  if (record === null || typeof record !== 'object') return `${label} is not an object`;
  if (Object.getPrototypeOf(record) !== null) return `${label} has a prototype`;
  if (!Object.isFrozen(record)) return `${label} is not frozen`;
  return null;
};

export function compareRegistries(x, y) {
  for (const [label, registry] of [['first registry', x], ['second registry', y]]) {
    const problem = shapeProblem(label, registry);
    if (problem) return problem;
  }
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.join('\n') !== ky.join('\n')) return `agent keys differ (${kx.length} vs ${ky.length})`;
  for (const agent of kx) {
    const [rx, ry] = [x[agent], y[agent]];
    if (typeof rx === 'function' || typeof ry === 'function') {
      if (typeof rx !== typeof ry) return `agent ${agent}: one is a function`;
      continue;
    }
    for (const [label, record] of [[`agent ${agent} (first)`, rx], [`agent ${agent} (second)`, ry]]) {
      const problem = shapeProblem(label, record);
      if (problem) return problem;
    }
    const sx = Object.keys(rx);
    const sy = Object.keys(ry);
    if (sx.join('\n') !== sy.join('\n')) return `agent ${agent}: scorer keys differ: [${sx}] vs [${sy}]`;
    for (const key of sx) {
      const [ex, ey] = [rx[key], ry[key]];
      if (ex?.scorer?.id !== ey?.scorer?.id) return `agent ${agent}, scorer ${key}: ids ${ex?.scorer?.id} vs ${ey?.scorer?.id}`;
      if (JSON.stringify(ex.sampling) !== JSON.stringify(ey.sampling)) return `agent ${agent}, scorer ${key}: sampling differs`;
    }
  }
  return null;
}

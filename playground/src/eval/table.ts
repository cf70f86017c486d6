/** A plain-text table: first column left-aligned, numbers right-aligned. */
export function formatTable(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatSampling(sampling: unknown): string {
  if (sampling === undefined) return '-';
  const s = sampling as { type: string; rate?: number };
  return s.type === 'ratio' ? `ratio ${s.rate}` : s.type;
}

/**
 * The highest score a scorer gives. Answer relevancy takes a `scale` (the recipes agent's uses 10);
 * its score step describes itself as `... / statements × <scale>`. The playground's other scorers
 * score 0 to 1.
 */
export function scaleOf(scorer: object): number {
  const { getSteps } = scorer as { getSteps?: () => Array<{ name: string; description?: string }> };
  const step = getSteps?.call(scorer).find((s) => s.name === 'generateScore');
  const match = step?.description?.match(/× (\d+(?:\.\d+)?)$/);
  return match ? Number(match[1]) : 1;
}

/** A mean with the scale beside it, so `7.50 / 10` is not read as better than `0.90 / 1`. */
export function formatMean(mean: number | undefined, scale: number): string {
  return mean === undefined ? '-' : `${mean.toFixed(2)} / ${scale}`;
}

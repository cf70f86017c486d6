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

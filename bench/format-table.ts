/** A plain-text table: columns padded to their widest cell; 'r' columns are right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (align[column] === 'r' ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

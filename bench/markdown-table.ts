/** A markdown table (GitHub style), ready to paste into BENCHMARKS.md; 'r' columns are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map((_, i) => (align[i] === 'r' ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n');
}

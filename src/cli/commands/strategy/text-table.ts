/** Plain-text tables for terminals: columns padded to their widest cell, the last one left ragged. */

export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, indent = ''): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    indent +
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

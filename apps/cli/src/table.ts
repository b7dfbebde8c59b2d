/** Columns padded to their widest cell: readable in a terminal, cuttable with awk. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((row) => row.map((cell) => (cell == null ? '-' : String(cell))));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}

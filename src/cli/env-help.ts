/** The `Environment:` block of a command's --help, from the tables next to the code that reads the variables. */
export function envHelp(title: string, ...tables: ReadonlyArray<ReadonlyArray<readonly [string, string]>>): string {
  const rows = tables.flat();
  const width = Math.max(...rows.map(([name]) => name.length));
  return `\n${title}:\n${rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`).join('\n')}\n`;
}

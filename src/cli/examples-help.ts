/**
 * The `Examples:` block every command's --help ends with: real invocations, a comment beside
 * each where it helps. test/cli/help-examples.test.ts checks that every command in the table has
 * one, and that each example names only options its command takes.
 */
export type Example = string | readonly [invocation: string, comment: string];

export function examplesHelp(...examples: readonly Example[]): string {
  const rows = examples.map((example) => (typeof example === 'string' ? [example, ''] : example));
  const width = Math.max(...rows.map(([invocation, comment]) => (comment === '' ? 0 : invocation.length)));
  const lines = rows.map(([invocation, comment]) => (comment === '' ? `  ${invocation}` : `  ${invocation.padEnd(width)}  # ${comment}`));
  return `\nExamples:\n${lines.join('\n')}\n`;
}

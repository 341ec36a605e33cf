/** What a command reads and writes, passed in so commands can be run in-process by tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** Writes one JSON document on stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a warning line on stderr. */
export function warn(io: CliIo, line: string): void {
  io.stderr.write(`warning: ${line}\n`);
}

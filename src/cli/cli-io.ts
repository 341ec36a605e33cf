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

/**
 * A reader that stops reading (`lendbot decisions | head`) is a normal end, not a failure: the
 * next write to the closed pipe fails with EPIPE, and `end` is called once instead of Node's
 * unhandled 'error' event (a stack trace and exit code 1). Any other write error is `fail`ed.
 */
export function endWhenReaderCloses(streams: readonly NodeJS.WritableStream[], end: () => void, fail: (error: Error) => void): void {
  let ended = false;
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') return fail(error);
      if (ended) return;
      ended = true;
      end();
    });
  }
}

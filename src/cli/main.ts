/**
 * The `lendbot` entry point: parse the command line, run the command, and turn any failure
 * into a one-line message (or, for a bug, a stack trace) and an exit code.
 */
import { CommanderError } from 'commander';
import { endWhenReaderCloses, processIo } from './cli-io.js';
import { reportError } from './error-boundary.js';
import { buildProgramFor } from './lazy-program.js';

/**
 * The reader of our output went away (`lendbot decisions | head`): end as Unix tools do on
 * SIGPIPE, quietly, but with exit code 0, since the output was taken as far as it was wanted and
 * a `set -o pipefail` script must not fail on `| head`. A command with an orderly stop (it
 * listens for SIGTERM: the daemon, the sandbox, the agent connector) is stopped that way, so its
 * database is closed; anything else exits at once.
 */
function endOnClosedReader(): void {
  if (process.listenerCount('SIGTERM') > 0) process.kill(process.pid, 'SIGTERM');
  else process.exit(0);
}

/** Any other failure to write output: exit non-zero (no message: stderr may be what failed). */
function failOnOutputError(error: Error): void {
  process.exitCode = reportError(error).exitCode;
}

async function main(): Promise<void> {
  endWhenReaderCloses([process.stdout, process.stderr], endOnClosedReader, failOnOutputError);
  try {
    // Loading the command's module is inside the try: a module that fails to load is reported too.
    const program = await buildProgramFor(processIo, process.argv.slice(2));
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed help, the version or its usage error.
      process.exitCode = error.exitCode;
      return;
    }
    const report = reportError(error);
    process.stderr.write(`${report.text}\n`);
    // Exit now: a failure half-way through starting (a sandbox or listener already up) must not
    // leave a process running with nothing to stop it.
    process.exit(report.exitCode);
  }
}

await main();

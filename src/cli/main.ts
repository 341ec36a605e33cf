/**
 * The `lendbot` entry point: parse the command line, run the command, and turn any failure
 * into a one-line message (or, for a bug, a stack trace) and an exit code.
 */
import { CommanderError } from 'commander';
import { processIo } from './cli-io.js';
import { reportError } from './error-boundary.js';
import { buildProgramFor } from './lazy-program.js';

async function main(): Promise<void> {
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

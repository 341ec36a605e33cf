/**
 * The CLI's one error boundary. Expected failures (bad input, configuration, the service saying
 * no, an outage) print one line on stderr and exit non-zero; anything else is a bug: print the
 * stack and say so.
 */
import { AppError } from '../domain/index.js';

export interface ErrorReport {
  exitCode: number;
  text: string;
}

/** Exit codes: 1 for a failing system call, 70 (EX_SOFTWARE) for bugs; an AppError exits with its code's (2 for usage). */
const EXIT_FAILURE = 1;
const EXIT_BUG = 70;

/** Turns a thrown value into what the user sees and the exit code. */
export function reportError(error: unknown): ErrorReport {
  // Every expected failure is an AppError: bad input, configuration, a config file's problems
  // (one a line, as file:line:col path: message), the service saying no, an outage.
  if (error instanceof AppError) return { exitCode: error.exitCode, text: `lendbot: ${error.userText()}` };
  const system = systemErrorText(error);
  if (system !== undefined) return { exitCode: EXIT_FAILURE, text: `lendbot: ${system}` };
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    exitCode: EXIT_BUG,
    text: `lendbot: unexpected error; this is a bug, please report it with the lines below.\n${stack}`,
  };
}

/**
 * An error from the operating system (a file that cannot be written, a port in use) is a
 * problem with the machine or the arguments, not a bug: say what and where in one line.
 */
function systemErrorText(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || typeof syscall !== 'string') return undefined;
  return path === undefined ? error.message : `cannot ${syscall} ${path}: ${code}`;
}

/**
 * The one base of lendbot's expected failures (bad input, a missing setting, a file with
 * problems, the service saying no, an outage): each carries a stable `code` for programs, listed
 * in the one catalogue (error-codes.ts), and a `hint` an operator can act on when there is one.
 * The CLI's error boundary checks this one class: an AppError is a one-line message and the exit
 * code its catalogue entry gives; anything else is a bug.
 */
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
  /** What to do about it ("check LENDBOT_SECRET_KEY ..."), when there is something to do. */
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.hint = options.hint;
  }

  /** The CLI's exit code for it, from the catalogue (1 expected failure, 2 usage error). */
  get exitCode(): number {
    return ERROR_CODES[this.code].exitCode;
  }

  /** The line the CLI prints after `lendbot: `. */
  userText(): string {
    return this.message;
  }
}

/**
 * The one base of lendbot's expected failures (bad input, a missing setting, a file with
 * problems, the service saying no, an outage): each carries a stable `code` for programs, and a
 * `hint` an operator can act on when there is one. The CLI's error boundary checks this one class:
 * an AppError is a one-line message and exit code 1 (or its own `exitCode`); anything else is a bug.
 */
export abstract class AppError extends Error {
  abstract readonly code: string;
  /** What to do about it ("check LENDBOT_SECRET_KEY ..."), when there is something to do. */
  readonly hint: string | undefined;
  /** The CLI's exit code for it. */
  readonly exitCode: number;

  constructor(message: string, options: { hint?: string | undefined; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
  }

  /** The line the CLI prints after `lendbot: `. */
  userText(): string {
    return this.message;
  }
}

/**
 * An expected failure: bad input, a missing setting, a refusal by the service. The CLI prints
 * its message on one line and exits with `exitCode`; no stack trace, since it is not a bug.
 */
import { AppError } from '../domain/index.js';

export class UserError extends AppError {
  override readonly name = 'UserError';
  /**
   * USAGE (exit code 2) for an option or argument the command cannot take; NOT_HELD_OUT (3) for a
   * trained result held back because it did not hold across borrower worlds; USER_INPUT (1) otherwise.
   */
  readonly code: 'USER_INPUT' | 'USAGE' | 'NOT_HELD_OUT';
  constructor(message: string, exitCode: 1 | 2 | 3 = 1) {
    super(message);
    this.code = exitCode === 2 ? 'USAGE' : exitCode === 3 ? 'NOT_HELD_OUT' : 'USER_INPUT';
  }
}

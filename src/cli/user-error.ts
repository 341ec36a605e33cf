/**
 * An expected failure: bad input, a missing setting, a refusal by the service. The CLI prints
 * its message on one line and exits with `exitCode`; no stack trace, since it is not a bug.
 */
import { AppError } from '../domain/index.js';

export class UserError extends AppError {
  override readonly name = 'UserError';
  /** USAGE (exit code 2) for an option or argument the command cannot take; USER_INPUT (1) otherwise. */
  readonly code: 'USER_INPUT' | 'USAGE';
  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.code = exitCode === 2 ? 'USAGE' : 'USER_INPUT';
  }
}

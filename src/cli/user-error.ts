/**
 * An expected failure: bad input, a missing setting, a refusal by the service. The CLI prints
 * its message on one line and exits with `exitCode`; no stack trace, since it is not a bug.
 */
import { AppError } from '../log/app-error.js';

export class UserError extends AppError {
  override readonly name = 'UserError';
  readonly code = 'USER_INPUT';
  constructor(message: string, exitCode = 1) {
    super(message, { exitCode });
  }
}

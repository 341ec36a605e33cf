/**
 * An expected failure: bad input, a missing setting, a refusal by the service. The CLI prints
 * its message on one line and exits with its code's exit code (src/domain/error-codes.ts, the
 * catalogue every AppError reads); no stack trace, since it is not a bug.
 */
import { AppError, type ErrorCode } from '../domain/index.js';

/** The catalogue's codes a UserError may carry. */
export type UserErrorCode = Extract<ErrorCode, 'USER_INPUT' | 'USAGE' | 'NOT_HELD_OUT'>;

export class UserError extends AppError {
  override readonly name = 'UserError';
  /**
   * USAGE for an option or argument the command cannot take; NOT_HELD_OUT for a trained result
   * held back because it did not hold across borrower worlds; USER_INPUT otherwise.
   */
  readonly code: UserErrorCode;
  constructor(message: string, code: UserErrorCode = 'USER_INPUT') {
    super(message);
    this.code = code;
  }
}

/**
 * An expected failure: bad input, a missing setting, a refusal by the service. The CLI prints
 * its message on one line and exits with `exitCode`; no stack trace, since it is not a bug.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

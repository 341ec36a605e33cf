/**
 * An AppError's exit code is its code's entry in the catalogue, so the CLI, docs/errors.md and the
 * error agree: a usage error exits 2, every other expected failure 1.
 */
import { describe, expect, it } from 'vitest';
import { AppError, ConfigurationError, ERROR_CODES } from '../../src/domain/index.js';
import { UserError } from '../../src/cli/user-error.js';
import { InvalidArgumentError, ServiceError } from '../../src/service/index.js';
import { StorePathError } from '../../src/store/index.js';

describe('an AppError', () => {
  it('exits with the exit code its code has in the catalogue', () => {
    const errors: AppError[] = [
      new UserError('no such file'),
      new UserError('--rate must be a number', 'USAGE'),
      new ConfigurationError('LENDBOT_API_KEY is not set'),
      new InvalidArgumentError('rate too high'),
      new ServiceError('RULE_REFUSED', 'refused', { method: 'POST', path: '/x' }),
      new StorePathError('/tmp', 'a folder'),
    ];
    expect(errors.map((error) => [error.code, error.exitCode])).toEqual([
      ['USER_INPUT', 1],
      ['USAGE', 2],
      ['CONFIGURATION', 1],
      ['INVALID_ARGUMENT', 2],
      ['RULE_REFUSED', 1],
      ['STORE_PATH_NOT_A_DATABASE', 1],
    ]);
    for (const error of errors) expect(error.exitCode).toBe(ERROR_CODES[error.code].exitCode);
  });
});

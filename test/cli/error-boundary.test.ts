import { describe, expect, it } from 'vitest';
import { AppError, ConfigurationError } from '../../src/domain/index.js';
import { StoreVersionError } from '../../src/store/index.js';
import { reportError } from '../../src/cli/error-boundary.js';
import { ConfigFileError } from '../../src/config/index.js';
import { UserError } from '../../src/cli/user-error.js';
import { InvalidArgumentError, ServiceError } from '../../src/service/index.js';

describe('the CLI error boundary', () => {
  it('prints expected failures on one line with their exit code', () => {
    expect(reportError(new UserError('bad flag', 'USAGE'))).toEqual({ exitCode: 2, text: 'lendbot: bad flag' });
    expect(reportError(new ConfigurationError('LENDBOT_API_KEY is not set'))).toEqual({
      exitCode: 1,
      text: 'lendbot: LENDBOT_API_KEY is not set',
    });
    expect(reportError(new InvalidArgumentError('rate too high'))).toEqual({ exitCode: 2, text: 'lendbot: rate too high' });
    const service = new ServiceError('AMBIGUOUS_OUTCOME', 'failed after the request was sent (ETIMEDOUT); it may have been applied', {
      method: 'POST',
      path: '/api/v3/loan_requests/1/make_offer/',
    });
    expect(reportError(service).text).toBe(
      'lendbot: POST /api/v3/loan_requests/1/make_offer/ failed after the request was sent (ETIMEDOUT); it may have been applied [AMBIGUOUS_OUTCOME] (the request may have been applied; check the account before repeating it)',
    );
  });

  it('lists every problem of a config or strategy file, without a stack', () => {
    const error = new ConfigFileError('lendbot.yaml', [
      { file: 'lendbot.yaml', line: 3, col: 13, path: 'poll.schedule', message: 'not a cron expression' },
      { file: 'lendbot.yaml', line: 6, col: 1, path: 'webhok', message: 'unknown key "webhok"; did you mean "webhook"?' },
    ]);
    expect(reportError(error)).toEqual({
      exitCode: 1,
      text: 'lendbot: lendbot.yaml: 2 problems\nlendbot.yaml:3:13 poll.schedule: not a cron expression\nlendbot.yaml:6:1 webhok: unknown key "webhok"; did you mean "webhook"?',
    });
  });

  it('treats an operating-system error as the machine’s problem, not a bug', () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/data/x.jsonl'"), {
      code: 'EACCES',
      syscall: 'open',
      path: '/data/x.jsonl',
    });
    expect(reportError(error)).toEqual({ exitCode: 1, text: 'lendbot: cannot open /data/x.jsonl: EACCES' });
  });

  it('says an unexpected error is a bug and shows its stack', () => {
    const report = reportError(new TypeError('x is undefined'));
    expect(report.exitCode).toBe(70);
    expect(report.text).toMatch(
      /^lendbot: unexpected error; this is a bug, please report it with the lines below\.\nTypeError: x is undefined\n\s+at /,
    );
  });

  it('treats every AppError as expected, whichever part raised it, by its one base class', () => {
    const error = new StoreVersionError('data/lendbot.db', 9, 3);
    expect(error).toBeInstanceOf(AppError);
    expect(reportError(error)).toEqual({ exitCode: 1, text: `lendbot: ${error.message}` });
    expect(reportError(new Error('boom')).exitCode).toBe(70);
  });
});

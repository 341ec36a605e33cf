/**
 * The one catalogue of lendbot's error codes: every `code` an AppError carries, what it means,
 * which class raises it and the exit code the CLI ends with (as fastify's `lib/errors.js`).
 * docs/errors.md shows the same list as one table; test/domain/error-codes.test.ts scans src/ for
 * every AppError subclass and checks its codes are here and in that table, so none goes unlisted.
 */

/** What one code means and how the CLI ends on it. */
export interface ErrorCodeEntry {
  /** The AppError subclass that carries the code. */
  raisedBy: string;
  /** The CLI's exit code: 1 for an expected failure, 2 for a usage error, 3 for a result held back because it did not hold. */
  exitCode: 1 | 2 | 3;
  /** What happened, in a sentence a user can act on. */
  meaning: string;
}

export const ERROR_CODES = {
  USER_INPUT: {
    raisedBy: 'UserError',
    exitCode: 1,
    meaning:
      'A command could not do what was asked: a missing file or option, options that do not go together, a check that failed; the message says what to change.',
  },
  USAGE: {
    raisedBy: 'UserError',
    exitCode: 2,
    meaning:
      'An option or argument has a value the command cannot take (not a number, out of range); the message says what a good value looks like.',
  },
  NOT_HELD_OUT: {
    raisedBy: 'UserError',
    exitCode: 3,
    meaning:
      'lendbot train did not write its result: the new calibration or model loses on the held-out period in some borrower world; the figures per world are printed above (--ignore-worlds writes it anyway).',
  },
  CONFIGURATION: {
    raisedBy: 'ConfigurationError',
    exitCode: 1,
    meaning: 'A required setting is missing or wrong; the message names the environment variable or option to fix.',
  },
  CONFIG_FILE: {
    raisedBy: 'ConfigFileError',
    exitCode: 1,
    meaning:
      'A configuration or strategy file could not be read, parsed or validated; every problem is listed as file:line:col path: message.',
  },
  INVALID_ARGUMENT: {
    raisedBy: 'InvalidArgumentError',
    exitCode: 2,
    meaning: 'A value was refused before anything was sent to the marketplace (a rate outside 0.03 to 2.0, a bad list filter).',
  },
  STORE_VERSION_TOO_NEW: {
    raisedBy: 'StoreVersionError',
    exitCode: 1,
    meaning: 'The database was written by a newer lendbot; upgrade lendbot or point LENDBOT_DB (--db) at another file.',
  },
  STORE_MODE_MISMATCH: {
    raisedBy: 'StoreModeError',
    exitCode: 1,
    meaning:
      'lendbot run was asked to run live on a dry-run database, or a dry run on a live one; the message says which flag or file to use (--dry-run, another --db, or --switch-db-mode).',
  },
  STORE_PATH_NOT_A_DATABASE: {
    raisedBy: 'StorePathError',
    exitCode: 1,
    meaning: 'LENDBOT_DB (--db) names a folder, a device or a file that is not a database; nothing was changed there.',
  },
  STORE_NOT_LENDBOT: {
    raisedBy: 'StoreNotLendbotsError',
    exitCode: 1,
    meaning:
      "The file given is not lendbot's database: another program's SQLite file (or, to a command that only reads, an empty file); nothing was changed there.",
  },
  STORE_NEEDS_UPGRADE: {
    raisedBy: 'StoreNeedsUpgradeError',
    exitCode: 1,
    meaning: 'The database is at an older schema version; a command that only reads never upgrades it: run lendbot run once, which does.',
  },
  STORE_UNREADABLE: {
    raisedBy: 'StoreUnreadableError',
    exitCode: 1,
    meaning: 'The database file is truncated or damaged; nothing was changed there. Restore it from a backup.',
  },
  AUTH_MISSING_CREDENTIALS: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning:
      'The marketplace saw no credentials (403 "Authentication credentials were not provided."); set LENDBOT_API_KEY and LENDBOT_SECRET_KEY.',
  },
  AUTH_INVALID_HMAC: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The request signature is wrong or expired (403 "Invalid HMAC"); check LENDBOT_SECRET_KEY and LENDBOT_SIGNATURE_MODE.',
  },
  AUTH_INVALID_API_KEY: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The API key is unknown or revoked (403 "Invalid API Key"); check LENDBOT_API_KEY.',
  },
  AUTH_TIMESTAMP_OUT_OF_RANGE: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace and this machine disagree on the time (403 "Timestamp out of range"); check the machine\'s clock.',
  },
  AUTH_FORBIDDEN: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace refused the call with 401 or 403 and a text other than the four authentication texts.',
  },
  RULE_REFUSED: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace refused by one of its rules (an offer rule, a funding precondition, a bad id); nothing was applied.',
  },
  NOT_FOUND: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace has no such loan request, aggregation or score (404).',
  },
  RATE_LIMITED: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'Too many requests (429); lendbot comes back when the marketplace says, or after its back-off.',
  },
  SERVER_ERROR: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace failed (5xx) on a request that is safe to repeat.',
  },
  NETWORK_ERROR: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The connection failed (refused, DNS, reset, timeout) on a request that is safe to repeat.',
  },
  AMBIGUOUS_OUTCOME: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning:
      'An offer or funding call whose outcome is unknown: it may have been applied. lendbot reconciles it and never resends it blindly.',
  },
  REDIRECT_REFUSED: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning:
      'The marketplace answered with a redirect lendbot does not follow (another origin, a paid call, a POST); check LENDBOT_BASE_URL.',
  },
  RESPONSE_TOO_LARGE: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: "An answer was larger than its endpoint's limit (service.max_response_bytes); reading stopped at the limit.",
  },
  MALFORMED_RESPONSE: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The answer was not what the marketplace specification says (bad JSON, a wrong shape, a next page on another host).',
  },
  HTTP_ERROR: {
    raisedBy: 'ServiceError',
    exitCode: 1,
    meaning: 'The marketplace answered with an HTTP status none of the codes above covers.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

/** Every code an AppError may carry. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Logging: pino JSON lines, one child logger per component (`log.child({ component: 'webhook' })`).
 * Keys, secrets, signatures, tokens and bank memo text are redacted wherever they appear in a
 * logged object, so a log file can be shared with support without leaking anything.
 */
import { pino, type Logger, type DestinationStream, type Level } from 'pino';

export type { Logger };

/** Paths pino censors; `*` matches one level, so common nestings are listed. */
export const REDACTED_PATHS = [
  'apiKey',
  'secretKey',
  'secret',
  'webhookSecret',
  'bearerToken',
  'token',
  'password',
  'authorization',
  'headers["x-api-key"]',
  'headers["x-hmac"]',
  'headers.authorization',
  'headers["X-API-KEY"]',
  'headers["X-HMAC"]',
  'headers.Authorization',
  '*.apiKey',
  '*.secretKey',
  '*.secret',
  '*.webhookSecret',
  '*.bearerToken',
  '*.token',
  '*.authorization',
  '*.headers["x-api-key"]',
  '*.headers["x-hmac"]',
  '*.headers.authorization',
  'Memo',
  '*.Memo',
  '*.*.Memo',
  'BankAcctTrnRec[*].Memo',
  '*.BankAcctTrnRec[*].Memo',
  '*.*.BankAcctTrnRec[*].Memo',
];

export interface LoggerOptions {
  level?: Level | 'silent';
  /** Where lines go; stdout by default. Tests pass an in-memory stream. */
  destination?: DestinationStream;
  /** Human-readable lines (pino-pretty) instead of JSON; the default when stdout is a terminal. */
  pretty?: boolean;
}

/** Creates the root logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { app: 'lendbot' },
  };
  if (options.destination) return pino(base, options.destination);
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  if (pretty) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:standard' } } });
  }
  return pino(base);
}

/** A logger that writes nothing (the default where none is given). */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * Logging: pino JSON lines, one child logger per component (`log.child({ component: 'webhook' })`).
 * Keys, secrets, signatures, tokens and bank memo text are redacted wherever they appear in a
 * logged object, at any depth, so a log file can be shared with support without leaking anything.
 */
import { pino, type Logger, type DestinationStream, type Level } from 'pino';

export type { Logger };

/** Keys whose values never reach a log line, at any depth (compared without case). */
export const REDACTED_KEYS = new Set([
  'apikey',
  'secretkey',
  'secret',
  'webhooksecret',
  'bearertoken',
  'token',
  'password',
  'authorization',
  'x-api-key',
  'x-hmac',
  // Bank transaction memos are free text from the bank and may hold personal data.
  'memo',
]);

const CENSOR = '[redacted]';

/**
 * A copy of `value` with every redacted key censored, however deep (pino's own redaction needs
 * each path spelled out, and a memo sits five levels down in banking data).
 */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = REDACTED_KEYS.has(key.toLowerCase()) ? CENSOR : redactDeep(item, depth + 1);
  }
  return copy;
}

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
    formatters: { log: (object: Record<string, unknown>) => redactDeep(object) as Record<string, unknown> },
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

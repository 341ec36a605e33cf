/**
 * Logging: pino JSON lines, one child logger per component (`log.child({ component: 'webhook' })`).
 * Keys, secrets, signatures, tokens and bank memo text are redacted wherever they appear in a
 * logged object, at any depth, so a log file can be shared with support without leaking anything.
 */
import { pino, type Logger, type DestinationStream, type Level } from 'pino';
import { prettyFactory } from 'pino-pretty';

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
  /**
   * Human-readable lines (pino-pretty) instead of JSON; the default when stdout is a terminal
   * and no destination is given.
   */
  pretty?: boolean;
}

/** pino-pretty's settings: colours (a terminal), local time. */
const PRETTY_OPTIONS = { colorize: true, translateTime: 'SYS:standard' };

/** Creates the root logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? 'info',
    formatters: { log: (object: Record<string, unknown>) => redactDeep(object) as Record<string, unknown> },
    base: { app: 'lendbot' },
  };
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  if (!pretty) return options.destination ? pino(base, options.destination) : pino(base);
  // Stdout as pino's JSON lines use it: buffered, flushed at exit.
  return pino(base, prettyStream(options.destination ?? pino.destination(1)));
}

/**
 * Formats each JSON line with pino-pretty in this thread and writes it on. Not pino's
 * `transport: 'pino-pretty'`: that runs in a worker thread, a second V8 isolate costing about
 * 10 MB of the daemon's resident memory on a terminal, for the same lines.
 */
function prettyStream(destination: DestinationStream): DestinationStream {
  const format = prettyFactory(PRETTY_OPTIONS);
  return { write: (line: string) => destination.write(format(line)) };
}

/** A logger that writes nothing (the default where none is given). */
export const silentLogger: Logger = pino({ level: 'silent' });

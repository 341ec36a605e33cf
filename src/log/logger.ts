/**
 * Logging: pino JSON lines, one child logger per component (`log.child({ component: 'webhook' })`).
 * Keys, secrets, signatures, tokens and bank memo text are redacted wherever they appear in a
 * logged object, at any depth, so a log file can be shared with support without leaking anything.
 */
import { pino, type Logger, type DestinationStream, type Level } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { AppError } from '../domain/index.js';
import { terminalText, type LogRecord } from './terminal-lines.js';

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

/**
 * pino-pretty's settings: colours (a terminal), the local time of day, each line on one line
 * (fields after the message; an error's stack still gets its own lines). `app` is the same on
 * every line.
 */
const PRETTY_OPTIONS = { colorize: true, translateTime: 'SYS:HH:MM:ss', singleLine: true, ignore: 'app' };

/** Creates the root logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const base = {
    level,
    formatters: { log: (object: Record<string, unknown>) => redactDeep(object) as Record<string, unknown> },
    base: { app: 'lendbot' },
    serializers: { err: errorForLog },
  };
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  if (!pretty) return options.destination ? pino(base, options.destination) : pino(base);
  // Stdout as pino's JSON lines use it: buffered, flushed at exit.
  // At debug a person asked for everything: folded lines are shown too.
  const verbose = level === 'debug' || level === 'trace';
  const logger = pino(base, prettyStream(options.destination ?? pino.destination(1), verbose));
  TERMINAL_LOGGERS.add(logger);
  return logger;
}

/**
 * An expected failure (an AppError: the service refusing, an outage, a bad setting) is logged as
 * its code and message on the line, without a stack: a stack says "bug" and hides the one line
 * that matters (issue 28). Anything else keeps pino's serialization, stack included.
 */
function errorForLog(error: unknown): unknown {
  if (!(error instanceof AppError)) return pino.stdSerializers.err(error as Error);
  return { type: error.name, code: error.code, message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) };
}

/** Root loggers that write to a terminal; a child is found through its root (see onTerminal). */
const TERMINAL_LOGGERS = new WeakSet<Logger>();

/**
 * Whether `log` writes pino-pretty lines for a person (a terminal) rather than JSON: the minute's
 * summary (src/ops/terminal-summary.ts) is only for them. pino makes a child with its parent as
 * prototype, so the chain leads to the root.
 */
export function onTerminal(log: Logger): boolean {
  for (let current: object | null = log; current !== null; current = Object.getPrototypeOf(current) as object | null) {
    if (TERMINAL_LOGGERS.has(current as Logger)) return true;
  }
  return false;
}

/**
 * Formats each JSON line with pino-pretty in this thread and writes it on. Not pino's
 * `transport: 'pino-pretty'`: that runs in a worker thread, a second V8 isolate costing about
 * 10 MB of the daemon's resident memory on a terminal, for the same lines.
 *
 * The plain-words lines (terminal-lines.ts: decisions, the summary) are made here, from the
 * record already written, rather than by logging different messages on a terminal: the JSON a
 * log processor reads is then the same on and off a terminal, and the wording can change without
 * touching a line any program depends on. A record with plain words is handed to pino-pretty
 * with only its time and level beside them, so every line keeps the same layout and colours.
 */
function prettyStream(destination: DestinationStream, verbose: boolean): DestinationStream {
  const format = prettyFactory(PRETTY_OPTIONS);
  return {
    write: (line: string) => {
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        destination.write(format(line));
        return;
      }
      const text = terminalText(record, verbose);
      if (text === null) return;
      destination.write(format(text === undefined ? record : { level: record.level, time: record.time, msg: text }));
    },
  };
}

/** A logger that writes nothing (the default where none is given). */
export const silentLogger: Logger = pino({ level: 'silent' });

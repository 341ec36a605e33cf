/**
 * Wrong tokens on the operator listener, throttled and logged as a summary instead of a line each.
 *
 * - A right token is never throttled: it is compared before anything is counted (the route hook,
 *   auth-throttle-routes.ts), so wrong guesses from the operator's own address, or from every
 *   client behind one reverse proxy, never lock the operator or an agent out (issue 37, item 5).
 *   The tokens are long and random (operator-tokens.ts): the throttle bounds the cost and the log
 *   of a flood of guesses, not the odds of one, which are nil.
 * - A wrong token (a bearer header on any route, a sign-in's body) is a failure counted twice: for
 *   the client (its address, or behind a proxy of `ops.trusted_proxies` the address the proxy
 *   forwards) and for the token presented (a digest, kept in memory only). A client or a token
 *   with PER_CLIENT failures in its window is answered 429 with Retry-After (the window's end)
 *   for every wrong token it presents until then.
 * - With OVERALL failures in a window from all clients together (many addresses guessing), every
 *   wrong token is answered so, except from loopback (this machine, an SSH tunnel).
 * - Requests without a token are not failures (a dashboard asking before sign-in, a cookie a
 *   restart forgot): they are refused, never throttled.
 *
 * Logging: the first refusals of a window are a line each (`LINES_PER_WINDOW` at most, whoever
 * sends them); the rest are counted and told in one summary line when the window is over (at the
 * next refusal after it, at the next sweep, or at close).
 *
 * Time is the injected clock; memory is bounded (`MAX_KEYS` clients and tokens remembered each,
 * oldest dropped first).
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { isLoopbackAddress, type WrongToken } from './wrong-token.js';

/** Wrong tokens from one client, or of one token, in a window before it is answered 429 until the window ends. */
const PER_CLIENT = 10;
/** Wrong tokens from all clients together in a window before every one but loopback is. */
const OVERALL = 100;
const WINDOW_MS = 60_000;
/** Clients (and token digests) remembered at most: past it the oldest are forgotten (the overall limit still counts them). */
const MAX_KEYS = 10_000;
/** Refusals logged one by one in a window; the rest go into the summary. */
const LINES_PER_WINDOW = 10;
/** Clients named in a summary line, those with most refusals first. */
const SUMMARY_CLIENTS = 5;

interface Window {
  startMs: number;
  failures: number;
}

/** What the log window has counted but not said line by line. */
interface LogWindow {
  startMs: number;
  lines: number;
  /** Refusals not logged one by one, by client (bounded: beyond MAX_KEYS they count as "other"). */
  unlogged: Map<string, number>;
  unloggedTotal: number;
  /** 429 answers given in the window. */
  throttled: number;
}

/** A refused request, as logged: the path without its query string, never a header or a token. */
export interface Refusal {
  address: string | undefined;
  method: string;
  path: string;
  why: string;
}

/** Failures by key in windows of WINDOW_MS, at most MAX_KEYS keys. */
class WindowCounts {
  private readonly windows = new Map<string, Window>();

  /** The key's window if it is still running at `now`. */
  current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    return window !== undefined && now - window.startMs < WINDOW_MS ? window : undefined;
  }

  count(key: string, now: number): Window {
    const own = this.current(key, now) ?? { startMs: now, failures: 0 };
    own.failures += 1;
    this.windows.delete(key);
    if (this.windows.size >= MAX_KEYS) {
      for (const [other, state] of this.windows) if (now - state.startMs >= WINDOW_MS) this.windows.delete(other);
      while (this.windows.size >= MAX_KEYS) {
        const oldest = this.windows.keys().next().value;
        if (oldest === undefined) break;
        this.windows.delete(oldest);
      }
    }
    this.windows.set(key, own);
    return own;
  }
}

/** A token's digest: enough to count its repeats, never enough to recover it. */
function tokenKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 24);
}

export class AuthThrottle {
  private readonly clients = new WindowCounts();
  private readonly tokens = new WindowCounts();
  private overall: Window;
  private logWindow: LogWindow;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.overall = { startMs: clock.now(), failures: 0 };
    this.logWindow = this.newLogWindow(clock.now());
  }

  /**
   * Seconds a wrong token's presenter must wait, or undefined when it may be refused the usual
   * way (401) and counted. Asked only once the token is known to be wrong; a 429 is counted for
   * the summary.
   */
  retryAfterSeconds(wrong: WrongToken): number | undefined {
    const now = this.clock.now();
    this.rollLogWindow(now);
    const ends: number[] = [];
    for (const window of [this.clients.current(wrong.client ?? 'unknown', now), this.tokens.current(tokenKey(wrong.token), now)])
      if (window !== undefined && window.failures >= PER_CLIENT) ends.push(window.startMs + WINDOW_MS);
    if (!isLoopbackAddress(wrong.peer)) {
      this.overall = this.running(this.overall, now);
      if (this.overall.failures >= OVERALL) ends.push(this.overall.startMs + WINDOW_MS);
    }
    if (ends.length === 0) return undefined;
    this.logWindow.throttled += 1;
    return Math.max(1, Math.ceil((Math.max(...ends) - now) / 1000));
  }

  /** A wrong token: counts toward its client's limit, its own and the overall one. */
  failed(wrong: WrongToken): void {
    const now = this.clock.now();
    this.rollLogWindow(now);
    const key = wrong.client ?? 'unknown';
    const own = this.clients.count(key, now);
    const token = this.tokens.count(tokenKey(wrong.token), now);
    this.overall = this.running(this.overall, now);
    this.overall.failures += 1;
    const seconds = Math.ceil(WINDOW_MS / 1000);
    const waitSeconds = (window: Window) => Math.max(1, Math.ceil((window.startMs + WINDOW_MS - now) / 1000));
    if (own.failures === PER_CLIENT) {
      this.say(key, () =>
        this.log.warn(
          { remoteAddress: wrong.client, failures: own.failures, retryAfterSeconds: waitSeconds(own) },
          `operator: ${own.failures} wrong tokens from ${key} in ${seconds} s; its wrong tokens are answered 429 for ${waitSeconds(own)} s (a right one still gets in)`,
        ),
      );
    }
    if (token.failures === PER_CLIENT) {
      this.say(key, () =>
        this.log.warn(
          { remoteAddress: wrong.client, failures: token.failures, retryAfterSeconds: waitSeconds(token) },
          `operator: one wrong token presented ${token.failures} times in ${seconds} s; it is answered 429 for ${waitSeconds(token)} s from any address`,
        ),
      );
    }
    if (this.overall.failures === OVERALL) {
      this.log.warn(
        { failures: this.overall.failures },
        `operator: ${this.overall.failures} wrong tokens in ${seconds} s from all addresses together; wrong tokens from any address but loopback are answered 429 until the window ends`,
      );
    }
  }

  /** A refused request: a line while the window has room for it, else a count for the summary. */
  refused(refusal: Refusal): void {
    this.rollLogWindow(this.clock.now());
    this.say(refusal.address ?? 'unknown', () =>
      this.log.warn(
        { remoteAddress: refusal.address, method: refusal.method, path: refusal.path },
        `operator request refused: ${refusal.why}`,
      ),
    );
  }

  /** Says what the window counted once it is over (a timer calls it; close calls it with `force`). */
  flush(force = false): void {
    const now = this.clock.now();
    if (force) this.summarise(now);
    else this.rollLogWindow(now);
  }

  /** A line, while the window has room for it; else a count for the summary. */
  private say(key: string, line: () => void): void {
    const window = this.logWindow;
    if (window.lines < LINES_PER_WINDOW) {
      window.lines += 1;
      line();
      return;
    }
    window.unloggedTotal += 1;
    if (window.unlogged.has(key) || window.unlogged.size < MAX_KEYS) window.unlogged.set(key, (window.unlogged.get(key) ?? 0) + 1);
  }

  private rollLogWindow(now: number): void {
    if (now - this.logWindow.startMs >= WINDOW_MS) this.summarise(now);
  }

  private summarise(now: number): void {
    const window = this.logWindow;
    this.logWindow = this.newLogWindow(now);
    if (window.unloggedTotal === 0 && window.throttled === 0) return;
    const top = [...window.unlogged]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SUMMARY_CLIENTS)
      .map(([address, refused]) => ({ address, refused }));
    const seconds = Math.max(1, Math.round((now - window.startMs) / 1000));
    this.log.warn(
      { refused: window.unloggedTotal, addresses: window.unlogged.size, throttled: window.throttled, top, seconds },
      `operator requests refused: ${window.unloggedTotal} more in the last ${seconds} s from ${window.unlogged.size} addresses, not logged one by one; ${window.throttled} answered 429 (too many wrong tokens)`,
    );
  }

  private newLogWindow(now: number): LogWindow {
    return { startMs: now, lines: 0, unlogged: new Map(), unloggedTotal: 0, throttled: 0 };
  }

  /** The overall window if it still runs at `now`, else a new one. */
  private running(window: Window, now: number): Window {
    return now - window.startMs < WINDOW_MS ? window : { startMs: now, failures: 0 };
  }
}

/**
 * Wrong tokens on the operator listener, throttled by client address and overall, and logged as a
 * summary instead of a line each.
 *
 * - A wrong bearer token (on /mcp, /api, /metrics, /reports, GET /api/me too) or a wrong token at
 *   the dashboard's sign-in is a failure of the socket's address (never a forwarding header),
 *   counted once a request.
 * - An address with `perAddress` failures in its window is answered 429 with Retry-After (the
 *   window's end) for every request that carries a token until then, without the token being
 *   compared: its guessing stops there. The operator on another address is not affected.
 * - With `overall` failures in a window from all addresses together (many addresses guessing),
 *   every address but loopback is answered so: this machine, and an SSH tunnel, which arrives on
 *   loopback, keep their way in.
 * - Requests without a token are not failures (a dashboard asking before sign-in, a cookie a
 *   restart forgot): they are refused, never throttled.
 *
 * Logging: the first refusals of a window are a line each, as before (`LINES_PER_WINDOW` at
 * most, whoever sends them); the rest are counted and told in one summary line when the window
 * is over (at the next refusal after it, at the next sweep, or at close).
 *
 * Time is the injected clock; memory is bounded (`MAX_ADDRESSES` remembered, oldest dropped first).
 */
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { isLoopbackAddress, pathOf } from './api/operator-auth.js';
import type { OperatorRoutes } from './operator-listener.js';

/** The dashboard's sign-in: its body carries a token. */
const SIGN_IN_PATH = '/api/session';

export interface ThrottleLimits {
  /** Wrong tokens from one address in a window before it is answered 429 until the window ends. */
  perAddress: number;
  /** Wrong tokens from all addresses together in a window before every address but loopback is. */
  overall: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAddress: 10, overall: 100, windowMs: 60_000 };
/** Addresses remembered at most: past it the oldest are forgotten (the overall limit still counts them). */
const MAX_ADDRESSES = 10_000;
/** Refusals logged one by one in a window; the rest go into the summary. */
const LINES_PER_WINDOW = 10;
/** Addresses named in a summary line, those with most refusals first. */
const SUMMARY_ADDRESSES = 5;

interface Window {
  startMs: number;
  failures: number;
}

/** What the log window has counted but not said line by line. */
interface LogWindow {
  startMs: number;
  lines: number;
  /** Refusals not logged one by one, by address (bounded: beyond MAX_ADDRESSES they count as "other"). */
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

export class AuthThrottle {
  private readonly addresses = new Map<string, Window>();
  private overall: Window;
  private logWindow: LogWindow;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {
    this.overall = { startMs: clock.now(), failures: 0 };
    this.logWindow = this.newLogWindow(clock.now());
  }

  /**
   * Seconds an address must wait before presenting a token again, or undefined when it may now.
   * Asked before any token is compared; a 429 given is counted for the summary.
   */
  retryAfterSeconds(address: string | undefined): number | undefined {
    const now = this.clock.now();
    this.rollLogWindow(now);
    const key = address ?? 'unknown';
    const own = this.current(this.addresses.get(key), now);
    let untilMs: number | undefined;
    if (own !== undefined && own.failures >= this.limits.perAddress) untilMs = own.startMs + this.limits.windowMs;
    else if (!isLoopbackAddress(address)) {
      this.overall = this.current(this.overall, now) ?? { startMs: now, failures: 0 };
      if (this.overall.failures >= this.limits.overall) untilMs = this.overall.startMs + this.limits.windowMs;
    }
    if (untilMs === undefined) return undefined;
    this.logWindow.throttled += 1;
    return Math.max(1, Math.ceil((untilMs - now) / 1000));
  }

  /** A wrong token from `address`: counts toward its limit and the overall one. */
  failed(address: string | undefined): void {
    const now = this.clock.now();
    this.rollLogWindow(now);
    this.countFailure(address ?? 'unknown', now, address);
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

  private countFailure(key: string, now: number, address: string | undefined): void {
    const own = this.current(this.addresses.get(key), now) ?? { startMs: now, failures: 0 };
    own.failures += 1;
    this.remember(key, own, now);
    this.overall = this.current(this.overall, now) ?? { startMs: now, failures: 0 };
    this.overall.failures += 1;
    const seconds = Math.ceil(this.limits.windowMs / 1000);
    if (own.failures === this.limits.perAddress) {
      const waitSeconds = Math.max(1, Math.ceil((own.startMs + this.limits.windowMs - now) / 1000));
      this.say(key, () =>
        this.log.warn(
          { remoteAddress: address, failures: own.failures, retryAfterSeconds: waitSeconds },
          `operator: ${own.failures} wrong tokens from ${key} in ${seconds} s; its requests with a token are answered 429 for ${waitSeconds} s`,
        ),
      );
    }
    if (this.overall.failures === this.limits.overall) {
      this.log.warn(
        { failures: this.overall.failures },
        `operator: ${this.overall.failures} wrong tokens in ${seconds} s from all addresses together; requests with a token from any address but loopback are answered 429 until the window ends`,
      );
    }
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
    if (window.unlogged.has(key) || window.unlogged.size < MAX_ADDRESSES) window.unlogged.set(key, (window.unlogged.get(key) ?? 0) + 1);
  }

  private rollLogWindow(now: number): void {
    if (now - this.logWindow.startMs >= this.limits.windowMs) this.summarise(now);
  }

  private summarise(now: number): void {
    const window = this.logWindow;
    this.logWindow = this.newLogWindow(now);
    if (window.unloggedTotal === 0 && window.throttled === 0) return;
    const top = [...window.unlogged]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SUMMARY_ADDRESSES)
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

  /** The window if it is still running at `now`, else undefined. */
  private current(window: Window | undefined, now: number): Window | undefined {
    return window !== undefined && now - window.startMs < this.limits.windowMs ? window : undefined;
  }

  private remember(key: string, window: Window, now: number): void {
    this.addresses.delete(key);
    if (this.addresses.size >= MAX_ADDRESSES) {
      for (const [other, state] of this.addresses) if (this.current(state, now) === undefined) this.addresses.delete(other);
      while (this.addresses.size >= MAX_ADDRESSES) {
        const oldest = this.addresses.keys().next().value;
        if (oldest === undefined) break;
        this.addresses.delete(oldest);
      }
    }
    this.addresses.set(key, window);
  }
}

/** Whether a request presents a token: a bearer header, or the dashboard's sign-in. */
function presentsToken(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || (request.method === 'POST' && pathOf(request) === SIGN_IN_PATH);
}

/**
 * The throttle as the first of the listener's route groups: an onRequest hook on the whole
 * listener that answers 429 to a request presenting a token from an address (or, overall, from
 * anywhere but loopback) over its limit, before any route compares the token.
 */
export function authThrottleRoutes(throttle: AuthThrottle): OperatorRoutes {
  let sweeper: NodeJS.Timeout | undefined;
  return {
    name: 'auth-throttle',
    register(app) {
      app.addHook('onRequest', async (request, reply) => {
        if (!presentsToken(request)) return undefined;
        const wait = throttle.retryAfterSeconds(request.raw.socket.remoteAddress);
        if (wait === undefined) return undefined;
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .header('cache-control', 'no-store')
          .send({ error: `too many wrong tokens from this address: retry in ${wait} s` });
      });
      // The summary of a window is said even when no refusal follows it.
      sweeper = setInterval(() => throttle.flush(), 60_000);
      sweeper.unref();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      throttle.flush(true);
    },
  };
}

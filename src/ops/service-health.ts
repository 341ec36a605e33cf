/**
 * Whether the marketplace accepts us: while it refuses our credentials or our clock (403 Invalid
 * API Key, Invalid HMAC, Timestamp out of range, ...) or redirects our calls to another origin, nothing the daemon does can succeed, and
 * an operator must act. The tracker hears every client call; an authentication refusal makes the
 * service "degraded" (`/healthz` says so with the reason, one warning in the log, one
 * `service_degraded` notification), and the next successful call ends it (one info line).
 */
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { AUTH_REFUSAL_CODES, OPERATOR_HINTS, ServiceError, type ServiceErrorCode } from '../service/index.js';

/** Refusals that say the service will not accept any call from us as we are configured. */
const ACCOUNT_CODES: ReadonlySet<ServiceErrorCode> = new Set([
  ...AUTH_REFUSAL_CODES,
  'AUTH_FORBIDDEN',
  // The service sends our calls to another origin: lendbot does not follow (the signed headers
  // would go with them), so the calls fail until LENDBOT_BASE_URL or the service is fixed.
  'REDIRECT_REFUSED',
]);

// A degradation that comes back within this time after recovering is not notified again.
const RENOTIFY_AFTER_MS = 60 * 60_000;

export interface ServiceDegraded {
  code: ServiceErrorCode;
  /** The refusal, with what to check ("check LENDBOT_SECRET_KEY ..."). */
  reason: string;
  sinceMs: number;
}

export interface ServiceHealthDeps {
  clock: Clock;
  log: Logger;
  /** Sends the `service_degraded` notification. */
  notify?: (data: Record<string, unknown>) => void;
}

export class ServiceHealth {
  private degraded: ServiceDegraded | undefined;
  private lastNotifiedMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: ServiceHealthDeps) {}

  /** The degradation in force, if any. */
  current(): ServiceDegraded | undefined {
    return this.degraded;
  }

  /** Hears one client call: `error` undefined for a success. */
  observe(endpoint: string, error?: unknown): void {
    const { clock, log } = this.deps;
    if (error === undefined) {
      if (this.degraded !== undefined) {
        log.info({ endpoint, code: this.degraded.code, sinceMs: this.degraded.sinceMs }, 'marketplace accepts our calls again');
        this.degraded = undefined;
      }
      return;
    }
    if (!(error instanceof ServiceError) || !ACCOUNT_CODES.has(error.code)) return;
    if (this.degraded?.code === error.code) return;
    const hint = OPERATOR_HINTS[error.code];
    const reason = `${error.serviceText ?? error.code} on ${endpoint}${hint ? `: ${hint}` : ''}`;
    this.degraded = { code: error.code, reason, sinceMs: clock.now() };
    log.warn({ endpoint, code: error.code, reason }, 'marketplace refuses our calls; the daemon is degraded until it accepts them again');
    if (clock.now() - this.lastNotifiedMs >= RENOTIFY_AFTER_MS) {
      this.lastNotifiedMs = clock.now();
      this.deps.notify?.({ code: error.code, reason });
    }
  }
}

/**
 * The daemon's health, as `GET /healthz` reports it: the process is up, the database takes a
 * write, the last complete poll is recent enough, the webhook inbox is not piling up, and the
 * marketplace accepts our credentials and clock, and validly signed webhooks are not being refused.
 * Any failing check makes the whole answer 503, so an orchestrator restarts or alerts; a refusing
 * marketplace, or webhooks we keep misreading, are reported as `degraded`, with the reason, since
 * restarting will not mend them.
 */
import type { Clock } from '../clock/clock.js';
import { isoFromMs, LAST_POLL_KEY, msFromIso, type Store } from '../store/index.js';
import type { ServiceDegraded } from './service-health.js';
import { refusalWarningText, storedRefusalWarning } from '../webhook/refusal-warning.js';

export const HEALTH_PROBE_KEY = 'health_probe_at';
export const DEFAULT_MAX_POLL_AGE_MS = 10 * 60_000;
export const DEFAULT_MAX_INBOX_DEPTH = 1000;

export interface HealthOptions {
  store: Pick<Store, 'state' | 'inbox'>;
  /** The clock the poller stamps `last_poll_at` with. */
  clock: Clock;
  /** When the daemon started (same clock): before a first poll, the age counts from here. */
  startedAtMs: number;
  /** Oldest acceptable last poll, in the clock's milliseconds. */
  maxPollAgeMs?: number;
  maxInboxDepth?: number;
  /** The marketplace's refusal of our credentials or clock, if it refuses them now. */
  serviceDegraded?: () => ServiceDegraded | undefined;
}

export interface HealthReport {
  /** `degraded`: only the marketplace or webhook check fails (an operator must act; a restart will not help). */
  status: 'ok' | 'degraded' | 'failing';
  checks: {
    process: { ok: true; uptime_seconds: number };
    database: { ok: boolean; error?: string };
    poll: { ok: boolean; last_poll_at: string | null; age_seconds: number | null; max_age_seconds: number };
    inbox: { ok: boolean; depth: number | null; max_depth: number };
    service: { ok: boolean; reason?: string; since?: string };
    /** Not ok while the refused-webhooks warning holds (src/webhook/refusal-warning.ts). */
    webhook: { ok: boolean; warning?: string; since?: string; refused?: number };
  };
}

/** Runs every check; never throws. */
export function checkHealth(options: HealthOptions): HealthReport {
  const { store, clock } = options;
  const now = clock.now();
  const maxAgeMs = options.maxPollAgeMs ?? DEFAULT_MAX_POLL_AGE_MS;
  const maxDepth = options.maxInboxDepth ?? DEFAULT_MAX_INBOX_DEPTH;

  let database: HealthReport['checks']['database'] = { ok: true };
  try {
    store.state.set(HEALTH_PROBE_KEY, isoFromMs(now), now);
  } catch (error) {
    database = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }

  let lastPoll: string | null = null;
  try {
    lastPoll = store.state.get(LAST_POLL_KEY) ?? null;
  } catch {
    // An unreadable database already fails its own check.
  }
  const since = lastPoll === null ? options.startedAtMs : msFromIso(lastPoll);
  const ageMs = Math.max(0, now - since);
  const poll = {
    ok: ageMs <= maxAgeMs,
    last_poll_at: lastPoll,
    age_seconds: lastPoll === null ? null : Math.round(ageMs / 1000),
    max_age_seconds: Math.round(maxAgeMs / 1000),
  };

  let depth: number | null = null;
  try {
    depth = store.inbox.depth();
  } catch {
    // As above.
  }
  const inbox = { ok: depth !== null && depth <= maxDepth, depth, max_depth: maxDepth };

  const degraded = options.serviceDegraded?.();
  const service = degraded === undefined ? { ok: true } : { ok: false, reason: degraded.reason, since: isoFromMs(degraded.sinceMs) };

  const webhook = webhookCheck(store);

  const checks = { process: { ok: true as const, uptime_seconds: Math.round(process.uptime()) }, database, poll, inbox, service, webhook };
  const status = !(database.ok && poll.ok && inbox.ok) ? 'failing' : service.ok && webhook.ok ? 'ok' : 'degraded';
  return { status, checks };
}

function webhookCheck(store: HealthOptions['store']): HealthReport['checks']['webhook'] {
  let warning;
  try {
    warning = storedRefusalWarning(store.state);
  } catch {
    // An unreadable database already fails its own check.
  }
  if (warning === undefined) return { ok: true };
  return { ok: false, warning: refusalWarningText(warning), since: isoFromMs(warning.sinceMs), refused: warning.refused };
}

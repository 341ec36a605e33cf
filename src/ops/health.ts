/**
 * The daemon's health, as `GET /healthz` reports it: the process is up, the database takes a
 * write, the last complete poll is recent enough, the webhook inbox drains (however deep it is:
 * a backlog being worked through is healthy, one where nothing is processed is not), and the
 * marketplace accepts our credentials and clock, validly signed webhooks are not being refused,
 * and polls are not failing in a row. Any failing check makes the whole answer 503, so an
 * orchestrator restarts or alerts; a refusing marketplace, webhooks we keep misreading, or polls
 * that keep failing are reported as `degraded`, with the reason, since restarting will not mend
 * them.
 */
import type { Clock } from '../clock/clock.js';
import { isoFromMs, LAST_POLL_KEY, msFromIso, type Store } from '../store/index.js';
import type { ServiceDegraded } from './service-health.js';
import { refusalWarningText, storedRefusalWarning } from '../webhook/refusal-warning.js';

const HEALTH_PROBE_KEY = 'health_probe_at';
export const DEFAULT_MAX_POLL_AGE_MS = 10 * 60_000;
/** How long events may wait with none processed before the inbox counts as stalled. */
export const DEFAULT_MAX_INBOX_STALL_MS = 10 * 60_000;

export interface HealthOptions {
  store: Pick<Store, 'state' | 'inbox'>;
  /** The clock the poller stamps `last_poll_at` with. */
  clock: Clock;
  /** When the daemon started (same clock): before a first poll, the age counts from here. */
  startedAtMs: number;
  /** Oldest acceptable last poll, in the clock's milliseconds. */
  maxPollAgeMs?: number;
  /** Longest time events may wait while none is processed, in the clock's milliseconds. */
  maxInboxStallMs?: number;
  /** When the inbox worker last marked an event processed (the same clock), if it has since the start. */
  inboxProgressAtMs?: () => number | undefined;
  /** The marketplace's refusal of our credentials or clock, if it refuses them now. */
  serviceDegraded?: () => ServiceDegraded | undefined;
  /**
   * The polls failed since the last that succeeded (the poller's count), and how many in a row
   * fail the poll check (degraded): `poll.failures_before_degraded`.
   */
  pollFailures?: { current: () => { inRow: number; reason: string; sinceMs: number; atStart?: boolean } | undefined; max: number };
}

export interface HealthReport {
  /** `degraded`: only the marketplace or webhook check fails (an operator must act; a restart will not help). */
  status: 'ok' | 'degraded' | 'failing';
  checks: {
    process: { ok: true; uptime_seconds: number };
    database: { ok: boolean; error?: string };
    /**
     * Not ok when the last complete poll is too old (failing) or when `failed_in_row` polls failed
     * (degraded, with the last failure as `reason`, `since` the first of them).
     */
    poll: {
      ok: boolean;
      last_poll_at: string | null;
      age_seconds: number | null;
      max_age_seconds: number;
      failed_in_row?: number;
      max_failed_in_row?: number;
      reason?: string;
      since?: string;
    };
    /**
     * Not ok when events wait and none has been processed for longer than the limit, counting
     * from the later of the oldest waiting event's arrival, the last event processed and the start.
     */
    inbox: {
      ok: boolean;
      depth: number | null;
      stalled_seconds: number | null;
      max_stall_seconds: number;
      last_processed_at: string | null;
    };
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
  const fresh = ageMs <= maxAgeMs;
  const failed = options.pollFailures?.current();
  const maxFailed = options.pollFailures?.max;
  // A daemon that started into an outage is degraded from its first answer, not after `max` polls.
  const pollsFailing = failed !== undefined && maxFailed !== undefined && (failed.atStart === true || failed.inRow >= maxFailed);
  const poll: HealthReport['checks']['poll'] = {
    ok: fresh && !pollsFailing,
    last_poll_at: lastPoll,
    age_seconds: lastPoll === null ? null : Math.round(ageMs / 1000),
    max_age_seconds: Math.round(maxAgeMs / 1000),
    ...(maxFailed === undefined ? {} : { failed_in_row: failed?.inRow ?? 0, max_failed_in_row: maxFailed }),
    ...(failed === undefined ? {} : { reason: failed.reason, since: isoFromMs(failed.sinceMs) }),
  };

  const inbox = inboxCheck(options, now);

  const degraded = options.serviceDegraded?.();
  const service = degraded === undefined ? { ok: true } : { ok: false, reason: degraded.reason, since: isoFromMs(degraded.sinceMs) };

  const webhook = webhookCheck(store);

  const checks = { process: { ok: true as const, uptime_seconds: Math.round(process.uptime()) }, database, poll, inbox, service, webhook };
  // Polls that fail while the last complete one is still recent are degraded (the service fails
  // them; a restart will not mend it); once that poll is too old, the check is failing as before.
  const status = !(database.ok && fresh && inbox.ok) ? 'failing' : service.ok && webhook.ok && !pollsFailing ? 'ok' : 'degraded';
  return { status, checks };
}

/**
 * The inbox drains when events are being processed, however many wait: it is stalled only when
 * events wait and none was processed for longer than the limit (counting from the start, and
 * from the oldest waiting event's arrival, so neither a fresh start with a backlog nor a quiet
 * spell before a new event is a stall).
 */
function inboxCheck(options: HealthOptions, nowMs: number): HealthReport['checks']['inbox'] {
  const maxStallMs = options.maxInboxStallMs ?? DEFAULT_MAX_INBOX_STALL_MS;
  const progressMs = options.inboxProgressAtMs?.();
  const report = {
    max_stall_seconds: Math.round(maxStallMs / 1000),
    last_processed_at: progressMs === undefined ? null : isoFromMs(progressMs),
  };
  let depth: number;
  let oldest: string | undefined;
  try {
    depth = options.store.inbox.depth();
    oldest = depth > 0 ? options.store.inbox.unprocessed(1)[0]?.receivedAt : undefined;
  } catch {
    // An unreadable database already fails its own check.
    return { ok: false, depth: null, stalled_seconds: null, ...report };
  }
  if (depth === 0 || oldest === undefined) return { ok: true, depth, stalled_seconds: 0, ...report };
  const sinceMs = Math.max(msFromIso(oldest), progressMs ?? options.startedAtMs, options.startedAtMs);
  const stalledMs = Math.max(0, nowMs - sinceMs);
  return { ok: stalledMs <= maxStallMs, depth, stalled_seconds: Math.round(stalledMs / 1000), ...report };
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

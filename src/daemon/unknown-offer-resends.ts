/**
 * How often an offer whose outcome is unknown may be sent again. Sending again is how the spec
 * lets lendbot ask (it has no offer list to read): the service refuses a second offer on a
 * request (rule 7), so a re-send either places the offer that never arrived or answers that ours
 * exists. It is still a POST that moves money when an answer is lost, so it is bounded: at most
 * `resends` times per offer, `firstWaitMs` after the first attempt, doubling up to `maxWaitMs`.
 * Before, every poll re-sent it (9 POSTs for one request in 25 s at a 2 s poll). The count is
 * kept in the database (offers.resends), so a restart or a crash loop does not start it over.
 *
 * Once the re-sends are used up the offer is only read about: a loan of ours for its request
 * (the account sync) settles it as accepted or funded, and its request leaving the list settles
 * it as expired after the offer expiry; meanwhile its money stays reserved.
 */
import { backoffCeilingMs } from '../clock/backoff.js';
import { MINUTE_MS } from '../clock/time-constants.js';
import type { ResendSchedule } from '../store/index.js';

export interface UnknownOfferResendSettings {
  /** Re-sends per offer at most, after the first attempt; 0: never re-sent, only read about. */
  resends: number;
  /** Wait after the first attempt before the first re-send. */
  firstWaitMs: number;
  /** Longest wait between two re-sends (the wait doubles after each). */
  maxWaitMs: number;
}

export const DEFAULT_UNKNOWN_OFFER_RESENDS: UnknownOfferResendSettings = { resends: 3, firstWaitMs: MINUTE_MS, maxWaitMs: 30 * MINUTE_MS };

/** What to do with an unknown offer now: send it again (the `resend`-th time), wait, or stop asking. */
export type ResendVerdict =
  { kind: 'resend'; resend: number; schedule: ResendSchedule } | { kind: 'wait'; untilMs: number } | { kind: 'used_up'; resends: number };

/**
 * The verdict for an offer with this schedule. `firstDueMs`: when its first re-send is due, before
 * the schedule says otherwise. The schedule to store with a re-send is written BEFORE the POST: a
 * process killed during it has used that try.
 */
export function resendVerdict(
  schedule: ResendSchedule,
  firstDueMs: number,
  nowMs: number,
  settings: UnknownOfferResendSettings,
): ResendVerdict {
  if (schedule.resends >= settings.resends) return { kind: 'used_up', resends: schedule.resends };
  const dueMs = schedule.nextAtMs ?? firstDueMs;
  if (nowMs < dueMs) return { kind: 'wait', untilMs: dueMs };
  const resend = schedule.resends + 1;
  const waitMs = backoffCeilingMs(resend + 1, { baseMs: settings.firstWaitMs, maxMs: settings.maxWaitMs });
  return { kind: 'resend', resend, schedule: { resends: resend, nextAtMs: nowMs + waitMs } };
}

/** Everything the market schedules on its agenda (src/clock/event-queue.ts), by kind. */
import { MINUTE_MS, HOUR_MS, DAY_MS } from '../clock/time-constants.js';

export type MarketEvent =
  | { kind: 'arrival' }
  | { kind: 'competitor-offer'; requestId: number; lender: string; rate: number }
  | { kind: 'decision'; requestId: number }
  | { kind: 'cancel'; requestId: number }
  | { kind: 'window-end'; requestId: number }
  | { kind: 'acceptance-expiry'; requestId: number; offerId: number }
  | { kind: 'hold-end'; requestId: number }
  | { kind: 'funding-complete'; loanId: number }
  | { kind: 'payment-due'; loanId: number; month: number }
  | { kind: 'payment-paid'; loanId: number; paymentId: number }
  | { kind: 'collection'; loanId: number }
  | { kind: 'default'; loanId: number };

/** What loan servicing needs from the market: the time, the agenda and the investor's ledger. */
export interface MarketContext {
  now(): number;
  schedule(at: number, event: MarketEvent): void;
}

/** How long a funding transfer takes to settle (our choice; the spec says funding is asynchronous). */
export const FUNDING_DELAY_MS = 15 * MINUTE_MS;
/** How long an accepted offer waits for the fund call before it expires. */
export const ACCEPTANCE_TTL_MS = 48 * HOUR_MS;
/** How long after an unanswered decision the borrower looks at the offers again. */
export const REDECIDE_MS = 12 * HOUR_MS;
/** The list window of marketplace 4.1; open requests close (unfunded) at its end. */
export const LIST_WINDOW_MS = 30 * DAY_MS;
/** Days after a missed payment before collection recovers what it can, then before default. */
export const COLLECTION_AFTER_MS = 30 * DAY_MS;
export const DEFAULT_AFTER_MS = 60 * DAY_MS;
/** Collection agencies keep this share of what they recover. */
export const COLLECTION_FEE_SHARE = 0.2;

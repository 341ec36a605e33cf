/**
 * Equity now (equity-now.ts), kept while nothing it is made of has changed: the loans, payments
 * and transfers stored (their version: counts and newest sync times), the expected-loss shares,
 * and the minute of the run's clock (a late loan's expected loss steps up as days pass). Equity
 * reads the whole transfer history and every payment (about 0.2 s for 2,000 loans, bench/ledger.ts):
 * the dashboard's balance card asks every 5 seconds, a metrics scrape every 15, and between two
 * syncs the answer is the same.
 *
 * This module keeps a bounded memo of the last equity per store (MEMO_EQUITY, one entry a store).
 */
import type { Store } from '../store/index.js';
import type { EquityFigures, LossRates } from './equity.js';
import { equityNow } from './equity-now.js';
import { MINUTE_MS } from '../clock/time-constants.js';

interface Kept {
  key: string;
  figures: EquityFigures;
}

// One entry per store: the key moves on, the old figures are dropped.
const MEMO_EQUITY = new WeakMap<Store, Kept>();

/** equityNow(store, nowMs, rates), computed again only when its inputs changed. */
export function equityNowKept(store: Store, nowMs: number, rates: LossRates): EquityFigures {
  const key = `${store.account.ledgerVersion()}#${JSON.stringify(rates)}#${Math.floor(nowMs / MINUTE_MS)}`;
  const at = new Date(nowMs).toISOString();
  const last = MEMO_EQUITY.get(store);
  if (last !== undefined && last.key === key) return { ...last.figures, at };
  const figures = equityNow(store, { now: () => nowMs }, rates);
  MEMO_EQUITY.set(store, { key, figures });
  return figures;
}

/**
 * Idle cash in sight (docs/operations.md, "Idle cash"): the share of the lender's money that
 * earns nothing, free cash / (free cash + reserved by open offers + principal still lent out),
 * over time, and why it sat idle over the recent window. Free cash is what the next offer could
 * use: balance − reserved − the cash reserve (money kept aside on purpose is not counted idle).
 *
 * The account's balance is not kept as history anywhere, so the daemon records a sample at each
 * check in the state table, at least MIN_SAMPLE_SPACING_MS apart: a bounded series (at most MAX_SAMPLES; when full, every other sample
 * of the older half goes, so the series keeps reaching back with coarser steps).
 */
import { balanceFromStore, type RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { outstandingPrincipalCents } from './cash-flow-forecast.js';
import { forecastLoans } from './forecast-loans.js';

export const IDLE_SAMPLES_KEY = 'idle_cash_samples';
/** Samples kept at most. */
export const MAX_SAMPLES = 400;
/** A sample closer than this (clock time) to the last one stored is not stored. */
export const MIN_SAMPLE_SPACING_MS = 15 * 60_000;

export interface IdleSample {
  atMs: number;
  freeCents: number;
  reservedCents: number;
  outstandingCents: number;
}

type IdleStore = Pick<Store, 'account' | 'payments' | 'decisions' | 'cashFlow' | 'offers' | 'state'>;

/** free / (free + reserved + outstanding); 0 when there is no money at all. */
export function idleShare(sample: Pick<IdleSample, 'freeCents' | 'reservedCents' | 'outstandingCents'>): number {
  const total = sample.freeCents + sample.reservedCents + sample.outstandingCents;
  return total <= 0 ? 0 : sample.freeCents / total;
}

/**
 * The money now: free cash (never below 0), reserved by open offers, principal lent out (given
 * by a caller that has just made the forecast, which sums the same loans).
 */
export function idleSampleNow(store: IdleStore, nowMs: number, limits: RiskLimits, dryRun: boolean, lentOutCents?: number): IdleSample {
  const balance = balanceFromStore(store);
  const reservedCents = store.offers.reserved({ nowMs, expiryMs: limits.offerExpiryMs, dryRun, includeManual: limits.reserveManualOffers });
  const outstandingCents = lentOutCents ?? forecastLoans(store, nowMs).reduce((sum, loan) => sum + outstandingPrincipalCents(loan), 0);
  return { atMs: nowMs, freeCents: Math.max(0, balance - reservedCents - limits.minCashReserveCents), reservedCents, outstandingCents };
}

/** The recorded series, oldest first (empty when none or unreadable: it is only a view). */
export function readIdleSamples(state: Pick<Store['state'], 'get'>): IdleSample[] {
  const text = state.get(IDLE_SAMPLES_KEY);
  if (text === undefined) return [];
  try {
    const rows = JSON.parse(text) as unknown;
    if (!Array.isArray(rows)) return [];
    return rows
      .filter(
        (row): row is [number, number, number, number] => Array.isArray(row) && row.length === 4 && row.every((n) => typeof n === 'number'),
      )
      .map(([atMs, freeCents, reservedCents, outstandingCents]) => ({ atMs, freeCents, reservedCents, outstandingCents }));
  } catch {
    return [];
  }
}

/** Halves the older half of a full series, so it stays within MAX_SAMPLES and still reaches back. */
function thinned(samples: IdleSample[]): IdleSample[] {
  if (samples.length <= MAX_SAMPLES) return samples;
  const half = Math.floor(samples.length / 2);
  return [...samples.slice(0, half).filter((_, index) => index % 2 === 0), ...samples.slice(half)];
}

/** Adds `sample` to the stored series unless the last is closer than MIN_SAMPLE_SPACING_MS; returns the series. */
export function recordIdleSample(state: Store['state'], sample: IdleSample): IdleSample[] {
  const samples = readIdleSamples(state);
  const last = samples.at(-1);
  // Views add the live figure themselves: a check soon after the last sample stores nothing.
  if (last !== undefined && sample.atMs - last.atMs < MIN_SAMPLE_SPACING_MS) return samples;
  const kept = thinned([...samples, sample]);
  state.set(IDLE_SAMPLES_KEY, JSON.stringify(kept.map((s) => [s.atMs, s.freeCents, s.reservedCents, s.outstandingCents])), sample.atMs);
  return kept;
}

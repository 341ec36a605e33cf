/**
 * The figures of a digest (digest-sender.ts) for one period of the run's clock: what was earned
 * and lost, how much cash sits idle, what should come back next month, and the offers made and
 * won. They come through a small provider, so a better source can replace a figure without the
 * digest, its wording or its formats changing.
 *
 * `storeDigestFigures` is the plain provider, from what the store holds today:
 * - interest and losses: the returns series the dashboard draws (injected: it lives with the
 *   operator API), differenced over the period;
 * - idle cash: the free cash now and its share of the money (free, reserved and lent out), as
 *   lendbot status shows it (idle-cash.ts);
 * - next month's inflow: the default-adjusted cash-flow forecast's next calendar month
 *   (cash-flow-forecast.ts), as lendbot status shows it.
 */
import type { Cents } from '../../domain/index.js';
import type { Store } from '../../store/index.js';
import type { StatusReport } from '../../ops/status-report.js';

/** A period of the run's clock, [fromMs, toMs). */
export interface DigestPeriod {
  fromMs: number;
  toMs: number;
}

interface DigestFigures {
  /** Interest earned less losses written off in the period. */
  netEarnedCents: Cents;
  interestCents: Cents;
  lossesCents: Cents;
  /** Free cash now: money neither lent, nor reserved by open offers, nor kept as the reserve. */
  idleCashCents: Cents;
  /** Idle cash as a share of the money: free, reserved by open offers and lent out (idle-cash.ts). */
  idleShare: number;
  /** What the loans should bring back next calendar month, after likely defaults (the forecast). */
  nextMonthInflowCents: Cents;
  /** Offers decided in the period. */
  offersMade: number;
  /** Offers the borrowers accepted in the period (accepted or funded since). */
  offersWon: number;
}

/** Where a digest's figures come from. */
export interface DigestFiguresProvider {
  figures(period: DigestPeriod, nowMs: number): DigestFigures;
}

/** Cumulative series as the dashboard's returns chart has them (ISO time, cents so far). */
export interface EarningsSeries {
  interest: ReadonlyArray<{ at: string; cents: number }>;
  losses: ReadonlyArray<{ at: string; cents: number }>;
}

/** The last cumulative value at or before `ms` (0 before the first point). */
function valueAt(series: ReadonlyArray<{ at: string; cents: number }>, ms: number): number {
  let value = 0;
  for (const point of series) {
    if (Date.parse(point.at) > ms) break;
    value = point.cents;
  }
  return value;
}

export interface StoreFiguresDeps {
  store: Store;
  /**
   * The status report at a time: the one `lendbot status`, the dashboard and Telegram's /status
   * read (attach-ops.ts), so /profit's idle cash is /status's free cash, never a figure of its own.
   */
  status: (nowMs: number) => StatusReport;
  /** The returns series up to `nowMs` (the operator API's returns figures). */
  earnings: (nowMs: number) => EarningsSeries;
}

/** The plain provider (see the file's comment). */
export function storeDigestFigures(deps: StoreFiguresDeps): DigestFiguresProvider {
  const { store } = deps;
  return {
    figures(period, nowMs) {
      const series = deps.earnings(nowMs);
      // The series are cumulative by day: the period's part is the end's value less the start's.
      const interestCents = valueAt(series.interest, period.toMs - 1) - valueAt(series.interest, period.fromMs - 1);
      const lossesCents = valueAt(series.losses, period.toMs - 1) - valueAt(series.losses, period.fromMs - 1);
      const fromIso = new Date(period.fromMs).toISOString();
      const toIso = new Date(period.toMs).toISOString();
      const won = store.offers
        .listByState(['accepted', 'funded'])
        .filter((offer) => offer.updatedAt >= fromIso && offer.updatedAt < toIso).length;
      // Idle cash and next month's inflow as lendbot status shows them: the default-adjusted
      // forecast (cash-flow-forecast.ts) and the idle share (idle-cash.ts), from the one status report.
      const { idle, nextMonth } = deps.status(nowMs).cashFlow;
      return {
        netEarnedCents: interestCents - lossesCents,
        interestCents,
        lossesCents,
        idleCashCents: Math.max(0, idle.freeCents),
        idleShare: idle.share,
        nextMonthInflowCents: nextMonth.expectedCents,
        offersMade: store.decisions.countByAction({ sinceMs: period.fromMs, untilMs: period.toMs }).offer,
        offersWon: won,
      };
    },
  };
}

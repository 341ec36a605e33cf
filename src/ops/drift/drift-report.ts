/**
 * Backtest against live (docs/backtesting.md): the backtest's expectations (backtest-months.ts)
 * and the paper book's beside what happened live (live-months.ts), month by month and over all
 * months, and in words where the model of the market has drifted.
 *
 * A live share comes with its 95 % Wilson interval; an expectation outside it, on at least
 * MIN_EVIDENCE observations, is drift. Default is judged against what the prediction expects at
 * the loans' age (calibration-by-strategy.ts), and by month of loan age (the instalment hazard).
 * Return has no interval (a few loans' outcomes decide it) and is set side by side, unjudged.
 */
import { wilson } from '../../math/index.js';
import type { StrategyVintageCalibration } from '../calibration-by-strategy.js';
import type { HazardRow } from '../instalment-hazard.js';
import { emptyBacktestMonth, type BacktestMonth } from './backtest-months.js';
import { emptyLiveMonth, type LiveMonth, type LiveSide } from './live-months.js';

/** Fewer observations than this make no verdict. */
const MIN_EVIDENCE = 10;

/** A live share with its interval, and what the backtest and the paper book expected of it. */
export interface ShareComparison {
  /** Live: successes of n, the share and its 95 % interval (null when n is 0). */
  live: { k: number; n: number; share: number | null; low: number | null; high: number | null };
  backtest: number | null;
  paper: number | null;
  /** 'outside': the backtest's expectation lies outside the live interval on enough evidence. */
  verdict: 'outside' | 'inside' | 'too little evidence' | 'no expectation';
}

/** One month (or all of them) side by side. */
export interface DriftMonth {
  month: string;
  requests: { live: number; backtest: number | null };
  /** Offers per request. */
  offers: ShareComparison & { liveOffers: number; backtestOffers: number | null; paperOffers: number | null };
  /** Accepted of the answered offers. */
  acceptance: ShareComparison;
  /** Loans funded live, and the loans the backtest's model expected (the sum of its P(accept)). */
  fills: { live: number; backtest: number | null; paper: number | null };
  /** The loans made this month: predicted, expected by their age, realised so far (calibration). */
  loans: StrategyVintageCalibration | null;
  /** Principal lent, net so far, and the annual return the backtest's strategy expected. */
  return: { lentCents: number; netCents: number; liveSoFar: number | null; backtestExpected: number | null };
}

export interface DriftReport {
  months: DriftMonth[];
  all: DriftMonth;
  hazard: HazardRow[];
  findings: string[];
}

function compare(k: number, n: number, backtest: number | null, paper: number | null): ShareComparison {
  const interval = wilson(k, n);
  const live = { k, n, share: interval.rate, low: interval.low, high: interval.high };
  if (backtest === null) return { live, backtest, paper, verdict: 'no expectation' };
  if (n < MIN_EVIDENCE || interval.low === null || interval.high === null) return { live, backtest, paper, verdict: 'too little evidence' };
  return { live, backtest, paper, verdict: backtest < interval.low || backtest > interval.high ? 'outside' : 'inside' };
}

const ratio = (top: number, bottom: number): number | null => (bottom > 0 ? top / bottom : null);

/** `start` with every number field of `rows` added to it: the "all" month of a side. */
function summed<Month extends object>(rows: readonly Month[], start: Month): Month {
  const total = { ...start } as Record<string, unknown>;
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) if (typeof value === 'number') total[key] = (total[key] as number) + value;
  }
  return total as Month;
}

function sumLive(months: readonly LiveMonth[], loans: StrategyVintageCalibration | null): LiveMonth {
  const [first, ...rest] = months.flatMap((m) => (m.paper === null ? [] : [m.paper]));
  const paper = first === undefined ? null : summed(rest, { ...first, month: 'all' });
  return { ...summed(months, emptyLiveMonth('all')), loans, paper };
}

function sideBySide(live: LiveMonth, backtest: BacktestMonth | undefined): DriftMonth {
  const paper = live.paper;
  const years = live.loans?.ageMonths === null || live.loans === null ? null : live.loans.ageMonths / 12;
  return {
    month: live.month,
    requests: { live: live.requests, backtest: backtest?.requests ?? null },
    offers: {
      ...compare(live.offers, live.requests, backtest === undefined ? null : ratio(backtest.offers, backtest.requests), null),
      liveOffers: live.offers,
      backtestOffers: backtest?.offers ?? null,
      paperOffers: paper?.offers ?? null,
    },
    acceptance: compare(
      live.accepted,
      live.answered,
      backtest === undefined ? null : ratio(backtest.acceptSum, backtest.offers),
      paper === null ? null : ratio(paper.acceptSum, paper.modelled),
    ),
    fills: { live: live.funded, backtest: backtest?.acceptSum ?? null, paper: paper?.acceptSum ?? null },
    loans: live.loans,
    return: {
      lentCents: live.lentCents,
      netCents: live.netCents,
      liveSoFar: years === null || years <= 0 || live.lentCents === 0 ? null : live.netCents / live.lentCents / years,
      backtestExpected: backtest === undefined ? null : ratio(backtest.expectedReturnWeighted, backtest.expectedReturnWeight),
    },
  };
}

/** The report: the live months (and the backtest's, where it saw requests) side by side. */
export function driftReport(
  live: LiveSide,
  backtest: readonly BacktestMonth[],
  hazard: HazardRow[],
  words: (report: Omit<DriftReport, 'findings'>) => string[],
): DriftReport {
  const byMonth = new Map(backtest.map((m) => [m.month, m]));
  const liveByMonth = new Map(live.months.map((m) => [m.month, m]));
  const keys = [...new Set([...liveByMonth.keys(), ...byMonth.keys()])].sort();
  const months = keys.map((key) => sideBySide(liveByMonth.get(key) ?? emptyLiveMonth(key), byMonth.get(key)));
  const all = sideBySide(
    sumLive(live.months, live.allLoans),
    backtest.length === 0 ? undefined : summed(backtest, emptyBacktestMonth('all')),
  );
  const report = { months, all, hazard };
  return { ...report, findings: words(report) };
}

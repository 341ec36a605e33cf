/**
 * The live side of the drift report (docs/backtesting.md, "Backtest against live"): what happened
 * to the lender's requests, offers and loans, month by month, read from the store with the code
 * every other view uses: the offer states as shown (offer-view.ts), the calibration's loans
 * (calibration-by-strategy.ts, all strategies together) and the loan ledger (loan-ledger.ts).
 * A dry run's paper book is read beside it, month by month. One row a month: bounded by the
 * book's age.
 *
 * - requests: decisions recorded (every request seen gets one, live or dry run); offers: the live offers the service
 *   took (sent and not refused);
 * - answered: offers with a fate (accepted, funded, rejected, lost, expired; `placed` ones are
 *   still waiting and left out), accepted: accepted or funded; funded: a loan of ours runs;
 * - the loans made in the month (by the loan's created_date): predicted default, what the
 *   prediction expects by their age, realised default so far with its interval;
 * - return so far: interest and late fees received less principal written off, over the
 *   principal lent (the ledger's split of each transfer), by the month the loan was made.
 */
import type { OfferMonthCount, PaperMonth, Store } from '../../store/index.js';
import { pooledStrategyCounts, withAge, type StrategyVintageCalibration } from '../calibration-by-strategy.js';
import { ledgerInputFromStore } from '../../money/equity-now.js';
import { buildLoanLedger } from '../../money/loan-ledger.js';

/** One month of live trading. */
export interface LiveMonth {
  month: string;
  requests: number;
  offers: number;
  answered: number;
  accepted: number;
  funded: number;
  /** The loans made this month (all strategies), with age and reading; null when none. */
  loans: StrategyVintageCalibration | null;
  /** Principal lent on the month's loans, and interest + late fees − write-offs on them so far. */
  lentCents: number;
  netCents: number;
  /** The dry run's paper offers of the month, or null. */
  paper: PaperMonth | null;
}

const ANSWERED = new Set(['accepted', 'funded', 'rejected', 'lost', 'expired']);
const TAKEN = new Set([...ANSWERED, 'placed']);

/** A month with nothing in it. */
export function emptyLiveMonth(month: string): LiveMonth {
  return { month, requests: 0, offers: 0, answered: 0, accepted: 0, funded: 0, loans: null, lentCents: 0, netCents: 0, paper: null };
}

/** Live offers by month and state, added to their months. */
function addOffers(counts: readonly OfferMonthCount[], at: (month: string) => LiveMonth): void {
  for (const row of counts) {
    const month = at(row.month);
    if (TAKEN.has(row.state)) month.offers += row.offers;
    if (ANSWERED.has(row.state)) month.answered += row.offers;
    if (row.state === 'accepted' || row.state === 'funded') month.accepted += row.offers;
    if (row.state === 'funded') month.funded += row.offers;
  }
}

/** What each ledger kind moved in cash on a loan (write-offs move none; fees keep their sign). */
const CASH_SIGN: Partial<Record<string, number>> = { lent: -1, principal: 1, interest: 1, late_fees: 1, recoveries: 1, fees: 1 };

/**
 * Interest and late fees less write-offs, and principal lent, per month the loan was made; returns
 * the cash the account held before its loans (its cash now less every loan's cash flows so far:
 * deposits and withdrawals count as there from the start), null without a loan.
 */
function ledgerByVintage(store: Store, nowMs: number, at: (month: string) => LiveMonth): number | null {
  const input = ledgerInputFromStore(store, nowMs);
  const vintageOf = new Map<number, string>();
  for (const loan of input.loans) {
    const created = loan.loan.created_date;
    if (typeof created === 'string' && loan.status.toLowerCase() !== 'pending') vintageOf.set(loan.id, created.slice(0, 7));
  }
  const ledger = buildLoanLedger(input);
  let loanCashCents = 0;
  let lent = false;
  for (const entry of ledger.entries) {
    if (entry.loanId !== null) loanCashCents += (CASH_SIGN[entry.kind] ?? 0) * entry.cents;
    if (entry.kind === 'lent') lent = true;
    const vintage = entry.loanId === null ? undefined : vintageOf.get(entry.loanId);
    if (vintage === undefined) continue;
    const month = at(vintage);
    if (entry.kind === 'lent') month.lentCents += entry.cents;
    else if (entry.kind === 'interest' || entry.kind === 'late_fees') month.netCents += entry.cents;
    else if (entry.kind === 'write_offs') month.netCents -= entry.cents;
  }
  if (!lent) return null;
  return ledger.cash.reduce((sum, move) => sum + move.cents, 0) - loanCashCents;
}

/** The live side: every month (oldest first) and the loans of all months together. */
export interface LiveSide {
  months: LiveMonth[];
  allLoans: StrategyVintageCalibration | null;
  /** The cash the account held before its first loan (what a replay of the period starts with); null without a loan. */
  startingCashCents: number | null;
}

/** Every month of the store's live trading (and paper book), oldest first, read at `nowMs`. */
export function liveMonths(store: Store, query: { nowMs: number; expiryMs: number; minLoans: number }): LiveSide {
  const months = new Map<string, LiveMonth>();
  const at = (month: string): LiveMonth => {
    const found = months.get(month) ?? emptyLiveMonth(month);
    months.set(month, found);
    return found;
  };
  // Every request seen, live or in a dry run (a database is normally one or the other).
  for (const dryRun of [false, true]) for (const row of store.decisions.countsByMonth(dryRun)) at(row.month).requests += row.requests;
  addOffers(store.offers.viewCountsByMonth({ dryRun: false }, { nowMs: query.nowMs, expiryMs: query.expiryMs, includeManual: true }), at);
  const byVintage = new Map<string, ReturnType<typeof store.calibration.strategyVintages>>();
  const loanRows = store.calibration.strategyVintages('', query.nowMs);
  for (const row of loanRows) byVintage.set(row.vintage, [...(byVintage.get(row.vintage) ?? []), row]);
  for (const [vintage, rows] of byVintage) at(vintage).loans = withAge(pooledStrategyCounts('all', rows, vintage), query.minLoans);
  const startingCashCents = ledgerByVintage(store, query.nowMs, at);
  for (const paper of store.paper.byMonth()) at(paper.month).paper = paper;
  return {
    months: [...months.values()].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0)),
    allLoans: loanRows.length === 0 ? null : withAge(pooledStrategyCounts('all', loanRows), query.minLoans),
    startingCashCents,
  };
}

/**
 * Predicted against realised default of the lender's loans, by vintage (the UTC month the loan
 * was created, from the service's created_date): each synced loan joined to the decision that
 * offered on its request, whose repayment probability gives the predicted default (1 − p). A
 * loan without such a decision (made by hand, or before the store) is counted apart and left out
 * of both sides, so the comparison is like for like. A loan still pending (accepted, not yet
 * funded) is not a loan yet and counts nowhere.
 *
 * One reading of the loans (`LOAN_FACTS`, a row per loan) is what every count here is made of, so
 * "realised default" has one definition: in the collection or default list, or still current
 * with a payment the sync saw missed. The loans are streamed and summed as they come; what is
 * kept is one row per month (and strategy), bounded by the book's age. The instalment hazard
 * (hazard-repository.ts) reads the same loans' payments.
 */
import type { Database } from 'better-sqlite3';
import { instalmentHazard, type HazardCounts } from './hazard-repository.js';

/** The counts of one vintage (only loans with a predicted default count in the fates). */
export interface VintageCounts {
  /** "2026-03". */
  vintage: string;
  /** Loans with a predicted default. */
  loans: number;
  /** Loans of the vintage without a decision that predicted their default. */
  unpredicted: number;
  /** Sum of the predicted default probabilities of `loans`. */
  predictedSum: number;
  /** In the collection or default list. */
  defaulted: number;
  /** Still current, with a payment the sync saw missed. */
  delinquent: number;
  /** Completed. */
  repaid: number;
}

/** A vintage of one strategy's loans, with how far into their terms they are. */
export interface StrategyVintageCounts extends VintageCounts {
  /** The strategy that offered (an agent's offer: "agent:NAME"). */
  strategy: string;
  /** Sum over `loans` of their age in days at the reading. */
  ageDaysSum: number;
  /** Sum over `loans` of the months of their terms gone by (age in months, at most the term). */
  termMonthsElapsed: number;
  /** Sum over `loans` of their terms in months (payment_terms; a loan without one counts in neither sum). */
  termMonths: number;
  /**
   * Sum over `loans` of the default their prediction expects by their age: 1 − p^(m/n) after m of
   * n months, the constant monthly hazard the cash-flow forecast uses (docs/operations.md).
   */
  expectedByNowSum: number;
}

export interface CalibrationRepository {
  /** Every vintage from `fromVintage` ("2026-01", inclusive) on, oldest first. */
  vintages(fromVintage: string): VintageCounts[];
  /** Every strategy's vintages from `fromVintage` on, by strategy then vintage, read at `nowMs` (loan ages). */
  strategyVintages(fromVintage: string, nowMs: number): StrategyVintageCounts[];
  /** Both of the above from one reading of the loans (what status shows). */
  breakdown(fromVintage: string, nowMs: number): { vintages: VintageCounts[]; strategyVintages: StrategyVintageCounts[] };
  /** The instalments of the loans made from `fromVintage` on, by month of loan age, due by `nowMs` (hazard-repository.ts). */
  hazard(fromVintage: string, nowMs: number): HazardCounts[];
}

interface LoanFacts {
  vintage: string | null;
  strategy: string | null;
  probability: number | null;
  list_status: string;
  missed: number;
  age_days: number | null;
  terms: number | null;
}

/**
 * One row per loan of the window: its vintage, the deciding strategy and probability, its list,
 * missed payments, its age at :now and its term. Parameters: now, fromVintage.
 */
const LOAN_FACTS = `
  SELECT substr(json_extract(l.raw_json, '$.created_date'), 1, 7) AS vintage,
    COALESCE(d.strategy, d.source) AS strategy,
    d.probability AS probability,
    l.list_status AS list_status,
    (SELECT COUNT(*) FROM payments x WHERE x.loan_id = l.id AND x.flag = 'missed') AS missed,
    julianday(:now) - julianday(json_extract(l.raw_json, '$.created_date')) AS age_days,
    CAST(json_extract(l.raw_json, '$.payment_terms') AS INTEGER) AS terms
  FROM loans l
  LEFT JOIN decisions d ON d.loan_request_id = l.loan_request_id
  WHERE lower(l.status) <> 'pending' AND substr(json_extract(l.raw_json, '$.created_date'), 1, 7) >= :fromVintage`;

const emptyCounts = (vintage: string): VintageCounts => ({
  vintage,
  loans: 0,
  unpredicted: 0,
  predictedSum: 0,
  defaulted: 0,
  delinquent: 0,
  repaid: 0,
});

/** Adds one loan to its vintage's counts; the one definition of a loan's fate. */
function addLoan(counts: VintageCounts, loan: LoanFacts): void {
  if (loan.probability === null) {
    counts.unpredicted += 1;
    return;
  }
  counts.loans += 1;
  counts.predictedSum += 1 - loan.probability;
  if (loan.list_status === 'collection' || loan.list_status === 'default') counts.defaulted += 1;
  else if (loan.list_status === 'completed') counts.repaid += 1;
  else if (loan.missed > 0) counts.delinquent += 1;
}

/** The sum of several vintages' counts, as vintage `name`. */
export function pooledCounts(rows: readonly VintageCounts[], name = 'all'): VintageCounts {
  const sum = (pick: (row: VintageCounts) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  return {
    vintage: name,
    loans: sum((r) => r.loans),
    unpredicted: sum((r) => r.unpredicted),
    predictedSum: sum((r) => r.predictedSum),
    defaulted: sum((r) => r.defaulted),
    delinquent: sum((r) => r.delinquent),
    repaid: sum((r) => r.repaid),
  };
}

/** Days in an average month: a loan's age in months. */
export const DAYS_PER_MONTH = 365.25 / 12;

/** The default a prediction of full repayment `p` expects `ageMonths` into a term of `terms` months (the whole term without one). */
export function expectedDefaultByNow(p: number, ageMonths: number, terms: number | null): number {
  if (terms === null || terms <= 0) return 1 - p;
  return 1 - p ** (Math.min(Math.max(0, ageMonths), terms) / terms);
}

const byKey = <T>(rows: Map<string, T>): T[] => [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);

export function createCalibrationRepository(db: Database): CalibrationRepository {
  const loanFacts = db.prepare<{ now: string; fromVintage: string }, LoanFacts>(LOAN_FACTS);
  const read = (fromVintage: string, nowMs: number): IterableIterator<LoanFacts> =>
    loanFacts.iterate({ now: new Date(nowMs).toISOString(), fromVintage });
  // One pass over the loans makes both the pooled vintages and the strategy rows.
  const breakdown = (fromVintage: string, nowMs: number): { vintages: VintageCounts[]; strategyVintages: StrategyVintageCounts[] } => {
    const vintages = new Map<string, VintageCounts>();
    const strategies = new Map<string, StrategyVintageCounts>();
    for (const loan of read(fromVintage, nowMs)) {
      if (loan.vintage === null) continue;
      const pooled = vintages.get(loan.vintage) ?? emptyCounts(loan.vintage);
      addLoan(pooled, loan);
      vintages.set(loan.vintage, pooled);
      if (loan.probability === null || loan.strategy === null) continue;
      const key = `${loan.strategy}\u0000${loan.vintage}`;
      const counts = strategies.get(key) ?? {
        ...emptyCounts(loan.vintage),
        strategy: loan.strategy,
        ageDaysSum: 0,
        termMonthsElapsed: 0,
        termMonths: 0,
        expectedByNowSum: 0,
      };
      addLoan(counts, loan);
      const ageDays = Math.max(0, loan.age_days ?? 0);
      counts.ageDaysSum += ageDays;
      if (loan.terms !== null && loan.terms > 0) {
        counts.termMonthsElapsed += Math.min(ageDays / DAYS_PER_MONTH, loan.terms);
        counts.termMonths += loan.terms;
      }
      counts.expectedByNowSum += expectedDefaultByNow(loan.probability, ageDays / DAYS_PER_MONTH, loan.terms);
      strategies.set(key, counts);
    }
    return { vintages: byKey(vintages), strategyVintages: byKey(strategies) };
  };
  return {
    hazard: instalmentHazard(db),
    vintages: (fromVintage) => breakdown(fromVintage, 0).vintages,
    strategyVintages: (fromVintage, nowMs) => breakdown(fromVintage, nowMs).strategyVintages,
    breakdown,
  };
}

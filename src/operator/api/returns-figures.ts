/**
 * Returns over time from the store's own records, through the one equity function the status,
 * the agent connector and the ledger export read too (money/equity.ts):
 *
 * - equity: cash, plus the principal still out on loans, less the loss expected on late loans;
 * - interest: the interest part of repayments, split by each loan's amortisation, cumulative;
 * - losses: loans written off at default, plus the loss expected on late loans as it stands
 *   that day (it falls again when a late loan catches up).
 *
 * Default rates count loans in collection or default among the funded loans.
 */
import { equitySeries, type LossRates } from '../../money/equity.js';
import type { LedgerInput } from '../../money/loan-ledger.js';
import type { StoredLoan } from '../../store/index.js';
import type { DefaultRate, ReturnsAnswer } from './api-types.js';

const BAD_LISTS = new Set(['collection', 'default']);

export interface ReturnsInput extends Omit<LedgerInput, 'today'> {
  /** When a loan started (ISO), or null when unknown. */
  originOf: (loan: StoredLoan) => string | null;
}

function rate(loans: number, defaults: number): DefaultRate {
  return { loans, defaults, rate: loans === 0 ? 0 : defaults / loans };
}

/** Plain words under the charts: what the figures are and where they come from. */
const RETURNS_NOTES: readonly string[] = [
  'From the transfer history, the loans and their payments as lendbot last read them from the marketplace.',
  'Equity is cash plus the principal still out on loans, less the loss expected on loans with late or missed payments.',
  "Each repayment is split into interest and principal by the loan's rate and schedule; interest counts when it arrives.",
  'A late loan counts a share of its principal as an expected loss, growing with the days late (half once a payment is missed); a defaulted loan is written off for what was not recovered.',
  'Default rates count loans in collection or default among the funded loans.',
];

function defaultRates(input: ReturnsInput): ReturnsAnswer['defaultRates'] {
  // A pending loan waits for its funding: not yet a loan that could default.
  const funded = input.loans.filter((loan) => loan.status.toLowerCase() !== 'pending');
  const byLevel = new Map<number | null, { loans: number; defaults: number }>();
  const byMonth = new Map<string, { loans: number; defaults: number }>();
  for (const loan of funded) {
    const bad = BAD_LISTS.has(loan.listStatus) ? 1 : 0;
    const level = byLevel.get(loan.riskLevel) ?? { loans: 0, defaults: 0 };
    byLevel.set(loan.riskLevel, { loans: level.loans + 1, defaults: level.defaults + bad });
    const month = input.originOf(loan)?.slice(0, 7) ?? 'unknown';
    const inMonth = byMonth.get(month) ?? { loans: 0, defaults: 0 };
    byMonth.set(month, { loans: inMonth.loans + 1, defaults: inMonth.defaults + bad });
  }
  return {
    byRiskLevel: [...byLevel]
      .sort(([a], [b]) => (a ?? 99) - (b ?? 99))
      .map(([riskLevel, counts]) => ({ riskLevel, ...rate(counts.loans, counts.defaults) })),
    byOriginationMonth: [...byMonth]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, counts]) => ({ month, ...rate(counts.loans, counts.defaults) })),
  };
}

export function computeReturns(input: ReturnsInput, nowMs: number, rates?: LossRates): ReturnsAnswer {
  const points = equitySeries(input, nowMs, rates);
  const last = points.at(-1);
  return {
    equity: points.map((point) => ({ at: point.at, equityCents: point.equityCents })),
    interest: points.map((point) => ({ at: point.at, cents: point.interestCents })),
    losses: points.map((point) => ({ at: point.at, cents: point.lossesCents })),
    defaultRates: defaultRates(input),
    totals: {
      equityCents: last?.equityCents ?? 0,
      interestCents: last?.interestCents ?? 0,
      lossesCents: last?.lossesCents ?? 0,
      cashCents: last?.cashCents ?? 0,
      outstandingCents: last?.outstandingCents ?? 0,
      expectedLossCents: last?.expectedLossCents ?? 0,
      writtenOffCents: last?.writtenOffCents ?? 0,
      lateFeesReceivedCents: last?.lateFeesCents ?? 0,
      recoveriesCents: last?.recoveriesCents ?? 0,
    },
    notes: [...RETURNS_NOTES],
  };
}

/**
 * The default-adjusted cash-flow forecast against a schedule worked out by hand: survival 1 gives
 * the schedule exactly, a known monthly hazard gives the schedule times (1 − h)^k, delinquent loans
 * get the higher hazard, and the reinvestment projection lends what comes back at the flow's pace.
 * Then the same forecast read from a real store (loans, payments, the funding decision).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DELINQUENT_MONTHLY_HAZARD,
  forecastCashFlows,
  monthlyHazard,
  nextMonthExpectedInflow,
  type ForecastLoan,
  type ReinvestmentFlow,
} from '../../src/money/cash-flow-forecast.js';
import { buildCashFlowForecast, forecastLoans } from '../../src/money/forecast-loans.js';
import { loanSchema, loanPaymentSchema } from '../../src/domain/index.js';
import { tempStore } from '../store/fixtures.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const NO_FLOW: ReinvestmentFlow = {
  windowDays: 90,
  loans: 0,
  amountCents: 0,
  averageRate: null,
  averageTerms: null,
  averageProbability: null,
};

// $1,000 at 12% a year over 6 months: 1% a month, payment round(100000 × 0.01 / (1 − 1.01^−6)) = 17255.
// Interest is 1% of the principal outstanding, rounded; the last instalment clears the rest.
const INTEREST = [1000, 837, 673, 507, 340, 173];
const PRINCIPAL = [16255, 16418, 16582, 16748, 16915, 17082];

function loan(fields: Partial<ForecastLoan> = {}): ForecastLoan {
  return {
    loanId: 1,
    principalCents: 100_000,
    rate: 0.12,
    terms: 6,
    paidInstalments: 0,
    nextDueMs: Date.parse('2026-04-01T00:00:00.000Z'),
    repayProbability: 1,
    delinquent: false,
    ...fields,
  };
}

describe('the cash-flow forecast', () => {
  it('with survival 1 is the schedule, month by month', () => {
    const forecast = forecastCashFlows([loan()], NO_FLOW, NOW);
    expect(forecast.months.map((m) => m.month)).toEqual([
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
    ]);
    expect(forecast.months.map((m) => m.scheduledInterestCents)).toEqual([0, ...INTEREST, 0, 0, 0, 0, 0]);
    expect(forecast.months.map((m) => m.scheduledPrincipalCents)).toEqual([0, ...PRINCIPAL, 0, 0, 0, 0, 0]);
    expect(forecast.months.map((m) => m.expectedInterestCents)).toEqual([0, ...INTEREST, 0, 0, 0, 0, 0]);
    expect(forecast.months.map((m) => m.expectedPrincipalCents)).toEqual([0, ...PRINCIPAL, 0, 0, 0, 0, 0]);
    expect(forecast.totals).toEqual({
      scheduledCents: 103_530,
      expectedCents: 103_530,
      expectedInterestCents: 3530,
      expectedPrincipalCents: 100_000,
    });
    expect(forecast.outstandingPrincipalCents).toBe(100_000);
    expect(nextMonthExpectedInflow(forecast)).toEqual({ month: '2026-04', cents: 17_255 });
  });

  it('with a known monthly hazard weights the k-th instalment by (1 − h)^k', () => {
    // p = 0.9^6 over 6 months is a hazard of 0.1 a month.
    expect(monthlyHazard(0.9 ** 6, 6)).toBeCloseTo(0.1, 12);
    const forecast = forecastCashFlows([loan({ repayProbability: 0.9 ** 6 })], NO_FLOW, NOW);
    expect(forecast.months.slice(1, 7).map((m) => m.expectedInterestCents)).toEqual(
      INTEREST.map((cents, k) => Math.round(cents * 0.9 ** (k + 1))),
    );
    expect(forecast.months.slice(1, 7).map((m) => m.expectedPrincipalCents)).toEqual(
      PRINCIPAL.map((cents, k) => Math.round(cents * 0.9 ** (k + 1))),
    );
    // The schedule beside it is undiscounted.
    expect(forecast.months.slice(1, 7).map((m) => m.scheduledInterestCents)).toEqual(INTEREST);
    expect(nextMonthExpectedInflow(forecast).cents).toBe(Math.round(1000 * 0.9) + Math.round(16255 * 0.9));
  });

  it('starts after the instalments paid, puts overdue ones in the current month, and gives delinquent loans the higher hazard', () => {
    const overdue = loan({ paidInstalments: 2, nextDueMs: Date.parse('2026-02-01T00:00:00.000Z'), delinquent: true });
    const forecast = forecastCashFlows([overdue], NO_FLOW, NOW);
    const survival = (k: number): number => (1 - DELINQUENT_MONTHLY_HAZARD) ** k;
    // Instalment 3 was due in February, 4 in March: both are due now, in the current month.
    expect(forecast.months.slice(0, 4).map((m) => m.scheduledInterestCents)).toEqual([673 + 507, 340, 173, 0]);
    expect(forecast.months.slice(0, 3).map((m) => m.expectedInterestCents)).toEqual([
      Math.round(673 * survival(1) + 507 * survival(2)),
      Math.round(340 * survival(3)),
      Math.round(173 * survival(4)),
    ]);
    expect(forecast.outstandingPrincipalCents).toBe(100_000 - PRINCIPAL[0]! - PRINCIPAL[1]!);
    expect(forecast.delinquentLoans).toBe(1);
  });

  it('gives loans without a probability the average of the others', () => {
    const forecast = forecastCashFlows([loan({ repayProbability: 0.5 }), loan({ loanId: 2, repayProbability: null })], NO_FLOW, NOW);
    expect(forecast.fallbackProbability).toBe(0.5);
    expect(forecast.loansWithoutProbability).toBe(1);
    const alone = forecastCashFlows([loan({ repayProbability: 0.5 })], NO_FLOW, NOW);
    // Twice the one loan, but for the rounding of each month to the cent.
    expect(Math.abs(forecast.totals.expectedCents - 2 * alone.totals.expectedCents)).toBeLessThanOrEqual(12);
  });

  it('projects nothing lent again without a recent flow, and lends at the flow pace with one', () => {
    const idle = forecastCashFlows([loan()], NO_FLOW, NOW);
    expect(idle.months.every((m) => m.reinvestedCents === 0)).toBe(true);
    expect(idle.months.at(-1)?.uninvestedCents).toBe(103_530);
    expect(idle.reinvestment.assumption).toMatch(/No offer became a loan in the last 90 days/);

    // $100 a month: 3 loans of $100 in 90 days is 300 / (90 / 30.4375) a month.
    const flow: ReinvestmentFlow = {
      windowDays: 90,
      loans: 3,
      amountCents: 30_000,
      averageRate: 0.24,
      averageTerms: 3,
      averageProbability: 1,
    };
    const monthly = 30_000 / (90 / (365.25 / 12));
    const projected = forecastCashFlows([loan()], flow, NOW);
    expect(projected.reinvestment.monthlyCents).toBe(Math.round(monthly));
    expect(projected.months[0]?.reinvestedCents).toBe(0);
    expect(projected.months[1]?.reinvestedCents).toBe(Math.floor(monthly));
    // Lent in April at 24% over 3 months: its first instalment comes back in May, with interest.
    expect(projected.months[1]?.reinvestmentInflowCents).toBe(0);
    expect(projected.months[2]?.reinvestmentInterestCents).toBe(Math.round(Math.floor(monthly) * 0.02));
    const lent = projected.months.reduce((sum, m) => sum + m.reinvestedCents, 0);
    const back = projected.months.reduce((sum, m) => sum + m.reinvestmentInflowCents, 0);
    expect(projected.months.at(-1)!.uninvestedCents).toBeCloseTo(103_530 + back - lent, -1);
    expect(projected.reinvestment.assumption).toContain('3 loans');
  });
});

describe('the forecast read from the store', () => {
  let h: ReturnType<typeof tempStore> | undefined;
  afterEach(() => h?.cleanup());

  it('takes each open loan, its payments paid and the probability of the decision that funded it', () => {
    h = tempStore();
    const { store } = h;
    const base = { loan_amount: 1000, interest_rate: 0.12, payment_terms: 6, status: 'Current', next_payment_date: '2026-04-01T00:00:00Z' };
    store.account.upsertLoans(
      [loanSchema.parse({ ...base, id: 1, loan_request_id: 501 }), loanSchema.parse({ ...base, id: 2, loan_request_id: 502 })],
      'current',
      NOW,
    );
    store.account.upsertLoans([loanSchema.parse({ ...base, id: 3, loan_request_id: 503, loan_paid_off: true })], 'completed', NOW);
    store.account.upsertLoans([loanSchema.parse({ ...base, id: 4, loan_request_id: 504 })], 'default', NOW);
    store.decisions.record({
      loanRequestId: 501,
      action: 'offer',
      reasons: [],
      dryRun: false,
      decidedAtMs: NOW - 86_400_000,
      probability: 0.95 ** 6,
      rate: 0.12,
    });
    const paid = (id: number, due: string) =>
      loanPaymentSchema.parse({ id, loan: 2, payment_amount: '172.55', payment_due_date: due, payment_status: 'Paid' });
    store.payments.upsert([paid(21, '2026-01-01'), paid(22, '2026-02-01')], NOW);
    // Loan 2's third payment was due on March 1st and is not paid: it is delinquent.
    store.payments.upsert(
      [loanPaymentSchema.parse({ id: 23, loan: 2, payment_amount: '172.55', payment_due_date: '2026-03-01', payment_status: 'Pending' })],
      NOW,
    );

    const loans = forecastLoans(store, NOW);
    expect(loans.map((l) => [l.loanId, l.paidInstalments, l.repayProbability, l.delinquent])).toEqual([
      [1, 0, 0.95 ** 6, false],
      [2, 2, null, true],
    ]);
    const forecast = buildCashFlowForecast(store, NOW);
    expect(forecast).toEqual(forecastCashFlows(loans, { ...NO_FLOW }, NOW));
    // Loan 1 at the hazard of 0.05; loan 2 has no probability and takes loan 1's, raised for its
    // overdue payment to the delinquent hazard (0.1). Its schedule stands at the unpaid payment of March
    // (though next_payment_date says April): the third instalment now, the fourth in April.
    const delinquent = 1 - DELINQUENT_MONTHLY_HAZARD;
    expect(forecast.months[0]?.expectedInterestCents).toBe(Math.round(673 * delinquent));
    expect(forecast.months[1]?.expectedInterestCents).toBe(Math.round(1000 * 0.95 + 507 * delinquent ** 2));
  });
});

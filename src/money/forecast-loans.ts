/**
 * The cash-flow forecast read from the store: the one function the API, the dashboard, the agent
 * connector, `lendbot status` and the digest all call, so they agree. Open loans are the synced
 * loans in the current or collection list, not paid off and no longer pending; each one's
 * repayment probability is that of the decision that funded it (the decisions row of its loan
 * request), its instalments paid are its synced payments marked paid.
 */
import type { Store } from '../store/index.js';
import { utcDayBounds, isoFromMs } from '../store/index.js';
import { forecastCashFlows, type CashFlowForecast, type ForecastLoan } from './cash-flow-forecast.js';
import { DAY_MS } from '../clock/time-constants.js';

/** The acceptance flow the reinvestment projection repeats: the last 90 days of the clock. */
const REINVESTMENT_WINDOW_DAYS = 90;

const OPEN_LISTS = new Set(['current', 'collection']);

type ForecastStore = Pick<Store, 'account' | 'payments' | 'cashFlow'>;

/** The open loans as the forecast reads them (loans without a known number of terms are left out). */
export function forecastLoans(store: ForecastStore, nowMs: number): ForecastLoan[] {
  const today = isoFromMs(utcDayBounds(nowMs).startMs).slice(0, 10);
  const loans: ForecastLoan[] = [];
  // One read each for the whole book, not one per loan.
  const paymentStates = new Map(store.payments.states().map((state) => [state.loanId, state]));
  const probabilities = store.cashFlow.fundingProbabilities();
  const unsettled = store.cashFlow.firstUnsettledDue();
  for (const loan of store.account.loans()) {
    if (!OPEN_LISTS.has(loan.listStatus) || loan.paidOff || loan.status.toLowerCase() === 'pending') continue;
    const payments = paymentStates.get(loan.id);
    const terms = loan.loan.payment_terms ?? payments?.payments;
    if (terms === undefined || terms <= 0) continue;
    // The service may move next_payment_date past a payment still unpaid: the earliest unpaid
    // payment is where the schedule stands.
    const firstUnpaid = unsettled.get(loan.id);
    const dues = [loan.loan.next_payment_date, firstUnpaid === undefined ? undefined : `${firstUnpaid}T00:00:00Z`]
      .map((text) => (typeof text === 'string' ? Date.parse(text) : Number.NaN))
      .filter((ms) => Number.isFinite(ms));
    const probability = probabilities.get(loan.id) ?? null;
    loans.push({
      loanId: loan.id,
      principalCents: loan.loanAmountCents,
      rate: loan.interestRate,
      terms,
      paidInstalments: Math.min(terms, payments?.paid ?? 0),
      nextDueMs: dues.length === 0 ? null : Math.min(...dues),
      repayProbability: probability,
      delinquent: loan.listStatus === 'collection' || (payments?.missed ?? 0) > 0 || (firstUnpaid !== undefined && firstUnpaid <= today),
    });
  }
  return loans;
}

/** The default-adjusted forecast of the lender's open loans, with the reinvestment projection, as of `nowMs`. */
export function buildCashFlowForecast(store: ForecastStore, nowMs: number): CashFlowForecast {
  const flow = store.cashFlow.acceptanceFlow({ sinceMs: nowMs - REINVESTMENT_WINDOW_DAYS * DAY_MS, untilMs: nowMs + 1 });
  return forecastCashFlows(forecastLoans(store, nowMs), { windowDays: REINVESTMENT_WINDOW_DAYS, ...flow }, nowMs);
}

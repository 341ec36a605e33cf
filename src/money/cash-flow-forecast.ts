/**
 * The default-adjusted cash-flow forecast (docs/operations.md, "Cash-flow forecast"), a pure
 * function of the open loans and the recent acceptance flow. Each loan's remaining schedule is
 * the loan's amortisation (src/math's loanCashFlows: equal monthly instalments, interest on the
 * outstanding principal) from the instalments already paid on; each instalment is weighted by the
 * chance the loan is still paying then. That chance comes from the repayment probability of the
 * decision that funded the loan, p over its whole term, turned into a constant monthly hazard
 * h = 1 − p^(1/terms): survival after k more months is (1 − h)^k. A loan in collection, or with a
 * missed or overdue payment, gets at least DELINQUENT_MONTHLY_HAZARD. A loan that defaults is
 * assumed to pay nothing more (recoveries are not forecast: the cautious side).
 *
 * Months are UTC calendar months; the first is the current month (overdue instalments fall in
 * it), then the next eleven. The reinvestment projection lends the money coming back again at the
 * recent acceptance flow (how much was lent a month, at what rate and terms): an assumption, said
 * in the answer, not a promise.
 */
import { loanCashFlows } from '../math/index.js';

/** Months forecast: the current calendar month and the eleven after it. */
const FORECAST_MONTHS = 12;
/**
 * The monthly hazard at least given to a delinquent loan (in collection, a payment missed or
 * overdue): 28% still paying after a year. Published roll rates have roughly half to three
 * quarters of loans a month or more late charged off in the end; some cure.
 */
export const DELINQUENT_MONTHLY_HAZARD = 0.1;
/** Average days in a month, to turn a window of days into months of flow. */
const DAYS_PER_MONTH = 365.25 / 12;

/** One open loan as the forecast needs it. */
export interface ForecastLoan {
  loanId: number;
  principalCents: number;
  rate: number;
  terms: number;
  /** Instalments paid so far. */
  paidInstalments: number;
  /** When the next instalment is due (ms), or null when the service did not say. */
  nextDueMs: number | null;
  /** Repayment probability over the whole term (from the funding decision); null when unknown. */
  repayProbability: number | null;
  delinquent: boolean;
}

/** The recent acceptance flow the reinvestment projection repeats. */
export interface ReinvestmentFlow {
  windowDays: number;
  loans: number;
  amountCents: number;
  averageRate: number | null;
  averageTerms: number | null;
  averageProbability: number | null;
}

interface ForecastMonth {
  /** YYYY-MM (UTC). */
  month: string;
  scheduledPrincipalCents: number;
  scheduledInterestCents: number;
  expectedPrincipalCents: number;
  expectedInterestCents: number;
  /** Lent again this month under the projection. */
  reinvestedCents: number;
  /** What the loans lent again bring back this month (principal and interest, default-adjusted). */
  reinvestmentInflowCents: number;
  /** Of which interest. */
  reinvestmentInterestCents: number;
  /** Money come back and not lent again by the month's end (the projection's idle cash). */
  uninvestedCents: number;
}

export interface CashFlowForecast {
  at: string;
  months: ForecastMonth[];
  /** Loans forecast, and how many had no repayment probability (given the book's average). */
  loans: number;
  loansWithoutProbability: number;
  delinquentLoans: number;
  /** The repayment probability given to loans without one (the average of the others; 1 when none has one). */
  fallbackProbability: number;
  outstandingPrincipalCents: number;
  totals: { scheduledCents: number; expectedCents: number; expectedInterestCents: number; expectedPrincipalCents: number };
  reinvestment: {
    flow: ReinvestmentFlow;
    /** Lent a month under the projection (the flow's amount per month). */
    monthlyCents: number;
    /** The projection's assumption in one sentence. */
    assumption: string;
  };
}

/** Whole months from the start of the UTC month of `fromMs` to that of `toMs`. */
function monthsBetween(fromMs: number, toMs: number): number {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
}

function monthLabel(nowMs: number, offset: number): string {
  const now = new Date(nowMs);
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return date.toISOString().slice(0, 7);
}

/** The constant monthly hazard that leaves `probability` surviving after `terms` months. */
export function monthlyHazard(probability: number, terms: number): number {
  const p = Math.min(1, Math.max(0, probability));
  return terms <= 0 ? 0 : 1 - Math.pow(p, 1 / terms);
}

/** Expected cash of one amortising loan, added into month buckets (fractional cents). */
interface Buckets {
  scheduledPrincipal: number[];
  scheduledInterest: number[];
  expectedPrincipal: number[];
  expectedInterest: number[];
}

const zeros = (): number[] => Array.from({ length: FORECAST_MONTHS }, () => 0);

function emptyBuckets(): Buckets {
  return { scheduledPrincipal: zeros(), scheduledInterest: zeros(), expectedPrincipal: zeros(), expectedInterest: zeros() };
}

/**
 * Adds the instalments after `paid` of a loan to `buckets`: the first falls in month `firstMonth`
 * (clamped to 0: overdue ones are due now), one a month after it. Returns the outstanding principal.
 */
function addSchedule(
  buckets: Buckets,
  loan: { principalCents: number; rate: number; terms: number; paid: number; hazard: number },
  firstMonth: number,
): number {
  const { instalments } = loanCashFlows(loan.principalCents, loan.rate, loan.terms, { kind: 'full', prepayMonth: null });
  const remaining = instalments.slice(loan.paid);
  remaining.forEach((instalment, index) => {
    const month = Math.max(0, firstMonth + index);
    if (month >= FORECAST_MONTHS) return;
    const survival = Math.pow(1 - loan.hazard, index + 1);
    buckets.scheduledPrincipal[month]! += instalment.principalCents;
    buckets.scheduledInterest[month]! += instalment.interestCents;
    buckets.expectedPrincipal[month]! += instalment.principalCents * survival;
    buckets.expectedInterest[month]! += instalment.interestCents * survival;
  });
  return remaining[0]?.outstandingBeforeCents ?? 0;
}

/** The outstanding principal of a loan after `paid` instalments, by the same schedule the forecast uses. */
export function outstandingPrincipalCents(loan: Pick<ForecastLoan, 'principalCents' | 'rate' | 'terms' | 'paidInstalments'>): number {
  const { instalments } = loanCashFlows(loan.principalCents, loan.rate, loan.terms, { kind: 'full', prepayMonth: null });
  return instalments[loan.paidInstalments]?.outstandingBeforeCents ?? 0;
}

function averageKnownProbability(loans: readonly ForecastLoan[]): number {
  const known = loans.map((loan) => loan.repayProbability).filter((p): p is number => p !== null);
  return known.length === 0 ? 1 : known.reduce((sum, p) => sum + p, 0) / known.length;
}

/** The forecast for `loans` as of `nowMs`, with the reinvestment projection under `flow`. */
export function forecastCashFlows(loans: readonly ForecastLoan[], flow: ReinvestmentFlow, nowMs: number): CashFlowForecast {
  const buckets = emptyBuckets();
  const fallbackProbability = averageKnownProbability(loans);
  let outstanding = 0;
  for (const loan of loans) {
    const hazard = monthlyHazard(loan.repayProbability ?? fallbackProbability, loan.terms);
    const firstMonth = loan.nextDueMs === null ? 1 : monthsBetween(nowMs, loan.nextDueMs);
    outstanding += addSchedule(
      buckets,
      {
        principalCents: loan.principalCents,
        rate: loan.rate,
        terms: loan.terms,
        paid: loan.paidInstalments,
        hazard: loan.delinquent ? Math.max(hazard, DELINQUENT_MONTHLY_HAZARD) : hazard,
      },
      firstMonth,
    );
  }
  const reinvestment = projectReinvestment(buckets, flow, fallbackProbability);
  const months: ForecastMonth[] = buckets.expectedPrincipal.map((_, index) => ({
    month: monthLabel(nowMs, index),
    scheduledPrincipalCents: Math.round(buckets.scheduledPrincipal[index]!),
    scheduledInterestCents: Math.round(buckets.scheduledInterest[index]!),
    expectedPrincipalCents: Math.round(buckets.expectedPrincipal[index]!),
    expectedInterestCents: Math.round(buckets.expectedInterest[index]!),
    reinvestedCents: Math.round(reinvestment.lent[index]!),
    reinvestmentInflowCents: Math.round(reinvestment.inflow[index]!),
    reinvestmentInterestCents: Math.round(reinvestment.interest[index]!),
    uninvestedCents: Math.round(reinvestment.uninvested[index]!),
  }));
  const sum = (pick: (month: ForecastMonth) => number): number => months.reduce((total, month) => total + pick(month), 0);
  return {
    at: new Date(nowMs).toISOString(),
    months,
    loans: loans.length,
    loansWithoutProbability: loans.filter((loan) => loan.repayProbability === null).length,
    delinquentLoans: loans.filter((loan) => loan.delinquent).length,
    fallbackProbability,
    outstandingPrincipalCents: outstanding,
    totals: {
      scheduledCents: sum((m) => m.scheduledPrincipalCents + m.scheduledInterestCents),
      expectedCents: sum((m) => m.expectedPrincipalCents + m.expectedInterestCents),
      expectedInterestCents: sum((m) => m.expectedInterestCents),
      expectedPrincipalCents: sum((m) => m.expectedPrincipalCents),
    },
    reinvestment: { flow, monthlyCents: Math.round(reinvestment.monthly), assumption: assumptionText(flow, reinvestment.monthly) },
  };
}

/**
 * Each month the money come back (the loans' expected cash, and that of the loans lent again) is
 * lent again up to the flow's amount a month, at its average rate and terms, as loans that
 * survive like the flow's average decision says; what is not lent waits for the next month.
 */
function projectReinvestment(base: Buckets, flow: ReinvestmentFlow, fallbackProbability: number) {
  const lent = zeros();
  const uninvested = zeros();
  const cohorts = emptyBuckets();
  const usable = flow.loans > 0 && flow.averageRate !== null && flow.averageTerms !== null && flow.windowDays > 0;
  const monthly = usable ? flow.amountCents / (flow.windowDays / DAYS_PER_MONTH) : 0;
  const terms = Math.max(1, Math.round(flow.averageTerms ?? 1));
  const hazard = monthlyHazard(flow.averageProbability ?? fallbackProbability, terms);
  let waiting = 0;
  for (let month = 0; month < FORECAST_MONTHS; month += 1) {
    waiting +=
      base.expectedPrincipal[month]! + base.expectedInterest[month]! + cohorts.expectedPrincipal[month]! + cohorts.expectedInterest[month]!;
    const lend = usable ? Math.min(waiting, monthly) : 0;
    // Whole cents lent; fractions of a cent wait with the rest.
    const lendCents = Math.floor(lend);
    if (lendCents > 0) addSchedule(cohorts, { principalCents: lendCents, rate: flow.averageRate ?? 0, terms, paid: 0, hazard }, month + 1);
    lent[month] = lendCents;
    waiting -= lendCents;
    uninvested[month] = waiting;
  }
  const inflow = cohorts.expectedPrincipal.map((principal, index) => principal + cohorts.expectedInterest[index]!);
  return { lent, uninvested, inflow, interest: cohorts.expectedInterest, monthly };
}

function assumptionText(flow: ReinvestmentFlow, monthlyCents: number): string {
  if (flow.loans === 0 || flow.averageRate === null || flow.averageTerms === null) {
    return `No offer became a loan in the last ${flow.windowDays} days, so nothing is assumed lent again: the money coming back waits.`;
  }
  const dollars = (monthlyCents / 100).toFixed(2);
  return (
    `Assumes the money coming back is lent again as in the last ${flow.windowDays} days: ${flow.loans} loan${flow.loans === 1 ? '' : 's'}, ` +
    `about $${dollars} a month at ${(flow.averageRate * 100).toFixed(2)}% over ${Math.round(flow.averageTerms)} months on average.`
  );
}

/** What the forecast expects back (principal and interest, default-adjusted) in the next calendar month. */
export function nextMonthExpectedInflow(forecast: CashFlowForecast): { month: string; cents: number } {
  const next = forecast.months[1];
  return next === undefined
    ? { month: '', cents: 0 }
    : { month: next.month, cents: next.expectedPrincipalCents + next.expectedInterestCents };
}

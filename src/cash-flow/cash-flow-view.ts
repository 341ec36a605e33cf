/**
 * The forecast and the idle-cash view as JSON (snake_case, amounts in integer cents), the one
 * shape `GET /api/forecast`, `GET /api/idle-cash` and the agent connector's
 * get_cash_flow_forecast answer with, so an agent and the dashboard read the same figures.
 */
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { nextMonthExpectedInflow, type CashFlowForecast } from '../ops/cash-flow-forecast.js';
import { buildCashFlowForecast } from '../ops/forecast-loans.js';
import { buildIdleCashReport, type IdleCashReport } from '../ops/idle-cash-report.js';

export function cashFlowForecastJson(forecast: CashFlowForecast): Record<string, unknown> {
  const next = nextMonthExpectedInflow(forecast);
  const { flow } = forecast.reinvestment;
  return {
    at: forecast.at,
    loans: forecast.loans,
    delinquent_loans: forecast.delinquentLoans,
    loans_without_probability: forecast.loansWithoutProbability,
    fallback_probability: forecast.fallbackProbability,
    outstanding_principal_cents: forecast.outstandingPrincipalCents,
    next_month: { month: next.month, expected_cents: next.cents },
    totals: {
      scheduled_cents: forecast.totals.scheduledCents,
      expected_cents: forecast.totals.expectedCents,
      expected_principal_cents: forecast.totals.expectedPrincipalCents,
      expected_interest_cents: forecast.totals.expectedInterestCents,
    },
    months: forecast.months.map((month) => ({
      month: month.month,
      scheduled_principal_cents: month.scheduledPrincipalCents,
      scheduled_interest_cents: month.scheduledInterestCents,
      expected_principal_cents: month.expectedPrincipalCents,
      expected_interest_cents: month.expectedInterestCents,
      reinvested_cents: month.reinvestedCents,
      reinvestment_inflow_cents: month.reinvestmentInflowCents,
      reinvestment_interest_cents: month.reinvestmentInterestCents,
      uninvested_cents: month.uninvestedCents,
    })),
    reinvestment: {
      assumption: forecast.reinvestment.assumption,
      monthly_cents: forecast.reinvestment.monthlyCents,
      window_days: flow.windowDays,
      loans: flow.loans,
      amount_cents: flow.amountCents,
      average_rate: flow.averageRate,
      average_terms: flow.averageTerms,
      average_probability: flow.averageProbability,
    },
  };
}

export function idleCashJson(report: IdleCashReport): Record<string, unknown> {
  const { reasons, alert } = report;
  return {
    at: report.at,
    share: report.share,
    free_cents: report.freeCents,
    reserved_cents: report.reservedCents,
    outstanding_cents: report.outstandingCents,
    series: report.series.map((point) => ({ at: point.at, share: point.share, free_cents: point.freeCents })),
    why: reasons.why,
    reasons: {
      window_hours: reasons.windowHours,
      requests: reasons.requests,
      offers: reasons.offers,
      skips: reasons.skips,
      strategy_skips: reasons.strategySkips,
      guard_refusals: reasons.guardRefusals,
      reserved_cents: reasons.reservedCents,
    },
    alert: {
      enabled: alert.enabled,
      max_idle_share: alert.maxIdleShare,
      for_hours: alert.forHours,
      above_since: alert.aboveSince,
      alerted_at: alert.alertedAt,
    },
  };
}

/** Both views as of `nowMs`: what the API route and the agent tool answer. */
export function cashFlowAnswer(
  store: Store,
  nowMs: number,
  limits: RiskLimits,
  dryRun: boolean,
): { forecast: Record<string, unknown>; idle: Record<string, unknown> } {
  const forecast = buildCashFlowForecast(store, nowMs);
  return {
    forecast: cashFlowForecastJson(forecast),
    idle: idleCashJson(buildIdleCashReport(store, nowMs, limits, dryRun, forecast.outstandingPrincipalCents)),
  };
}

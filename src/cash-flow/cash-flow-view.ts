/**
 * The forecast and the idle-cash view as JSON (snake_case, amounts in integer cents), the one
 * shape `GET /api/forecast`, `GET /api/idle-cash` and the agent connector's
 * get_cash_flow_forecast answer with, so an agent and the dashboard read the same figures.
 */
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { nextMonthExpectedInflow, type CashFlowForecast } from '../money/cash-flow-forecast.js';
import { buildCashFlowForecast } from '../money/forecast-loans.js';
import { buildIdleCashReport, type IdleCashReport } from '../money/idle-cash-report.js';
import { snakeKeys } from '../ops/snake-keys.js';

/** The forecast with next month's inflow beside it and the acceptance flow inside the reinvestment. */
function cashFlowForecastJson(forecast: CashFlowForecast): Record<string, unknown> {
  const next = nextMonthExpectedInflow(forecast);
  const { reinvestment, ...rest } = forecast;
  const { flow, ...projection } = reinvestment;
  return snakeKeys({
    ...rest,
    nextMonth: { month: next.month, expectedCents: next.cents },
    reinvestment: { ...projection, ...flow },
  }) as Record<string, unknown>;
}

/** The idle-cash view with the reasons' plain sentence at the top (`why`). */
function idleCashJson(report: IdleCashReport): Record<string, unknown> {
  const { reasons, ...rest } = report;
  const { why, ...counts } = reasons;
  return snakeKeys({ ...rest, why, reasons: counts }) as Record<string, unknown>;
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

/**
 * The cash-flow forecast and idle cash as `lendbot status` shows them: next month's expected
 * inflow and the 12 months' total (default-adjusted, the scheduled figure beside it), and the
 * share of money idle now with the alert's state. The same functions as the API and the agent
 * connector (forecast-loans.ts, idle-cash-report.ts), so the figures agree.
 */
import { formatCents as usd } from '../domain/index.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import { nextMonthExpectedInflow } from './cash-flow-forecast.js';
import { buildCashFlowForecast } from './forecast-loans.js';
import { buildIdleCashReport } from './idle-cash-report.js';

export interface CashFlowStatus {
  nextMonth: { month: string; expectedCents: number };
  twelveMonths: { expectedCents: number; scheduledCents: number };
  loans: number;
  idle: { share: number; freeCents: number; alertSince: string | null; alertedAt: string | null; maxIdleShare: number; forHours: number };
}

export function cashFlowStatus(store: Store, nowMs: number, limits: RiskLimits, dryRun: boolean): CashFlowStatus {
  const forecast = buildCashFlowForecast(store, nowMs);
  const next = nextMonthExpectedInflow(forecast);
  const idle = buildIdleCashReport(store, nowMs, limits, dryRun, forecast.outstandingPrincipalCents);
  return {
    nextMonth: { month: next.month, expectedCents: next.cents },
    twelveMonths: { expectedCents: forecast.totals.expectedCents, scheduledCents: forecast.totals.scheduledCents },
    loans: forecast.loans,
    idle: {
      share: idle.share,
      freeCents: idle.freeCents,
      alertSince: idle.alert.aboveSince,
      alertedAt: idle.alert.alertedAt,
      maxIdleShare: idle.alert.maxIdleShare,
      forHours: idle.alert.forHours,
    },
  };
}

/** The status block: aligned `label  value` pairs. */
export function cashFlowLines(status: CashFlowStatus): Array<[string, string]> {
  const { nextMonth, twelveMonths, idle } = status;
  const percent = `${Math.round(idle.share * 100)}%`;
  const alert =
    idle.alertedAt !== null
      ? `IDLE above ${Math.round(idle.maxIdleShare * 100)}% since ${idle.alertSince ?? ''}`
      : idle.alertSince !== null
        ? `above ${Math.round(idle.maxIdleShare * 100)}% since ${idle.alertSince}, alert after ${idle.forHours} h`
        : `alert above ${Math.round(idle.maxIdleShare * 100)}% for ${idle.forHours} h`;
  return [
    [
      'expected back',
      status.loans === 0
        ? 'no open loans'
        : `${usd(nextMonth.expectedCents)} in ${nextMonth.month}, ${usd(twelveMonths.expectedCents)} over 12 months (scheduled ${usd(twelveMonths.scheduledCents)}, before defaults)`,
    ],
    ['idle cash', `${percent} of your money (${usd(idle.freeCents)} free); ${alert}`],
  ];
}

/** snake_case JSON, amounts as integer cents. */
export function cashFlowJson(status: CashFlowStatus): Record<string, unknown> {
  return {
    next_month: { month: status.nextMonth.month, expected_cents: status.nextMonth.expectedCents },
    twelve_months: { expected_cents: status.twelveMonths.expectedCents, scheduled_cents: status.twelveMonths.scheduledCents },
    loans: status.loans,
    idle: {
      share: status.idle.share,
      free_cents: status.idle.freeCents,
      above_since: status.idle.alertSince,
      alerted_at: status.idle.alertedAt,
      max_idle_share: status.idle.maxIdleShare,
      for_hours: status.idle.forHours,
    },
  };
}

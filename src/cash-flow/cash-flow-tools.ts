/**
 * get_cash_flow_forecast: what money comes back month by month (default-adjusted, with the
 * schedule beside it), the reinvestment projection and its assumption, and idle cash with why it
 * is idle. The same object as `GET /api/cash-flow` (cash-flow-view.ts).
 */
import { cashFlowAnswer } from './cash-flow-view.js';
import { formatCents } from '../domain/index.js';
import { answer } from '../operator/tool-answer.js';
import type { ToolDeps } from '../operator/agent-context.js';

function cents(value: unknown): string {
  return `$${formatCents(typeof value === 'number' ? value : 0)}`;
}

export function registerCashFlowTools({ server, context }: ToolDeps): void {
  server.registerTool(
    'get_cash_flow_forecast',
    {
      title: 'Cash-flow forecast and idle cash',
      description:
        "Expected principal and interest per calendar month for the next 12 months from the open loans' schedules, each weighted by the loan's chance of still paying (from the repayment probability of the decision that funded it; delinquent loans higher risk), with the scheduled figure beside it; a projection of the money coming back lent again at the recent acceptance flow (an assumption, stated); and the share of money idle now and over time, with why it is idle (no requests, the strategy's skips, the risk limits, money held by open offers).",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      const body = cashFlowAnswer(context.store, context.clock.now(), context.limits(), context.dryRun);
      const next = body.forecast.next_month as { month: string; expected_cents: number };
      const totals = body.forecast.totals as { expected_cents: number; scheduled_cents: number };
      const share = typeof body.idle.share === 'number' ? Math.round(body.idle.share * 100) : 0;
      const text =
        `Expected back in ${next.month}: ${cents(next.expected_cents)}; over 12 months ${cents(totals.expected_cents)} ` +
        `(scheduled ${cents(totals.scheduled_cents)} before defaults). Idle cash: ${share}% of the money. ${String(body.idle.why)}`;
      return answer(text, body);
    },
  );
}

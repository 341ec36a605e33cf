/**
 * The cash-flow forecast and idle cash over real HTTP and the agent connector, after a daemon
 * traded on the sandbox: `GET /api/cash-flow` and the MCP tool get_cash_flow_forecast (the SDK's
 * client) give the same answer, which agrees with the store's loans and with `lendbot status`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { statusJson } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { API_TOKEN, startApiHarness, type ApiHarness } from './api-harness.js';
import { tradeThreeLoans } from './cash-flow-fixture.js';
import { callTool, connectAgent } from './operator-harness.js';

let h: ApiHarness;
let agent: Client;

beforeAll(async () => {
  h = await startApiHarness();
  await tradeThreeLoans(h);
  agent = await connectAgent(new URL('/mcp', h.base), API_TOKEN);
}, 120_000);
afterAll(async () => {
  await agent?.close();
  await h?.close();
});

interface ForecastBody {
  loans: number;
  loans_without_probability: number;
  outstanding_principal_cents: number;
  next_month: { month: string; expected_cents: number };
  totals: { scheduled_cents: number; expected_cents: number };
  months: Array<{
    month: string;
    scheduled_principal_cents: number;
    scheduled_interest_cents: number;
    expected_principal_cents: number;
    expected_interest_cents: number;
  }>;
  reinvestment: { assumption: string; loans: number };
}

describe('GET /api/cash-flow and get_cash_flow_forecast', () => {
  it('answer the same, from the loans the store holds', async () => {
    const response = await h.call('/api/cash-flow');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { forecast: ForecastBody; idle: Record<string, unknown> };
    const tool = await callTool(agent, 'get_cash_flow_forecast');
    expect(tool.isError).toBe(false);
    expect(tool.data).toEqual(body);

    const open = h.store.account
      .loans()
      .filter((loan) => loan.listStatus === 'current' && !loan.paidOff && loan.status.toLowerCase() !== 'pending');
    expect(open).toHaveLength(3);
    const { forecast } = body;
    expect(forecast.loans).toBe(3);
    // Every loan came from a decision with a repayment probability.
    expect(forecast.loans_without_probability).toBe(0);
    // One instalment paid of six on each: five remain, all within the 12 months.
    const scheduledPrincipal = forecast.months.reduce((sum, m) => sum + m.scheduled_principal_cents, 0);
    expect(scheduledPrincipal).toBe(forecast.outstanding_principal_cents);
    expect(forecast.outstanding_principal_cents).toBeGreaterThan(0);
    expect(forecast.outstanding_principal_cents).toBeLessThan(3 * 100_000);
    expect(forecast.totals.expected_cents).toBeLessThan(forecast.totals.scheduled_cents);
    expect(forecast.next_month.expected_cents).toBeGreaterThan(0);
    expect(forecast.reinvestment.loans).toBe(3);
    expect(forecast.reinvestment.assumption).toMatch(/lent again as in the last 90 days: 3 loans/);
    expect(tool.text).toContain(`Expected back in ${forecast.next_month.month}`);

    // lendbot status reads the same functions.
    const limits = riskLimitsSchema.parse({
      max_open_exposure: 50_000,
      max_per_borrower: null,
      max_amount_per_day: null,
      max_share_by_risk_level: { '2': 0.25 },
    });
    const status = statusJson(buildStatusReport({ store: h.store, nowMs: h.sandbox.clock.now(), limits, budgets: [], dryRun: false }));
    expect(status.cash_flow).toMatchObject({
      next_month: forecast.next_month,
      twelve_months: { expected_cents: forecast.totals.expected_cents, scheduled_cents: forecast.totals.scheduled_cents },
      idle: { share: body.idle.share, free_cents: body.idle.free_cents },
    });
  });

  it('shows idle cash with its reasons', async () => {
    const body = (await (await h.call('/api/cash-flow')).json()) as {
      idle: { share: number; outstanding_cents: number; why: string; reasons: { offers: number } };
    };
    expect(body.idle.share).toBeGreaterThan(0);
    expect(body.idle.share).toBeLessThan(1);
    expect(body.idle.reasons.offers).toBe(0);
    expect(body.idle.why).toBe('No loan requests arrived in the last 72 h.');
  });
});

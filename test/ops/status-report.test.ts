import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { tempStore } from '../store/fixtures.js';
import { seedStatusData } from './status-fixtures.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
  seedStatusData(h.store, { decisions: 30, nowMs: NOW });
});
afterEach(() => h.cleanup());

const limits = riskLimitsSchema.parse({
  min_cash_reserve: 100,
  max_open_exposure: 5000,
  max_offers_per_day: 10,
  max_amount_per_day: null,
  kill_switch: true,
});

describe('status report', () => {
  it('adds up every figure from the store', () => {
    const report = buildStatusReport({
      store: h.store,
      nowMs: NOW,
      limits,
      budgets: [{ strategy: 'balanced', monthlyBudgetCents: 1000 }],
      dryRun: false,
    });
    expect(statusJson(report)).toEqual({
      at: '2026-03-10T12:00:00.000Z',
      scope: 'live',
      balance_cents: 330_000,
      reserved_cents: 83_000,
      free_cents: 237_000,
      min_cash_reserve_cents: 10_000,
      // The last 30 days': today's two are out, unanswered (the old settled ones are older).
      offers_by_state: { sending: 0, unknown: 0, refused: 1, placed: 2, accepted: 0, funded: 0, rejected: 0, lost: 0, expired: 0 },
      exposure: {
        total_cents: 193_000,
        by_risk_level_cents: { '0': 40_000, '1': 77_000, '2': 76_000 },
        max_cents: 500_000,
        max_share: null,
      },
      // Balance plus money lent out (exposure beyond the reservations): 3,300 + 1,930 - 830.
      capital_cents: 440_000,
      offers_today: { offers: 2, amount_cents: 83_000, max_offers: 10, max_amount_cents: null, max_amount_share: null },
      decisions_today: { offer: 2, skip: 4 },
      loans_by_status: { collection: 1, completed: 1, current: 2 },
      payments: { loans: 0, payments: 0, paid: 0, paid_cents: 0, late: 0, missed: 0, max_delayed_days: 0, late_fees_charged_cents: 0 },
      // Not asked for: equity reads the whole history (lendbot status asks, test/cli/ledger-export.test.ts).
      equity: null,
      data_spend: {
        month_start: '2026-03-01T00:00:00.000Z',
        spent_cents: 400,
        subscriptions: [],
        budgets: [{ strategy: 'balanced', monthly_budget_cents: 1000, spent_cents: 400 }],
      },
      last_poll: { at: '2026-03-10T11:58:30.000Z', age_seconds: 90 },
      inbox_depth: 2,
      kill_switch: { on: true, why: 'risk.kill_switch is true' },
      pause: null,
      webhooks_silent: null,
      webhook_refusals: null,
      paper_book: null,
      // The fixture's loans carry no created_date: no vintage to compare yet.
      calibration: {
        since: '2025-04',
        min_loans: 30,
        pooled: {
          vintage: 'all',
          loans: 0,
          unpredicted: 0,
          predicted_default: null,
          realised_default: null,
          realised_low: null,
          realised_high: null,
          defaulted: 0,
          delinquent: 0,
          repaid: 0,
          above_predicted: false,
        },
        vintages: [],
        alert: null,
        strategies: [],
        hazard: [],
      },
      cash_flow: {
        next_month: { month: '2026-04', expected_cents: 0 },
        twelve_months: { expected_cents: 0, scheduled_cents: 0 },
        loans: 0,
        idle: {
          share: 237_000 / (237_000 + 83_000),
          free_cents: 237_000,
          above_since: null,
          alerted_at: null,
          max_idle_share: 0.5,
          for_hours: 72,
        },
      },
      // No retraining round yet.
      retrain: null,
    });
  });

  it('prints aligned lines for people', () => {
    const report = buildStatusReport({
      store: h.store,
      nowMs: NOW,
      limits,
      budgets: [
        { strategy: 'balanced', monthlyBudgetCents: 1000 },
        { strategy: 'flat', monthlyBudgetCents: 0 },
      ],
      dryRun: false,
    });
    expect(formatStatusText(report)).toBe(
      [
        'as of              2026-03-10T12:00:00.000Z',
        'balance            3300.00',
        'reserved           830.00',
        'free cash          2370.00 (after a reserve of 100.00)',
        'offers             1 refused, 2 placed (made in the last 30 days)',
        'exposure           1930.00 of 5000.00',
        '  risk 0 low       400.00',
        '  risk 1 medium    770.00',
        '  risk 2 high      760.00',
        'offers today       2 of 10',
        'offered today      830.00 (no cap)',
        'decisions today    2 offers, 4 skips',
        'loans              1 collection, 1 completed, 2 current',
        'payments           none synced',
        'expected back      no open loans',
        'idle cash          74% of your money (2370.00 free); alert above 50% for 72 h',
        'data spend         4.00 since 2026-03-01',
        '  budget balanced  4.00 of 10.00 (6.00 left)',
        // A strategy that buys no data: words, not "0.00 of 0.00 (0.00 left)".
        '  budget flat      buys no paid data',
        'last poll          2026-03-10T11:58:30.000Z (90 s ago)',
        'webhook inbox      2 waiting',
        'kill switch        ON: risk.kill_switch is true',
        'protections        no pause',
        '',
      ].join('\n'),
    );
  });

  it('counts the dry run offers in their own scope, and says so', () => {
    const report = buildStatusReport({
      store: h.store,
      nowMs: NOW,
      limits: riskLimitsSchema.parse({ max_amount_per_day: null }),
      budgets: [],
      dryRun: true,
    });
    expect(report.scope).toBe('dry_run');
    expect(report.reservedCents).toBe(0);
    expect(report.offersToday).toEqual({ offers: 0, amountCents: 0, maxOffers: null, maxAmountCents: null, maxAmountShare: null });
    expect(report.killSwitch).toEqual({ on: false, why: null });
    expect(formatStatusText(report).split('\n')[0]).toBe('as of            2026-03-10T12:00:00.000Z (dry-run offers)');
  });

  it('shows a cap given as a share in USD for the capital now, and what it is a share of', () => {
    const report = buildStatusReport({
      store: h.store,
      nowMs: NOW,
      limits: riskLimitsSchema.parse({ max_open_exposure: { share: 0.9 }, max_amount_per_day: { share: 0.5 } }),
      budgets: [],
      dryRun: false,
    });
    // Capital 4,400.00: 3,300.00 balance and 1,100.00 lent out.
    expect(report.exposure).toMatchObject({ maxCents: 396_000, maxShare: 0.9 });
    expect(report.offersToday).toMatchObject({ maxAmountCents: 220_000, maxAmountShare: 0.5 });
    const lines = formatStatusText(report).split('\n');
    expect(lines).toContain('exposure         1930.00 of 3960.00 (90 % of the capital, 4400.00)');
    expect(lines).toContain('offered today    830.00 of 2200.00 (50 % of the capital, 4400.00)');
  });
});

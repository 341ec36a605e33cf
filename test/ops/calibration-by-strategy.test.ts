/**
 * Predicted against realised default by strategy and month made, with the loans' age, and the
 * instalment hazard by month of loan age, on a real SQLite store: the one computation
 * (calibrationStatus) that `lendbot status`, /metrics and the operator API read.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { calibrationStatus } from '../../src/ops/calibration.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { loanPaymentSchema } from '../../src/domain/index.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';
import type { Store } from '../../src/store/index.js';
import { tempStore } from '../store/fixtures.js';

let store: Store;
let cleanup: () => void;
const clock = new ManualClock('2026-03-10T12:00:00Z');
const SETTINGS = { window_months: 12, min_loans: 30 };
let nextPaymentId = 1;

beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

type Instalment = 'paid' | 'late' | 'missed';

/** Loan `id` of a 12-month term made on `created`, offered by `strategy` predicting `predictedDefault`, with its instalments so far. */
function loan(id: number, created: string, strategy: string, predictedDefault: number, instalments: Instalment[], terms = 12) {
  const requestId = 7000 + id;
  const missed = instalments.includes('missed');
  store.account.upsertLoans(
    [
      {
        id,
        loan_request_id: requestId,
        borrower_card_color: 1,
        loan_amount: 500,
        payment_terms: terms,
        interest_rate: 0.3,
        status: 'funded',
        loan_balance: 500,
        loan_paid_off: false,
        created_date: `${created} 10:00:00+00:00`,
      },
    ],
    missed ? 'collection' : 'current',
    clock.now(),
  );
  store.decisions.record({
    loanRequestId: requestId,
    strategy,
    probability: 1 - predictedDefault,
    rate: 0.3,
    action: 'offer',
    reasons: storedReasons(['score']),
    dryRun: false,
    decidedAtMs: clock.now(),
  });
  const start = new Date(`${created}T00:00:00Z`);
  store.payments.upsert(
    instalments.map((state, k) =>
      loanPaymentSchema.parse({
        id: nextPaymentId++,
        loan: id,
        payment_amount: '45.00',
        payment_due_date: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k + 1, start.getUTCDate()))
          .toISOString()
          .slice(0, 10),
        payment_status: state === 'missed' ? 'Missed Payment' : 'paid',
        is_late_payment: state !== 'paid',
        delayed_days_count: state === 'late' ? 9 : 0,
      }),
    ),
    clock.now(),
  );
}

/**
 * balanced: 40 loans made 2025-09-10 (six months old, half their terms), predicted 5 %: 10 missed
 * their second instalment, 5 paid their third late. cautious: 10 loans made this month, predicted
 * 2 %, none due yet.
 */
function book() {
  const paid = (n: number): Instalment[] => Array.from({ length: n }, () => 'paid');
  for (let i = 1; i <= 40; i += 1) {
    if (i <= 10) loan(i, '2025-09-10', 'balanced', 0.05, ['paid', 'missed']);
    else if (i <= 15) loan(i, '2025-09-10', 'balanced', 0.05, ['paid', 'paid', 'late', 'paid', 'paid', 'paid']);
    else loan(i, '2025-09-10', 'balanced', 0.05, paid(6));
  }
  for (let i = 41; i <= 50; i += 1) loan(i, '2026-03-02', 'cautious', 0.02, []);
}

describe('calibration by strategy and month made', () => {
  it('splits the loans by the strategy that offered, with their age, what the prediction expects by now, and a reading', () => {
    book();
    const status = calibrationStatus(store, clock.now(), SETTINGS, undefined);
    expect(status.strategies.map((s) => s.strategy)).toEqual(['balanced', 'cautious']);
    const [balanced, cautious] = status.strategies;
    const september = balanced?.vintages[0];
    expect(september).toMatchObject({ vintage: '2025-09', loans: 40, defaulted: 10, reading: 'above expected' });
    // 181 days: 5.95 months of 12.
    expect(september?.ageMonths).toBeCloseTo(181.083 / (365.25 / 12), 3);
    expect(september?.termElapsed).toBeCloseTo(181.083 / (365.25 / 12) / 12, 3);
    expect(september?.expectedByNow).toBeCloseTo(1 - 0.95 ** (181.083 / (365.25 / 12) / 12), 4);
    expect(september?.realised).toBeCloseTo(0.25, 12);
    expect(cautious?.vintages[0]).toMatchObject({ vintage: '2026-03', loans: 10, defaulted: 0, reading: 'too early' });
    expect(cautious?.pooled).toMatchObject({ vintage: 'all', loans: 10 });
    // The pooled vintages (the protection's) still count both strategies together.
    expect(status.vintages.map((v) => [v.vintage, v.loans])).toEqual([
      ['2025-09', 40],
      ['2026-03', 10],
    ]);
  });

  it('reads the instalments by month of loan age: due, late, missed, the hazard against the expected one, and the share missed by then', () => {
    book();
    const { hazard } = calibrationStatus(store, clock.now(), SETTINGS, undefined);
    expect(hazard.map((h) => [h.ageMonth, h.due, h.late, h.missed])).toEqual([
      [1, 40, 0, 0],
      [2, 40, 0, 10],
      [3, 30, 5, 0],
      [4, 30, 0, 0],
      [5, 30, 0, 0],
      [6, 30, 0, 0],
    ]);
    const month2 = hazard[1];
    expect(month2?.hazard).toBeCloseTo(0.25, 12);
    expect(month2?.expected).toBeCloseTo(1 - 0.95 ** (1 / 12), 12);
    expect(month2?.above).toBe(true);
    expect(hazard[2]?.lateShare).toBeCloseTo(5 / 30, 12);
    expect(hazard[5]?.cumulativeMissed).toBeCloseTo(0.25, 12);
    expect(hazard[0]?.above).toBe(false);
  });

  it('shows in lendbot status (text and JSON) and /metrics', async () => {
    book();
    const report = buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    const text = formatStatusText(report);
    expect(text).toMatch(
      /\n {2}by strategy +balanced, months shown together: 40 loans, 5\.9 months old \(50% of their terms\): predicted 5\.0%, by now 2\.5%; realised 25\.0% \[14\.2% to 40\.2%\]: above expected\n/,
    );
    expect(text).toMatch(
      /\n {4}2026-03 +cautious: 10 loans, 0\.3 months old \(2% of their terms\): predicted 2\.0%, by now 0\.0%; realised 0\.0% \[0\.0% to 27\.8%\]: too early\n/,
    );
    expect(text).toMatch(
      /\n +month 2: 40 due, 0 late, 10 missed: 25\.0% \[14\.2% to 40\.2%\] against 0\.4% expected; 25\.0% missed by then ABOVE EXPECTED\n/,
    );
    const json = statusJson(report).calibration as { strategies: Array<{ strategy: string; vintages: unknown[] }>; hazard: unknown[] };
    expect(json.strategies[1]).toMatchObject({ strategy: 'cautious', vintages: [{ vintage: '2026-03', loans: 10, reading: 'too early' }] });
    expect(json.hazard[1]).toMatchObject({ age_month: 2, due: 40, missed: 10, hazard: 0.25, above_expected: true });
    const metrics = createMetrics({ processMetrics: false });
    metrics.observeStatus(report);
    const scraped = await metrics.registry.metrics();
    expect(scraped).toContain('lendbot_vintage_default_realised{strategy="balanced",vintage="2025-09"} 0.25');
    expect(scraped).toContain('lendbot_vintage_loans{strategy="cautious",vintage="all"} 10');
    expect(scraped).toContain('lendbot_instalments_missed{age_month="2"} 10');
    expect(scraped).toContain('lendbot_instalment_hazard{age_month="2"} 0.25');
  });
});

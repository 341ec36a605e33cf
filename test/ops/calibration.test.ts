/**
 * Calibration while live on a real SQLite store: the lender's loans joined to the decisions that
 * offered on them, by vintage, in `lendbot status`, /metrics and the calibration protection (which
 * notifies a real HTTP receiver and, when configured, pauses).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { calibrationSummary, defaultAbovePrediction } from '../../src/ops/calibration.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { WebhookNotifier } from '../../src/messaging/notifier.js';
import { Protections, protectionSettingsSchema, storedCalibrationDrift, type ProtectionSettings } from '../../src/ops/protections/index.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText, statusJson } from '../../src/ops/status-text.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { loanPaymentSchema } from '../../src/domain/index.js';
import type { Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { storedReasons } from '../../src/domain/decision-reason-parse.js';

let store: Store;
let cleanup: () => void;
let clock: ManualClock;
let settings: ProtectionSettings;
let receiver: NotificationReceiver;
let deliveries: Array<Promise<unknown>>;
let protections: Protections;
/** The book protections (default spike, drawdown) would pause on these books too: off, to watch calibration alone. */
const BOOK_OFF = { default_spike: { enabled: false }, drawdown: { enabled: false } };

beforeEach(async () => {
  ({ store, cleanup } = tempStore());
  clock = new ManualClock('2026-03-10T12:00:00Z');
  settings = protectionSettingsSchema.parse(BOOK_OFF);
  deliveries = [];
  receiver = await startNotificationReceiver();
  const notifier = new WebhookNotifier({ url: receiver.url, clock, log: captureLog().log });
  protections = new Protections({
    store,
    clock,
    log: captureLog().log,
    settings: () => settings,
    notify: (event, data) => void deliveries.push(notifier.notify(event, data)),
  });
});
afterEach(async () => {
  await receiver.close();
  cleanup();
});

async function events(): Promise<string[]> {
  await Promise.all(deliveries);
  return receiver.received.map((body) => body.event);
}

/**
 * Loan `id` created on `created` (YYYY-MM-DD) in `list`, offered on by a decision that predicted
 * `predictedDefault` (none: a loan made by hand, without a decision).
 */
function loan(id: number, created: string, list: 'current' | 'completed' | 'collection' | 'default', predictedDefault?: number) {
  const requestId = 5000 + id;
  store.account.upsertLoans(
    [
      {
        id,
        loan_request_id: requestId,
        borrower_card_color: 1,
        loan_amount: 500,
        interest_rate: 0.3,
        status: 'funded',
        loan_balance: 500,
        loan_paid_off: list === 'completed',
        created_date: `${created} 10:00:00+00:00`,
      },
    ],
    list,
    clock.now(),
  );
  if (predictedDefault === undefined) return;
  store.decisions.record({
    loanRequestId: requestId,
    strategy: 'balanced',
    probability: 1 - predictedDefault,
    rate: 0.3,
    action: 'offer',
    reasons: storedReasons(['score']),
    dryRun: false,
    decidedAtMs: clock.now(),
  });
}

function missedPayment(loanId: number) {
  store.payments.upsert(
    [
      loanPaymentSchema.parse({
        id: 900 + loanId,
        loan: loanId,
        payment_amount: '50.00',
        payment_due_date: '2026-03-01',
        payment_status: 'Missed Payment',
      }),
    ],
    clock.now(),
  );
}

/**
 * January: 40 loans predicted 5 % each, 10 in default, 2 in collection and 2 current with a
 * missed payment (14 bad, 35 %), 6 repaid; and one made by hand. February: 10 loans predicted 10 %,
 * none bad. A loan of 2025-01 lies outside a 12-month window.
 */
function badBook() {
  for (let i = 1; i <= 40; i += 1) {
    const list = i <= 10 ? 'default' : i <= 12 ? 'collection' : i <= 18 ? 'completed' : 'current';
    loan(i, '2026-01-15', list, 0.05);
  }
  missedPayment(13 + 6);
  missedPayment(13 + 7);
  loan(41, '2026-01-20', 'default');
  for (let i = 51; i <= 60; i += 1) loan(i, '2026-02-03', 'current', 0.1);
  loan(70, '2025-01-05', 'default', 0.05);
}

describe('calibration by vintage', () => {
  it('joins each loan to the decision that offered on it: predicted mean, realised share with its interval, the counts', () => {
    badBook();
    const summary = calibrationSummary(store, clock.now(), 12);
    expect(summary.since).toBe('2025-04');
    expect(summary.vintages.map((v) => [v.vintage, v.loans, v.unpredicted, v.defaulted, v.delinquent, v.repaid])).toEqual([
      ['2026-01', 40, 1, 12, 2, 6],
      ['2026-02', 10, 0, 0, 0, 0],
    ]);
    const [january, february] = summary.vintages;
    expect(january?.predicted).toBeCloseTo(0.05, 12);
    expect(january?.realised).toBeCloseTo(14 / 40, 12);
    // Wilson 95 % of 14 in 40: 0.2213 to 0.5050.
    expect(january?.low).toBeCloseTo(0.2213, 4);
    expect(january?.high).toBeCloseTo(0.505, 3);
    expect(february?.predicted).toBeCloseTo(0.1, 12);
    expect(summary.pooled.loans).toBe(50);
    expect(summary.pooled.predicted).toBeCloseTo((40 * 0.05 + 10 * 0.1) / 50, 12);
    expect(defaultAbovePrediction(summary.pooled, 30)).toBe(true);
    expect(defaultAbovePrediction(summary.pooled, 60)).toBe(false);
    expect(february === undefined ? true : defaultAbovePrediction(february, 5)).toBe(false);
  });

  it('shows in lendbot status (text and JSON) and /metrics', async () => {
    badBook();
    const report = buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    const text = formatStatusText(report);
    expect(text).toMatch(
      /\ncalibration +loans since 2025-04: predicted 6\.0%, realised so far 28\.0% \[17\.5% to 41\.7%\] of 50 loans \(12 in collection or default, 2 with a missed payment, 6 repaid; 1 without a prediction\) ABOVE PREDICTED\n/,
    );
    expect(text).toMatch(/\n {2}2026-02 +predicted 10\.0%, realised so far 0\.0% \[0\.0% to 27\.8%\] of 10 loans/);
    const json = statusJson(report).calibration as { pooled: { above_predicted: boolean; loans: number }; vintages: unknown[] };
    expect(json.pooled).toMatchObject({ loans: 50, above_predicted: true });
    expect(json.vintages).toHaveLength(2);
    const metrics = createMetrics({ processMetrics: false });
    metrics.observeStatus(report);
    const scraped = await metrics.registry.metrics();
    expect(scraped).toContain('lendbot_default_predicted{vintage="2026-01"} 0.05');
    expect(scraped).toContain('lendbot_default_realised{vintage="2026-01"} 0.35');
    expect(scraped).toContain('lendbot_calibration_loans{vintage="all"} 50');
    expect(scraped).toContain('lendbot_calibration_alert 0');
  });
});

describe('the calibration protection', () => {
  it('alerts once when realised default runs above predicted beyond noise, without pausing unless configured', async () => {
    badBook();
    protections.check();
    protections.check();
    expect(await events()).toEqual(['calibration_drift']);
    expect(receiver.received[0]?.data).toMatchObject({
      message: expect.stringContaining('loans since 2025-04: predicted 6.0%, realised so far 28.0%'),
    });
    expect(protections.activePause()).toBeUndefined();
    expect(storedCalibrationDrift(store.state)?.sinceMs).toBe(clock.now());
    const report = buildStatusReport({ store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false });
    expect(report.calibration.alert?.figures).toContain('of 50 loans');
  });

  it('stays quiet within noise and below the loan minimum', async () => {
    for (let i = 1; i <= 40; i += 1) loan(i, '2026-01-15', i <= 4 ? 'default' : 'current', 0.05);
    protections.check();
    settings = protectionSettingsSchema.parse({ ...BOOK_OFF, calibration: { min_loans: 100 } });
    badBook();
    protections.check();
    expect(await events()).toEqual([]);
  });

  it('pauses when configured, not again after a resume on the same evidence, again when another loan goes bad', async () => {
    settings = protectionSettingsSchema.parse({ ...BOOK_OFF, calibration: { pause: true, pause_hours: 12 } });
    badBook();
    protections.check();
    expect(protections.activePause()).toMatchObject({
      kind: 'calibration',
      reason: expect.stringContaining('calibration protection: loans since 2025-04'),
    });
    protections.resume();
    protections.check();
    expect(protections.activePause()).toBeUndefined();
    loan(30, '2026-01-15', 'default', 0.05);
    protections.check();
    expect(protections.activePause()?.kind).toBe('calibration');
    expect(await events()).toEqual(['calibration_drift', 'protection_paused', 'protection_lifted', 'protection_paused']);
  });
});

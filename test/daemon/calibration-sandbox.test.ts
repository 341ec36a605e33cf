/**
 * Calibration end to end on the sandbox: a daemon offers on borrowers who will miss their first
 * payment while its strategy predicts almost no default; once the sandbox's time runs past the
 * missed payments and the daemon syncs its loans, status shows realised default far above the
 * predicted, and the calibration protection alerts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { calibrationSummary, defaultAbovePrediction } from '../../src/ops/calibration.js';
import { storedCalibrationDrift } from '../../src/ops/protections/index.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('calibration against the sandbox', { timeout: 120_000 }, () => {
  it('finds the loans of borrowers who miss payments far above the predicted default, and alerts', async () => {
    const risk = {
      max_amount_per_day: null,
      max_open_exposure: null,
      max_per_borrower: null,
      protections: { default_spike: { enabled: false }, drawdown: { enabled: false } },
    };
    harness = await startDaemonHarness({ balanceCents: 10_000_000, risk, sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    for (let i = 0; i < 32; i += 1) {
      h.sandbox.control.createLoanRequest({
        svcColor: 1,
        maxInterestRate: 0.6,
        competitorOffers: 0,
        decisionDelayMs: HOUR,
        loanTerms: 3,
        loanAmountCents: 10_000,
        repayProbability: 0,
        missedMonth: 1,
      });
    }
    await h.daemon.runJob('poll');
    await h.daemon.pipeline.idle();
    h.sandbox.control.advance(2 * HOUR);
    await h.daemon.runJob('sync');
    h.sandbox.control.advance(70 * DAY);
    await h.daemon.runJob('sync');
    await h.daemon.runJob('sync');
    await h.daemon.runJob('protections');

    const { pooled } = calibrationSummary(h.store, h.sandbox.clock.now(), 12);
    expect(pooled.loans).toBe(32);
    expect(pooled.predicted).toBeLessThan(0.05);
    expect(pooled.defaulted + pooled.delinquent).toBe(32);
    expect(defaultAbovePrediction(pooled, 30)).toBe(true);
    expect(storedCalibrationDrift(h.store.state)).toBeDefined();
    const limits = riskLimitsSchema.parse(risk);
    const text = formatStatusText(buildStatusReport({ store: h.store, nowMs: h.sandbox.clock.now(), limits, budgets: [], dryRun: false }));
    expect(text).toMatch(
      /\ncalibration +loans since \d{4}-\d{2}: predicted \d\.\d%, realised so far 100\.0% \[89\.\d% to 100\.0%\] of 32 loans .* ABOVE PREDICTED\n/,
    );
  });
});

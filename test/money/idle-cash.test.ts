/**
 * Idle cash on a real store with an injected clock: the share (free / free + reserved + lent
 * out), the bounded sample series, why money sat idle (by skip cause and guard code), and the
 * alert: told once after the share stayed above the threshold for the set hours, not before; over
 * when the share falls; told again after another full stretch.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { storedIdleAlert } from '../../src/money/idle-alert-state.js';
import { IdleCashWatch } from '../../src/cash-flow/idle-cash-alert.js';
import { buildIdleCashReport } from '../../src/money/idle-cash-report.js';
import { MAX_SAMPLES, MIN_SAMPLE_SPACING_MS, readIdleSamples, recordIdleSample } from '../../src/money/idle-cash.js';
import { riskLimitsSchema, type RiskLimits } from '../../src/risk/index.js';
import { loanSchema } from '../../src/domain/index.js';
import { captureLog } from '../log/log-capture.js';
import { tempStore } from '../store/fixtures.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const START = Date.parse('2026-03-10T12:00:00.000Z');
const HOUR = 3_600_000;
const limits = riskLimitsSchema.parse({ protections: { idle_cash: { max_idle_share: 0.5, for_hours: 2 } } });

let h: ReturnType<typeof tempStore>;
let clock: ManualClock;
let sent: Array<{ event: string; data: Record<string, unknown> }>;
let watch: IdleCashWatch;

/** The balance as the transfer history makes it: a deposit, less what was lent. */
function setBalance(dollars: number): void {
  const transfer = (amount: string) => ({ transfer_status: 'processed', transfer_type: 'Deposit', transfer_amount: amount });
  h.store.account.replaceTransfers([{ date: '2026-03-01', transactions: [transfer(dollars.toFixed(2))] }], clock.now());
}

beforeEach(() => {
  h = tempStore();
  clock = new ManualClock(START);
  sent = [];
  // One open loan of $1,000 (6 months, nothing paid yet): the money lent out.
  h.store.account.upsertLoans(
    [
      loanSchema.parse({
        id: 1,
        loan_request_id: 501,
        loan_amount: 1000,
        interest_rate: 0.12,
        payment_terms: 6,
        status: 'Current',
        next_payment_date: '2026-04-01T00:00:00Z',
      }),
    ],
    'current',
    START,
  );
  setBalance(4000);
  watch = watchWith(limits);
});
afterEach(() => h.cleanup());

/** The watch on this test's store and clock, with these limits; what it tells lands in `sent`. */
function watchWith(risk: RiskLimits): IdleCashWatch {
  return new IdleCashWatch({
    store: h.store,
    clocks: { market: clock, real: clock, speed: 1 },
    log: captureLog().log,
    active: { limits: () => risk },
    dryRun: false,
    instruments: { notices: { notify: (event, data) => sent.push({ event, data }) } },
  });
}

describe('idle cash', () => {
  it('is free cash over free cash, reserved and principal lent out', () => {
    const report = buildIdleCashReport(h.store, clock.now(), limits, false);
    expect(report).toMatchObject({ share: 0.8, freeCents: 400_000, reservedCents: 0, outstandingCents: 100_000 });
    expect(report.series).toEqual([{ at: '2026-03-10T12:00:00.000Z', share: 0.8, freeCents: 400_000 }]);
  });

  it('alerts once the share stayed above the threshold for the set hours, and not before', () => {
    expect(watch.check()).toBeUndefined();
    clock.advance(2 * HOUR - 60_000);
    expect(watch.check()).toBeUndefined();
    expect(sent).toEqual([]);
    expect(storedIdleAlert(h.store.state)).toEqual({ aboveSinceMs: START, alertedAtMs: null });

    clock.advance(60_000);
    expect(watch.check()?.kind).toBe('began');
    expect(sent.map((s) => s.event)).toEqual(['idle_cash']);
    expect(sent[0]?.data).toMatchObject({ idle_cents: 400_000, since: '2026-03-10T12:00:00.000Z' });
    expect(String(sent[0]?.data.message)).toMatch(
      /^80% of your money has been idle for more than 2 h \(the alert is set at 50%\)\. No loan requests arrived in the last 2 h\.$/,
    );

    // Told once while it lasts.
    clock.advance(HOUR);
    expect(watch.check()).toBeUndefined();
    expect(sent).toHaveLength(1);

    expect(buildIdleCashReport(h.store, clock.now(), limits, false).alert).toMatchObject({
      aboveSince: '2026-03-10T12:00:00.000Z',
      alertedAt: '2026-03-10T14:00:00.000Z',
    });

    // Money lent out: the share falls under the threshold and the alert is over (the views say so
    // at once, the stored state at the next check).
    setBalance(500);
    expect(buildIdleCashReport(h.store, clock.now(), limits, false).alert).toMatchObject({ aboveSince: null, alertedAt: null });
    clock.advance(HOUR);
    expect(watch.check()?.kind).toBe('ended');
    expect(storedIdleAlert(h.store.state)).toBeUndefined();

    // Idle again: a full stretch of the set hours before the next alert.
    setBalance(4000);
    clock.advance(HOUR);
    expect(watch.check()).toBeUndefined();
    clock.advance(HOUR);
    expect(watch.check()).toBeUndefined();
    clock.advance(HOUR);
    expect(watch.check()?.kind).toBe('began');
    expect(sent).toHaveLength(2);
  });

  it('does not alert when turned off', () => {
    const off = riskLimitsSchema.parse({ protections: { idle_cash: { enabled: false, for_hours: 1 } } });
    const quiet = watchWith(off);
    for (let i = 0; i < 5; i += 1) {
      quiet.check();
      clock.advance(HOUR);
    }
    expect(sent).toEqual([]);
  });

  it('says why money sat idle: the strategy skipped, the risk limits refused, offers hold money', () => {
    const decide = (id: number, reasons: string[], guardCode: string | null) =>
      h.store.decisions.record({
        loanRequestId: id,
        action: 'skip',
        reasons: storedReasons(reasons),
        dryRun: false,
        decidedAtMs: clock.now() - HOUR,
        guardCode,
      });
    decide(1, ['filter credit_score < 600'], null);
    decide(2, ['score probability 0.41 < min_probability 0.5'], null);
    decide(3, ['guard exposure 9800.00 + total 520.00 > max_open_exposure 10000.00'], 'max_open_exposure');
    decide(4, ['guard exposure 9900.00 + total 300.00 > max_open_exposure 10000.00'], 'max_open_exposure');
    decide(5, ['guard offers today 50 >= max_offers_per_day 50'], 'max_offers_per_day');
    // Older than the window: not counted.
    h.store.decisions.record({
      loanRequestId: 6,
      action: 'skip',
      reasons: storedReasons(['filter x']),
      dryRun: false,
      decidedAtMs: clock.now() - 3 * HOUR,
    });
    const { reasons } = buildIdleCashReport(h.store, clock.now(), limits, false);
    expect(reasons.skips).toBe(5);
    expect(reasons.strategySkips).toEqual([
      { kind: 'filter', label: "the strategy's filters", count: 1 },
      { kind: 'score', label: "the strategy's score", count: 1 },
    ]);
    expect(reasons.guardRefusals).toEqual([
      { code: 'max_open_exposure', label: 'the cap on money lent out (max_open_exposure)', count: 2 },
      { code: 'max_offers_per_day', label: 'the cap on offers a day (max_offers_per_day)', count: 1 },
    ]);
    expect(reasons.why).toBe(
      'The risk limits refused 3 of 5 requests in the last 2 h (the cap on money lent out (max_open_exposure) 2, the cap on offers a day (max_offers_per_day) 1).',
    );
  });

  it('keeps a bounded series, spaced, reaching back', () => {
    const sample = (atMs: number) => ({ atMs, freeCents: 1, reservedCents: 0, outstandingCents: 1 });
    recordIdleSample(h.store.state, sample(START));
    // Too soon after the last: not stored.
    expect(recordIdleSample(h.store.state, sample(START + MIN_SAMPLE_SPACING_MS - 1))).toHaveLength(1);
    for (let i = 1; i <= MAX_SAMPLES * 2; i += 1) recordIdleSample(h.store.state, sample(START + i * MIN_SAMPLE_SPACING_MS));
    const kept = readIdleSamples(h.store.state);
    expect(kept.length).toBeLessThanOrEqual(MAX_SAMPLES);
    expect(kept[0]?.atMs).toBe(START);
    expect(kept.at(-1)?.atMs).toBe(START + MAX_SAMPLES * 2 * MIN_SAMPLE_SPACING_MS);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { Protections, storedPause } from '../../src/ops/protections/index.js';
import { protectionSettingsSchema, type ProtectionSettings } from '../../src/risk/index.js';
import type { Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { loanRequest, tempStore } from '../store/fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BORROWING = 'Investor is currently borrowing and cannot make offers.';

let store: Store;
let cleanup: () => void;
let clock: ManualClock;
let settings: ProtectionSettings;
let sent: Array<{ event: string; data: Record<string, unknown> }>;
let protections: Protections;

beforeEach(() => {
  ({ store, cleanup } = tempStore());
  clock = new ManualClock('2026-03-10T12:00:00Z');
  settings = protectionSettingsSchema.parse({});
  sent = [];
  protections = new Protections({ store, clock, log: captureLog().log, settings: () => settings, notify: (event, data) => sent.push({ event, data }) });
});
afterEach(() => cleanup());

/** A loan of the lender's, created `daysAgo`, in `list`. */
function loan(id: number, daysAgo: number, list: 'current' | 'collection' | 'default', amount = 500, collected = 0) {
  const created = new Date(clock.now() - daysAgo * DAY).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '+00:00');
  store.account.upsertLoans(
    [{ id, loan_request_id: 5000 + id, borrower_card_color: 1, loan_amount: amount, interest_rate: 0.3, status: 'funded', loan_balance: amount, loan_paid_off: false, created_date: created, collected_amount: collected }],
    list,
    clock.now(),
  );
}

describe('protections', () => {
  it('pause offering after repeated account-level refusals, until the pause time is over', () => {
    protections.noteOfferRefusal('This loan request has already been signed.');
    protections.noteOfferRefusal(BORROWING);
    expect(protections.activePause()).toBeUndefined();
    clock.advance(10 * 60_000);
    protections.noteOfferRefusal(BORROWING);
    const pause = protections.activePause();
    expect(pause).toMatchObject({ kind: 'account_refusal', untilMs: clock.now() + 6 * HOUR });
    expect(pause?.reason).toBe(`account_refusal protection: account refused offers 2 times in 30 min: "${BORROWING}"; paused until 2026-03-10T18:10:00.000Z or lendbot resume`);
    expect(sent.map((n) => n.event)).toEqual(['protection_paused']);

    clock.advance(6 * HOUR);
    expect(protections.activePause()).toBeUndefined();
    expect(sent.map((n) => n.event)).toEqual(['protection_paused', 'protection_lifted']);
  });

  it('do not count refusals spread wider than the window', () => {
    protections.noteOfferRefusal('The investor has no verified bank account.');
    clock.advance(31 * 60_000);
    protections.noteOfferRefusal('The investor has no verified bank account.');
    expect(protections.activePause()).toBeUndefined();
  });

  it('pause on a default spike among the recent loans, with a minimum sample', () => {
    settings = protectionSettingsSchema.parse({ drawdown: { enabled: false } });
    for (let id = 1; id <= 3; id++) loan(id, 5, 'default');
    protections.check();
    expect(protections.activePause()).toBeUndefined(); // 3 of 3, but too few to judge

    for (let id = 4; id <= 10; id++) loan(id, 5, 'current');
    loan(11, 90, 'default'); // older than the window: not counted
    protections.check();
    expect(protections.activePause()).toBeUndefined(); // 3 of 10 = 30%, not above 30%

    loan(12, 1, 'collection');
    protections.check();
    expect(protections.activePause()?.reason).toMatch(/^default_spike protection: 4 of 11 loans of the last 60 days in collection or default \(36\.4% > 30\.0%\)/);
  });

  it('pause on a drawdown: unrecovered principal of troubled loans against the principal lent', () => {
    settings = protectionSettingsSchema.parse({ default_spike: { enabled: false } });
    for (let id = 1; id <= 5; id++) loan(id, 3, 'current', 1000);
    loan(6, 3, 'default', 1000, 400);
    protections.check();
    expect(protections.activePause()).toBeUndefined(); // 600 of 6000 = 10%
    loan(7, 3, 'collection', 500);
    protections.check();
    expect(protections.activePause()?.reason).toMatch(/^drawdown protection: 1100\.00 of 6500\.00 lent in the last 60 days unrecovered \(16\.9% > 15\.0%\)/);
  });

  it('lift a pause at resume, or when its protection is turned off', () => {
    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.resume()?.kind).toBe('account_refusal');
    expect(protections.activePause()).toBeUndefined();
    expect(storedPause(store.state, clock.now())).toBeUndefined();

    protections.noteOfferRefusal(BORROWING);
    protections.noteOfferRefusal(BORROWING);
    expect(protections.activePause()).toBeDefined();
    settings = protectionSettingsSchema.parse({ account_refusals: { enabled: false } });
    expect(protections.activePause()).toBeUndefined();
    expect(sent.map((n) => n.event)).toEqual(['protection_paused', 'protection_lifted', 'protection_paused', 'protection_lifted']);
  });

  it('alert once when polls keep finding requests while no webhook arrives, and clear when one does', () => {
    for (let id = 1; id <= 5; id++) store.requests.markSeen(loanRequest({ id }), 'poll', clock.now() - HOUR);
    protections.check();
    expect(protections.webhookSilence()).toEqual({ sinceMs: clock.now(), polledRequests: 5 });
    protections.check();
    expect(sent.filter((n) => n.event === 'webhooks_silent')).toHaveLength(1);

    store.inbox.insert({ webhookUuid: '0b6f4c2e-3d5a-4e8b-9a71-2f0c6d8e1a01', topic: 'new_loan_request_created', data: { loan_request_id: 9 }, receivedAtMs: clock.now() });
    protections.check();
    expect(protections.webhookSilence()).toBeUndefined();
  });
});

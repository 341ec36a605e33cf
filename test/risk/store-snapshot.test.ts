import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardReason } from '../../src/domain/decision-reason.js';
import { UNCAPPED_RISK_LIMITS, balanceFromStore, checkOffer, snapshotFromStore, type RiskLimits } from '../../src/risk/index.js';
import { offerSchema, transferDayGroupSchema } from '../../src/domain/index.js';
import type { Store } from '../../src/store/index.js';
import { HOUR, T0, loanRequest, tempStore } from '../store/fixtures.js';

let store: Store;
let dir: string;
let cleanup: () => void;
beforeEach(() => {
  const opened = tempStore();
  ({ store, cleanup } = opened);
  dir = join(opened.path, '..');
});
afterEach(() => cleanup());

// No money caps: these tests are about reservations and the balance rule (the caps: check-offer and money-caps tests).
const limits: RiskLimits = { ...UNCAPPED_RISK_LIMITS, offerExpiryMs: 72 * HOUR };

function place(id: number, total: string, borrowerId: number, riskLevel: number, automateFund = true, dryRun = false): void {
  const result = store.offers.createIntent({
    request: loanRequest({ id, totalAmount: total, borrowerId, riskLevel }),
    rate: 0.3,
    automateFund,
    dryRun,
    atMs: T0,
  });
  if (!result.created) throw new Error('intent refused');
  store.offers.markPlaced(result.offer.id, offerSchema.parse({ id: id + 9000, offered_interest: 0.3, offer_status: 'pending' }), T0);
}

describe('snapshotFromStore', () => {
  it('reads reservations, exposure and today from the store', () => {
    place(1, '100.00', 10, 0);
    place(2, '200.00', 10, 2, false);
    place(3, '400.00', 11, 2, true, true);
    const snapshot = snapshotFromStore(store, 12345, T0 + HOUR, limits);
    expect({ ...snapshot, exposureByBorrowerCents: [10, 11, 12].map(snapshot.exposureByBorrowerCents) }).toEqual({
      balanceCents: 12345,
      // The manual offer reserves too (risk.reserve_manual_offers, on by default).
      reservedCents: 30000,
      exposureCents: 30000,
      exposureByBorrowerCents: [30000, 0, 0],
      exposureByRiskLevelCents: { 0: 10000, 2: 20000 },
      offersToday: 2,
      amountTodayCents: 30000,
      killSwitchOn: false,
    });
    expect(snapshotFromStore(store, 12345, T0 + HOUR, { ...limits, reserveManualOffers: false }).reservedCents).toBe(10000);
    const dry = snapshotFromStore(store, 0, T0 + HOUR, limits, { dryRun: true });
    expect([dry.reservedCents, dry.exposureCents, dry.offersToday]).toEqual([40000, 40000, 1]);
  });

  it('turns the kill switch on while its file exists', () => {
    const file = join(dir, 'STOP');
    const withFile = { ...limits, killSwitchFile: file };
    expect(snapshotFromStore(store, 0, T0, withFile).killSwitchOn).toBe(false);
    writeFileSync(file, '');
    const snapshot = snapshotFromStore(store, 1_000_000, T0, withFile);
    expect(snapshot.killSwitchOn).toBe(true);
    expect(checkOffer({ request: loanRequest(), rate: 0.3, automateFund: true }, snapshot, withFile)).toEqual({
      allowed: false,
      code: 'kill_switch',
      reason: guardReason({ guardCode: 'kill_switch', file }),
    });
  });

  it('refuses an offer that pending reservations leave no room for', () => {
    place(1, '500.00', 10, 1);
    const snapshot = snapshotFromStore(store, 100_000, T0 + HOUR, limits);
    expect(checkOffer({ request: loanRequest({ id: 2, totalAmount: '520.00' }), rate: 0.3, automateFund: true }, snapshot, limits)).toEqual(
      {
        allowed: false,
        code: 'insufficient_balance',
        reason: guardReason({
          guardCode: 'insufficient_balance',
          at: 'offer',
          balance: '1000.00',
          reserved: '500.00',
          reserve: '0.00',
          total: '520.00',
          equal: false,
        }),
      },
    );
    // Once the pending offer is past its expiry, its money is free again.
    const later = snapshotFromStore(store, 100_000, T0 + 73 * HOUR, limits);
    expect(checkOffer({ request: loanRequest({ id: 2, totalAmount: '520.00' }), rate: 0.3, automateFund: true }, later, limits)).toEqual({
      allowed: true,
    });
  });
});

describe('balanceFromStore', () => {
  it('counts processed and pending outgoing transfers, not pending incoming or failed ones', () => {
    store.account.replaceTransfers(
      [
        transferDayGroupSchema.parse({
          date: '2026-03-01',
          transactions: [
            { transfer_status: 'processed', transfer_type: 'Add Money', transfer_amount: '1000.00' },
            { transfer_status: 'pending', transfer_type: 'Fund Loans', transfer_amount: '-300.00' },
            { transfer_status: 'pending', transfer_type: 'Monthly Payments', transfer_amount: '50.00' },
            { transfer_status: 'failed', transfer_type: 'Withdrawal', transfer_amount: '-700.00' },
          ],
        }),
      ],
      T0,
    );
    expect(balanceFromStore(store)).toBe(70000);
  });
});

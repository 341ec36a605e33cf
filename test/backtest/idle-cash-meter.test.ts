/** The backtest's idle-cash meter: time-weighted shares of free cash, cash held by offers and principal lent. */
import { describe, expect, it } from 'vitest';
import { IdleCashMeter } from '../../src/backtest/idle-cash-meter.js';

describe('IdleCashMeter', () => {
  it('weights each state by how long it lasted, and closes the request window where told', () => {
    const meter = new IdleCashMeter();
    expect(meter.shares()).toEqual({ idleShare: 0, reservedShare: 0, idleShareWhileRequests: 0 });
    meter.accrue({ balanceCents: 100, reservedCents: 0, deployedCents: 0 }, 10);
    meter.requestsEnded();
    // 50 cash of which 20 held by an offer, 50 lent: 30 free, 20 held, 50 lent for 10 ms.
    meter.accrue({ balanceCents: 50, reservedCents: 20, deployedCents: 50 }, 10);
    expect(meter.shares()).toEqual({ idleShare: 1300 / 2000, reservedShare: 200 / 2000, idleShareWhileRequests: 1 });
  });

  it('never counts more held by offers than the cash there is', () => {
    const meter = new IdleCashMeter();
    meter.accrue({ balanceCents: 10, reservedCents: 30, deployedCents: 10 }, 1);
    expect(meter.shares()).toEqual({ idleShare: 0, reservedShare: 0.5, idleShareWhileRequests: 0 });
  });
});

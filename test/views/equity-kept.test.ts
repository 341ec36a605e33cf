/**
 * The equity every status view shows (equity-cache.ts) is kept between calls, and made again as
 * soon as a sync stores a transfer, a loan or a payment, or a minute of the run's clock passes:
 * never a figure the store no longer says.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { equityNowKept } from '../../src/money/equity-cache.js';
import { equityNow } from '../../src/money/equity-now.js';
import { DEFAULT_LOSS_RATES } from '../../src/money/equity.js';
import { loanSchema } from '../../src/domain/index.js';
import { tempStore } from '../store/fixtures.js';

const AT = Date.parse('2026-03-10T12:00:00Z');
const deposit = (dollars: string) => ({ transfer_status: 'processed', transfer_type: 'Deposit', transfer_amount: dollars });

let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
  h.store.account.replaceTransfers([{ date: '2026-03-01', transactions: [deposit('1000.00')] }], AT - 60_000);
});
afterEach(() => h.cleanup());

describe('equity kept between syncs', () => {
  it('answers the same figures as equityNow, at the time asked', () => {
    const kept = equityNowKept(h.store, AT, DEFAULT_LOSS_RATES);
    expect(kept).toEqual(equityNow(h.store, { now: () => AT }, DEFAULT_LOSS_RATES));
    expect(kept.equityCents).toBe(100_000);
    expect(equityNowKept(h.store, AT + 1_000, DEFAULT_LOSS_RATES)).toMatchObject({ equityCents: 100_000, at: '2026-03-10T12:00:01.000Z' });
  });

  it('is made again when a sync stores new transfers or loans', () => {
    expect(equityNowKept(h.store, AT, DEFAULT_LOSS_RATES).cashCents).toBe(100_000);
    h.store.account.replaceTransfers(
      [
        { date: '2026-03-01', transactions: [deposit('1000.00')] },
        { date: '2026-03-10', transactions: [deposit('500.00')] },
      ],
      AT + 1_000,
    );
    expect(equityNowKept(h.store, AT + 2_000, DEFAULT_LOSS_RATES).cashCents).toBe(150_000);
    const version = h.store.account.ledgerVersion();
    h.store.account.upsertLoans(
      [loanSchema.parse({ id: 7, loan_amount: 500, interest_rate: 0.2, status: 'funded' })],
      'current',
      AT + 3_000,
    );
    expect(h.store.account.ledgerVersion()).not.toBe(version);
    expect(equityNowKept(h.store, AT + 4_000, DEFAULT_LOSS_RATES)).toEqual({
      ...equityNow(h.store, { now: () => AT + 4_000 }, DEFAULT_LOSS_RATES),
    });
  });

  it('is made again with other loss shares', () => {
    const before = equityNowKept(h.store, AT, DEFAULT_LOSS_RATES);
    const other = { ...DEFAULT_LOSS_RATES, byDaysLate: [] };
    expect(equityNowKept(h.store, AT, other)).toEqual(equityNow(h.store, { now: () => AT }, other));
    expect(before.equityCents).toBe(100_000);
  });
});

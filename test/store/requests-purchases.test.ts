import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { DAY, HOUR, T0, loanRequest, tempStore } from './fixtures.js';

let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

describe('requests', () => {
  it('records a request once, keeping the first source and time', () => {
    const request = loanRequest({ id: 7, borrowerId: 88, riskLevel: 2, totalAmount: '1234.56' });
    expect(store.requests.markSeen(request, 'webhook', T0)).toEqual({ firstTime: true });
    expect(store.requests.markSeen(request, 'poll', T0 + HOUR)).toEqual({ firstTime: false });
    expect(store.requests.get(7)).toEqual({
      loanRequestId: 7,
      rawJson: JSON.stringify(request),
      firstSeenAt: '2026-03-10T12:00:00.000Z',
      source: 'webhook',
      riskLevel: 2,
      totalAmountCents: 123456,
      borrowerId: 88,
    });
    expect(store.requests.get(8)).toBeUndefined();
  });

  it('keeps the raw item exactly as received when given', () => {
    const raw = { zeta: 1, id: 9, note: 'kept' };
    store.requests.markSeen(loanRequest({ id: 9 }), 'poll', T0, raw);
    expect(store.requests.get(9)?.rawJson).toBe('{"zeta":1,"id":9,"note":"kept"}');
  });

  it('lists by first-seen time within [since, until)', () => {
    for (const [id, at] of [
      [1, T0],
      [2, T0 + HOUR],
      [3, T0 + 2 * HOUR],
    ] as const) {
      store.requests.markSeen(loanRequest({ id }), 'poll', at);
    }
    expect(store.requests.list().map((r) => r.loanRequestId)).toEqual([1, 2, 3]);
    expect(store.requests.list({ sinceMs: T0 + HOUR }).map((r) => r.loanRequestId)).toEqual([2, 3]);
    expect(store.requests.list({ untilMs: T0 + 2 * HOUR }).map((r) => r.loanRequestId)).toEqual([1, 2]);
  });

  it('refuses an unknown source', () => {
    expect(() => store.requests.markSeen(loanRequest(), 'email' as 'poll', T0)).toThrow(/CHECK constraint failed/);
  });
});

describe('purchases', () => {
  it('records purchases and sums spend by window, provider and kind', () => {
    const first = store.purchases.record({
      loanRequestId: 1,
      kind: 'provider',
      provider: 'B',
      costCents: 150,
      boughtAtMs: T0,
      ok: true,
      payload: { p2p_score: { score: 70 } },
    });
    store.purchases.record({ loanRequestId: 1, kind: 'banking_data', costCents: 0, boughtAtMs: T0 + 1, ok: true });
    store.purchases.record({
      loanRequestId: 2,
      kind: 'provider',
      provider: 'B',
      costCents: 150,
      boughtAtMs: T0 + DAY,
      ok: false,
      error: 'score not found',
    });
    store.purchases.record({ loanRequestId: 2, kind: 'provider', provider: 'A', costCents: 20000, boughtAtMs: T0 + 2 * DAY, ok: true });

    expect(store.purchases.spendCents({ fromMs: T0, toMs: T0 + 3 * DAY })).toBe(20300);
    expect(store.purchases.spendCents({ provider: 'B', fromMs: T0, toMs: T0 + 3 * DAY })).toBe(300);
    expect(store.purchases.spendCents({ provider: 'B', fromMs: T0, toMs: T0 + DAY })).toBe(150);
    expect(store.purchases.spendCents({ kind: 'banking_data', fromMs: T0, toMs: T0 + DAY })).toBe(0);
    expect(store.purchases.spendCents({ fromMs: T0 + 3 * DAY, toMs: T0 + 4 * DAY })).toBe(0);

    const forOne = store.purchases.forRequest(1);
    expect(forOne.map((p) => [p.id, p.kind, p.provider, p.costCents, p.ok])).toEqual([
      [first, 'provider', 'B', 150, true],
      [first + 1, 'banking_data', null, 0, true],
    ]);
    expect(forOne[0]?.payloadJson).toBe('{"p2p_score":{"score":70}}');
    expect(store.purchases.forRequest(2)[0]?.error).toBe('score not found');
  });

  it('refuses fractional cents', () => {
    expect(() =>
      store.purchases.record({ loanRequestId: 1, kind: 'provider', provider: 'B', costCents: 1.5, boughtAtMs: T0, ok: true }),
    ).toThrow('cost must be integer cents: 1.5');
  });
});

describe('state', () => {
  it('reads back what was set, and overwrites', () => {
    expect(store.state.get('last_poll_at')).toBeUndefined();
    store.state.set('last_poll_at', '2026-03-10T12:00:00.000Z', T0);
    store.state.set('last_poll_at', '2026-03-10T13:00:00.000Z', T0 + HOUR);
    expect(store.state.get('last_poll_at')).toBe('2026-03-10T13:00:00.000Z');
  });
});

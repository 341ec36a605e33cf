// The paper book's arithmetic on a real SQLite file: the expected profit, its standard deviation
// from the Bernoulli acceptances and the default probability, the 95 % interval, and the requests'
// fates from the listing scans.
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf, type Store } from '../../src/store/index.js';
import { createMarketLearningRepository } from '../../src/store/market-learning-repository.js';
import { loanRequest, tempStore } from './fixtures.js';

const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const HOUR = 3_600_000;
/** The default offer life, risk.offer_expiry_hours 72. */
const LIFE = { expiryMs: 72 * HOUR };

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function dryOffer(store: Store, id: number, totalAmount: string): number {
  const result = store.offers.createIntent({
    request: loanRequest({ id, borrowerId: id, totalAmount }),
    rate: 0.2,
    automateFund: true,
    dryRun: true,
    atMs: T0,
  });
  if (!result.created) throw new Error('offer exists');
  store.offers.setState(result.offer.id, 'placed', T0);
  return result.offer.id;
}

describe('paper book', () => {
  it('sums P(accept) × expected profit with the variance of A × L and a 95 % interval', () => {
    const temp = tempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const a = dryOffer(store, 1, '1000.00');
    const b = dryOffer(store, 2, '500.00');
    const c = dryOffer(store, 3, '300.00');
    // Offer a: q 0.5, p 0.9, +200 USD repaid, -600 USD defaulted. Offer b: q 0.25, p 0.8, +100, -300.
    store.paper.record({
      offerId: a,
      loanRequestId: 1,
      strategy: 's',
      modelled: { acceptProbability: 0.5, repaidProfitCents: 20_000, defaultProfitCents: -60_000 },
      repayProbability: 0.9,
      atMs: T0,
    });
    store.paper.record({
      offerId: b,
      loanRequestId: 2,
      strategy: 's',
      modelled: { acceptProbability: 0.25, repaidProfitCents: 10_000, defaultProfitCents: -30_000 },
      repayProbability: 0.8,
      atMs: T0,
    });
    // Without a score: counted, not modelled.
    store.paper.record({ offerId: c, loanRequestId: 3, strategy: 'naive', atMs: T0 });
    // Recorded twice: kept once.
    store.paper.record({
      offerId: b,
      loanRequestId: 2,
      strategy: 's',
      modelled: { acceptProbability: 1, repaidProfitCents: 1, defaultProfitCents: 1 },
      repayProbability: 1,
      atMs: T0,
    });

    // By hand: E[L_a] = 0.9·20000 − 0.1·60000 = 12000, E[L_a²] = 0.9·4e8 + 0.1·3.6e9 = 7.2e8;
    // E[X_a] = 6000, Var = 0.5·7.2e8 − 6000² = 3.24e8. E[L_b] = 8000 − 6000 = 2000,
    // E[L_b²] = 0.8·1e8 + 0.2·9e8 = 2.6e8; E[X_b] = 500, Var = 0.25·2.6e8 − 500² = 6.475e7.
    const sd = Math.sqrt(3.24e8 + 6.475e7);
    const summary = store.paper.summary(LIFE);
    expect(summary).toEqual({
      basis: 'modelled',
      offers: 3,
      notModelled: 1,
      expectedAccepted: 0.75,
      expectedLentCents: 0.5 * 100_000 + 0.25 * 50_000,
      expectedProfitCents: 6500,
      sdCents: Math.round(sd),
      interval95: { lowCents: Math.round(6500 - 1.959964 * sd), highCents: Math.round(6500 + 1.959964 * sd) },
      requests: { listed: 0, gone: 0, not_scanned: 3 },
      fates: { taken: 0, untaken: 0 },
      // The moments any acceptance share needs: Σ amount, ΣE[L], ΣE[L²], ΣE[L]², and the curve's.
      moments: {
        amountCents: 150_000,
        profit: 14_000,
        square: 7.2e8 + 2.6e8,
        profitSquared: 12_000 ** 2 + 2000 ** 2,
        curveProfit: 6500,
        curveSquare: 0.5 * 7.2e8 + 0.25 * 2.6e8,
        curveProfitSquared: 6000 ** 2 + 500 ** 2,
      },
      firstAt: '2026-03-10T12:00:00.000Z',
      learned: { offers: 0, evidence: 0 },
    });
    // Offer a priced by a learned response that had learned from 12 fates, offer b by one that had
    // learned nothing yet (evidence 0): one offer's P(accept) is a learned take-up.
    const learning = createMarketLearningRepository(databaseOf(store));
    for (const [loanRequestId, evidence] of [
      [1, 12],
      [2, 0],
    ] as const)
      learning.recordDecision({
        loanRequestId,
        strategy: 's',
        version: 1,
        evidence,
        explored: false,
        action: 'offer',
        rate: 0.2,
        predicted: 0.5,
        observation: null,
        decidedAtMs: T0,
      });
    expect(store.paper.summary(LIFE).learned).toEqual({ offers: 1, evidence: 12 });
    expect(store.paper.get(a)).toMatchObject({
      acceptProbability: 0.5,
      repayProbability: 0.9,
      expectedProfitCents: 6000,
      amountCents: 100_000,
      request: 'not_scanned',
    });
    expect(store.paper.get(c)).toMatchObject({ acceptProbability: null, expectedProfitCents: null });
    expect(store.paper.recent(2).map((offer) => offer.offerId)).toEqual([c, b]);
  });

  it("tells a request still listed from one gone, from the poll's listing scans", () => {
    const temp = tempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const stays = dryOffer(store, 1, '100.00');
    const leaves = dryOffer(store, 2, '100.00');
    for (const [offerId, id] of [
      [stays, 1],
      [leaves, 2],
    ] as const)
      store.paper.record({ offerId, loanRequestId: id, strategy: 's', atMs: T0 });
    store.offers.noteListing({ listedIds: new Set([1, 2]), wouldList: () => true }, T0 + 60_000);
    store.offers.noteListing({ listedIds: new Set([1]), wouldList: () => true }, T0 + 120_000);
    expect(store.paper.get(stays)?.request).toBe('listed');
    expect(store.paper.get(leaves)?.request).toBe('gone');
    expect(store.paper.summary(LIFE).requests).toEqual({ listed: 1, gone: 1, not_scanned: 0 });
    // Read against the offers' life: the request that left while the offer was out was taken; the
    // other is open until a scan lists it after the life's end.
    expect(store.paper.summary(LIFE).fates).toEqual({ taken: 1, untaken: 0 });
    store.offers.noteListing({ listedIds: new Set([1]), wouldList: () => true }, T0 + 73 * HOUR);
    expect(store.paper.summary(LIFE).fates).toEqual({ taken: 1, untaken: 1 });
    // A request seen listed after the life's end and gone later was not taken while the offer was out.
    store.offers.noteListing({ listedIds: new Set(), wouldList: () => true }, T0 + 80 * HOUR);
    expect(store.paper.summary(LIFE)).toMatchObject({ requests: { listed: 0, gone: 2 }, fates: { taken: 1, untaken: 1 } });
  });
});

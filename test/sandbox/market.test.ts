import { describe, expect, it } from 'vitest';
import { Market } from '../../src/sandbox/index.js';
import { DAY, HOUR } from './sandbox-fixture.js';

const START = Date.parse('2026-01-01T00:00:00Z');

/** A market run with a naive investor offering on every third request, settled to the end. */
function run(seed: number): Market {
  const market = new Market({ seed, startMs: START, arrivalsPerHour: 30, maxArrivals: 2500, initialBalanceCents: 5_000_000 });
  const offered = new Set<number>();
  for (let t = START; market.arrivedCount < 2500; t += HOUR) {
    market.advanceTo(t);
    for (const request of market.requests.values()) {
      if (request.status !== 'open' || offered.has(request.id) || request.id % 3 !== 0) continue;
      offered.add(request.id);
      market.makeOffer(request.id, Math.min(request.maxInterestRate, 0.2), request.id % 2 === 0);
    }
  }
  market.advanceTo(market.now() + 800 * DAY);
  return market;
}

function digest(market: Market): string {
  const requests = [...market.requests.values()].map((r) => [
    r.id,
    r.status,
    r.loanAmountCents,
    r.bestCompetingRate,
    r.truth.repayProbability,
  ]);
  const loans = [...market.loanBook.loans.values()].map((l) => [l.id, l.loanRequestId, l.lender, l.rate, l.status, l.receivedCents]);
  return JSON.stringify({ requests, loans, balance: market.ledger.balanceCents() });
}

describe('a whole market run', () => {
  const market = run(11);

  it('funds no request twice and no loan above its request’s max rate', () => {
    const loansPerRequest = new Map<number, number>();
    for (const loan of market.loanBook.loans.values()) {
      loansPerRequest.set(loan.loanRequestId, (loansPerRequest.get(loan.loanRequestId) ?? 0) + 1);
      const request = market.requests.get(loan.loanRequestId);
      expect(loan.rate).toBeLessThanOrEqual(request?.maxInterestRate ?? 0);
      expect(loan.rate).toBeGreaterThanOrEqual(0.03);
    }
    expect(Math.max(...loansPerRequest.values())).toBe(1);
    for (const request of market.requests.values()) {
      const accepted = request.offerIds.map((id) => market.offers.get(id)).filter((o) => o?.processed);
      expect(accepted.length).toBeLessThanOrEqual(1);
    }
    expect(market.loanBook.loans.size).toBeGreaterThan(1000);
    expect([...market.loanBook.loans.values()].some((l) => l.lender === 'investor')).toBe(true);
  });

  it('keeps the balance equal to the sum of processed transfers, and the ledger explains every loan', () => {
    const processed = market.ledger.all().filter((t) => t.status === 'processed');
    expect(market.ledger.balanceCents()).toBe(processed.reduce((sum, t) => sum + t.amountCents, 0));
    expect(market.ledger.all().filter((t) => t.status === 'pending')).toEqual([]);
    for (const loan of market.loanBook.loans.values()) {
      if (loan.lender !== 'investor') continue;
      const own = processed.filter((t) => t.loanId === loan.id);
      expect(own.filter((t) => t.type === 'Fund Loans').map((t) => t.amountCents)).toEqual([-loan.principalCents]);
      const received = own.filter((t) => t.amountCents > 0).reduce((sum, t) => sum + t.amountCents, 0);
      expect(received).toBe(loan.receivedCents);
    }
  });

  it('resolves loans and makes default rates rise with risk level', () => {
    const rates = [0, 1, 2].map((color) => {
      const loans = [...market.loanBook.loans.values()].filter((l) => market.requests.get(l.loanRequestId)?.borrower.svcColor === color);
      return loans.filter((l) => l.status === 'default').length / loans.length;
    });
    expect(rates[0]).toBeLessThan(rates[1] ?? 0);
    expect(rates[1]).toBeLessThan(rates[2] ?? 0);
    const unresolved = [...market.loanBook.loans.values()].filter((l) => l.resolvedMs === null);
    expect(unresolved).toEqual([]);
  });

  it('gives the same market for the same seed, and another for another seed', () => {
    expect(digest(run(11))).toBe(digest(market));
    expect(digest(run(12))).not.toBe(digest(market));
  });
});

describe('a long-running market', () => {
  it('forgets requests closed without a loan over the retention, keeping open, signed and investor-offered ones', () => {
    const market = run(5);
    const before = [...market.requests.values()];
    const cutoff = market.now() - 35 * DAY;
    const forgettable = before.filter(
      (r) =>
        (r.status === 'expired' || r.status === 'canceled') &&
        r.statusChangedMs < cutoff &&
        !r.offerIds.some((id) => market.offers.get(id)?.lender === 'investor'),
    );
    expect(forgettable.length).toBeGreaterThan(100);
    const offersOfForgotten = forgettable.flatMap((r) => r.offerIds);

    expect(market.pruneClosed(cutoff)).toBe(forgettable.length);
    expect(market.requests.size).toBe(before.length - forgettable.length);
    for (const r of forgettable) expect(market.requests.has(r.id)).toBe(false);
    for (const id of offersOfForgotten) expect(market.offers.has(id)).toBe(false);
    // Every loan still finds its request, and every investor offer too.
    for (const loan of market.loanBook.loans.values()) expect(market.requests.has(loan.loanRequestId)).toBe(true);
    for (const offer of market.offers.values())
      if (offer.lender === 'investor') expect(market.requests.has(offer.loanRequestId)).toBe(true);
    expect(market.pruneClosed(cutoff)).toBe(0);
  });
});

// What the pipeline writes before the make_offer POST (only what guards money: priced purchases
// and the offer intent) and after it (the seen request, free purchases, the decision), against
// the sandbox, on a real store file; and the WAL checkpoint it runs once idle.
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BalanceTracker } from '../../src/daemon/balance-tracker.js';
import { OfferPlacer } from '../../src/daemon/offer-placer.js';
import { Pipeline } from '../../src/daemon/pipeline.js';
import { RequestGuards } from '../../src/daemon/request-guard.js';
import { serviceDataSource, storeSpendLedger } from '../../src/daemon/service-data.js';
import { silentLogger } from '../../src/log/logger.js';
import { UNCAPPED_RISK_LIMITS, type RiskLimits } from '../../src/risk/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import type { MarketplaceApi } from '../../src/service/index.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { databaseOf, REDACTED_TEXT, type Store } from '../../src/store/index.js';
import { openOfferBookOf } from '../../src/store/open-offer-book.js';
import { compileText } from '../engine/compile-text.js';
import { tempStore } from '../store/fixtures.js';

// Buys the banking data (free) and a score of provider_b at 1.50 per request, then offers.
const BUYER = compileText(`
automate_fund: true
data:
  monthly_budget: 100
  banking_data: after_filters
  provider_b:
    provider: provider_b
    price_per_request: 1.5
    when_probability: { min: 0, max: 1 }
score:
  logistic:
    intercept: 3
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
pricing:
  target_return: 0.05
`);

let sandbox: SandboxHandle;
let store: Store;
let path: string;
let cleanup: () => void;
beforeEach(async () => {
  sandbox = await startSandbox({ manualClock: true, seed: 7 });
  sandbox.control.setBalance(1_000_000);
  ({ store, path, cleanup } = tempStore());
});
afterEach(async () => {
  await sandbox.close();
  cleanup();
});

function pipelineFor(onOffer: () => void, idleCheckpointMs?: number, limits: RiskLimits = UNCAPPED_RISK_LIMITS): Pipeline {
  const client = clientFor(sandbox, { daemonRetries: true });
  // The real client; make_offer first notes what the store held at that moment.
  const observed: MarketplaceApi = new Proxy(client, {
    get(target, property) {
      if (property === 'makeOffer') {
        return (...args: Parameters<MarketplaceApi['makeOffer']>) => {
          onOffer();
          return target.makeOffer(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const deps = { client: observed, store, clock: sandbox.clock, log: silentLogger };
  return new Pipeline({
    ...deps,
    strategies: () => [BUYER],
    limits: () => limits,
    guards: new RequestGuards({ ...deps, limits: () => limits, balance: new BalanceTracker(deps), dryRun: false }),
    data: serviceDataSource(client),
    spend: storeSpendLedger(store),
    placer: new OfferPlacer({ ...deps, dryRun: false }),
    dryRun: false,
    idleCheckpointMs,
  });
}

describe('the pipeline writes around the offer POST', () => {
  it('writes only the intent and priced purchases before the POST, the rest after it', async () => {
    const request = sandbox.control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    let atPost: unknown;
    const pipeline = pipelineFor(() => {
      atPost = {
        offer: store.offers.getByRequest(request.id)?.state,
        purchases: store.purchases.forRequest(request.id).map((purchase) => [purchase.kind, purchase.costCents]),
        seen: store.requests.get(request.id) !== undefined,
        decided: store.decisions.has(request.id),
      };
    });

    const result = await pipeline.process(request, 'webhook');

    expect(result).toMatchObject({ action: 'offer', placement: 'placed' });
    expect(atPost).toEqual({ offer: 'intent', purchases: [['provider', 150]], seen: false, decided: false });
    const purchases = store.purchases.forRequest(request.id);
    expect(purchases.map((purchase) => [purchase.kind, purchase.costCents, purchase.ok])).toEqual([
      ['provider', 150, true],
      ['banking_data', 0, true],
    ]);
    // The banking data waited, and was still stored without its free text.
    expect(purchases[1]!.payloadJson).toContain(REDACTED_TEXT);
    expect(store.requests.get(request.id)?.source).toBe('webhook');
    expect(store.decisions.get(request.id)?.action).toBe('offer');
    expect(store.offers.getByRequest(request.id)?.state).toBe('placed');
    expect(store.purchases.spendCents({ fromMs: 0, toMs: sandbox.clock.now() + 1 })).toBe(150);
  });

  it('still writes what it bought when the request ends in an error', async () => {
    const request = sandbox.control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    const pipeline = pipelineFor(() => {
      throw new Error('connection lost before the POST');
    });
    await expect(pipeline.process(request, 'webhook')).rejects.toThrow('connection lost before the POST');
    expect(store.purchases.forRequest(request.id).map((purchase) => purchase.kind)).toEqual(['provider', 'banking_data']);
    expect(store.requests.get(request.id)?.source).toBe('webhook');
    // No decision: the request is decided again when its event is retried.
    expect(store.decisions.has(request.id)).toBe(false);
  });

  it('checkpoints the WAL into the file once no request came for a while', async () => {
    const request = sandbox.control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    const pipeline = pipelineFor(() => undefined, 50);
    const before = statSync(path).size;
    await pipeline.process(request, 'webhook');
    // Everything written so far sits in the WAL (SQLite's own checkpoint waits for 10,000 pages).
    expect(statSync(path).size).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statSync(path).size).toBeGreaterThan(before);
  });

  it('prepares the guard figures once idle, and the next guard still sees what changed meanwhile', async () => {
    const first = sandbox.control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    const second = sandbox.control.createLoanRequest({
      svcColor: 0,
      creditScore: 780,
      completedLoans: 5,
      hasBankingData: true,
      maxInterestRate: 1.2,
      competitorOffers: 0,
    });
    const cents = (amount: string): number => Math.round(Number(amount) * 100);
    // Room for both offers, and less than $100 more.
    const maxOpenExposureCents = cents(first.total_amount) + cents(second.total_amount) + 10_000;
    const pipeline = pipelineFor(() => undefined, undefined, { ...UNCAPPED_RISK_LIMITS, maxOpenExposureCents });
    expect(await pipeline.process(first, 'webhook')).toMatchObject({ action: 'offer', placement: 'placed' });
    // Idle: the figures are prepared (and agree with the SQL that defines them).
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const scope = { nowMs: sandbox.clock.now(), expiryMs: UNCAPPED_RISK_LIMITS.offerExpiryMs };
    const book = openOfferBookOf(databaseOf(store));
    expect(book.exposure(scope).totalCents).toBe(cents(first.total_amount));
    expect(book.exposure(scope)).toEqual(book.recount.exposure(scope));

    // Meanwhile a loan made outside lendbot is synced: $200 more exposure, over the cap.
    store.account.upsertLoans(
      [
        {
          id: 1,
          loan_request_id: 999_999,
          borrower_card_color: 1,
          loan_amount: 300,
          interest_rate: 0.25,
          status: 'funded',
          loan_balance: 200,
          loan_paid_off: false,
        },
      ],
      'current',
      sandbox.clock.now(),
    );
    const result = await pipeline.process(second, 'webhook');
    expect(result).toMatchObject({ action: 'skip', guard: 'max_open_exposure' });
    expect(store.offers.getByRequest(second.id)).toBeUndefined();
    // Refused before buying: nothing bought for it.
    expect(store.purchases.forRequest(second.id)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { guardReason } from '../../src/domain/decision-reason.js';
import {
  decideAsync,
  decideSync,
  type DataSource,
  type Fetched,
  type GuardQuestion,
  type PurchaseEntry,
  type SpendLedger,
} from '../../src/engine/index.js';
import type { BankingData, ProviderResult } from '../../src/domain/index.js';
import { ServiceError } from '../../src/service/index.js';
import { compileText } from './compile-text.js';
import { bankingData, loanRequest, providerA, providerB } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const STRATEGY = compileText(`filters: []
data:
  monthly_budget: 3
  banking_data: after_filters
  provider_a: { provider: acme, when_probability: { min: 0.85, max: 0.95 } }
  provider_b: { provider: zeta, price_per_request: 1.5, when_probability: { min: 0.8, max: 0.99 } }
score:
  scorecard:
    base_odds: 9
    points_to_double_odds: 40
    terms:
      - { feature: provider_a_score, per_unit: 1, center: 700, missing: 0 }
      - { feature: provider_b_band, levels: { excellent: 40, good: 20, average: -20, poor: -60 }, missing: 0 }
pricing:
  target_return: 0.05
`);

const NOW = Date.parse('2026-03-10T12:00:00Z');

/**
 * A ledger that starts the month with `spent` and keeps every purchase; flat-priced providers'
 * subscriptions are already paid this month (test/engine/provider-subscription.test.ts charges them).
 */
function ledger(spent = 0): SpendLedger & { purchases: PurchaseEntry[] } {
  const purchases: PurchaseEntry[] = [];
  return {
    purchases,
    spentSince: () => spent + purchases.reduce((sum, purchase) => sum + purchase.costCents, 0),
    subscribedSince: () => true,
    record: (purchase) => purchases.push(purchase),
  };
}

function source(data: { banking?: Fetched<BankingData>; providers?: Record<string, Fetched<ProviderResult>> }): DataSource<true> {
  return {
    bankingData: () => data.banking ?? { ok: false, detail: 'not in recording' },
    providerResult: (_request, provider) => data.providers?.[provider] ?? { ok: false, detail: 'not in recording' },
    borrowerHistory: () => ({ ok: false, detail: 'not in recording' }),
  };
}

/** The same data, answered asynchronously (the daemon's driver). */
function asyncOf(data: DataSource<true>): DataSource<false> {
  return {
    bankingData: async (request) => data.bankingData(request),
    providerResult: async (request, provider) => data.providerResult(request, provider),
    borrowerHistory: async (request) => data.borrowerHistory(request),
  };
}

const allow = () => ({ allowed: true }) as const;
const everything = source({
  banking: { ok: true, value: bankingData() },
  providers: { acme: { ok: true, value: providerA(700) }, zeta: { ok: true, value: providerB(10) } },
});

describe('the decide step', () => {
  it('buys what is asked, records each purchase at its price (a subscribed flat provider free), then offers', () => {
    const spend = ledger();
    const outcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: spend }, everything, allow);
    expect(
      outcome.needsPasses.map((pass) => (pass.needs?.[0]?.kind === 'provider' ? pass.needs[0].provider : pass.needs?.[0]?.kind)),
    ).toEqual(['banking_data', 'acme', 'zeta']);
    expect(spend.purchases.map((p) => [p.kind, p.provider, p.costCents, p.ok])).toEqual([
      ['banking_data', undefined, 0, true],
      ['provider', 'acme', 0, true],
      ['provider', 'zeta', 150, true],
    ]);
    expect(outcome.action).toBe('offer');
  });

  it('does not buy over the monthly budget, and says so with the figures', () => {
    const spend = ledger(200);
    const outcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: spend }, everything, allow);
    expect(outcome.reasons.map(reasonText)).toContain('data budget 2.00 + 1.50 > 3.00 for zeta');
    expect(spend.purchases.map((p) => p.provider)).toEqual([undefined, 'acme']);
  });

  it('decides without data that is not there, with the reasons the daemon gives', () => {
    const outcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: ledger() }, source({}), allow);
    expect(outcome.reasons.map(reasonText)).toEqual(
      expect.arrayContaining([
        'data banking_data not found',
        'data acme unavailable: not in recording',
        'data zeta unavailable: not in recording',
      ]),
    );
  });

  it('appends the guard refusal of the offer and skips', () => {
    const questions: GuardQuestion[] = [];
    // Refuses the offer (a rate above the request's max, say), not its amount before buying.
    const refuseOffers = (question: GuardQuestion) => {
      questions.push(question);
      return 'rate' in question
        ? ({
            allowed: false,
            code: 'rate_above_max',
            reason: guardReason({ guardCode: 'rate_above_max', rate: '0.4', max: '0.3' }),
          } as const)
        : ({ allowed: true } as const);
    };
    const outcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: ledger() }, everything, refuseOffers);
    expect(outcome.decision.action).toBe('offer');
    expect(outcome).toMatchObject({ action: 'skip', guard: { code: 'rate_above_max' } });
    expect(outcome.reasons.map(reasonText).at(-1)).toBe('guard rate 0.4 > max_interest_rate 0.3');
    // Asked twice: before the first purchase without a rate, then about the offer.
    expect(questions.map((question) => ('rate' in question ? question.rate : 'before buying'))).toEqual([
      'before buying',
      outcome.decision.rate,
    ]);
  });

  it('asks the guard before buying; when it refuses, nothing is bought and no price searched', async () => {
    const questions: GuardQuestion[] = [];
    const refuse = (question: GuardQuestion) => {
      questions.push(question);
      const figures = { balance: '1.00', reserved: '0.00', reserve: '0.00', total: '520.00', equal: false };
      return {
        allowed: false,
        code: 'insufficient_balance',
        reason: guardReason({ guardCode: 'insufficient_balance', at: 'offer', ...figures }),
      } as const;
    };
    const spend = ledger();
    const outcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: spend }, everything, refuse);
    expect(questions).toEqual([{ request: loanRequest(), beforePricing: true, automateFund: STRATEGY.automateFund }]);
    expect(spend.purchases).toEqual([]);
    expect(outcome).toMatchObject({ action: 'skip', guard: { code: 'insufficient_balance' } });
    // The strategies' decision is the round that asked for data: no rate, no price.
    expect(outcome.decision.action).toBe('needs_data');
    expect(outcome.decision.rate).toBeUndefined();
    expect(outcome.reasons.map(reasonText)).toEqual([
      'data banking_data needed (free filters passed)',
      'guard balance 1.00 - reserved 0.00 - reserve 0.00 < total 520.00',
    ]);
    // The daemon's driver stops there too.
    const asyncSpend = ledger();
    const asyncOutcome = await decideAsync(
      loanRequest(),
      { strategies: [STRATEGY], nowMs: NOW, ledger: asyncSpend },
      asyncOf(everything),
      async (question) => refuse(question),
    );
    expect(asyncOutcome).toEqual(outcome);
    expect(asyncSpend.purchases).toEqual([]);
  });

  it('gives the same outcome driven asynchronously, and an outage records what was billed and throws', async () => {
    const syncOutcome = decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: ledger() }, everything, allow);
    const asyncOutcome = await decideAsync(
      loanRequest(),
      { strategies: [STRATEGY], nowMs: NOW, ledger: ledger() },
      asyncOf(everything),
      async () => ({ allowed: true }),
    );
    expect(asyncOutcome).toEqual(syncOutcome);

    const outage = new ServiceError('SERVER_ERROR', 'server error', { method: 'GET', path: '/x', status: 502 });
    const spend = ledger();
    const failing = source({
      banking: { ok: true, value: bankingData() },
      providers: { acme: { ok: true, value: providerA(700) }, zeta: { ok: false, detail: 'bad gateway', billed: true, outage } },
    });
    expect(() => decideSync(loanRequest(), { strategies: [STRATEGY], nowMs: NOW, ledger: spend }, failing, allow)).toThrow(outage);
    expect(spend.purchases.at(-1)).toMatchObject({ provider: 'zeta', costCents: 150, ok: false, error: 'bad gateway' });
  });
});

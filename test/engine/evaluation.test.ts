import { describe, expect, it } from 'vitest';
import { evaluate, evaluateAll, type CompiledStrategy } from '../../src/engine/index.js';
import { compileText } from './compile-text.js';
import { bankingData, loanRequest, providerA, providerB } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const SCORE = `
score:
  scorecard:
    base_odds: 9
    points_to_double_odds: 40
    terms:
      - { feature: provider_a_score, per_unit: 1, center: 700, missing: 0 }
      - { feature: provider_b_band, levels: { excellent: 40, good: 20, average: -20, poor: -60 }, missing: 0 }
pricing:
  target_return: 0.05
`;

function strategyWith(data: string, filters = '[]'): CompiledStrategy {
  return compileText(`filters: ${filters}\ndata:\n${data}\n${SCORE}`);
}

const PROVIDERS = `  monthly_budget: 100
  banking_data: after_filters
  provider_a: { provider: acme, when_probability: { min: 0.85, max: 0.95 } }
  provider_b: { provider: zeta, price_per_request: 1.5, when_probability: { min: 0.8, max: 0.99 } }`;

describe('data needs', () => {
  it('asks for banking data before the free filters with banking_data: always', () => {
    const strategy = strategyWith('  banking_data: always', '[{ feature: risk_level, in: [0] }]');
    const decision = strategy.evaluate(loanRequest(), {});
    expect(decision.action).toBe('needs_data');
    expect(decision.needs).toEqual([{ kind: 'banking_data' }]);
    expect(decision.reasons.map(reasonText)).toEqual(['data banking_data needed (policy always)']);
  });

  it('asks for banking data only after the free filters pass with after_filters', () => {
    const strategy = strategyWith('  banking_data: after_filters', '[{ feature: risk_level, in: [0] }]');
    expect(strategy.evaluate(loanRequest(), {}).action).toBe('skip');
    const passing = strategy.evaluate(loanRequest({ borrower_card_color: 0 }), {});
    expect(passing.needs).toEqual([{ kind: 'banking_data' }]);
    expect(strategy.evaluate(loanRequest({ borrower_card_color: 0 }), { bankingData: bankingData() }).action).toBe('offer');
  });

  it('decides without banking data that is unavailable or never bought', () => {
    expect(strategyWith('  banking_data: after_filters').evaluate(loanRequest(), { unavailable: { bankingData: true } }).action).toBe(
      'offer',
    );
    expect(strategyWith('  banking_data: never').evaluate(loanRequest(), {}).action).toBe('offer');
  });

  it('asks for the flat-priced provider first, then the per-request one, only inside their bands', () => {
    const strategy = strategyWith(PROVIDERS);
    const banking = { bankingData: bankingData() };
    // base odds 9: probability 0.9, inside both bands; provider A (flat) comes first
    const first = strategy.evaluate(loanRequest(), banking);
    expect(first.needs).toEqual([{ kind: 'provider', provider: 'acme', pricing: 'flat', costCents: 20_000 }]);
    expect(first.reasons.map(reasonText)).toEqual(['data provider_a acme needed: probability 0.90 in [0.85, 0.95]']);
    // A scores 700 (no change): still 0.9, so B is asked for
    const second = strategy.evaluate(loanRequest(), { ...banking, providerResults: { acme: providerA(700) } });
    expect(second.needs).toEqual([{ kind: 'provider', provider: 'zeta', pricing: 'per_request', costCents: 150 }]);
    const done = strategy.evaluate(loanRequest(), { ...banking, providerResults: { acme: providerA(700), zeta: providerB(90) } });
    expect(done.action).toBe('offer');
    expect(done.probability).toBeCloseTo(18 / 19, 12);
  });

  it('does not buy a provider when the probability is outside its band', () => {
    const strategy = strategyWith(PROVIDERS);
    const decision = strategy.evaluate(loanRequest(), { bankingData: bankingData(), providerResults: { acme: providerA(800) } });
    // +100 points: odds 9 * 2^2.5 = 50.9, probability 0.9807 is inside B's band
    expect(decision.needs?.[0]).toMatchObject({ provider: 'zeta' });
    const low = strategy.evaluate(loanRequest(), { bankingData: bankingData(), providerResults: { acme: providerA(600) } });
    // -100 points: odds 9 / 2^2.5 = 1.591, probability 0.6140 is below B's band
    expect(low.action).not.toBe('needs_data');
    expect(low.reasons.map(reasonText)[0]).toBe('data provider_b zeta not bought: probability 0.614 outside [0.80, 0.99]');
  });

  it('decides without a provider that is unavailable', () => {
    const decision = strategyWith(PROVIDERS).evaluate(loanRequest(), {
      bankingData: bankingData(),
      unavailable: { providers: ['acme', 'zeta'] },
    });
    expect(decision.action).toBe('offer');
    expect(decision.reasons.map(reasonText).slice(0, 2)).toEqual(['data provider_a acme unavailable', 'data provider_b zeta unavailable']);
  });

  it('applies provider filters once the provider question is settled', () => {
    const strategy = strategyWith(PROVIDERS, '[{ feature: provider_b_band, not_in: [poor], missing: pass }]');
    const enrichment = { bankingData: bankingData(), providerResults: { acme: providerA(700), zeta: providerB(10) } };
    expect(strategy.evaluate(loanRequest(), enrichment).reasons.map(reasonText)).toEqual(['filter provider_b_band in [poor]']);
  });
});

describe('decisions', () => {
  const strategy = strategyWith('  banking_data: never');

  it('record the strategy identity, params and features', () => {
    const decision = strategy.evaluate(loanRequest(), {});
    expect(decision.strategy).toEqual({ name: 'inline', version: '1', contentHash: strategy.contentHash });
    expect(strategy.contentHash).toMatch(/^[0-9a-f]{16}$/);
    expect(decision.features).toEqual({ provider_a_score: null, provider_b_band: null });
    expect(decision.automateFund).toBe(true);
  });

  it('are deterministic', () => {
    const request = loanRequest();
    const decisions = Array.from({ length: 5 }, () => JSON.stringify(evaluate(request, { bankingData: bankingData() }, strategy)));
    expect(new Set(decisions).size).toBe(1);
  });
});

describe('params', () => {
  const strategy = compileText(`params:
  target: { value: 0.05, min: 0, max: 0.3 }
  min_score: { value: 600, min: 500, max: 800, step: 10 }
filters: [{ feature: credit_score_low, min: $min_score }]
data: { banking_data: never }
score:
  logistic: { intercept: 3, terms: [{ feature: loan_terms, weight: 0 }] }
pricing:
  target_return: $target
`);

  it('are resolved at compile time and overridden without reloading', () => {
    expect(strategy.params).toEqual({ target: 0.05, min_score: 600 });
    const strict = strategy.withParams({ min_score: 700 });
    expect(strict.evaluate(loanRequest(), {}).reasons.map(reasonText)).toEqual(['filter credit_score_low < 700']);
    expect(strict.evaluate(loanRequest(), {}).params).toEqual({ target: 0.05, min_score: 700 });
    const params = { target: 0.2 };
    const richer = evaluate(loanRequest(), {}, strategy, params);
    expect(richer.rate ?? 0).toBeGreaterThan(strategy.evaluate(loanRequest(), {}).rate ?? 1);
  });

  it('reject unknown names', () => {
    expect(() => strategy.withParams({ min_scor: 1 })).toThrow('unknown param "min_scor"; this strategy has target, min_score');
  });
});

describe('evaluateAll', () => {
  const picky = compileText(`priority: 1\nfilters: [{ feature: risk_level, in: [0] }]\ndata: { banking_data: never }\n${SCORE}`);
  const open = compileText(`priority: 2\ndata: { banking_data: never }\n${SCORE}`.replace('target_return: 0.05', 'target_return: 0.06'));

  it('takes the first strategy in priority order that offers', () => {
    expect(evaluateAll(loanRequest({ borrower_card_color: 0 }), {}, [open, picky]).requiredRate).toBe(
      picky.evaluate(loanRequest({ borrower_card_color: 0 }), {}).requiredRate,
    );
    const decision = evaluateAll(loanRequest(), {}, [picky, open]);
    expect(decision.action).toBe('offer');
    expect(decision.requiredRate).toBe(open.evaluate(loanRequest(), {}).requiredRate);
  });

  it('returns the first skip when all skip', () => {
    const other = compileText(`priority: 0\nfilters: [{ feature: loan_terms, max: 6 }]\ndata: { banking_data: never }\n${SCORE}`);
    expect(evaluateAll(loanRequest(), {}, [picky, other]).reasons.map(reasonText)).toEqual(['filter loan_terms > 6']);
  });

  it('orders each list it is given, however calls alternate between lists (the last order is remembered)', () => {
    // Two lists of the same strategies, whose priorities rank them the other way round.
    const first = compileText(`priority: 1\ndata: { banking_data: never }\n${SCORE}`);
    const second = compileText(
      `priority: 2\ndata: { banking_data: never }\n${SCORE}`.replace('target_return: 0.05', 'target_return: 0.06'),
    );
    const late = compileText(`priority: 3\ndata: { banking_data: never }\n${SCORE}`.replace('target_return: 0.05', 'target_return: 0.07'));
    const early = compileText(`priority: 0\ndata: { banking_data: never }\n${SCORE}`.replace('target_return: 0.05', 'target_return: 0.08'));
    const lists = [
      { list: [second, first], winner: first },
      { list: [late, early], winner: early },
    ];
    for (const round of [0, 1, 0, 0, 1, 1, 0]) {
      const { list, winner } = lists[round]!;
      expect(evaluateAll(loanRequest(), {}, list).requiredRate).toBe(winner.evaluate(loanRequest(), {}).requiredRate);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FEATURES, featureByName, parseCreditScoreRange, type Enrichment } from '../../src/engine/index.js';
import { featureSource } from '../../src/engine/features/feature-source.js';
import { bankingData, historyItem, loanRequest, providerA, providerB } from './fixtures.js';

function value(name: string, enrichment: Enrichment = {}, request = loanRequest()): unknown {
  return featureByName(name).compute(featureSource(request, enrichment));
}

describe('feature catalogue', () => {
  it('documents every feature', () => {
    for (const feature of FEATURES) {
      expect(feature.description.length, feature.name).toBeGreaterThan(10);
      expect(feature.name).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it('reads credit score range texts', () => {
    expect(parseCreditScoreRange('650-700')).toEqual({ low: 650, high: 700 });
    expect(parseCreditScoreRange('800+')).toEqual({ low: 800, high: 850 });
    expect(parseCreditScoreRange('<580')).toEqual({ low: 300, high: 580 });
    expect(parseCreditScoreRange('720')).toEqual({ low: 720, high: 720 });
    expect(parseCreditScoreRange('unknown')).toBeNull();
    expect(parseCreditScoreRange(null)).toBeNull();
    expect(value('credit_score_mid')).toBe(675);
  });

  it('computes request and affordability features', () => {
    expect(value('loan_amount')).toBe(1000);
    expect(value('fee_share')).toBe(0.05);
    expect(value('risk_level_name')).toBe('medium');
    expect(value('crypto_backed')).toBe(false);
    expect(value('loan_to_income')).toBeCloseTo(1000 / 54000, 12);
    // 1050 at 60% over 12 months: factor 0.05 / (1 - 1.05^-12) = 0.1128254
    expect(value('monthly_payment_at_max_rate')).toBeCloseTo(118.4667, 3);
    expect(value('payment_to_income_at_max_rate')).toBeCloseTo(118.4667 / 4500, 6);
  });

  it('keeps absent data absent, never zero', () => {
    const request = loanRequest({ borrower: { annual_income: null, hard_inquiries: undefined } });
    expect(value('annual_income', {}, request)).toBeNull();
    expect(value('payment_to_income_at_max_rate', {}, request)).toBeNull();
    expect(value('hard_inquiries', {}, request)).toBeNull();
    expect(value('bank_total_credit')).toBeNull();
    expect(value('provider_b_score')).toBeNull();
    expect(value('history_loans')).toBeNull();
    expect(value('fee_extra')).toBe(0);
  });

  it('computes banking trend, volatility and shares', () => {
    const enrichment = { bankingData: bankingData() };
    expect(value('bank_monthly_income', enrichment)).toBe(4500);
    expect(value('bank_monthly_net_flow', enrichment)).toBe(600);
    expect(value('bank_income_trend', enrichment)).toBeCloseTo(200 / 4500, 12);
    // months 4600, 4500, 4400: sd = sqrt(20000/3) = 81.65; / 4500
    expect(value('bank_income_volatility', enrichment)).toBeCloseTo(Math.sqrt(20000 / 3) / 4500, 12);
    expect(value('spend_transportation_90', enrichment)).toBe(936);
    expect(value('spend_food_share', enrichment)).toBe(15);
    expect(value('spend_misc_share', enrichment)).toBeNull();
    expect(value('bank_balance', enrichment)).toBe(812.4);
    expect(value('negative_balance_count', enrichment)).toBe(1);
  });

  it('sums the windows when the 90-day total is absent', () => {
    const enrichment = { bankingData: bankingData({ total_credit: null }) };
    expect(value('bank_total_credit', enrichment)).toBe(13500);
  });

  it('tells the providers apart by shape, whatever their names', () => {
    const enrichment = { providerResults: { acme: providerA(705), zeta: providerB(40) } };
    expect(value('provider_a_score', enrichment)).toBe(705);
    expect(value('provider_b_score', enrichment)).toBe(40);
    expect(value('provider_b_band', enrichment)).toBe('average');
    expect(value('provider_b_band_rank', enrichment)).toBe(1);
  });

  it('computes history features', () => {
    const enrichment = { borrowerHistory: [historyItem('500.00', '0.20'), historyItem('800.00', '0.30')] };
    expect(value('history_loans', enrichment)).toBe(2);
    expect(value('history_largest_loan', enrichment)).toBe(800);
    expect(value('history_avg_interest_rate', enrichment)).toBeCloseTo(0.25, 12);
    expect(value('loan_to_largest_previous', enrichment)).toBe(1.25);
    expect(value('history_largest_loan', { borrowerHistory: [] })).toBeNull();
  });
});

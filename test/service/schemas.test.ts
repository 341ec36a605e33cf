import { describe, expect, it } from 'vitest';
import {
  agg90Schema,
  bankingDataSchema,
  loanRequestSchema,
  offerSchema,
  providerBBand,
  providerResultSchema,
  spendingAmountField,
  SPENDING_CATEGORIES,
  transferDayGroupSchema,
} from '../../src/domain/index.js';
import { validateItems } from '../../src/service/index.js';
import { agg90Json, bankingDataJson, loanRequestJson, offerJson, transferGroupJson } from './fixtures/resources.js';

describe('resource schemas', () => {
  it('accept the fixtures shaped as spec part 2', () => {
    expect(loanRequestSchema.safeParse(loanRequestJson(1)).success).toBe(true);
    expect(bankingDataSchema.safeParse(bankingDataJson()).success).toBe(true);
    expect(offerSchema.safeParse(offerJson(9, 1, 0.25, true)).success).toBe(true);
    expect(transferDayGroupSchema.safeParse(transferGroupJson('2026-11-20', [['processed', 'Add Money', '100.00']])).success).toBe(true);
  });

  it('keep unknown fields instead of stripping them', () => {
    const parsed = loanRequestSchema.parse(loanRequestJson(1, { brand_new_field: { a: 1 } }));
    expect(parsed.brand_new_field).toEqual({ a: 1 });
    expect((parsed.borrower as Record<string, unknown>).initial).toBe('J.D.');
  });

  it('know the two agg_90 naming exceptions', () => {
    expect(spendingAmountField('transportation')).toBe('transportation_spending_last_90');
    expect(spendingAmountField('food')).toBe('food_spending_last90');
    expect(SPENDING_CATEGORIES).toHaveLength(13);
    const parsed = agg90Schema.parse(agg90Json());
    expect(parsed.transportation_spending_last_90).toBe(450.5);
    expect(parsed.cash_advance_last90).toBe(200);
    expect(agg90Schema.safeParse({ ...agg90Json(), transportation_spending_last_90: 'lots' }).success).toBe(false);
  });

  it('tell provider A from provider B by shape', () => {
    const a = {
      loan_request_id: 1,
      model_version: 'v3',
      a_score: 712,
      a_score_request_id: '6f1c7d3e-0d7a-4a57-9a3c-1f0e2b3c4d5e',
      timestamp: '2026-11-20T14:04:00Z',
    };
    const b = {
      p2p_score: { date: '2026-11-20', score: 64, score_band: 'good', loan_request_id: '1' },
      attributes: { date: '2026-11-20', loan_request_id: '1', attributes: { cf_income_90d: 9301.5 } },
    };
    expect(providerResultSchema.parse(a)).toMatchObject({ a_score: 712 });
    expect(providerResultSchema.parse(b)).toMatchObject({ p2p_score: { score: 64 } });
    expect(providerResultSchema.safeParse({ score: 3 }).success).toBe(false);
    expect([0, 24, 25, 50, 74, 75, 100].map(providerBBand)).toEqual(['poor', 'poor', 'average', 'good', 'good', 'excellent', 'excellent']);
  });

  it('refuse amounts that are not decimal text', () => {
    const result = loanRequestSchema.safeParse(loanRequestJson(1, { loan_amount: 500 }));
    expect(result.success).toBe(false);
  });

  it('report each bad list item by index, id and JSON path, keeping the good ones', () => {
    const items = [
      loanRequestJson(1),
      loanRequestJson(2, { borrower: { ...(loanRequestJson(2).borrower as object), svc_color: 9 } }),
      loanRequestJson(3),
    ];
    const { items: good, issues } = validateItems(loanRequestSchema, items, 'GET /api/v3/loan_requests/');
    expect(good.map((item) => item.id)).toEqual([1, 3]);
    expect(issues).toEqual([
      {
        endpoint: 'GET /api/v3/loan_requests/',
        index: 1,
        itemId: 2,
        path: '$.borrower.svc_color',
        message: 'Too big: expected number to be <=4',
      },
    ]);
  });
});

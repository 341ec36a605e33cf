import { describe, expect, it } from 'vitest';
import { decisionReasonLabel, offerOutcomeOf } from '../../src/ops/instrument.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

describe('metric labels come from codes, not from reason texts', () => {
  it('labels a guard refusal and a service refusal by their codes, whatever the words', () => {
    for (const words of ['guard balance 1.00 < total 5.00', 'any rewording at all']) {
      expect(
        decisionReasonLabel({ loanRequestId: 1, action: 'skip', reasons: storedReasons([words]), guard: 'insufficient_balance' }),
      ).toBe('guard insufficient_balance');
    }
    expect(
      decisionReasonLabel({ loanRequestId: 1, action: 'skip', reasons: storedReasons(['whatever it says']), placement: 'refused' }),
    ).toBe('service refused');
    expect(
      decisionReasonLabel({
        loanRequestId: 1,
        action: 'offer',
        reasons: storedReasons(['price required_rate 0.2, offered 0.25']),
        placement: 'placed',
      }),
    ).toBe('offer placed');
    expect(decisionReasonLabel({ loanRequestId: 1, action: 'skip', reasons: storedReasons(['filter credit_score < 600']) })).toBe(
      'filter credit_score',
    );
  });

  it('maps placements to offer outcomes; an offer recorded before sends nothing', () => {
    const base = { loanRequestId: 1, action: 'offer' as const, reasons: [] };
    expect(offerOutcomeOf({ ...base, placement: 'placed' })).toBe('placed');
    expect(offerOutcomeOf({ ...base, placement: 'unknown' })).toBe('ambiguous');
    expect(offerOutcomeOf({ ...base, action: 'skip', placement: 'refused' })).toBe('refused');
    expect(offerOutcomeOf({ ...base, placement: 'exists' })).toBeUndefined();
    expect(offerOutcomeOf({ ...base, action: 'skip' })).toBeUndefined();
  });
});

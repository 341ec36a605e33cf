// Every reason kind rendered as its stored text and compared with the exact string the writers
// produced before reasons were values (old databases must read the same), then read back from
// that text as the database's reader does (storedReason) to the very same value.
import { describe, expect, it } from 'vitest';
import { reasonText, type ReasonCode } from '../../src/domain/decision-reason.js';
import { storedReason, storedReasons } from '../../src/store/reason-texts-to-values.js';
import { REASON_CASES as CASES } from './reason-cases.js';

describe('reasons as values', () => {
  it.each(CASES)('%j is stored as the old text', (reason, text) => {
    expect(reasonText(reason)).toBe(text);
  });

  it.each(CASES)('%j reads back from its stored text', (reason, text) => {
    expect(storedReason(text)).toEqual(reason);
  });

  it('covers every kind of reason', () => {
    // A Record over every code: a new kind fails to compile until it has a case above.
    const kinds: Record<ReasonCode, true> = Object.fromEntries(CASES.map(([reason]) => [reason.code, true])) as Record<ReasonCode, true>;
    const all: ReasonCode[] = [
      'filter_failed',
      'score',
      'score_below_min',
      'data_budget',
      'data_still_missing',
      'data_not_found',
      'data_unreadable',
      'data_provider_unavailable',
      'data_unavailable',
      'data_provider_needed',
      'data_provider_not_bought',
      'data_needed',
      'price_cap_below_minimum',
      'price_break_even_above_cap',
      'price_no_profit',
      'price_required_above_cap',
      'price_income_unknown',
      'price_payment_to_income',
      'price_max_rate',
      'price_expected_profit',
      'price_required_rate',
      'price_cash_hurdle',
      'price_level_uncertain',
      'plugin_no_needs',
      'plugin_rate_outside',
      'plugin_bad_action',
      'guard',
      'service_refused',
      'offer_outcome_unknown',
      'offer_already_recorded',
      'agent_offered',
      'crypto_not_allowed',
      'prefiltered',
      'other',
    ];
    expect(Object.keys(kinds).sort()).toEqual([...all].sort());
  });

  it('keeps a text no form reads back exactly as it is', () => {
    // Looks like a filter, but the feature is no word: not read as one, not changed.
    expect(storedReason('filter credit-score < 600')).toEqual({ code: 'other', text: 'filter credit-score < 600' });
    expect(storedReason('')).toEqual({ code: 'other', text: '' });
    expect(storedReasons(['score probability 0.81', 'oracle: cannot win'])).toEqual([
      { code: 'score', probability: '0.81' },
      { code: 'other', text: 'oracle: cannot win' },
    ]);
  });
});

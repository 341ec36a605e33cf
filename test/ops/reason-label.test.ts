// The metrics label of every reason kind, from its value, against the label the same reason had
// when it was read off its stored text: the label values (and so dashboards and alerts) unchanged.
import { describe, expect, it } from 'vitest';
import { guardReason, reasonText, type DecisionReason } from '../../src/domain/decision-reason.js';
import { reasonLabel } from '../../src/ops/reason-label.js';
import { REASON_CASES } from '../domain/reason-cases.js';

/** The label as it was read off the text (src/ops/metrics.ts before reasons were values): the reference only. */
function textLabel(reason: string | undefined): string {
  if (reason === undefined || reason.trim() === '') return 'none';
  const words: string[] = [];
  for (const word of reason.trim().split(/\s+/)) {
    if (/\d/.test(word) || /^[^A-Za-z_]+$/.test(word)) break;
    const bare = word.replace(/[:;,]+$/, '');
    if (bare !== '') words.push(bare);
    if (bare !== word || words.length === 3) break;
  }
  return words.length === 0 ? 'other' : words.join(' ');
}

// Names of the user's own that change the words: digits, several words, a colon, nothing at all.
const NAMED: DecisionReason[] = [
  { code: 'filter_failed', feature: 'income_90', test: '<', bound: '3100' },
  { code: 'filter_failed', feature: 'acme_score', test: 'in', bound: '[good]' },
  { code: 'data_not_found', what: 'provider_2' },
  { code: 'data_provider_needed', slot: 'provider_b', provider: 'acme2', probability: '0.55', min: '0.40', max: '0.70' },
  { code: 'price_cap_below_minimum', cap: 'max_interest_rate', rate: '0.02', minimum: '0.03' },
  { code: 'plugin_bad_action', action: '3' },
  guardReason({ guardCode: 'arm_share', arm: 'v2', committed: '5000.00', total: '536.00', share: '50', capital: '10000.00' }),
  { code: 'agent_offered', agent: 'agent:ops-team', rate: '0.2', amount: '520.00', confirmedVia: 'lendbot approve' },
  { code: 'prefiltered', refusals: [{ strategy: 'low risk', reason: { code: 'crypto_not_allowed' } }] },
  { code: 'prefiltered', refusals: [] },
  { code: 'other', text: 'oracle: cannot win' },
  { code: 'other', text: '0.91 >= 0.82' },
  { code: 'other', text: '  ' },
];

describe('the reason label of the metrics', () => {
  it.each(REASON_CASES)('%j keeps the label its text gave', (reason, text) => {
    expect(reasonLabel(reason)).toBe(textLabel(text));
  });

  it.each(NAMED)('%j keeps the label its text gave, names and all', (reason) => {
    expect(reasonLabel(reason)).toBe(textLabel(reasonText(reason)));
  });

  it('never holds a number, and is none without a reason', () => {
    for (const [reason] of REASON_CASES) expect(reasonLabel(reason)).not.toMatch(/\d/);
    expect(reasonLabel(undefined)).toBe('none');
    expect(
      reasonLabel(
        guardReason({
          guardCode: 'insufficient_balance',
          at: 'offer',
          balance: '41.00',
          reserved: '0.00',
          reserve: '0.00',
          total: '520.00',
          equal: false,
        }),
      ),
    ).toBe('guard balance');
  });
});

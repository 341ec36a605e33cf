// Every reason kind with the exact stored text the writers produced before reasons were values:
// the examples the reason tests (test/domain/decision-reason.test.ts) and the metrics label test
// (test/ops/reason-label.test.ts) share.
import { guardReason, type DecisionReason } from '../../src/domain/decision-reason.js';

const balance = { balance: '1198.00', reserved: '898.50', reserve: '0.00', total: '536.00' };

// The old writers' strings, verbatim (src/engine, src/risk, src/daemon, src/operator before the change).
export const REASON_CASES: Array<[DecisionReason, string]> = [
  [{ code: 'filter_failed', feature: 'credit_score_low', test: 'missing' }, 'filter credit_score_low missing'],
  [{ code: 'filter_failed', feature: 'credit_score_low', test: '<', bound: '600' }, 'filter credit_score_low < 600'],
  [{ code: 'filter_failed', feature: 'hard_inquiries', test: '>', bound: '3' }, 'filter hard_inquiries > 3'],
  [{ code: 'filter_failed', feature: 'risk_level', test: 'not in', bound: '[0, 2]' }, 'filter risk_level not in [0, 2]'],
  [{ code: 'filter_failed', feature: 'risk_level_name', test: 'in', bound: '[medium, high]' }, 'filter risk_level_name in [medium, high]'],
  [{ code: 'score', probability: '0.8412' }, 'score probability 0.8412'],
  [{ code: 'score_below_min', probability: '0.50', min: '0.60' }, 'score probability 0.50 < min_probability 0.60'],
  [
    { code: 'data_budget', spent: '11.50', cost: '1.00', budget: '12.00', what: 'acme', subscription: false },
    'data budget 11.50 + 1.00 > 12.00 for acme',
  ],
  [
    { code: 'data_budget', spent: '0.00', cost: '25.00', budget: '20.00', what: 'acme', subscription: true },
    'data budget 0.00 + 25.00 > 20.00 for acme (monthly subscription)',
  ],
  [{ code: 'data_still_missing' }, 'data still missing after buying; skipped'],
  [{ code: 'data_not_found', what: 'banking_data' }, 'data banking_data not found'],
  [
    { code: 'data_unreadable', what: 'banking_data', tries: '4', errorCode: 'MALFORMED_RESPONSE' },
    'data banking_data unreadable after 4 tries: MALFORMED_RESPONSE',
  ],
  [{ code: 'data_provider_unavailable', slot: 'provider_a', provider: 'acme' }, 'data provider_a acme unavailable'],
  [{ code: 'data_unavailable', what: 'acme', detail: '404 not found' }, 'data acme unavailable: 404 not found'],
  [
    { code: 'data_provider_needed', slot: 'provider_b', provider: 'acme', probability: '0.55', min: '0.40', max: '0.70' },
    'data provider_b acme needed: probability 0.55 in [0.40, 0.70]',
  ],
  [
    { code: 'data_provider_not_bought', slot: 'provider_a', provider: 'acme', probability: '0.90', min: '0.40', max: '0.70' },
    'data provider_a acme not bought: probability 0.90 outside [0.40, 0.70]',
  ],
  [{ code: 'data_needed', what: 'borrower_history', why: 'free filters passed' }, 'data borrower_history needed (free filters passed)'],
  [{ code: 'price_cap_below_minimum', cap: 'ceiling', rate: '0.02', minimum: '0.03' }, 'price ceiling 0.02 < minimum rate 0.03'],
  [
    { code: 'price_break_even_above_cap', breakEven: '0.31', cap: 'max_interest_rate', rate: '0.25' },
    'price break-even 0.31 > max_interest_rate 0.25',
  ],
  [
    { code: 'price_no_profit', low: '0.12', cap: '0.25', breakEven: '0.1108' },
    'price expected_profit <= 0 USD at every rate in [0.12, 0.25]; break-even 0.1108',
  ],
  [
    { code: 'price_required_above_cap', required: '0.41', cap: 'ceiling_share_of_max', rate: '0.36' },
    'price required_rate 0.41 > ceiling_share_of_max 0.36',
  ],
  [{ code: 'price_income_unknown' }, 'price payment_to_income unknown (annual_income missing)'],
  [{ code: 'price_payment_to_income', share: '0.45', max: '0.35' }, 'price payment_to_income 0.45 > 0.35'],
  [{ code: 'price_max_rate', rate: '0.60', cap: 'max_interest_rate' }, 'price max_rate offered 0.60 (max_interest_rate)'],
  [
    { code: 'price_max_rate', rate: '0.54', cap: 'ceiling_share_of_max', required: '0.21' },
    'price max_rate offered 0.54 (ceiling_share_of_max), required_rate 0.21',
  ],
  [
    { code: 'price_expected_profit', rate: '0.228', accept: '0.42', profit: '61.20', value: '25.70', breakEven: '0.1108' },
    'price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108',
  ],
  [
    {
      code: 'price_expected_profit',
      rate: '0.228',
      accept: '0.42',
      profit: '61.20',
      value: '25.70',
      breakEven: '0.1108',
      learned: '; market learned v3 (12 fates)',
    },
    'price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108; market learned v3 (12 fates)',
  ],
  [
    {
      code: 'price_expected_profit',
      rate: '0.228',
      accept: '0.42',
      profit: '61.20',
      value: '25.70',
      breakEven: '0.1108',
      learned: '; market learned v3 (12 fates)',
      curse: "; P(repay | won) 0.74 against scored 0.85 (winner's curse, 30 loans)",
    },
    "price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108; market learned v3 (12 fates); P(repay | won) 0.74 against scored 0.85 (winner's curse, 30 loans)",
  ],
  [
    {
      code: 'price_expected_profit',
      rate: '0.228',
      accept: '0.42',
      profit: '61.20',
      value: '25.70',
      breakEven: '0.1108',
      curse: "; P(repay | won) 0.74 against scored 0.85 (winner's curse, 30 loans)",
    },
    "price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108; P(repay | won) 0.74 against scored 0.85 (winner's curse, 30 loans)",
  ],
  [{ code: 'price_required_rate', required: '0.2112', rate: '0.228' }, 'price required_rate 0.2112, offered 0.228'],
  [
    { code: 'price_cash_hurdle', shift: '+0.0213', target: '0.1013', free: '1200.00', loan: '500.00', demand: '3100.00', days: '14' },
    'price cash_hurdle +0.0213 to 0.1013: free 1200.00 USD less this loan 500.00 USD against 3100.00 USD expected demand in 14 days',
  ],
  [
    {
      code: 'price_level_uncertain',
      mode: 'cost_plus_floor',
      version: '0',
      loans: '0',
      loanMonths: '0',
      default: '0.0812',
      sd: '1.02',
      ep: '0.1421',
      quantile: '0.8',
      pessimistic: '0.1734',
      floor: '0.1934',
    },
    'price level uncertain v0 (0 loans, 0 loan-months): default 0.0812, sd 1.02; floor 0.1934 at q0.8 default 0.1734, expected_profit 0.1421',
  ],
  [
    {
      code: 'price_level_uncertain',
      mode: 'blend',
      version: '14',
      loans: '37',
      loanMonths: '212',
      default: '0.0655',
      sd: '0.41',
      ep: '0.1521',
      weight: '0.26',
      costPlus: '0.1102',
    },
    'price level uncertain v14 (37 loans, 212 loan-months): default 0.0655, sd 0.41; blend 0.26 of expected_profit 0.1521 over cost-plus 0.1102',
  ],
  [{ code: 'plugin_no_needs' }, 'plugin asked for data without naming any'],
  [{ code: 'plugin_rate_outside', rate: '0.9', min: '0.03', max: '0.60' }, 'plugin rate 0.9 outside [0.03, 0.60]'],
  [{ code: 'plugin_bad_action', action: '"maybe"' }, 'plugin action "maybe" is not offer, skip or needs_data'],
  [guardReason({ guardCode: 'kill_switch' }), 'guard kill switch on (config)'],
  [guardReason({ guardCode: 'kill_switch', file: 'data/STOP' }), 'guard kill switch on (file data/STOP)'],
  [
    guardReason({ guardCode: 'paused', why: 'paused by the operator; until lendbot resume' }),
    'guard paused: paused by the operator; until lendbot resume',
  ],
  [guardReason({ guardCode: 'invalid_total', at: 'offer', total: '0.00' }), 'guard total_amount 0.00 is not a positive amount'],
  [guardReason({ guardCode: 'invalid_total', at: 'funding', totalCents: '0' }), 'guard funding total 0 cents is not a positive amount'],
  [guardReason({ guardCode: 'rate_out_of_bounds', rate: '0.029', min: '0.03', max: '2.0' }), 'guard rate 0.029 outside 0.03 to 2.0'],
  [guardReason({ guardCode: 'rate_above_max', rate: '0.61', max: '0.6' }), 'guard rate 0.61 > max_interest_rate 0.6'],
  [
    guardReason({ guardCode: 'risk_level_not_allowed', level: '4', name: 'crypto', allowed: '0, 1, 2' }),
    'guard risk level 4 (crypto) not allowed (allowed 0, 1, 2)',
  ],
  [
    guardReason({ guardCode: 'insufficient_balance', at: 'offer', ...balance, equal: false }),
    'guard balance 1198.00 - reserved 898.50 - reserve 0.00 < total 536.00',
  ],
  [
    guardReason({ guardCode: 'insufficient_balance', at: 'offer', ...balance, equal: true }),
    'guard balance 1198.00 - reserved 898.50 - reserve 0.00 = total 536.00, must exceed',
  ],
  [
    guardReason({ guardCode: 'insufficient_balance', at: 'funding', ...balance, equal: false }),
    'guard funding balance 1198.00 - reserved 898.50 - reserve 0.00 < total 536.00',
  ],
  [
    guardReason({ guardCode: 'max_open_exposure', exposure: '9800.00', total: '536.00', max: '10000.00' }),
    'guard exposure 9800.00 + total 536.00 > max 10000.00',
  ],
  [
    guardReason({ guardCode: 'max_per_borrower', borrower: '501', exposure: '600.00', total: '536.00', max: '1000.00' }),
    'guard borrower 501 exposure 600.00 + total 536.00 > max 1000.00',
  ],
  [
    guardReason({
      guardCode: 'max_share_by_risk_level',
      level: '1',
      exposure: '3000.00',
      total: '536.00',
      share: '35.4',
      base: '10000.00',
      max: '30.0',
    }),
    'guard risk level 1 exposure 3000.00 + total 536.00 = 35.4% of 10000.00 > max 30.0%',
  ],
  [guardReason({ guardCode: 'max_offers_per_day', today: '20', max: '20' }), 'guard offers today 20 >= max 20'],
  [
    guardReason({ guardCode: 'max_amount_per_day', today: '2400.00', total: '536.00', max: '2500.00' }),
    'guard amount today 2400.00 + total 536.00 > max 2500.00',
  ],
  [
    guardReason({ guardCode: 'arm_share', arm: 'offer-all', committed: '5000.00', total: '536.00', share: '50', capital: '10000.00' }),
    'guard arm offer-all committed 5000.00 + total 536.00 > share 50% of capital 10000.00',
  ],
  [{ code: 'service_refused', text: 'invalid_request: Offer rate too high' }, 'service refused: invalid_request: Offer rate too high'],
  [{ code: 'offer_outcome_unknown', text: 'timeout after 10000 ms' }, 'offer outcome unknown: timeout after 10000 ms'],
  [{ code: 'offer_already_recorded', state: 'placed' }, 'offer already recorded (placed); not sent again'],
  [
    { code: 'agent_offered', agent: 'agent:claude', rate: '0.2', amount: '520.00', confirmedVia: 'the dashboard' },
    'agent:claude offered 0.2 on $520.00 (confirmed by the dashboard)',
  ],
  [{ code: 'crypto_not_allowed' }, 'crypto-backed requests are not allowed by risk.allowed_risk_levels'],
  [
    {
      code: 'prefiltered',
      refusals: [
        { strategy: 'balanced', reason: { code: 'filter_failed', feature: 'loan_amount', test: '>', bound: '5000' } },
        { strategy: 'cautious', reason: { code: 'filter_failed', feature: 'crypto_backed', test: 'not in', bound: '[false]' } },
      ],
    },
    'balanced: filter loan_amount > 5000; cautious: filter crypto_backed not in [false]',
  ],
  [{ code: 'other', text: 'my plugin: borrower looks shaky' }, 'my plugin: borrower looks shaky'],
];

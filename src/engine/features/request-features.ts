/** Features of the loan request itself (marketplace 2.2): amounts, terms, fees, rate cap, risk level. */
import { parseCents, RISK_LEVEL_NAMES } from '../../domain/index.js';
import { numberFeature, ratio, type FeatureDefinition } from './feature-definition.js';
import type { FeatureSource } from './feature-source.js';

function dollars(text: string | null | undefined): number | null {
  return typeof text === 'string' ? parseCents(text) / 100 : null;
}

function isCrypto(source: FeatureSource): boolean {
  return source.request.borrower_card_color === 4 || source.request.crypto_currency !== undefined;
}

export const REQUEST_FEATURES: FeatureDefinition[] = [
  numberFeature('loan_amount', 'request', 'USD', 'amount the borrower asks for', (s) => s.loanAmountCents / 100),
  numberFeature('loan_terms', 'request', 'months', 'number of monthly payments', (s) => s.request.loan_terms),
  numberFeature('total_amount', 'request', 'USD', 'loan amount plus total fees', (s) => s.totalAmountCents / 100),
  numberFeature('total_fees', 'request', 'USD', 'all fees of the request', (s) => dollars(s.request.total_fees)),
  numberFeature('fee_share', 'request', 'ratio', 'total fees divided by the loan amount', (s) =>
    ratio(dollars(s.request.total_fees), s.loanAmountCents / 100),
  ),
  numberFeature('fee_legislative', 'request', 'USD', 'legislative fee (absent when not sent)', (s) => dollars(s.request.fee_legislative)),
  numberFeature('fee_extra', 'request', 'USD', 'extra fee (absent when not sent)', (s) => dollars(s.request.fee_extra)),
  numberFeature('fee_svc', 'request', 'USD', "the service's fee (absent when not sent)", (s) => dollars(s.request.fee_svc)),
  numberFeature(
    'max_interest_rate',
    'request',
    'annual rate',
    'highest rate an offer may carry (0.03 to 2.0)',
    (s) => s.request.max_interest_rate,
  ),
  numberFeature(
    'risk_level',
    'request',
    '0-4',
    'borrower_card_color: 0 low, 1 medium, 2 high, 3 friends, 4 crypto-backed',
    (s) => s.request.borrower_card_color,
  ),
  {
    name: 'risk_level_name',
    kind: 'string',
    group: 'request',
    unit: 'name',
    description: 'risk level as a word: low, medium, high, friends, crypto',
    compute: (s) => RISK_LEVEL_NAMES[s.request.borrower_card_color] ?? null,
  },
  {
    name: 'crypto_backed',
    kind: 'boolean',
    group: 'request',
    unit: 'yes/no',
    description: 'the request is backed by crypto collateral (risk level 4 or crypto fields present)',
    compute: isCrypto,
  },
  numberFeature('crypto_market_value', 'request', 'USD', 'market value of the crypto collateral (crypto-backed only)', (s) =>
    dollars(s.request.crypto_market_value),
  ),
  numberFeature('crypto_collateral_ratio', 'request', 'ratio', 'crypto collateral value divided by the loan amount', (s) =>
    ratio(dollars(s.request.crypto_market_value), s.loanAmountCents / 100),
  ),
  numberFeature(
    'request_avg_credit',
    'request',
    'USD',
    'borrower_data_aggs.avg_credit sent with the request (free)',
    (s) => s.request.borrower_data_aggs?.avg_credit,
  ),
  numberFeature(
    'request_avg_debit',
    'request',
    'USD',
    'borrower_data_aggs.avg_debit sent with the request (free)',
    (s) => s.request.borrower_data_aggs?.avg_debit,
  ),
  numberFeature('count_views', 'request', 'count', 'how many times the request was viewed', (s) => s.request.count_views),
];

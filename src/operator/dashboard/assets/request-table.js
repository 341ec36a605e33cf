// The loan request as the marketplace sent it, read by a person: the request's figures and its
// borrower's, each a table of labelled values (dollars, percent, risk level names, UTC times),
// never raw JSON. A field not known here keeps its name, underscores as spaces.
import { definitions, h } from './dom.js';
import { money, percent, riskName, time, value } from './format.js';

const dollarsText = (v) => (Number.isFinite(Number(v)) ? money(Math.round(Number(v) * 100)) : value(v));

/** The bank data's aggregates: average credits and debits, and how many months of sums. */
function bankData(aggs) {
  if (!aggs || typeof aggs !== 'object') return value(aggs);
  const parts = [];
  if (typeof aggs.avg_credit === 'number') parts.push(`average credit ${dollarsText(aggs.avg_credit)}`);
  if (typeof aggs.avg_debit === 'number') parts.push(`average debit ${dollarsText(aggs.avg_debit)}`);
  if (Array.isArray(aggs.sum_values)) parts.push(`${aggs.sum_values.length} periods of totals`);
  return parts.length > 0 ? parts.join(', ') : nested(aggs);
}

const REQUEST = {
  id: ['Request', value],
  loan_amount: ['Amount', dollarsText],
  loan_terms: ['Term', (v) => `${v} months`],
  total_amount: ['Total with fees', dollarsText],
  total_fees: ['Fees', dollarsText],
  fee_legislative: ['Legal fee', dollarsText],
  fee_extra: ['Extra fee', dollarsText],
  fee_svc: ['Marketplace fee', dollarsText],
  max_interest_rate: ["Borrower's maximum rate", (v) => percent(v)],
  borrower_card_color: ['Risk level', riskName],
  created: ['Created', time],
  count_views: ['Views', value],
  svc_prediction_purchased: ['Marketplace prediction bought', (v) => (v ? 'yes' : 'no')],
  census_tract_geo_id: ['Census tract', value],
  borrower_data_aggs: ['Bank account', bankData],
  highlight: ['Highlight', (v) => nested(v)],
  crypto_amount: ['Crypto collateral', value],
  crypto_market_value: ['Collateral value', dollarsText],
  crypto_interest_rate: ['Crypto rate', (v) => percent(v)],
};

const BORROWER = {
  id: ['Borrower', value],
  initial: ['Initial', value],
  svc_score: ['Marketplace score', value],
  credit_score: ['Credit score', value],
  svc_color: ['Marketplace risk level', riskName],
  annual_income: ['Annual income', (v) => money(v * 100)],
  credit_utilization: ['Credit utilisation', value],
  payment_history: ['Payment history', value],
  total_accounts: ['Accounts', value],
  hard_inquiries: ['Hard inquiries', value],
  deregatory_mark: ['Derogatory marks', value],
  completed_loans_count: ['Loans completed', value],
};

// Shown elsewhere or meaningless to a person.
const HIDDEN = new Set(['borrower', 'avatar', 'crypto_logo']);

function words(name) {
  const text = name.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A nested value in words: the bank data's averages, a highlight's title and message, a list's length. */
function nested(v) {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return `${v.length} ${v.length === 1 ? 'entry' : 'entries'}`;
  if (typeof v !== 'object') return value(v);
  if (typeof v.title === 'string' && typeof v.message === 'string') return `${v.title}: ${v.message}`;
  return Object.entries(v)
    .map(
      ([name, item]) =>
        `${words(name).toLowerCase()} ${Array.isArray(item) || (item && typeof item === 'object') ? nested(item) : value(item)}`,
    )
    .join(', ');
}

function rows(object, known) {
  return Object.entries(object)
    .filter(([name, v]) => !HIDDEN.has(name) && v !== null && v !== undefined && v !== '')
    .map(([name, v]) => {
      const [label, show] = known[name] ?? [words(name), nested];
      return [label, show(v)];
    });
}

/** The "Loan request" and "Borrower" sections of the panel (`section` is the panel's maker). */
export function readableRequest(request, section) {
  if (!request || typeof request !== 'object')
    return section('Loan request', 'explanation-request', h('p', { class: 'muted' }, 'Not in the store.'));
  const borrower = request.borrower && typeof request.borrower === 'object' ? request.borrower : null;
  return [
    section(
      'Loan request',
      'explanation-request',
      definitions(rows(request, REQUEST), { dataset: { testid: 'explanation-request-table' } }),
    ),
    borrower
      ? section(
          'Borrower',
          'explanation-borrower',
          definitions(rows(borrower, BORROWER), { dataset: { testid: 'explanation-borrower-table' } }),
        )
      : null,
  ];
}

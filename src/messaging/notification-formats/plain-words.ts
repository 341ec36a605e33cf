/**
 * Figures as people read them in a chat message: money in dollars ("$1,234.56", the data carries
 * integer cents), rates in percent ("22.8 %", the data carries the API's fraction 0.228), times in
 * UTC without milliseconds, and a label for every data key.
 */
import { RISK_LEVEL_NAMES } from '../../domain/index.js';
// Money in the data is integer cents: 123456 → "$1,234.56", -5 → "-$0.05".
import { dollarsFromCents as dollars, percent } from '../../log/plain-figures.js';

export { dollars, percent };

/** An ISO timestamp as "2026-03-10 12:00 UTC"; a date alone ("2026-03-01") stays as it is. */
export function utcTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/**
 * The three characters both Telegram's HTML mode and Slack's mrkdwn need escaped
 * (https://core.telegram.org/bots/api#html-style, https://api.slack.com/reference/surfaces/formatting#escaping).
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function riskLevel(level: number): string {
  const name = RISK_LEVEL_NAMES[level];
  return name === undefined ? String(level) : `${level} (${name})`;
}

/** Labels and renderings of the keys the events carry; any other key gets a label made from its name. */
const KEYS: Record<string, { label: string; render?: (value: unknown) => string | undefined }> = {
  loan_request_id: { label: 'Loan request' },
  loan_id: { label: 'Loan' },
  payment_id: { label: 'Payment' },
  rate: { label: 'Rate', render: (value) => (typeof value === 'number' ? percent(value) : undefined) },
  lowest_rate: { label: 'Lowest rate', render: (value) => (typeof value === 'number' ? percent(value) : undefined) },
  highest_rate: { label: 'Highest rate', render: (value) => (typeof value === 'number' ? percent(value) : undefined) },
  loan_request_ids: { label: 'Loan requests' },
  offers_by_risk_level: { label: 'By risk level' },
  not_sent: { label: 'Not sent' },
  risk_level: { label: 'Risk level', render: (value) => (typeof value === 'number' ? riskLevel(value) : undefined) },
  total_amount_cents: { label: 'Amount' },
  amount_cents: { label: 'Amount' },
  fees_cents: { label: 'Fees' },
  delayed_days: { label: 'Days late' },
  due_date: { label: 'Due' },
  balance_cents: { label: 'Balance' },
  reserved_cents: { label: 'Reserved' },
  free_cents: { label: 'Free cash' },
  idle_cents: { label: 'Idle cash' },
  exposure_cents: { label: 'Exposure' },
  data_spend_cents: { label: 'Data spend this month' },
  loans_by_status: { label: 'Loans' },
  spent_cents: { label: 'Spent this month' },
  monthly_budget_cents: { label: 'Monthly budget' },
  polled_requests: { label: 'Requests found by polls' },
  window_hours: { label: 'Window', render: (value) => (typeof value === 'number' ? `${value} h` : undefined) },
  refused: { label: 'Refused' },
  last_code: { label: 'Last code' },
  last_message: { label: 'Last message' },
  token_layout: { label: 'Token layout' },
  since: { label: 'Since' },
  until: { label: 'Until', render: (value) => (value === null ? 'resumed by hand (lendbot resume)' : undefined) },
  kind: { label: 'Protection' },
  why: { label: 'Why' },
  code: { label: 'Code' },
  proposal_id: { label: 'Proposal' },
  automate_fund: {
    label: 'Funded automatically on acceptance',
    render: (value) => (value === true ? 'yes' : value === false ? 'no' : undefined),
  },
  expires_at: { label: 'Expires' },
  why_approval: { label: 'Why it needs approval' },
  review_url: { label: 'Review and approve' },
  net_earned_cents: { label: 'Net earned (interest less losses)' },
  interest_cents: { label: 'Interest' },
  losses_cents: { label: 'Losses' },
  idle_cash_cents: { label: 'Idle cash now' },
  idle_share: { label: 'Idle share of the money', render: (value) => (typeof value === 'number' ? percent(value) : undefined) },
  next_month_inflow_cents: { label: 'Expected back next month' },
  offers_made: { label: 'Offers made' },
  offers_won: { label: 'Offers won' },
};

export function labelOf(key: string): string {
  const known = KEYS[key]?.label;
  if (known !== undefined) return known;
  const words = key.replace(/_cents$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One data value in plain words, or undefined when there is nothing worth showing (null, empty). */
export function renderValue(key: string, value: unknown): string | undefined {
  const special = KEYS[key]?.render?.(value);
  if (special !== undefined) return special;
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'number' && key.endsWith('_cents')) return dollars(value);
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T/.test(value) ? utcTime(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && !Array.isArray(value)) {
    const parts = Object.entries(value as Record<string, unknown>).map(
      ([name, item]) => `${name} ${typeof item === 'object' ? JSON.stringify(item) : String(item)}`,
    );
    return parts.length === 0 ? undefined : parts.join(', ');
  }
  return JSON.stringify(value);
}

/** `text` cut to `max` characters, ending with "…" when it was longer. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * One event in plain words, the common ground of the chat formats: a title naming what happened
 * for people ("Payment missed on loan 123"), an optional sentence, the figures as labelled fields
 * and a severity the formats turn into a colour or an emoji. The generic JSON format does not use
 * it: its consumers are programs reading `data`.
 */
import type { NotificationEvent } from '../../domain/index.js';
import { dollars, labelOf, renderValue, utcTime } from './plain-words.js';

export type Severity = 'info' | 'good' | 'warning' | 'bad';

interface NotificationField {
  label: string;
  value: string;
}

export interface NotificationMessage {
  event: NotificationEvent;
  /** When lendbot noticed it (ISO 8601, from the injected clock). */
  at: string;
  title: string;
  description?: string;
  fields: NotificationField[];
  severity: Severity;
}

type Data = Record<string, unknown>;

interface Wording {
  title: (data: Data) => string;
  severity: Severity;
  /** A sentence from the data (e.g. its `message`); the keys it used are not repeated as fields. */
  description?: (data: Data) => string | undefined;
  /** Keys already said by the title or the description. */
  said?: readonly string[];
}

const text = (value: unknown): string => (value === undefined || value === null ? '?' : String(value));
const sentence = (key: string) => (data: Data) => (typeof data[key] === 'string' && data[key] !== '' ? data[key] : undefined);

const WORDING: Record<NotificationEvent, Wording> = {
  // Several offers waiting for the chat's turn go as one message (chat-pace/offer-group.ts): `offers` says how many.
  offer_placed: {
    title: (d) => (typeof d.offers === 'number' ? `${d.offers} offers placed` : `Offer placed on loan request ${text(d.loan_request_id)}`),
    severity: 'info',
    said: ['loan_request_id', 'offers'],
  },
  offer_proposed: {
    title: (d) => `${text(d.agent)} asks to offer on loan request ${text(d.loan_request_id)}: a person must approve`,
    description: (d) =>
      `Nothing is placed unless you approve it before it expires: open the link and sign in with the operator token, or run ${text(d.approve_command)} on the daemon's machine.`,
    severity: 'warning',
    said: ['agent', 'loan_request_id', 'approve_command'],
  },
  offer_funded: {
    title: (d) => (typeof d.offers === 'number' ? `${d.offers} offers funded` : `Offer funded on loan request ${text(d.loan_request_id)}`),
    severity: 'good',
    said: ['loan_request_id', 'offers'],
  },
  loan_late: {
    title: (d) => `Loan ${text(d.loan_id)} is late`,
    description: () => 'The marketplace moved it to the collection list.',
    severity: 'warning',
    said: ['loan_id'],
  },
  loan_defaulted: { title: (d) => `Loan ${text(d.loan_id)} defaulted`, severity: 'bad', said: ['loan_id'] },
  payment_late: { title: (d) => `Payment late on loan ${text(d.loan_id)}`, severity: 'warning', said: ['loan_id'] },
  payment_missed: { title: (d) => `Payment missed on loan ${text(d.loan_id)}`, severity: 'bad', said: ['loan_id'] },
  daily_summary: { title: () => 'Daily summary', severity: 'info' },
  daemon_error: { title: () => 'lendbot hit an unexpected error', description: sentence('message'), severity: 'bad', said: ['message'] },
  budget_nearly_spent: {
    title: (d) => `Data budget nearly spent by strategy ${text(d.strategy)}`,
    description: (d) =>
      typeof d.spent_cents === 'number' && typeof d.monthly_budget_cents === 'number' && d.monthly_budget_cents > 0
        ? `${dollars(d.spent_cents)} of ${dollars(d.monthly_budget_cents)} spent this month (${Math.round((100 * d.spent_cents) / d.monthly_budget_cents)} %).`
        : undefined,
    severity: 'warning',
    said: ['strategy'],
  },
  service_degraded: {
    title: () => 'The marketplace refuses lendbot’s calls',
    description: sentence('reason'),
    severity: 'bad',
    said: ['reason'],
  },
  protection_paused: {
    title: (d) => `New offers paused (${text(d.kind)})`,
    description: sentence('reason'),
    severity: 'warning',
    said: ['kind', 'reason'],
  },
  protection_lifted: {
    title: (d) => `New offers resumed (${text(d.kind)} pause lifted)`,
    description: sentence('why'),
    severity: 'good',
    said: ['kind', 'why'],
  },
  webhooks_silent: { title: () => 'No webhooks are arriving', description: sentence('message'), severity: 'warning', said: ['message'] },
  webhooks_refused: {
    title: () => 'Signed webhooks are being refused',
    description: sentence('message'),
    severity: 'warning',
    said: ['message'],
  },
  calibration_drift: {
    title: () => 'Loans default more often than predicted',
    description: sentence('message'),
    severity: 'bad',
    said: ['message'],
  },
  digest: {
    title: (d) =>
      `${d.period === 'week' ? 'Weekly' : 'Daily'} digest: ${typeof d.net_earned_cents === 'number' ? dollars(d.net_earned_cents) : '?'} net earned`,
    description: (d) =>
      typeof d.from === 'string' && typeof d.until === 'string'
        ? `${d.period === 'week' ? 'The week' : 'The day'} from ${utcTime(d.from)} to ${utcTime(d.until)} by the run's clock; idle cash and next month's inflow as of now.`
        : undefined,
    severity: 'info',
    said: ['period', 'from', 'until'],
  },
  idle_cash: { title: () => 'Cash has been idle for a while', description: sentence('message'), severity: 'warning', said: ['message'] },
};

/** The event in plain words: every data key not said in the title or sentence becomes a field. */
export function describeNotification(event: NotificationEvent, data: Data, at: string): NotificationMessage {
  const wording = WORDING[event];
  const said = new Set(wording.said ?? []);
  const fields: NotificationField[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (said.has(key)) continue;
    const rendered = renderValue(key, value);
    if (rendered !== undefined) fields.push({ label: labelOf(key), value: rendered });
  }
  const description = wording.description?.(data);
  return {
    event,
    at,
    title: wording.title(data),
    ...(description === undefined ? {} : { description }),
    fields,
    severity: wording.severity,
  };
}

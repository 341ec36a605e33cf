/**
 * Finds what is worth telling the investor by reading the store the daemon writes, so no part of
 * the daemon has to know notifications exist: offers placed and funded, agents' offers waiting
 * for a person's approval (proposal-notifications.ts), loans moved to the collection (late) or
 * default list, payments newly late or missed (payment-notifications.ts),
 * a strategy's data spend this month crossing a share of its own budget, and one summary per UTC day. A cursor in the state table (offers' updated_at) means a restart
 * neither repeats nor skips offer notifications; loan moves and budget warnings are compared
 * with what this process saw last, so the first check after a start only takes a baseline.
 */
import type { Clock } from '../clock/clock.js';
import { isoFromMs, utcDayBounds, type Store } from '../store/index.js';
import type { SendResult } from './notifier.js';
import type { NotificationEvent } from '../domain/index.js';
import { notifyFlaggedPayments } from './payment-notifications.js';
import { notifyProposals } from './proposal-notifications.js';
import type { StatusReport } from '../ops/status-report.js';
import { refusalWarningText, storedRefusalWarning } from '../webhook/refusal-warning.js';

export const NOTIFY_CURSOR_KEY = 'notify_offers_cursor';
const NOTIFY_SUMMARY_KEY = 'notify_summary_day';
/** The start of the last refused-webhooks warning notified, so each warning is told once, restarts included. */
const NOTIFY_REFUSALS_KEY = 'notify_webhook_refusals_since';

export interface NotificationSink {
  notify(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult>;
  /** Answers once delivered where `notify` only queues (a chat's outbox, chat-pace/chat-outbox.ts). */
  notifyDelivered?(event: NotificationEvent, data: Record<string, unknown>): Promise<SendResult>;
}

export interface WatcherDeps {
  store: Store;
  clock: Clock;
  notifier: NotificationSink;
  /** The status report now (for the daily summary and budgets). */
  status: () => StatusReport;
  /** Share of a monthly data budget that triggers budget_nearly_spent (default 0.8). */
  budgetWarningShare?: number;
}

export class NotificationWatcher {
  private loanLists: Map<number, string> | undefined;
  private readonly budgetsWarned = new Set<string>();

  constructor(private readonly deps: WatcherDeps) {}

  /** Sends every notification due now; returns how many were sent (or queued for a chat). */
  async check(): Promise<number> {
    const { store, clock, notifier } = this.deps;
    let sent = 0;
    const send = async (event: NotificationEvent, data: Record<string, unknown>): Promise<void> => {
      // A chat's outbox queues at once ('queued'): the offers of one check go as one message (chat-pace/).
      const result = await notifier.notify(event, data);
      if (result === 'sent' || result === 'queued') sent += 1;
    };

    const cursor = store.state.get(NOTIFY_CURSOR_KEY) ?? isoFromMs(clock.now());
    const offers = store.offers.changedSince(cursor, 500);
    for (const offer of offers) {
      const data = {
        loan_request_id: offer.loanRequestId,
        rate: offer.rate,
        total_amount_cents: offer.totalAmountCents,
        risk_level: offer.riskLevel,
      };
      await send(offer.state === 'funded' ? 'offer_funded' : 'offer_placed', data);
    }
    store.state.set(NOTIFY_CURSOR_KEY, offers.at(-1)?.updatedAt ?? cursor, clock.now());

    const lists = store.account.loanLists();
    if (this.loanLists !== undefined) {
      for (const [id, list] of lists) {
        if (list === this.loanLists.get(id)) continue;
        if (list === 'collection') await send('loan_late', { loan_id: id });
        if (list === 'default') await send('loan_defaulted', { loan_id: id });
      }
    }
    this.loanLists = lists;

    await notifyFlaggedPayments(store, clock, send);
    await notifyProposals(store, clock, send);

    const status = this.deps.status();
    const share = this.deps.budgetWarningShare ?? 0.8;
    for (const budget of status.dataSpend.budgets) {
      const key = `${status.dataSpend.monthStart}:${budget.strategy}`;
      if (budget.monthlyBudgetCents <= 0 || this.budgetsWarned.has(key)) continue;
      // Each strategy's own spend, as the decide step checks it: one strategy's subscription does
      // not warn about another's budget.
      if (budget.spentCents >= share * budget.monthlyBudgetCents) {
        this.budgetsWarned.add(key);
        await send('budget_nearly_spent', {
          strategy: budget.strategy,
          spent_cents: budget.spentCents,
          monthly_budget_cents: budget.monthlyBudgetCents,
        });
      }
    }

    const today = isoFromMs(utcDayBounds(clock.now()).startMs).slice(0, 10);
    const lastSummary = store.state.get(NOTIFY_SUMMARY_KEY);
    if (lastSummary === undefined) store.state.set(NOTIFY_SUMMARY_KEY, today, clock.now());
    else if (lastSummary !== today) {
      store.state.set(NOTIFY_SUMMARY_KEY, today, clock.now());
      await send('daily_summary', {
        balance_cents: status.balanceCents,
        reserved_cents: status.reservedCents,
        free_cents: status.freeCents,
        exposure_cents: status.exposure.totalCents,
        loans_by_status: status.loansByStatus,
        data_spend_cents: status.dataSpend.spentCents,
      });
    }

    await this.refusalWarning(send);
    return sent;
  }

  /** One webhooks_refused per warning the listener raised (src/webhook/refusal-warning.ts). */
  private async refusalWarning(send: (event: NotificationEvent, data: Record<string, unknown>) => Promise<void>): Promise<void> {
    const { store, clock } = this.deps;
    const warning = storedRefusalWarning(store.state);
    if (warning === undefined || store.state.get(NOTIFY_REFUSALS_KEY) === String(warning.sinceMs)) return;
    store.state.set(NOTIFY_REFUSALS_KEY, String(warning.sinceMs), clock.now());
    await send('webhooks_refused', {
      refused: warning.refused,
      since: isoFromMs(warning.sinceMs),
      last_code: warning.lastCode,
      last_message: warning.lastMessage,
      token_layout: warning.layout,
      message: refusalWarningText(warning),
    });
  }
}

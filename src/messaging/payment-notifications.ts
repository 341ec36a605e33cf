/**
 * Tells each payment the account sync newly saw late or missed, once: the payments table numbers
 * every raised flag (`flag_seq`), and a cursor in the state table keeps the last one told, so
 * neither the next check nor a restart tells it again. The first check on a database only takes a
 * baseline: flags raised before notifications were set up are not told.
 */
import type { Clock } from '../clock/clock.js';
import { amountToCents, type NotificationEvent } from '../domain/index.js';
import { paymentFacts, type FlaggedPayment, type Store } from '../store/index.js';

const NOTIFY_PAYMENTS_CURSOR_KEY = 'notify_payments_cursor';

/** At most this many payment notifications per check; the rest follow at the next check. */
const PER_CHECK = 200;

export async function notifyFlaggedPayments(
  store: Store,
  clock: Clock,
  send: (event: NotificationEvent, data: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const stored = store.state.get(NOTIFY_PAYMENTS_CURSOR_KEY);
  if (stored === undefined) {
    store.state.set(NOTIFY_PAYMENTS_CURSOR_KEY, String(store.payments.lastFlagSeq()), clock.now());
    return;
  }
  for (const flagged of store.payments.flaggedAfter(Number(stored), PER_CHECK)) {
    await send(flagged.flag === 'missed' ? 'payment_missed' : 'payment_late', paymentNotice(flagged));
    // Moved after each one: a crash in the middle repeats at most one notification.
    store.state.set(NOTIFY_PAYMENTS_CURSOR_KEY, String(flagged.seq), clock.now());
  }
}

function paymentNotice({ payment }: FlaggedPayment): Record<string, unknown> {
  const facts = paymentFacts(payment);
  return {
    loan_id: payment.loan,
    payment_id: payment.id,
    due_date: payment.payment_due_date,
    status: payment.payment_status,
    amount_cents: amountToCents(payment.payment_amount),
    delayed_days: facts.delayedDays,
    fees_cents: facts.feesCents,
  };
}

// The account sync reads the payments of the investor's loans from a real sandbox as simulated
// time moves them due (on time, late, missed), keeps them once, tells each late or missed one once
// to a real local receiver, and `lendbot status` and `lendbot record export` show them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSync } from '../../src/daemon/account-sync.js';
import { PaymentSync } from '../../src/daemon/payment-sync.js';
import { NotificationWatcher } from '../../src/messaging/notification-watcher.js';
import { WebhookNotifier } from '../../src/messaging/notifier.js';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { amountToCents, dollarsToCents, loanSchema, type LoanPayment, type LoanRequest } from '../../src/domain/index.js';
import { databaseOf } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { captureLog } from '../log/log-capture.js';
import { startNotificationReceiver, type NotificationReceiver } from '../messaging/notification-receiver.js';
import { DAY, HOUR, startFixture, type Fixture } from '../sandbox/sandbox-fixture.js';
import { tempStore } from '../store/fixtures.js';

let fx: Fixture;
let h: ReturnType<typeof tempStore>;
let receiver: NotificationReceiver;
const { log } = captureLog('debug');
/** Loan request ids by role: paid 5 days late in month 2, missed in month 2, always on time. */
const requests: Record<'late' | 'missed' | 'onTime', LoanRequest> = {} as never;
const loanIds: Record<keyof typeof requests, number> = { late: 0, missed: 0, onTime: 0 };

function sync(store = h.store, paymentLoansPerSync?: number): AccountSync {
  return new AccountSync({
    client: fx.client,
    store,
    clock: fx.sandbox.clock,
    log,
    ...(paymentLoansPerSync === undefined ? {} : { paymentLoansPerSync }),
  });
}

function watcher(): NotificationWatcher {
  const clock = fx.sandbox.clock;
  return new NotificationWatcher({
    store: h.store,
    clock,
    notifier: new WebhookNotifier({ url: receiver.url, clock, log, retryDelayMs: 1 }),
    status: () => buildStatusReport({ store: h.store, nowMs: clock.now(), limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false }),
  });
}

const paymentEvents = (): Array<{ event: string; data: Record<string, unknown> }> =>
  receiver.received.filter((body) => body.event.startsWith('payment_'));

beforeAll(async () => {
  fx = await startFixture({ initialBalanceCents: 2_000_000 });
  h = tempStore();
  receiver = await startNotificationReceiver();
  const { control } = fx.sandbox;
  const fates = {
    late: { repayProbability: 1, missedMonth: null, lateDays: [0, 5, 0] },
    missed: { repayProbability: 0, missedMonth: 2, lateDays: [] },
    onTime: { repayProbability: 1, missedMonth: null, lateDays: [] },
  };
  for (const [role, fate] of Object.entries(fates) as Array<[keyof typeof requests, (typeof fates)['late']]>) {
    const request = control.createLoanRequest({
      competitorOffers: 0,
      decisionDelayMs: HOUR,
      loanTerms: 3,
      loanAmountCents: 100_000,
      ...fate,
    });
    requests[role] = request;
    h.store.requests.markSeen(request, 'poll', fx.sandbox.clock.now());
    await fx.client.makeOffer(request.id, { offeredInterest: 0.24, automateFund: true });
  }
  control.advance(2 * HOUR);
});
afterAll(async () => {
  h.cleanup();
  await receiver.close();
  await fx.close();
});

describe('payments sync against the sandbox', () => {
  it('reads the funded loans a bounded number per sync, never-read loans first', async () => {
    const bounded = tempStore();
    try {
      const counts: number[] = [];
      for (let i = 0; i < 4; i += 1) counts.push((await sync(bounded.store, 1).sync()).payments.loansRead);
      expect(counts).toEqual([1, 1, 1, 0]);
      const reads = databaseOf(bounded.store).prepare<[], { n: number }>('SELECT COUNT(DISTINCT loan_id) AS n FROM payment_reads').get();
      expect(reads?.n).toBe(3);
    } finally {
      bounded.cleanup();
    }
  });

  it('stops at an outage and skips for a day a loan the service does not know, without holding the others up', async () => {
    const other = tempStore();
    try {
      const captured = captureLog('info');
      const payments = new PaymentSync({ client: fx.client, store: other.store, clock: fx.sandbox.clock, log: captured.log });
      // A loan the service no longer knows (its payments answer 404), listed first as never read.
      other.store.account.upsertLoans(
        [loanSchema.parse({ id: 7, loan_amount: 500, interest_rate: 0.2, status: 'funded' })],
        'current',
        fx.sandbox.clock.now(),
      );
      await sync(other.store).sync();
      fx.sandbox.control.setFaults({ errorRate: 1 });
      other.store.account.upsertLoans(
        [loanSchema.parse({ id: 8, loan_amount: 500, interest_rate: 0.2, status: 'funded' })],
        'current',
        fx.sandbox.clock.now(),
      );
      expect(await payments.sync()).toEqual({ loansRead: 0, inserted: 0, updated: 0, newlyFlagged: 0 });
      expect(captured.lines.map((line) => [line.msg, line.loanId])).toEqual([['payments not read; the next sync tries again', 8]]);
      fx.sandbox.control.setFaults({ errorRate: 0 });
      expect(await payments.sync()).toEqual({ loansRead: 0, inserted: 0, updated: 0, newlyFlagged: 0 });
      expect(captured.lines.at(-1)).toMatchObject({ msg: 'payments of a loan not read; tried again in a day', loanId: 8 });
      // Loan 7 was skipped the same way by the first sync; the sandbox's own loans were read.
      expect(other.store.payments.dueForRead(fx.sandbox.clock.now(), 10)).toEqual([]);
      expect(other.store.payments.dueForRead(fx.sandbox.clock.now() + DAY, 10).map((loan) => loan.loanId)).toEqual(
        expect.arrayContaining([7, 8]),
      );
    } finally {
      other.cleanup();
    }
  });

  it('stores each payment once as time makes them due, and tells a late or missed one once', async () => {
    const { control } = fx.sandbox;
    const first = await sync().sync();
    expect(first.loans).toBe(3);
    expect(first.payments).toEqual({ loansRead: 3, inserted: 0, updated: 0, newlyFlagged: 0 });
    for (const loan of h.store.account.loans()) {
      const role = (Object.keys(requests) as Array<keyof typeof requests>).find((key) => requests[key].id === loan.loanRequestId);
      if (role) loanIds[role] = loan.id;
    }
    expect(Object.values(loanIds).every((id) => id > 0)).toBe(true);
    // The first check of the notifications takes a baseline.
    await watcher().check();

    // Month 1: every loan pays on time.
    control.advance(32 * DAY);
    expect((await sync().sync()).payments).toEqual({ loansRead: 3, inserted: 3, updated: 0, newlyFlagged: 0 });
    // A day later each loan is read again (once a day at least) and nothing is new.
    control.advance(DAY);
    expect((await sync().sync()).payments).toEqual({ loansRead: 3, inserted: 0, updated: 0, newlyFlagged: 0 });
    expect(count('SELECT COUNT(*) AS n FROM payments')).toBe(3);

    // Month 2: one payment late (unpaid for 5 days), one missed (the loan moves to collection).
    const nextDue = h.store.account.loans().find((loan) => loan.id === loanIds.late)?.loan.next_payment_date;
    control.setTime(new Date(Date.parse(String(nextDue).replace(' ', 'T')) + HOUR).toISOString());
    expect((await sync().sync()).payments).toMatchObject({ loansRead: 3, inserted: 3, newlyFlagged: 2 });
    await watcher().check();
    // The loan that moved (to collection) is read first.
    expect(paymentEvents().map((body) => [body.event, body.data.loan_id])).toEqual([
      ['payment_missed', loanIds.missed],
      ['payment_late', loanIds.late],
    ]);
    const late = (await fx.client.listLoanPayments(loanIds.late)).items.find((p) => p.payment_status !== 'paid');
    expect(paymentEvents()[1]?.data).toEqual({
      loan_id: loanIds.late,
      payment_id: late?.id,
      due_date: late?.payment_due_date,
      status: late?.payment_status,
      amount_cents: amountToCents(late?.payment_amount ?? 0),
      delayed_days: 5,
      fees_cents: dollarsToCents(late?.late_payment_fees_amount ?? 0),
    });

    // Still late an hour later, then paid: read again, never told again, not even after a restart.
    control.advance(2 * HOUR);
    expect((await sync().sync()).payments).toMatchObject({ inserted: 0, newlyFlagged: 0 });
    await watcher().check();
    control.advance(6 * DAY);
    const paidLate = await sync().sync();
    expect(paidLate.payments).toMatchObject({ inserted: 0, newlyFlagged: 0 });
    expect(paidLate.payments.updated).toBeGreaterThanOrEqual(1);
    await watcher().check();
    await watcher().check();
    expect(paymentEvents()).toHaveLength(2);
    expect(count('SELECT COUNT(*) AS n FROM payments')).toBe(6);
    expect(h.store.payments.forLoan(loanIds.late).map((p) => p.payment_status)).toEqual(['paid', 'paid']);
  });

  it('keeps what the payments say about each loan', async () => {
    const fee = (await apiPayments(loanIds.late)).reduce((sum, p) => sum + dollarsToCents(p.late_payment_fees_amount ?? 0), 0);
    expect(fee).toBeGreaterThan(0);
    expect(h.store.payments.stateOfLoan(loanIds.late)).toMatchObject({
      payments: 2,
      paid: 2,
      late: 1,
      missed: 0,
      maxDelayedDays: 5,
      feesCents: fee,
    });
    expect(h.store.payments.stateOfLoan(loanIds.missed)).toMatchObject({ payments: 2, paid: 1, late: 0, missed: 1, feesCents: 0 });
    expect(h.store.payments.stateOfLoan(loanIds.onTime)).toMatchObject({ payments: 2, paid: 2, late: 0, missed: 0, maxDelayedDays: 0 });
    // The same figures in SQL, for anyone reading the file.
    const row = databaseOf(h.store)
      .prepare('SELECT late, missed, max_delayed_days, fees_cents FROM loan_payment_states WHERE loan_id = ?')
      .get(loanIds.late);
    expect(row).toEqual({ late: 1, missed: 0, max_delayed_days: 5, fees_cents: fee });
  });

  it('shows the payments in `lendbot status` and in `lendbot record export`', async () => {
    const all = [...(await apiPayments(loanIds.late)), ...(await apiPayments(loanIds.missed)), ...(await apiPayments(loanIds.onTime))];
    const paid = all.filter((p) => p.payment_status === 'paid');
    const paidCents = paid.reduce((sum, p) => sum + amountToCents(p.payment_amount), 0);
    const fees = all.reduce((sum, p) => sum + dollarsToCents(p.late_payment_fees_amount ?? 0), 0);
    const dollars = (cents: number): string => (cents / 100).toFixed(2);
    h.store.close();
    const config = join(h.path, '..', 'lendbot.yaml');
    writeFileSync(config, `strategies: [${resolve('strategies/balanced.yaml')}]\n`);

    const text = await runCli(['status', '--db', h.path, '--config', config]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `\npayments           ${paid.length} paid (${dollars(paidCents)}), 1 late (up to 5 days), 1 missed, late fees charged ${dollars(fees)}\n`,
    );
    const json = await runCli(['status', '--db', h.path, '--config', config, '--json']);
    expect((JSON.parse(json.stdout) as { payments: unknown }).payments).toEqual({
      loans: 3,
      payments: 6,
      paid: 5,
      paid_cents: paidCents,
      late: 1,
      missed: 1,
      max_delayed_days: 5,
      late_fees_charged_cents: fees,
    });

    const out = join(h.path, '..', 'recording.jsonl');
    const exported = await runCli(['record', 'export', '--db', h.path, '--out', out]);
    expect(exported.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            loan_request: { id: number };
            outcome?: { status: string; payments?: LoanPayment[]; missed_month?: number };
          },
      );
    const byRequest = new Map(lines.map((line) => [line.loan_request.id, line.outcome]));
    const missed = byRequest.get(requests.missed.id);
    expect(missed?.status).toBe('collection');
    expect(missed?.payments?.map((p) => p.payment_status)).toEqual(['paid', 'Missed Payment']);
    // The instalment it missed, so a backtest of the export writes it off there.
    expect(missed?.missed_month).toBe(2);
    expect(byRequest.get(requests.late.id)?.missed_month).toBeUndefined();
    expect(byRequest.get(requests.late.id)?.payments).toEqual(await apiPayments(loanIds.late));
  });
});

function count(sql: string): number {
  return databaseOf(h.store).prepare<[], { n: number }>(sql).get()?.n ?? -1;
}

async function apiPayments(loanId: number): Promise<LoanPayment[]> {
  const { items, issues } = await fx.client.listLoanPayments(loanId);
  expect(issues).toEqual([]);
  return items;
}

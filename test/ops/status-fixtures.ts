// A store filled the way a long-running daemon leaves it: decisions, offers in every state,
// loans in each list, data purchases, a transfer history, a poll time and waiting webhook events.
// The tests use a small one; bench/status.ts the same data with a million decisions.
import { databaseOf, type Store } from '../../src/store/index.js';

export interface SeedOptions {
  /** Decisions spread over the days before `nowMs`, the last 24 of them today. */
  decisions: number;
  nowMs: number;
}

const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Fills `store`; every figure of the status report follows from these rows (see status.test.ts). */
export function seedStatusData(store: Store, { decisions, nowMs }: SeedOptions): void {
  const db = databaseOf(store);
  db.transaction(() => {
    const decision = db.prepare(
      `INSERT INTO decisions (loan_request_id, strategy, content_hash, action, reasons_json, dry_run, decided_at, rate)
       VALUES (?, 'balanced', 'abc123', ?, '["bench"]', 0, ?, 0.2)`,
    );
    // The last 6 fall in the first minutes of today (UTC); the rest every 30 s before midnight.
    const todayStart = nowMs - (nowMs % (24 * HOUR));
    for (let i = 0; i < decisions; i += 1) {
      const recent = i >= decisions - 6;
      const at = recent ? todayStart + (i - decisions + 6) * 60_000 : todayStart - (decisions - i) * 30_000;
      decision.run(i + 1, i % 3 === 0 ? 'offer' : 'skip', iso(at));
    }

    const offer = db.prepare(
      `INSERT INTO offers (loan_request_id, rate, automate_fund, total_amount_cents, risk_level, borrower_id, state,
         created_at, updated_at, dry_run) VALUES (?, 0.2, 1, ?, ?, ?, ?, ?, ?, 0)`,
    );
    // Old offers, long settled: every third decision offered, most expired or funded long ago.
    const old = Math.floor(decisions / 3);
    for (let i = 0; i < old; i += 1) {
      const at = iso(todayStart - 30 * 24 * HOUR - i * 1000);
      offer.run(1_000_000_000 + i, 52_000, i % 3, 9000 + i, i % 2 === 0 ? 'expired' : 'rejected', at, at);
    }
    // Today: two placed (reserve money), one refused (counts for nothing).
    offer.run(2_000_000_001, 52_000, 1, 501, 'placed', iso(todayStart + 60_000), iso(todayStart + 60_000));
    offer.run(2_000_000_002, 31_000, 2, 502, 'placed', iso(todayStart + 120_000), iso(todayStart + 120_000));
    offer.run(2_000_000_003, 99_000, 0, 503, 'refused', iso(todayStart + 180_000), iso(todayStart + 180_000));

    const loan = db.prepare(
      `INSERT INTO loans (id, loan_request_id, list_status, status, risk_level, loan_amount_cents, remaining_cents,
         interest_rate, paid_off, raw_json, synced_at) VALUES (?, NULL, ?, ?, ?, 50000, ?, 0.2, ?, '{}', ?)`,
    );
    loan.run(1, 'current', 'Current', 0, 40_000, 0, iso(nowMs));
    loan.run(2, 'current', 'Current', 1, 25_000, 0, iso(nowMs));
    loan.run(3, 'completed', 'Completed', 1, 0, 1, iso(nowMs));
    loan.run(4, 'collection', 'Late', 2, 45_000, 0, iso(nowMs));

    const purchase = db.prepare(
      `INSERT INTO purchases (loan_request_id, kind, provider, strategy, cost_cents, bought_at, ok) VALUES (?, 'provider', 'acme', 'balanced', ?, ?, 1)`,
    );
    purchase.run(1, 250, iso(nowMs - HOUR));
    purchase.run(2, 150, iso(nowMs - 2 * HOUR));
    purchase.run(3, 999, iso(nowMs - 62 * 24 * HOUR)); // two months ago: not this month

    store.state.set('last_poll_at', iso(nowMs - 90_000), nowMs);
    for (const uuid of ['a', 'b']) {
      store.inbox.insert({ webhookUuid: uuid, topic: 'new_loan_request_created', data: { loan_request_id: 7 }, receivedAtMs: nowMs });
    }
  })();
  const transfer = (status: string, type: string, amount: string) => ({
    transfer_status: status,
    transfer_type: type,
    transfer_amount: amount,
  });
  store.account.replaceTransfers(
    [
      { date: '2026-01-01', transactions: [transfer('processed', 'Deposit', '5000.00')] },
      {
        date: '2026-01-02',
        transactions: [transfer('processed', 'Loan Funding', '-1500.00'), transfer('pending', 'Loan Funding', '-200.00')],
      },
    ],
    nowMs,
  );
}

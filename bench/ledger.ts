// The loan ledger and equity on a large account, on a real temp SQLite file: N loans of 12
// monthly payments each, all paid but a few late, their transfers and payments synced. Prints
// figures; nothing asserts on them.
// Run: npx tsx bench/ledger.ts [loans]   (default 2,000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LOSS_RATES } from '../src/money/equity.js';
import { equityNowKept } from '../src/money/equity-cache.js';
import { equityNow, ledgerInputFromStore } from '../src/money/equity-now.js';
import { ledgerMonths, reconcileLedger } from '../src/money/ledger-export.js';
import { buildLoanLedger } from '../src/money/loan-ledger.js';
import { paymentSchedule } from '../src/sandbox/amortization.js';
import type { Loan, LoanPayment, Transfer, TransferDayGroup } from '../src/domain/index.js';
import { openStore } from '../src/store/index.js';
import { time } from './bench-timing.js';

const loans = Number(process.argv[2] ?? 2_000);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-ledger-'));
const DAY_MS = 86_400_000;
const startMs = Date.parse('2025-01-01T00:00:00Z');
const nowMs = startMs + 400 * DAY_MS;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const dollars = (cents: number): string => (cents / 100).toFixed(2);

try {
  const store = openStore(join(dir, 'bench.db'));
  const byDay = new Map<string, Transfer[]>();
  const push = (ms: number, transfer: Transfer): void => {
    byDay.set(day(ms), [transfer, ...(byDay.get(day(ms)) ?? [])]);
  };
  time(`seed ${loans.toLocaleString()} loans, ${(loans * 12).toLocaleString()} payments`, () => {
    const loanRows: Loan[] = [];
    const payments: LoanPayment[] = [];
    for (let i = 0; i < loans; i += 1) {
      const id = 10_000 + i;
      const fundedMs = startMs + (i % 360) * DAY_MS;
      const principal = 50_000 + (i % 50) * 1_000;
      const rate = 0.1 + (i % 20) / 100;
      loanRows.push({
        id,
        loan_amount: principal / 100,
        interest_rate: rate,
        status: 'funded',
        loan_request_id: 90_000 + i,
        payment_terms: 12,
      });
      push(fundedMs, { transfer_status: 'processed', transfer_type: 'Fund Loans', transfer_amount: dollars(-principal), loan_id: id });
      paymentSchedule(principal, rate, 12).forEach((amount, month) => {
        const dueMs = fundedMs + (month + 1) * 30 * DAY_MS;
        const late = i % 17 === 0 && month === 3 ? 9 : 0;
        const paid = dueMs + late * DAY_MS <= nowMs;
        payments.push({
          id: id * 100 + month,
          loan: id,
          payment_amount: dollars(amount),
          payment_due_date: day(dueMs),
          payment_status: paid ? 'paid' : 'pending',
          payment_status_changed: new Date(dueMs + late * DAY_MS).toISOString(),
          delayed_days_count: late,
        });
        if (paid)
          push(dueMs + late * DAY_MS, {
            transfer_status: 'processed',
            transfer_type: 'Monthly Payments',
            transfer_amount: dollars(amount),
            loan_id: id,
          });
      });
    }
    store.account.upsertLoans(loanRows, 'current', nowMs);
    store.payments.upsert(payments, nowMs, { news: false });
    const groups: TransferDayGroup[] = [...byDay]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([date, transactions]) => ({ date, transactions }));
    store.account.replaceTransfers(groups, nowMs);
  });
  console.log(`transfers ${[...byDay.values()].reduce((n, list) => n + list.length, 0).toLocaleString()}`);
  const clock = { now: () => nowMs };
  const input = time('read the ledger input from the store', () => ledgerInputFromStore(store, nowMs));
  const ledger = time('build the loan ledger', () => buildLoanLedger(input));
  const rows = time('sum per loan and month', () => ledgerMonths(ledger.entries));
  time('reconcile with the transfer history', () => reconcileLedger(rows, input.transfers));
  for (let run = 1; run <= 3; run += 1) time(`equityNow (the status line, get_balance) run ${run}`, () => equityNow(store, clock));
  // What a dashboard refresh or metrics scrape pays between syncs (equity-cache.ts).
  for (let run = 1; run <= 3; run += 1)
    time(`equity kept between syncs, call ${run}`, () => equityNowKept(store, nowMs, DEFAULT_LOSS_RATES));
  console.log(
    `ledger entries ${ledger.entries.length.toLocaleString()}, export rows ${rows.length.toLocaleString()}, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The cash-flow forecast and idle cash (the status block, GET /api/cash-flow) on a book of many
// open loans, each with its funding decision and paid instalments, on a real temp file.
// Prints figures; nothing asserts on them.
// Run: npx tsx bench/cash-flow.ts [loans]   (default 2,000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cashFlowStatus } from '../src/money/cash-flow-status.js';
import { cashFlowAnswer } from '../src/cash-flow/cash-flow-view.js';
import { DEFAULT_RISK_LIMITS } from '../src/risk/index.js';
import { loanPaymentSchema, loanSchema } from '../src/domain/index.js';
import { openStore } from '../src/store/index.js';
import { meanTime, time } from './bench-timing.js';

const loans = Number(process.argv[2] ?? 2_000);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-cash-flow-'));
const nowMs = Date.parse('2026-06-15T12:00:00.000Z');

try {
  const store = openStore(join(dir, 'bench.db'));
  time(`seed ${loans.toLocaleString()} loans with decisions and payments`, () => {
    const batch = [];
    for (let i = 1; i <= loans; i += 1) {
      batch.push(
        loanSchema.parse({
          id: i,
          loan_request_id: 100_000 + i,
          loan_amount: 500 + (i % 7) * 100,
          interest_rate: 0.1 + (i % 10) / 50,
          payment_terms: 12,
          status: 'Current',
          next_payment_date: '2026-07-01T00:00:00Z',
        }),
      );
      store.decisions.record({
        loanRequestId: 100_000 + i,
        action: 'offer',
        reasons: [],
        dryRun: false,
        decidedAtMs: nowMs - 90 * 86_400_000,
        probability: 0.8 + (i % 20) / 100,
      });
      const paid = Array.from({ length: i % 6 }, (_, k) =>
        loanPaymentSchema.parse({
          id: i * 100 + k,
          loan: i,
          payment_amount: '50.00',
          payment_due_date: `2026-0${k + 1}-01`,
          payment_status: 'Paid',
        }),
      );
      store.payments.upsert(paid, nowMs);
    }
    store.account.upsertLoans(batch, 'current', nowMs);
  });
  time('status block, first', () => cashFlowStatus(store, nowMs, DEFAULT_RISK_LIMITS, false));
  meanTime('status block', 10, () => cashFlowStatus(store, nowMs, DEFAULT_RISK_LIMITS, false));
  meanTime('GET /api/cash-flow answer', 10, () => cashFlowAnswer(store, nowMs, DEFAULT_RISK_LIMITS, false));
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

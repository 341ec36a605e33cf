// The guard's store figures (reservations, exposure, today's totals) as the daemon reads them
// before every offer, from the open-offer book, against the SQL recount they replaced, at a
// growing number of open offers. As in the daemon, one offer is written (intent, then placed)
// before each read, so the book always has a changed row to take in.
//
// The offers written while reading stay open too (with 300 reads, 600 more by the end of a size).
//
// Run: node --import tsx bench/guard-figures.ts [--reads 300] [--sizes 0,1000,3000,10000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loanRequestSchema, offerSchema, type LoanRequest } from '../src/domain/index.js';
import { databaseOf, openStore, type Store } from '../src/store/index.js';
import { openOfferBookOf, type GuardFigures } from '../src/store/open-offer-book.js';

const { values } = parseArgs({
  options: { reads: { type: 'string', default: '300' }, sizes: { type: 'string', default: '0,1000,3000,10000' } },
});
const reads = Number(values.reads);
const sizes = values.sizes.split(',').map(Number);
const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const EXPIRY = 72 * HOUR;

function request(id: number): LoanRequest {
  return loanRequestSchema.parse({
    id,
    borrower: {
      id: 1 + (id % 300),
      avatar: 1,
      initial: 'J.D.',
      svc_score: 640,
      credit_score: '650-700',
      svc_color: id % 4,
      hard_inquiries: 1,
      deregatory_mark: 0,
      total_accounts: 7,
      credit_utilization: 0.3,
      annual_income: 52000,
      payment_history: 98,
      completed_loans_count: 2,
    },
    borrower_card_color: id % 4,
    loan_amount: '500.00',
    loan_terms: 6,
    total_amount: '520.00',
    total_fees: '20.00',
    fee_legislative: '5.00',
    fee_extra: '5.00',
    fee_svc: '10.00',
    created: '2026-03-10T00:00:00Z',
    fav_loan_request_id: null,
    svc_prediction_purchased: false,
    count_views: 4,
    census_tract_geo_id: '06075010100',
    max_interest_rate: 0.6,
    borrower_data_aggs: { avg_credit: 2100.5, avg_debit: 1900.25, sum_values: [{ CREDIT: 6300, DEBIT: 5700 }] },
  });
}

let nextId = 1;
function offer(store: Store, atMs: number): void {
  const id = nextId++;
  const intent = store.offers.createIntent({ request: request(id), rate: 0.3, automateFund: true, dryRun: false, atMs });
  if (intent.created)
    store.offers.markPlaced(intent.offer.id, offerSchema.parse({ id: 100_000 + id, offered_interest: 0.3, offer_status: 'pending' }), atMs);
}

/** What snapshotFromStore asks, in the order it asks it. */
function readFigures(figures: GuardFigures, nowMs: number): void {
  const scope = { nowMs, expiryMs: EXPIRY };
  figures.exposure(scope);
  figures.daily(scope);
  figures.reserved({ ...scope, includeManual: true });
}

const median = (times: number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-guard-'));
const store = openStore(join(dir, 'lendbot.db'));
const book = openOfferBookOf(databaseOf(store));
console.log(`ms per guard read (exposure, today, reserved), median of ${reads}, one new offer before each read`);
try {
  for (const size of sizes) {
    while (nextId - 1 < size) offer(store, T0 + nextId);
    const open = nextId - 1;
    const nowMs = T0 + 10 * HOUR;
    const times = { sql: [] as number[], book: [] as number[] };
    for (let i = 0; i < reads; i++) {
      // Alternate, so both see the same store and the same machine load.
      for (const [name, figures] of [
        ['sql', book.recount],
        ['book', book],
      ] as const) {
        offer(store, nowMs);
        const started = performance.now();
        readFigures(figures, nowMs);
        times[name].push(performance.now() - started);
      }
    }
    const sql = median(times.sql);
    const fromBook = median(times.book);
    console.log(
      `open offers ${String(open).padStart(5)}   SQL recount ${sql.toFixed(3)}   book ${fromBook.toFixed(3)}   ratio book/SQL ${(fromBook / sql).toFixed(2)}`,
    );
  }
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}

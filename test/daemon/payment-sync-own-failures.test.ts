/**
 * A loan whose payments answer is redirected elsewhere or too large is that loan's problem: it is
 * skipped for a day and the other loans' payments are still read (issue 24, items 5 and 11, as
 * the payment sync meets them), instead of stopping the whole sync at it every time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentSync } from '../../src/daemon/payment-sync.js';
import { loanSchema } from '../../src/domain/index.js';
import { DEFAULT_RESPONSE_LIMITS } from '../../src/service/index.js';
import { captureLog } from '../log/log-capture.js';
import { startHarness, type Harness } from '../service/client-harness.js';
import { tempStore } from '../store/fixtures.js';

let h: Harness;
let db: ReturnType<typeof tempStore>;

beforeEach(async () => {
  h = await startHarness({ maxResponseBytes: { ...DEFAULT_RESPONSE_LIMITS, lists: 64 * 1024 } });
  db = tempStore();
});
afterEach(async () => {
  db.cleanup();
  await h.close();
});

describe('payment sync and one loan the service answers oddly', () => {
  it('skips a redirected or oversized loan for a day and reads the others', async () => {
    const { server, client, clock } = h;
    server.route('GET /api/v3/loans/7/payments/', () => ({ status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } }));
    server.route('GET /api/v3/loans/8/payments/', () => ({ status: 200, rawBody: `[${'"x",'.repeat(40_000)}"x"]` }));
    server.route('GET /api/v3/loans/9/payments/', () => ({ status: 200, body: [] }));
    for (const id of [7, 8, 9]) {
      db.store.account.upsertLoans(
        [loanSchema.parse({ id, loan_amount: 500, interest_rate: 0.2, status: 'funded' })],
        'current',
        clock.now(),
      );
    }
    const captured = captureLog('info');
    const sync = new PaymentSync({ client, store: db.store, clock, log: captured.log });

    expect((await sync.sync()).loansRead).toBe(1);
    const skipped = captured.lines
      .filter((line) => line.msg === 'payments of a loan not read; tried again in a day')
      .map((line) => line.loanId);
    expect(skipped.sort()).toEqual([7, 8]);
    expect(captured.lines.some((line) => line.msg === 'payments not read; the next sync tries again')).toBe(false);
    expect(db.store.payments.dueForRead(clock.now(), 10)).toEqual([]);
  });
});

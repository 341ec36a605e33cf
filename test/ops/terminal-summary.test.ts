// The minute's summary on a terminal: figures from a real store on a manual (market) clock.
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createLogger } from '../../src/log/logger.js';
import { TerminalSummary, terminalSummaryJobs, type TerminalSummaryDeps } from '../../src/ops/terminal-summary.js';
import { UNCAPPED_RISK_LIMITS } from '../../src/risk/index.js';
import type { Store } from '../../src/store/index.js';
import { captureLog } from '../log/log-capture.js';
import { loanRequest, tempStore } from '../store/fixtures.js';

const MINUTE = 60_000;
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function setUp(): { store: Store; clock: ManualClock } {
  const opened = tempStore();
  cleanup = opened.cleanup;
  const clock = new ManualClock('2026-11-20T12:00:00Z');
  // 5,000.00 deposited, 1,500.00 paid out to a loan.
  opened.store.account.replaceTransfers(
    [
      { date: '2026-11-01', transactions: [{ transfer_status: 'processed', transfer_type: 'Deposit', transfer_amount: '5000.00' }] },
      { date: '2026-11-02', transactions: [{ transfer_status: 'processed', transfer_type: 'Loan Funding', transfer_amount: '-1500.00' }] },
    ],
    clock.now(),
  );
  return { store: opened.store, clock };
}

let nextRequestId = 1000;

function decide(store: Store, clock: ManualClock, action: 'offer' | 'skip'): void {
  store.decisions.record({
    loanRequestId: nextRequestId++,
    strategy: 'balanced',
    action,
    reasons: [],
    dryRun: false,
    decidedAtMs: clock.now(),
  });
}

/** An automate_fund offer of `total`, placed now; funded when asked. */
function offer(store: Store, clock: ManualClock, total: string, state: 'placed' | 'funded'): void {
  const intent = store.offers.createIntent({
    request: loanRequest({ id: nextRequestId++, totalAmount: total }),
    rate: 0.2,
    automateFund: true,
    dryRun: false,
    atMs: clock.now(),
  });
  if (!intent.created) throw new Error('offer existed');
  store.offers.setState(intent.offer.id, state, clock.now());
}

function deps(store: Store, clock: ManualClock, log = captureLog().log): TerminalSummaryDeps {
  return { store, clock, limits: () => ({ ...UNCAPPED_RISK_LIMITS, minCashReserveCents: 10_000 }), dryRun: false, log };
}

describe('the terminal summary', () => {
  it('counts requests, offers and funded offers since the last summary and since start, with balance and free cash', () => {
    const { store, clock } = setUp();
    // An earlier run's work counts for neither window.
    decide(store, clock, 'offer');
    offer(store, clock, '300.00', 'funded');
    clock.advance(MINUTE);
    const { log, lines } = captureLog();
    const summary = new TerminalSummary(deps(store, clock, log));

    // The first minute: five requests, two offered, one of them funded, one still placed.
    for (const action of ['skip', 'offer', 'skip', 'offer', 'skip'] as const) {
      clock.advance(1000);
      decide(store, clock, action);
    }
    offer(store, clock, '536.00', 'placed');
    offer(store, clock, '250.00', 'funded');
    clock.advance(MINUTE);
    const first = summary.report();
    expect(first).toEqual({
      requests: 5,
      offers: 2,
      funded: 1,
      totalRequests: 5,
      totalOffers: 2,
      totalFunded: 1,
      balanceCents: 350_000,
      // 3,500.00 less the placed offer's 536.00 and the 100.00 cash reserve.
      freeCents: 286_400,
    });

    // The next minute: one skip, one more offer funded. A decision made at the very instant of
    // a summary belongs to the minute after it, and is counted once.
    decide(store, clock, 'skip');
    offer(store, clock, '100.00', 'funded');
    clock.advance(MINUTE);
    decide(store, clock, 'offer');
    expect(summary.report()).toMatchObject({ requests: 1, offers: 0, funded: 1, totalRequests: 6, totalOffers: 2, totalFunded: 2 });
    clock.advance(MINUTE);
    expect(summary.report()).toMatchObject({ requests: 1, offers: 1, funded: 0, totalRequests: 7, totalOffers: 3, totalFunded: 2 });

    const logged = lines.filter((line) => line.msg === 'summary');
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatchObject({ level: 30, ...first });
  });

  it('is a job only on a terminal, a minute after it starts, and says the figures in words', async () => {
    const { store, clock } = setUp();
    expect(terminalSummaryJobs(deps(store, clock))).toEqual([]);

    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString('utf8');
        done();
      },
    });
    const log = createLogger({ pretty: true, destination: sink }).child({ component: 'summary' });
    const jobs = terminalSummaryJobs(deps(store, clock, log), () => Date.parse('2026-11-23T15:04:37.250Z'));
    expect(jobs.map((job) => [job.name, job.schedule])).toEqual([['summary', '37 * * * * *']]);
    decide(store, clock, 'offer');
    clock.advance(1000);
    await jobs[0]!.run();
    expect(stripVTControlCharacters(written).replace(/^\[\d\d:\d\d:\d\d\] /, '')).toBe(
      'INFO: summary  last minute: 1 request, 1 offer, 0 funded · since start: 1 request, 1 offer, 0 funded · balance $3,500.00 · free $3,400.00\n',
    );
  });
});

// A book for the cash-flow tests: three 6-month loans the daemon offered on, funded through the
// sandbox, 40 days on with a first payment each, and the transfer history read.
import { DAY, HOUR } from '../sandbox/sandbox-fixture.js';
import type { ApiHarness } from './api-harness.js';

export async function tradeThreeLoans(h: ApiHarness): Promise<void> {
  for (let i = 0; i < 3; i += 1)
    h.makeRequest({ decisionDelayMs: HOUR, loanTerms: 6, loanAmountCents: 100_000, repayProbability: 1, missedMonth: null, lateDays: [] });
  await h.daemon.runJob('poll');
  for (let day = 0; day < 40; day += 10) {
    h.sandbox.control.advance(10 * DAY);
    await h.daemon.runJob('sync');
  }
  await h.daemon.runJob('balance');
}

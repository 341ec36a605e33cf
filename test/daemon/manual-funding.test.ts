// Strategies with automate_fund: false: the daemon funds the offers borrowers accept, once each,
// whether it learns of the acceptance from the loan lists or from the fund call itself (spec 4.3).
import { afterEach, describe, expect, it } from 'vitest';
import { AccountSync } from '../../src/daemon/account-sync.js';
import { FundingJob } from '../../src/daemon/funding-job.js';
import { silentLogger } from '../../src/log/logger.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { captureLog } from '../log/log-capture.js';
import { OFFER_ALL_MANUAL, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOT_ACCEPTED = 'This offer has not been accepted by the borrower.';

/** A daemon trading offer-all-manual on one request of ours (the market's own arrivals are not heard). */
async function placeManualOffer(options: { decisionDelayMs: number; balanceCents?: number }) {
  harness = await startDaemonHarness({
    strategyFiles: [OFFER_ALL_MANUAL],
    logLevel: 'debug',
    balanceCents: options.balanceCents ?? 1_000_000,
  });
  const h = harness;
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0, decisionDelayMs: options.decisionDelayMs });
  await h.daemon.poller.poll();
  const offer = h.store.offers.getByRequest(request.id)!;
  expect(offer).toMatchObject({ state: 'placed', automateFund: false, dryRun: false });
  expect(h.sandbox.control.offers()).toMatchObject([{ id: offer.serviceOfferId, automate_fund: false, offer_status: 'pending' }]);
  return { h, request, offer, serviceOfferId: offer.serviceOfferId!, totalCents: Math.round(Number(request.total_amount) * 100) };
}

describe('funding offers by hand (automate_fund: false)', () => {
  it('funds an offer the borrower accepted exactly once, and sees the loan funded', async () => {
    const { h, request, offer, serviceOfferId } = await placeManualOffer({ decisionDelayMs: 5 * HOUR });
    // The market's own decision: the borrower accepts the only offer 5 hours after the request.
    h.sandbox.control.advance(6 * HOUR);
    expect(h.sandbox.control.offers()).toMatchObject([{ id: serviceOfferId, offer_status: 'accepted', processed_on_processor: false }]);

    // The loan lists show the accepted offer as a pending loan: the sync moves the offer to accepted.
    await h.daemon.runJob('sync');
    expect(h.store.offers.get(offer.id)!.state).toBe('accepted');
    await h.daemon.runJob('fund');
    expect(h.store.offers.get(offer.id)!.state).toBe('funded');
    expect(h.logs.some((line) => line.msg === 'accepted offer funded: funding started' && line.loanRequestId === request.id)).toBe(true);

    // Later runs of both jobs send nothing more, while funding completes.
    await h.daemon.runJob('fund');
    await h.daemon.runJob('sync');
    h.sandbox.control.advance(HOUR);
    await h.daemon.runJob('sync');
    await h.daemon.runJob('fund');

    expect(h.sandbox.control.fundCalls()).toEqual([{ offer_id: serviceOfferId, at: expect.any(String), outcome: 'started' }]);
    const current = await h.client.listLoans('current');
    expect(current.items).toMatchObject([{ status: 'funded', loan_request_id: request.id }]);
    expect(h.sandbox.control.groundTruth(request.id)).toMatchObject({ fundedBy: 'investor', requestStatus: 'signed' });
    expect(h.store.offers.get(offer.id)!.state).toBe('funded');
    expect(h.logs.filter((line) => line.msg === 'offer funded: loan is running')).toHaveLength(0);
  });

  it('treats a refusal before acceptance as "not yet" and tries again only after the back-off, also after a restart', async () => {
    const { h, request, offer, serviceOfferId } = await placeManualOffer({ decisionDelayMs: 10 * DAY });
    const placedAt = h.sandbox.clock.now();

    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls().map((call) => call.outcome)).toEqual([NOT_ACCEPTED]);
    expect(h.store.offers.get(offer.id)!.state).toBe('placed');
    const firstWait = h.store.offers.fundSchedule(offer.id)!;
    expect(firstWait.attempts).toBe(1);
    // 1 minute, shortened by up to 20% of jitter.
    expect(firstWait.nextAtMs! - placedAt).toBeGreaterThanOrEqual(48_000);
    expect(firstWait.nextAtMs! - placedAt).toBeLessThanOrEqual(60_000);
    expect(h.logs.find((line) => line.msg === 'fund call refused: not accepted yet')).toMatchObject({
      loanRequestId: request.id,
      offerId: serviceOfferId,
      code: 'RULE_REFUSED',
      status: 400,
      text: NOT_ACCEPTED,
    });

    // The borrower accepts; neither this daemon nor a restarted one calls before the wait is over.
    h.sandbox.control.acceptOffer(serviceOfferId);
    h.sandbox.control.advance(47_000);
    await h.daemon.runJob('fund');
    // A restarted process: a new funding job over the same database, remembering nothing.
    const restarted = new FundingJob({
      client: h.client,
      store: h.store,
      clock: h.sandbox.clock,
      log: silentLogger,
      dryRun: false,
      balance: { current: async () => 1_000_000, refresh: async () => 1_000_000 },
      limits: () => DEFAULT_RISK_LIMITS,
    });
    expect(await restarted.run()).toEqual({ funded: 0, notYet: 0, guardRefused: 0, failed: 0 });
    expect(h.sandbox.control.fundCalls()).toHaveLength(1);

    h.sandbox.control.advance(firstWait.nextAtMs! - h.sandbox.clock.now());
    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls().map((call) => call.outcome)).toEqual([NOT_ACCEPTED, 'started']);
    expect(h.store.offers.get(offer.id)!.state).toBe('funded');
    // Funded: no process calls again.
    h.sandbox.control.advance(2 * HOUR);
    await h.daemon.runJob('fund');
    expect(await restarted.run()).toEqual({ funded: 0, notYet: 0, guardRefused: 0, failed: 0 });
    expect(h.sandbox.control.fundCalls()).toHaveLength(2);
  });

  it('tries at once when a sync sees the acceptance, however long the back-off had grown', async () => {
    const { h, offer, serviceOfferId } = await placeManualOffer({ decisionDelayMs: 10 * DAY });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await h.daemon.runJob('fund');
      h.sandbox.control.advance(h.store.offers.fundSchedule(offer.id)!.nextAtMs! - h.sandbox.clock.now());
    }
    await h.daemon.runJob('fund');
    expect(h.store.offers.fundSchedule(offer.id)!.attempts).toBe(5);
    expect(h.store.offers.fundSchedule(offer.id)!.nextAtMs! - h.sandbox.clock.now()).toBeGreaterThan(12 * 60_000);

    h.sandbox.control.acceptOffer(serviceOfferId);
    await h.daemon.runJob('sync');
    expect(h.store.offers.fundSchedule(offer.id)).toEqual({ attempts: 0, nextAtMs: null });
    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls().map((call) => call.outcome)).toEqual([...Array<string>(5).fill(NOT_ACCEPTED), 'started']);
    expect(h.store.offers.get(offer.id)!.state).toBe('funded');
  });

  it('never funds after the offer’s reservation expired, and says so when the acceptance shows up', async () => {
    const { h, request, offer, serviceOfferId } = await placeManualOffer({ decisionDelayMs: 10 * DAY });
    // risk.offer_expiry_hours is 72 by default: the borrower accepts after it.
    h.sandbox.control.advance(73 * HOUR);
    h.sandbox.control.acceptOffer(serviceOfferId);
    // The sync as the daemon would build it with the expiry (see the report: daemon.ts wiring).
    const captured = captureLog();
    const sync = new AccountSync({
      client: h.client,
      store: h.store,
      clock: h.sandbox.clock,
      log: captured.log,
      offerExpiryMs: () => 72 * HOUR,
    });
    await sync.sync();
    expect(h.store.offers.get(offer.id)!.state).toBe('accepted');
    expect(captured.lines.find((line) => line.level === 40)).toMatchObject({
      loanRequestId: request.id,
      offerId: serviceOfferId,
      msg: 'offer accepted after its reservation expired (risk.offer_expiry_hours): not funded automatically; fund it with `lendbot api fund <offer id>` if the money is there',
    });
    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls()).toEqual([]);
    expect(h.store.offers.get(offer.id)!.state).toBe('accepted');
  });

  it('refuses to fund when the balance does not exceed the total, sends nothing, and funds after a top-up', async () => {
    const { h, offer, serviceOfferId, totalCents } = await placeManualOffer({ decisionDelayMs: 10 * DAY });
    h.sandbox.control.acceptOffer(serviceOfferId);
    // The lender withdraws all but the loan's total: funding needs a balance that exceeds it.
    h.sandbox.control.setBalance(totalCents);
    await h.daemon.runJob('balance');
    await h.daemon.runJob('sync');
    expect(h.store.offers.get(offer.id)!.state).toBe('accepted');

    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls()).toEqual([]);
    expect(h.store.offers.get(offer.id)!.state).toBe('accepted');
    const total = (totalCents / 100).toFixed(2);
    expect(h.logs.find((line) => line.msg === 'funding refused by the guard; not sent, tried again later')).toMatchObject({
      level: 40,
      offerId: serviceOfferId,
      code: 'insufficient_balance',
      reason: `guard funding balance ${total} - reserved 0.00 - reserve 0.00 = total ${total}, must exceed`,
    });
    const wait = h.store.offers.fundSchedule(offer.id)!;
    expect(wait.attempts).toBe(1);

    // The money comes back: the next attempt, after the back-off, funds the offer.
    h.sandbox.control.setBalance(totalCents + 100_000);
    await h.daemon.runJob('balance');
    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls()).toEqual([]);
    h.sandbox.control.advance(wait.nextAtMs! - h.sandbox.clock.now());
    await h.daemon.runJob('fund');
    expect(h.sandbox.control.fundCalls().map((call) => call.outcome)).toEqual(['started']);
    expect(h.store.offers.get(offer.id)!.state).toBe('funded');
  });
});

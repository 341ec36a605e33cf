import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook, signEvent, startDaemonHarness, waitFor, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function offersAt(h: DaemonHarness, loanRequestId: number) {
  return h.sandbox.control.offers().filter((offer) => offer.loan_request?.id === loanRequestId);
}

describe('the daemon against the sandbox', () => {
  it('turns a webhook into a guarded offer and records the decision', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
    await h.sandbox.control.flushWebhooks();
    await waitFor(() => h.store.decisions.has(request.id), 'the decision');
    await h.daemon.pipeline.idle();

    const decision = h.store.decisions.get(request.id)!;
    expect(decision.action).toBe('offer');
    expect(decision.strategy).toBe('offer-all');
    expect(decision.contentHash).toMatch(/^[0-9a-f]{16}/);
    expect(decision.rate).toBeGreaterThanOrEqual(0.03);
    expect(decision.rate).toBeLessThanOrEqual(0.6);
    expect(decision.dryRun).toBe(false);

    const offers = offersAt(h, request.id);
    expect(offers).toHaveLength(1);
    expect(offers[0]!.offered_interest).toBe(decision.rate);
    expect(offers[0]!.automate_fund).toBe(true);
    const stored = h.store.offers.getByRequest(request.id)!;
    expect(stored.state).toBe('placed');
    expect(stored.serviceOfferId).toBe(offers[0]!.id);
    expect(h.store.requests.get(request.id)!.source).toBe('webhook');
    expect(h.store.inbox.depth()).toBe(0);
  });

  it('sends a request through the pipeline once, whichever way it came', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    const request = h.sandbox.control.createLoanRequest({ svcColor: 0, competitorOffers: 0 });
    await h.sandbox.control.flushWebhooks();
    await waitFor(() => h.store.decisions.has(request.id), 'the decision');
    await h.daemon.poller.poll();
    await h.daemon.poller.poll();
    expect(h.store.decisions.list().filter((d) => d.loanRequestId === request.id)).toHaveLength(1);
    expect(offersAt(h, request.id)).toHaveLength(1);
  });

  it('finds by polling a request whose webhook was lost', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.sandbox.control.flushWebhooks();
    expect(h.store.decisions.has(request.id)).toBe(false);
    await h.daemon.poller.poll();
    expect(h.store.decisions.get(request.id)!.action).toBe('offer');
    expect(h.store.requests.get(request.id)!.source).toBe('poll');
  });

  it('in a dry run decides and records but places nothing', async () => {
    harness = await startDaemonHarness({ dryRun: true });
    const h = harness;
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.daemon.poller.poll();
    const decision = h.store.decisions.get(request.id)!;
    expect(decision.action).toBe('offer');
    expect(decision.dryRun).toBe(true);
    expect(h.sandbox.control.offers()).toHaveLength(0);
    expect(h.store.offers.getByRequest(request.id)).toMatchObject({ dryRun: true, state: 'placed', serviceOfferId: null });
  });

  it('records a guard refusal as a skip with its reason, and offers nothing', async () => {
    harness = await startDaemonHarness({ balanceCents: 0 });
    const h = harness;
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.daemon.poller.poll();
    const decision = h.store.decisions.get(request.id)!;
    expect(decision.action).toBe('skip');
    expect(decision.reasons.at(-1)).toMatch(/^guard balance 0\.00 - reserved 0\.00 - reserve 0\.00 < total \d+\.\d\d$/);
    expect(h.sandbox.control.offers()).toHaveLength(0);
    expect(h.store.offers.getByRequest(request.id)).toBeUndefined();
  });

  it('skips risk levels the guard does not allow', async () => {
    harness = await startDaemonHarness({ risk: { allowed_risk_levels: [0] } });
    const h = harness;
    const request = h.sandbox.control.createLoanRequest({ svcColor: 2, competitorOffers: 0 });
    await h.daemon.poller.poll();
    const decision = h.store.decisions.get(request.id)!;
    expect(decision.action).toBe('skip');
    expect(decision.reasons.at(-1)).toBe('guard risk level 2 (high) not allowed (allowed 0)');
  });

  it('stores a valid webhook once, ignores a replay, and refuses forged, oversized and mislabelled ones', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    // Only our own signed events reach the daemon in this test.
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const claims = {
      webhook_uuid: randomUUID(),
      topic: 'new_loan_request_created',
      data: {
        loan_request_id: request.id,
        loan_request_amount: Number(request.loan_amount),
        loan_request_type: 'cash',
        has_banking_data: true,
        automated_loan_request: false,
      },
    };
    const body = JSON.stringify({ token: await signEvent(h.sandbox.credentials.webhookSecret, claims) });
    expect(await postWebhook(h.daemon.webhookUrl, body)).toBe(200);
    expect(await postWebhook(h.daemon.webhookUrl, body)).toBe(200);
    await waitFor(() => h.store.decisions.has(request.id), 'the decision');
    await h.daemon.inbox.drain();

    const forged = JSON.stringify({ token: await signEvent('not-the-secret', { ...claims, webhook_uuid: randomUUID() }) });
    expect(await postWebhook(h.daemon.webhookUrl, forged)).toBe(401);
    const mislabelled = JSON.stringify({
      token: await signEvent(h.sandbox.credentials.webhookSecret, { ...claims, webhook_uuid: randomUUID() }),
    });
    expect(await postWebhook(h.daemon.webhookUrl, mislabelled, 'loan_funded')).toBe(400);
    expect(await postWebhook(h.daemon.webhookUrl, JSON.stringify({ token: 'x'.repeat(70_000) }))).toBe(413);
    expect(await postWebhook(h.daemon.webhookUrl, '{not json')).toBe(400);

    expect(h.store.inbox.get(claims.webhook_uuid)).toMatchObject({ outcome: 'processed' });
    expect(h.store.inbox.depth()).toBe(0);
    expect(h.store.decisions.list()).toHaveLength(1);
    expect(offersAt(h, request.id)).toHaveLength(1);
  });

  it('drops a webhook event every strategy refuses on its data, without fetching the request', async () => {
    harness = await startDaemonHarness({ risk: { allowed_risk_levels: [0, 1, 2, 4] } });
    const h = harness;
    const post = async (type: string): Promise<string> => {
      const uuid = randomUUID();
      const data = {
        loan_request_id: 987_654,
        loan_request_amount: 500,
        loan_request_type: type,
        has_banking_data: false,
        automated_loan_request: false,
      };
      const token = await signEvent(h.sandbox.credentials.webhookSecret, { webhook_uuid: uuid, topic: 'new_loan_request_created', data });
      expect(await postWebhook(h.daemon.webhookUrl, JSON.stringify({ token }))).toBe(200);
      await waitFor(() => (h.store.inbox.get(uuid)?.processedAt ?? null) !== null, 'the event to be processed');
      return h.store.inbox.get(uuid)!.outcome!;
    };
    // offer-all refuses crypto-backed requests: no list call is made for it.
    expect(await post('crypto')).toBe('prefiltered: offer-all: filter crypto_backed not in [false]');
    // A cash request passes the prefilter; this id is not listed, so it ends as 'not listed'.
    expect(await post('cash')).toBe('not listed');
  });

  it('sees an accepted automate_fund offer funded, releases its reservation and re-reads the balance', async () => {
    harness = await startDaemonHarness({ balanceCents: 1_000_000 });
    const h = harness;
    // Only this request: the market's own arrivals while time moves are not heard.
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    await h.daemon.poller.poll();
    const offer = h.store.offers.getByRequest(request.id)!;
    expect(offer.state).toBe('placed');
    const total = Math.round(Number(request.total_amount) * 100);
    const reserved = (): number => h.store.offers.reserved({ nowMs: h.sandbox.clock.now(), expiryMs: 72 * 3_600_000 });
    expect(reserved()).toBe(total);

    // The balance as read before the borrower accepts: no loan paid out yet.
    await h.daemon.runJob('balance');
    const paidOut = (): boolean =>
      h.store.account
        .transferGroups()
        .flatMap((group) => group.transactions)
        .some((transfer) => transfer.transfer_type === 'Fund Loans' && transfer.loan_request_id === request.id);
    expect(paidOut()).toBe(false);

    h.sandbox.control.acceptOffer(offer.serviceOfferId!);
    await h.daemon.runJob('sync');
    // Accepted: the loan is listed as pending while the service funds it (asynchronously).
    expect(h.store.offers.getByRequest(request.id)!.state).toBe('accepted');
    h.sandbox.control.advance(3_600_000);
    await h.daemon.runJob('sync');
    expect(h.store.offers.getByRequest(request.id)!.state).toBe('funded');
    expect(reserved()).toBe(0);
    // The sync re-read the balance: it now shows the money paid out for the loan.
    expect(paidOut()).toBe(true);
    expect(h.logs.some((line) => line.msg === 'offer funded: loan is running' && line.loanRequestId === request.id)).toBe(true);
  });

  it('names the jobs it has when asked for one it does not', async () => {
    harness = await startDaemonHarness();
    await expect(harness.daemon.runJob('nope')).rejects.toThrow(
      'no job "nope"; jobs: poll, balance, sync, fund, protections, inbox, clock, retrain, learn, learn-defaults, idle-cash',
    );
  });
});

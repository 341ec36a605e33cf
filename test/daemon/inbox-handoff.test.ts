/**
 * The webhook listener hands the event it just committed to the inbox worker, which handles it
 * without reading the inbox back when nothing else waits there. These tests hold it to the cases
 * where something else does wait: events stored while the worker was held, and events whose
 * handling failed. None of them may be left behind.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError, type LoanRequestFilters, type MarketplaceClient } from '../../src/service/index.js';
import { postWebhook, signEvent, startDaemonHarness, waitFor, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Posts a signed new-request webhook for `id` and returns its uuid. */
async function postNewRequest(h: DaemonHarness, request: { id: number; loan_amount: string }): Promise<string> {
  const uuid = randomUUID();
  const data = {
    loan_request_id: request.id,
    loan_request_amount: Number(request.loan_amount),
    loan_request_type: 'cash',
    has_banking_data: true,
    automated_loan_request: false,
  };
  const token = await signEvent(h.sandbox.credentials.webhookSecret, { webhook_uuid: uuid, topic: 'new_loan_request_created', data });
  expect(await postWebhook(h.daemon.webhookUrl, JSON.stringify({ token }))).toBe(200);
  return uuid;
}

/** The real client, with its list call refused (a 503) while `fails(filters)` says so. */
function failingLists(client: MarketplaceClient, fails: (filters: LoanRequestFilters | undefined) => boolean): MarketplaceClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'loanRequestPages') return value.bind(target);
      return (filters?: LoanRequestFilters) => {
        if (fails(filters))
          throw new ServiceError('SERVER_ERROR', 'server error', { method: 'GET', path: '/api/v3/loan_requests/', status: 503 });
        return target.loanRequestPages(filters);
      };
    },
  });
}

const processed = (h: DaemonHarness, uuid: string): boolean => (h.store.inbox.get(uuid)?.processedAt ?? null) !== null;

/** One webhook for a new request, handled on its own: the worker is caught up after it. */
async function handleOneWebhook(h: DaemonHarness): Promise<void> {
  const request = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
  const uuid = await postNewRequest(h, request);
  await waitFor(() => processed(h, uuid), 'the first event');
}

describe('inbox worker: events handed over by the listener', () => {
  it('handles and marks processed each webhook in turn, one offer each', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    const requests = [0, 1, 2].map(() => h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 }));
    for (const request of requests) {
      const uuid = await postNewRequest(h, request);
      await waitFor(() => processed(h, uuid), 'the event to be processed');
      expect(h.store.inbox.get(uuid)!.outcome).toBe('processed');
      expect(h.store.decisions.get(request.id)!.action).toBe('offer');
    }
    expect(h.store.inbox.depth()).toBe(0);
    expect(h.sandbox.control.offers()).toHaveLength(3);
  });

  it('reads the inbox when events were stored while the worker was held', async () => {
    harness = await startDaemonHarness();
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    // Caught up first: one webhook handled on its own.
    await handleOneWebhook(h);

    // Held (as during start-up): stored and answered 200, not handled.
    h.daemon.inbox.hold();
    const waiting = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const waitingUuid = await postNewRequest(h, waiting);
    expect(h.store.inbox.depth()).toBe(1);
    h.daemon.inbox.release();

    // The next webhook's hand-over must not stand for the whole inbox: both are handled.
    const next = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const nextUuid = await postNewRequest(h, next);
    await waitFor(() => processed(h, waitingUuid) && processed(h, nextUuid), 'both events');
    expect(h.store.decisions.get(waiting.id)!.action).toBe('offer');
    expect(h.store.decisions.get(next.id)!.action).toBe('offer');
    expect(h.store.inbox.depth()).toBe(0);
  });

  it('keeps an event whose handling failed, and handles it with the next webhook once its back-off has passed', async () => {
    let failLists = false;
    harness = await startDaemonHarness({ wrapClient: (client) => failingLists(client, () => failLists) });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    await handleOneWebhook(h);

    failLists = true;
    const failed = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const failedUuid = await postNewRequest(h, failed);
    await waitFor(
      () => h.logs.some((line) => line.msg === 'webhook events not processed; every one tried failed, backing off'),
      'the failure',
    );
    expect(processed(h, failedUuid)).toBe(false);
    expect(h.store.decisions.has(failed.id)).toBe(false);

    failLists = false;
    // Past the event's and the pass's back-off (5 s, with jitter; on the market's clock here).
    h.sandbox.control.advance(60_000);
    const next = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const nextUuid = await postNewRequest(h, next);
    await waitFor(() => processed(h, failedUuid) && processed(h, nextUuid), 'both events');
    expect(h.store.decisions.has(failed.id)).toBe(true);
    expect(h.store.decisions.has(next.id)).toBe(true);
    expect(h.store.inbox.depth()).toBe(0);
  });

  it('after a pass where one event failed and another was handled, reads the inbox for the next webhook', async () => {
    let failingAmount: number | undefined;
    harness = await startDaemonHarness({
      wrapClient: (client) => failingLists(client, (filters) => filters?.loanAmount?.min === failingAmount),
    });
    const h = harness;
    h.sandbox.control.setFaults({ dropWebhookRate: 1 });
    await handleOneWebhook(h);

    // Two events in one pass: the first fails, the second is handled, so the pass succeeds.
    h.daemon.inbox.hold();
    const failed = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const handled = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    expect(Math.floor(Number(failed.loan_amount))).not.toBe(Math.floor(Number(handled.loan_amount)));
    failingAmount = Math.floor(Number(failed.loan_amount));
    const failedUuid = await postNewRequest(h, failed);
    const handledUuid = await postNewRequest(h, handled);
    h.daemon.inbox.release();
    await h.daemon.inbox.drain();
    expect(processed(h, handledUuid)).toBe(true);
    expect(processed(h, failedUuid)).toBe(false);

    failingAmount = undefined;
    h.sandbox.control.advance(60_000);
    const next = h.sandbox.control.createLoanRequest({ svcColor: 1, competitorOffers: 0 });
    const nextUuid = await postNewRequest(h, next);
    await waitFor(() => processed(h, failedUuid) && processed(h, nextUuid), 'both events');
    expect(h.store.decisions.has(failed.id)).toBe(true);
    expect(h.store.inbox.depth()).toBe(0);
  });
});

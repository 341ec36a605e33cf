/**
 * What every "wing left out" test asks of the daemon (issue 38, item 2): a webhook's request and a
 * polled one, each decided and offered on the sandbox once, the second found by the poll because
 * its webhook was dropped.
 */
import { expect } from 'vitest';
import { waitFor, type DaemonHarness } from './daemon-harness.js';

/** Offers both requests and returns their ids, webhook's first. */
export async function offerTwoRequests(h: DaemonHarness): Promise<number[]> {
  const hooked = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  await h.sandbox.control.flushWebhooks();
  await waitFor(() => h.store.decisions.has(hooked.id), 'the webhook request decided');
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  const polled = h.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
  await h.sandbox.control.flushWebhooks();
  await h.daemon.poller.poll();
  await h.daemon.pipeline.idle();
  const ids = [hooked.id, polled.id];
  for (const id of ids) {
    expect(h.store.decisions.get(id)?.action).toBe('offer');
    expect(h.store.offers.getByRequest(id)?.state).toBe('placed');
    expect(h.sandbox.control.offers().filter((offer) => offer.loan_request?.id === id)).toHaveLength(1);
  }
  expect(h.store.requests.get(polled.id)?.source).toBe('poll');
  return ids;
}

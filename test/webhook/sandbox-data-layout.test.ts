// End to end: the sandbox sends data-layout tokens (claims are the data; uuid and topic beside the
// token) and the daemon, with the default token_layout auto, turns them into decisions.
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemonHarness, waitFor, type DaemonHarness } from '../daemon/daemon-harness.js';

let h: DaemonHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the daemon and a sandbox sending data-layout webhooks', () => {
  it('stores each event under the uuid beside the token and decides its request', async () => {
    h = await startDaemonHarness({ sandbox: { webhookTokenLayout: 'data' } });
    const harness = h;
    const first = harness.sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
    const second = harness.sandbox.control.createLoanRequest({ svcColor: 0, competitorOffers: 0 });
    await harness.sandbox.control.flushWebhooks();
    await waitFor(() => harness.store.decisions.has(first.id) && harness.store.decisions.has(second.id), 'both decisions');

    const deliveries = harness.sandbox.control.webhooks().deliveries;
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    for (const [delivery, request] of [
      [deliveries[0]!, first],
      [deliveries[1]!, second],
    ] as const) {
      expect(harness.store.inbox.get(delivery.webhookUuid)).toMatchObject({
        topic: 'new_loan_request_created',
        data: { loan_request_id: request.id },
      });
      expect(harness.store.requests.get(request.id)!.source).toBe('webhook');
    }
    const received = harness.logs.filter((line) => line['msg'] === 'webhook received');
    expect(received.map((line) => [line['outcome'], line['layout']])).toEqual([
      ['accepted', 'data'],
      ['accepted', 'data'],
    ]);
    expect(harness.logs.filter((line) => line['msg'] === 'webhook refused')).toEqual([]);
  });
});

/**
 * One request whose banking-data answer lendbot cannot read (issue 24, item 10) is that request's
 * problem: the others are decided at once, by the poll and by their webhooks; it waits its own
 * back-off (not fetched again before), and after a bounded number of tries it is decided without
 * the data, with a reason saying so. Before, every poll tried it first and stopped there
 * (0 of 6 decided), and its webhook event was retried for ever.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { compileText, MINIMAL_SCORE } from '../engine/compile-text.js';
import { bankingDataJson } from '../service/fixtures/resources.js';
import { postWebhook, signEvent, waitFor } from './daemon-harness.js';
import { ids, LIST, listPage, startPollFixture, type PollFixture } from './poll-fixture.js';

const BANKING = 'POST /api/v3/data_marketplace/data_aggregation/fetch_loan_request_data_aggs/';
const BAD = 1;
const GOOD = ids(2, 7);

// Buys the banking data of every request (free), then offers.
const BANKING_BUYER = compileText(`
automate_fund: true
data: { monthly_budget: 0, banking_data: after_filters }
${MINIMAL_SCORE}`);

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function marketWithOneBadAnswer(config: Record<string, unknown> = {}): Promise<PollFixture> {
  const f = await startPollFixture({ strategies: [BANKING_BUYER], config });
  f.server.route(LIST, (_request, server) => listPage(server, ids(1, 7), 7, null));
  f.server.route(BANKING, (request) => {
    const { loan_request_id: id } = request.body as { loan_request_id: number };
    // A wrong type where the spec has an object: MALFORMED_RESPONSE for this request only.
    return { status: 200, body: id === BAD ? { ...bankingDataJson(), agg_90: 'not an object' } : bankingDataJson() };
  });
  return f;
}

const bankingCallsFor = (f: PollFixture, id: number): number =>
  f.server.requests.filter(
    (request) => `${request.method} ${request.path}` === BANKING && (request.body as { loan_request_id: number }).loan_request_id === id,
  ).length;

describe('a request whose data answer cannot be read', () => {
  it('does not stop the poll: the other six are decided, it waits its back-off, then is decided without the data', async () => {
    fixture = await marketWithOneBadAnswer();
    const f = fixture;

    const first = await f.daemon.poller.poll();

    expect(first).toMatchObject({ listed: 7, processed: 6, deferred: 1 });
    expect(GOOD.filter((id) => !f.store.decisions.has(id))).toEqual([]);
    expect(
      f.store.offers
        .listByState(['placed'])
        .map((offer) => offer.loanRequestId)
        .sort((a, b) => a - b),
    ).toEqual(GOOD);
    expect(f.store.decisions.has(BAD)).toBe(false);
    expect(bankingCallsFor(f, BAD)).toBe(1);
    const deferred = f.logs.find((line) => line.msg === "request's data could not be read; decided later, the others go on");
    expect(deferred).toMatchObject({ loanRequestId: BAD, data: 'banking_data', code: 'MALFORMED_RESPONSE', own: true, failures: 1 });

    // Still waiting: the next poll does not ask for its data again.
    expect(await f.daemon.poller.poll()).toMatchObject({ processed: 0, deferred: 1 });
    expect(bankingCallsFor(f, BAD)).toBe(1);

    // Waits of 30 s, 1 min and 2 min; each try after its wait asks once.
    for (const [waitMs, callsAfter] of [
      [30_000, 2],
      [60_000, 3],
    ] as const) {
      f.clock.advance(waitMs);
      expect(await f.daemon.poller.poll()).toMatchObject({ deferred: 1 });
      expect(bankingCallsFor(f, BAD)).toBe(callsAfter);
    }
    f.clock.advance(119_000);
    await f.daemon.poller.poll();
    expect(bankingCallsFor(f, BAD)).toBe(3);
    f.clock.advance(1_000);

    // The fourth try decides without the data (this strategy offers without it).
    expect(await f.daemon.poller.poll()).toMatchObject({ processed: 1, deferred: 0 });
    expect(bankingCallsFor(f, BAD)).toBe(4);
    const decision = f.store.decisions.get(BAD);
    expect(decision?.reasons).toContain('data banking_data unreadable after 4 tries: MALFORMED_RESPONSE');
    // Decided once: later polls leave it alone.
    await f.daemon.poller.poll();
    expect(bankingCallsFor(f, BAD)).toBe(4);
  });

  it('does not hold up the webhooks of the others, and its own event is processed once it is decided', async () => {
    fixture = await marketWithOneBadAnswer({ webhook: { host: '127.0.0.1', port: await freePort() } });
    const f = fixture;
    await f.daemon.start();

    const uuids = new Map<number, string>();
    // The bad request's webhook first, then the six others.
    for (const id of [BAD, ...GOOD]) {
      const uuid = randomUUID();
      uuids.set(id, uuid);
      const data = {
        loan_request_id: id,
        loan_request_amount: 500,
        loan_request_type: 'cash',
        has_banking_data: true,
        automated_loan_request: false,
      };
      const token = await signEvent('poll-webhook-secret', { webhook_uuid: uuid, topic: 'new_loan_request_created', data });
      expect(await postWebhook(f.daemon.webhookUrl, JSON.stringify({ token }))).toBe(200);
    }
    const processed = (id: number): boolean => (f.store.inbox.get(uuids.get(id)!)?.processedAt ?? null) !== null;
    await waitFor(() => GOOD.every((id) => f.store.decisions.has(id) && processed(id)), 'the six good webhooks to be decided');
    expect(processed(BAD)).toBe(false);
    expect(f.store.decisions.has(BAD)).toBe(false);

    // Inbox passes only (no poll): the event is tried on the request's schedule, then decided.
    let passes = 0;
    while (!f.store.decisions.has(BAD) && passes < 20) {
      f.clock.advance(30_000);
      await f.daemon.runJob('inbox');
      passes += 1;
    }
    expect(f.store.decisions.get(BAD)?.reasons).toContain('data banking_data unreadable after 4 tries: MALFORMED_RESPONSE');
    expect(bankingCallsFor(f, BAD)).toBe(4);
    await f.daemon.runJob('inbox');
    expect(processed(BAD)).toBe(true);
    expect(f.store.inbox.depth()).toBe(0);
  });
});

/**
 * Issue 37, item 3: an offer whose outcome is unknown was sent again at every poll, without limit
 * (9 POSTs for one request in 25 s), while the log said "not resent". It is now settled by reading
 * first (a loan of ours for the request), sent again at most `unknown_offers.resends` times with
 * back-off (1 min, then 2, then 4 by default), the count kept in the database, and the log says
 * each step. The marketplace here answers every make_offer with a body lendbot cannot read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IntentReconciler } from '../../src/daemon/intent-reconciler.js';
import { loanSchema } from '../../src/domain/index.js';
import { silentLogger } from '../../src/log/logger.js';
import { loanJson, loanRequestJson } from '../service/fixtures/resources.js';
import { fixtureClient, LIST, startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const OFFER = 'POST /api/v3/loan_requests/7/make_offer/';

async function unreadableMarketplace(config: Record<string, unknown> = {}): Promise<PollFixture> {
  const f = await startPollFixture({ config });
  f.server.route(LIST, () => ({ status: 200, body: { count: 1, next: null, previous: null, results: [loanRequestJson(7)] } }));
  // 201 with an id as text: the offer may exist, lendbot cannot read it.
  f.server.route(OFFER, () => ({ status: 201, rawBody: '41' }));
  return f;
}

const posts = (f: PollFixture): number => f.calls().filter((call) => call === OFFER).length;
const messages = (f: PollFixture): string[] => f.logs.filter((line) => line.loanRequestId === 7).map((line) => String(line.msg));

/** Polls every `everyMs` for `forMs` of the daemon's clock. */
async function pollFor(f: PollFixture, forMs: number, everyMs: number): Promise<void> {
  for (let elapsed = 0; elapsed < forMs; elapsed += everyMs) {
    await f.daemon.runJob('poll');
    f.clock.advance(everyMs);
  }
}

describe('an offer whose answer cannot be read', () => {
  it('is sent again 3 times at most, after 1, 2 and 4 minutes, however often the poll runs; its money stays reserved', async () => {
    fixture = await unreadableMarketplace();
    const f = fixture;

    // A poll every 2 s for the first 25 s: the attack's 9 POSTs; now the first attempt only.
    await pollFor(f, 25 * SECOND, 2 * SECOND);
    expect(posts(f)).toBe(1);
    expect(f.store.offers.getByRequest(7)?.state).toBe('unknown');

    // Every 10 s for an hour: three re-sends, spaced by the back-off, then none.
    const sentAt: number[] = [];
    for (let elapsed = 0; elapsed < 60 * MINUTE; elapsed += 10 * SECOND) {
      const before = posts(f);
      await f.daemon.runJob('poll');
      if (posts(f) > before) sentAt.push(f.clock.now());
      f.clock.advance(10 * SECOND);
    }
    expect(posts(f)).toBe(4);
    const created = Date.parse(f.store.offers.getByRequest(7)?.createdAt ?? '');
    // 1 minute after the first attempt, then 2 and 4 minutes apart: at the first poll once each is due.
    const waits = sentAt.map((at, i) => at - (i === 0 ? created : (sentAt[i - 1] ?? 0)));
    [1, 2, 4].forEach((minutes, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(minutes * MINUTE);
      expect(waits[i]).toBeLessThan(minutes * MINUTE + 10 * SECOND);
    });

    const offer = f.store.offers.getByRequest(7);
    expect(offer?.state).toBe('unknown');
    expect(f.store.offers.resendSchedule(offer?.id ?? 0)?.resends).toBe(3);
    expect(f.store.offers.reserved({ nowMs: f.clock.now(), expiryMs: 48 * 60 * MINUTE })).toBe(offer?.totalAmountCents);

    const said = messages(f);
    expect(said[0]).toBe(
      'offer outcome unknown; its money stays reserved; it is settled by reading, and sent again at most unknown_offers.resends times, with back-off',
    );
    expect(said.filter((text) => text.startsWith('offer outcome unknown: sending it again'))).toEqual([
      'offer outcome unknown: sending it again (re-send 1 of 3); the service refuses a second offer on a request, so this places it or says ours exists',
      'offer outcome unknown: sending it again (re-send 2 of 3); the service refuses a second offer on a request, so this places it or says ours exists',
      'offer outcome unknown: sending it again (re-send 3 of 3); the service refuses a second offer on a request, so this places it or says ours exists',
    ]);
    expect(said.filter((text) => text.startsWith('offer still unknown after re-send 3 of 3'))).toEqual([
      'offer still unknown after re-send 3 of 3; its money stays reserved; no re-send left: it is not sent again, and stays reserved until a loan of ours shows it or its request leaves the list (then expired after risk.offer_expiry_hours)',
    ]);
    expect(said.some((text) => /not resent/.test(text))).toBe(false);

    // A restart (a new reconciler on the same database) does not start the count over.
    const client = fixtureClient(f.server.url, f.clock);
    const restarted = new IntentReconciler({
      client,
      store: f.store,
      clock: f.clock,
      log: silentLogger,
      offerExpiryMs: () => 48 * 60 * MINUTE,
    });
    await restarted.settleListed(new Set([7]));
    expect(posts(f)).toBe(4);
  });

  it('takes the number of re-sends and the waits from unknown_offers', async () => {
    fixture = await unreadableMarketplace({ unknown_offers: { resends: 1, first_wait_seconds: 10, max_wait_minutes: 1 } });
    const f = fixture;
    await pollFor(f, 10 * MINUTE, 5 * SECOND);
    expect(posts(f)).toBe(2);
  });

  it('is settled as placed when a re-send is refused because our offer exists', async () => {
    fixture = await unreadableMarketplace();
    const f = fixture;
    await f.daemon.runJob('poll');
    f.server.route(OFFER, () => ({ status: 400, body: { message: 'You have already made an offer on this loan request.' } }));
    await pollFor(f, 2 * MINUTE, 5 * SECOND);
    expect(posts(f)).toBe(2);
    expect(f.store.offers.getByRequest(7)?.state).toBe('placed');
    expect(messages(f)).toContain('unknown offer settled: the service says our offer exists');
  });

  it('is settled by reading, without a re-send, when a loan of ours exists for the request', async () => {
    fixture = await unreadableMarketplace();
    const f = fixture;
    await f.daemon.runJob('poll');
    f.store.account.upsertLoans([loanSchema.parse(loanJson(90, { loan_request_id: 7, status: 'funded' }))], 'current', f.clock.now());
    await pollFor(f, 5 * MINUTE, 5 * SECOND);
    expect(posts(f)).toBe(1);
    expect(f.store.offers.getByRequest(7)?.state).toBe('funded');
    expect(messages(f)).toContain('unknown offer settled by reading: a loan of ours exists for its request');
  });
});

// The daemon's export writes the investor's own offer on each request (recording `offer`), from a
// real store in a temp dir, moved through the states as the daemon moves them.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordingLine } from '../../src/recording/index.js';
import { offerSchema } from '../../src/domain/index.js';
import type { OfferState, Store } from '../../src/store/index.js';
import { DAY, HOUR, T0, loanRequest, tempStore } from '../store/fixtures.js';
import { exportedLines } from './exported-lines.js';

let store: Store;
let path: string;
let cleanup: () => void;
beforeEach(() => {
  ({ store, path, cleanup } = tempStore());
});
afterEach(() => cleanup());

const EXPIRY_MS = 72 * HOUR;

function serviceOffer(id: number, rate: number) {
  return offerSchema.parse({ id, offered_interest: rate, offer_status: 'pending', automate_fund: true, created: '2026-03-10T12:00:01Z' });
}

/**
 * A request seen at `atMs` and offered on at `rate`, moved as the daemon moves it: 'placed' and
 * later states through the service's answer (markPlaced), the others as set by the placer or
 * the reconciler. `serviceId` false: the service never returned an offer.
 */
function offerOn(
  id: number,
  rate: number,
  state: OfferState,
  options: { atMs?: number; dryRun?: boolean; serviceId?: boolean } = {},
): void {
  const atMs = options.atMs ?? T0;
  const request = loanRequest({ id, borrowerId: 500 + id, maxInterestRate: 0.5 });
  store.requests.markSeen(request, 'poll', atMs);
  const intent = store.offers.createIntent({ request, rate, automateFund: true, dryRun: options.dryRun ?? false, atMs });
  if (!intent.created) throw new Error('intent unexpectedly refused');
  const offerId = intent.offer.id;
  if (state === 'intent') return;
  if (options.serviceId ?? (!options.dryRun && state !== 'refused' && state !== 'unknown')) {
    store.offers.markPlaced(offerId, serviceOffer(9000 + id, rate), atMs + 1000);
  }
  if (state === 'refused') store.offers.markRefused(offerId, 'RULE_REFUSED: borrower accepted another offer', atMs + 1000);
  else if (state === 'unknown') store.offers.markUnknown(offerId, 'socket hang up', atMs + 1000);
  else if (state !== 'placed' || options.dryRun) store.offers.setState(offerId, state, atMs + 2000);
}

function exported(nowMs: number): Promise<Map<number, RecordingLine>> {
  return exportedLines(store, join(path, '..', 'rec.jsonl'), nowMs, EXPIRY_MS);
}

describe('the own offer in a daemon export', () => {
  it('writes placed offers with their rate, status and time, and leaves out what never reached the service', async () => {
    const now = T0 + 5 * DAY;
    offerOn(1, 0.21, 'accepted');
    offerOn(2, 0.22, 'funded');
    offerOn(3, 0.23, 'rejected');
    offerOn(4, 0.24, 'placed', { atMs: now - HOUR }); // recent, no answer yet
    offerOn(5, 0.25, 'placed'); // unanswered for five days, beyond the offer expiry
    offerOn(6, 0.26, 'placed', { dryRun: true }); // a dry run's offer: never sent
    offerOn(7, 0.27, 'refused');
    offerOn(8, 0.28, 'unknown');
    offerOn(9, 0.29, 'intent');
    offerOn(10, 0.3, 'expired', { serviceId: false }); // an ambiguous attempt the reconciler gave up on
    offerOn(11, 0.31, 'expired'); // an offer the service had, expired
    offerOn(12, 0.32, 'accepted', { dryRun: true });
    store.requests.markSeen(loanRequest({ id: 13 }), 'poll', T0); // seen, never offered on

    const lines = await exported(now);
    expect(lines.size).toBe(13);
    const offers = Object.fromEntries([...lines].map(([id, line]) => [id, line.offer ?? null]));
    const at = new Date(T0).toISOString();
    expect(offers).toEqual({
      1: { rate: 0.21, status: 'accepted', at },
      2: { rate: 0.22, status: 'accepted', at },
      3: { rate: 0.23, status: 'rejected', at },
      4: { rate: 0.24, status: 'pending', at: new Date(now - HOUR).toISOString() },
      5: { rate: 0.25, status: 'expired', at },
      6: null,
      7: null,
      8: null,
      9: null,
      10: null,
      11: { rate: 0.31, status: 'expired', at },
      12: null,
      13: null,
    });
  });

  it('counts an unanswered offer as pending until the offer expiry has passed', async () => {
    offerOn(1, 0.2, 'placed');
    expect((await exported(T0 + EXPIRY_MS)).get(1)?.offer?.status).toBe('pending');
    expect((await exported(T0 + EXPIRY_MS + 1)).get(1)?.offer?.status).toBe('expired');
  });
});

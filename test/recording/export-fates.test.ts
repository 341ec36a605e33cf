// The fate of each of our offers as the store reads it from the list scans the poll notes
// (offers.noteListing, offers.fate) and as `lendbot record export` writes it: a real store in a
// temp dir, scans as the daemon's poll hands them over (listingScan).
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filtersCover, listingScan } from '../../src/daemon/list-coverage.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { offerSchema } from '../../src/domain/index.js';
import { LIST_WINDOW_MS, type Store } from '../../src/store/index.js';
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
const CREATED = new Date(T0 - HOUR).toISOString();

/** A request created an hour before T0, offered on at `atMs`, the service answering `status`. */
function placed(id: number, options: { atMs?: number; riskLevel?: number; answered?: string } = {}): number {
  const atMs = options.atMs ?? T0;
  const request = loanRequest({ id, borrowerId: 500 + id, riskLevel: options.riskLevel ?? 1, created: CREATED });
  store.requests.markSeen(request, 'poll', atMs);
  const intent = store.offers.createIntent({ request, rate: 0.2, automateFund: true, dryRun: false, atMs });
  if (!intent.created) throw new Error('intent refused');
  const answer = offerSchema.parse({
    id: 9000 + id,
    offered_interest: 0.2,
    offer_status: options.answered ?? 'pending',
    automate_fund: true,
    created: CREATED,
  });
  store.offers.markPlaced(intent.offer.id, answer, atMs + 1000);
  return intent.offer.id;
}

/** A complete scan (every page, no filter) listing `ids`. */
function scan(atMs: number, ids: number[], startedMs = atMs - 1000): void {
  store.offers.noteListing(listingScan(store, { ids: new Set(ids), complete: true, startedMs }), atMs);
}

const fate = (id: number, nowMs: number) => store.offers.fate(store.offers.getByRequest(id)!, { nowMs, expiryMs: EXPIRY_MS });

function exported(nowMs: number): Promise<Map<number, RecordingLine>> {
  return exportedLines(store, join(path, '..', 'fates.jsonl'), nowMs, EXPIRY_MS);
}

describe('offer fates from list scans', () => {
  it('tells lost (left while our offer was out) from expired (listed past its life) and pending', async () => {
    placed(1);
    placed(2);
    placed(3);
    scan(T0 + HOUR, [1, 2, 3]);
    scan(T0 + 2 * HOUR, [2, 3]); // 1 left while our offer was out
    expect(fate(1, T0 + 2 * HOUR)).toMatchObject({
      fate: 'lost',
      listedUntil: new Date(T0 + HOUR).toISOString(),
      leftListAt: new Date(T0 + 2 * HOUR).toISOString(),
      agedOut: false,
    });
    scan(T0 + 80 * HOUR, [2, 3]); // still listed after our offer's 72 h
    scan(T0 + 81 * HOUR, [3]); // 2 leaves after that: our offer had expired
    const lines = await exported(T0 + 82 * HOUR);
    expect([1, 2, 3].map((id) => lines.get(id)?.offer?.status)).toEqual(['lost', 'expired', 'expired']);
    expect(fate(3, T0 + 10 * HOUR)?.fate).toBe('pending');
    for (const id of [1, 2, 3]) expect(lines.get(id)?.outcome).toBeUndefined();
  });

  it('writes unfunded for a request watched until it aged out of the list, and nothing when the watch had a gap', async () => {
    placed(1);
    placed(2);
    const windowEnd = Date.parse(CREATED) + LIST_WINDOW_MS;
    scan(windowEnd - 20 * DAY, [1, 2]);
    scan(windowEnd - 10 * 60_000, [1]); // 2 not seen since day 10: the daemon was away
    scan(windowEnd + 10 * 60_000, []);
    const lines = await exported(windowEnd + HOUR);
    expect(lines.get(1)?.offer?.status).toBe('expired');
    expect(lines.get(1)?.outcome).toEqual({ status: 'unfunded', resolved_at: new Date(windowEnd + 10 * 60_000).toISOString() });
    expect(lines.get(2)?.offer?.status).toBe('expired'); // listed after its offer's life, gone somewhere in 20 days
    expect(lines.get(2)?.outcome).toBeUndefined();
  });

  it('forgets a departure when the request is listed again (an acceptance that lapsed reopens it)', () => {
    placed(1);
    scan(T0 + HOUR, []);
    expect(fate(1, T0 + HOUR)?.fate).toBe('lost');
    scan(T0 + 2 * HOUR, [1]);
    expect(fate(1, T0 + 2 * HOUR)).toMatchObject({ fate: 'pending', leftListAt: null, listedUntil: new Date(T0 + 2 * HOUR).toISOString() });
  });

  it('reads absence only from scans that would have listed the request', () => {
    placed(1, { riskLevel: 1 });
    placed(2, { riskLevel: 2 });
    placed(3, { atMs: T0 + 5 * HOUR, riskLevel: 3 }); // placed while the last scan below was under way
    const at = T0 + 6 * HOUR;
    // A scan cut short (a later page vanished): nothing absent from it is gone.
    store.offers.noteListing(listingScan(store, { ids: new Set(), complete: false }), at);
    expect(fate(1, at)?.fate).toBe('pending');
    // A filtered scan read to the end covers only what its filters let through.
    store.offers.noteListing(listingScan(store, { ids: new Set(), complete: false, filters: { svcColor: 1 }, startedMs: at - 1000 }), at);
    expect([1, 2].map((id) => fate(id, at)?.fate)).toEqual(['lost', 'pending']);
    // A complete scan that began before offer 3 was placed says nothing about it.
    scan(at, [], T0 + 4 * HOUR);
    expect([2, 3].map((id) => fate(id, at)?.fate)).toEqual(['lost', 'pending']);
  });

  it('keeps a rejection the make_offer answer states, and leaves out offers the service never took', async () => {
    placed(1, { answered: 'rejected' });
    const request = loanRequest({ id: 2, borrowerId: 502 });
    store.requests.markSeen(request, 'poll', T0);
    const dry = store.offers.createIntent({ request, rate: 0.2, automateFund: true, dryRun: true, atMs: T0 });
    if (!dry.created) throw new Error('intent refused');
    const lines = await exported(T0 + HOUR);
    expect(lines.get(1)?.offer?.status).toBe('rejected');
    expect(lines.get(2)?.offer).toBeUndefined();
  });
});

describe('filters a scan covers', () => {
  it('understands risk level and amount, and nothing else', () => {
    const request = { borrower_card_color: 1, loan_amount: '500.00' };
    expect(filtersCover({}, request)).toBe(true);
    expect(filtersCover({ svcColor: 1, loanAmount: { min: 499, max: 501 } }, request)).toBe(true);
    expect(filtersCover({ svcColor: 2 }, request)).toBe(false);
    expect(filtersCover({ loanAmount: { min: 501 } }, request)).toBe(false);
    expect(filtersCover({ state: ['CA'] }, request)).toBe(false);
  });
});

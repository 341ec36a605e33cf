/**
 * The decisions pages behind GET /api/decisions, on a real SQLite file with more decisions than a
 * filtered page looks at: newest first, every decision once across pages, and a filtered page
 * that stops at its scan window says where to read on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseOf, SCAN_WINDOW, UnknownCursorError } from '../../src/store/index.js';
import { tempStore } from '../store/fixtures.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const TOTAL = SCAN_WINDOW + 2_000;
let h: ReturnType<typeof tempStore>;

beforeAll(() => {
  h = tempStore();
  const insert = databaseOf(h.store).transaction(() => {
    for (let i = 1; i <= TOTAL; i += 1) {
      // Decided in a shuffled order of ids: the page order is by time, not by id.
      const atMs = Date.UTC(2026, 0, 1) + ((i * 7_919) % TOTAL) * 1_000;
      h.store.decisions.record({
        loanRequestId: i,
        action: i % 3 === 0 ? 'offer' : 'skip',
        strategy: i % 2 === 0 ? 'even' : 'odd',
        reasons: storedReasons([i % 1_000 === 0 ? 'guard paused: by hand' : 'filter credit_score < 600']),
        dryRun: false,
        decidedAtMs: atMs,
      });
    }
  });
  insert();
});
afterAll(() => h.cleanup());

describe('decision pages', () => {
  it('walk every decision once, newest first, a page at a time', () => {
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = h.store.decisions.page({ limit: 500, beforeId: before });
      seen.push(...page.decisions.map((decision) => decision.decidedAt));
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    expect(seen).toHaveLength(TOTAL);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('filter by action on its index, and by text within a window, saying where to read on', () => {
    const offers = h.store.decisions.page({ limit: 10, action: 'offer' });
    expect(offers.decisions.every((decision) => decision.action === 'offer')).toBe(true);
    expect(offers.nextBefore).toBe(offers.decisions[9]!.id);

    const found: number[] = [];
    let before: number | undefined;
    let pages = 0;
    for (;;) {
      const page = h.store.decisions.page({ limit: 50, beforeId: before, text: 'paused', strategy: 'even' });
      pages += 1;
      found.push(...page.decisions.map((decision) => decision.loanRequestId));
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    // Every thousandth request is a "paused" one, and all of them are even.
    expect(found.sort((a, b) => a - b)).toEqual(Array.from({ length: TOTAL / 1_000 }, (_, index) => (index + 1) * 1_000));
    // Fewer than 50 matches, but more decisions than one window: the first page said where to go on.
    expect(pages).toBe(2);
  });

  it('refuse a cursor that is no decision', () => {
    expect(() => h.store.decisions.page({ limit: 5, beforeId: TOTAL + 1 })).toThrow(UnknownCursorError);
  });
});

/**
 * The Telegram updates already handled, on a real SQLite file: an id is claimed once, across a
 * reopening of the file, and forgotten a week after it was handled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/clock/time-constants.js';
import { openStore } from '../../src/store/index.js';
import { T0, tempStore } from './fixtures.js';

let h: ReturnType<typeof tempStore> | undefined;
afterEach(() => h?.cleanup());

describe('the Telegram updates handled', () => {
  it('claims an id once, across a reopening of the file, and forgets it a week later', () => {
    h = tempStore();
    expect(h.store.telegramUpdates.claim(500, T0)).toBe(true);
    expect(h.store.telegramUpdates.claim(500, T0 + 1000)).toBe(false);
    expect(h.store.telegramUpdates.claim(501, T0 + 1000)).toBe(true);
    h.store.close();
    const reopened = openStore(h.path);
    try {
      expect(reopened.telegramUpdates.claim(500, T0 + DAY_MS)).toBe(false);
      // A week on, the row is pruned: Telegram's ids only grow, and a message that old is refused for its age.
      expect(reopened.telegramUpdates.claim(502, T0 + 7 * DAY_MS + 1)).toBe(true);
      expect(reopened.telegramUpdates.claim(500, T0 + 7 * DAY_MS + 2)).toBe(true);
    } finally {
      reopened.close();
    }
  });
});

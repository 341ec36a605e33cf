// The Telegram updates the command poller already handled (src/messaging/telegram-commands): none twice.
import type { Database } from 'better-sqlite3';
import { DAY_MS } from '../clock/time-constants.js';
import { isoFromMs } from './sql-values.js';

/** How long a handled update id is remembered. */
const TELEGRAM_UPDATES_KEPT_MS = 7 * DAY_MS;

export interface TelegramUpdatesRepository {
  /**
   * Records `updateId` as handled at `atMs`; false when it already was (a replay: ignore it).
   * Forgets ids handled more than TELEGRAM_UPDATES_KEPT_MS before, so the table stays small.
   */
  claim(updateId: number, atMs: number): boolean;
}

export function createTelegramUpdatesRepository(db: Database): TelegramUpdatesRepository {
  const insert = db.prepare('INSERT OR IGNORE INTO telegram_updates (update_id, handled_at) VALUES (?, ?)');
  const prune = db.prepare('DELETE FROM telegram_updates WHERE handled_at < ?');
  const claim = db.transaction((updateId: number, atMs: number): boolean => {
    prune.run(isoFromMs(atMs - TELEGRAM_UPDATES_KEPT_MS));
    return insert.run(updateId, isoFromMs(atMs)).changes === 1;
  });
  return { claim: (updateId, atMs) => claim(updateId, atMs) };
}

/**
 * The re-send schedule of offers whose outcome is unknown (offers.resends, offers.next_resend_at):
 * how many times the reconciler has sent one again and when it may next. Kept in the database so
 * the bound holds across restarts, a crash loop included (src/daemon/unknown-offer-resends.ts).
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs, msFromIso } from './sql-values.js';

/** How many re-sends an unknown offer has had, and when the next may go. */
export interface ResendSchedule {
  resends: number;
  /** Clock milliseconds; null: at the next look. */
  nextAtMs: number | null;
}

export interface OfferResends {
  schedule(offerId: number): ResendSchedule | undefined;
  /** Stores the schedule; false when there is no such offer. */
  record(offerId: number, schedule: ResendSchedule): boolean;
}

export function createOfferResends(db: Database): OfferResends {
  const read = db.prepare<[number], { resends: number; next_resend_at: string | null }>(
    'SELECT resends, next_resend_at FROM offers WHERE id = ?',
  );
  const write = db.prepare<[number, string | null, number]>('UPDATE offers SET resends = ?, next_resend_at = ? WHERE id = ?');
  return {
    schedule(offerId) {
      const row = read.get(offerId);
      if (row === undefined) return undefined;
      return { resends: row.resends, nextAtMs: row.next_resend_at === null ? null : msFromIso(row.next_resend_at) };
    },
    record(offerId, schedule) {
      return write.run(schedule.resends, schedule.nextAtMs === null ? null : isoFromMs(schedule.nextAtMs), offerId).changes === 1;
    },
  };
}

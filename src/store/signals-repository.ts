/**
 * Counts the protections read (src/ops/protections): where new requests were first heard of,
 * and when the last webhook delivery arrived.
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs, msFromIso } from './sql-values.js';

export interface SignalsRepository {
  /** Requests first seen at or after `fromMs` and before `toMs`, by the way they came. */
  requestsFirstSeenBetween(fromMs: number, toMs: number): { webhook: number; poll: number };
  /** When the latest webhook event was stored; undefined when none ever was. */
  lastWebhookReceivedMs(): number | undefined;
}

export function createSignalsRepository(db: Database): SignalsRepository {
  const bySource = db.prepare<[string, string], { source: string; n: number }>(
    'SELECT source, COUNT(*) AS n FROM requests_seen WHERE first_seen_at >= ? AND first_seen_at < ? GROUP BY source',
  );
  // The inbox is never pruned and rows come in time order: the last rowid is the latest event,
  // found without scanning a table that grows by every delivery.
  const latest = db.prepare<[], { received_at: string }>('SELECT received_at FROM webhook_inbox ORDER BY rowid DESC LIMIT 1');
  return {
    requestsFirstSeenBetween(fromMs, toMs) {
      const counts = { webhook: 0, poll: 0 };
      for (const row of bySource.all(isoFromMs(fromMs), isoFromMs(toMs))) {
        if (row.source === 'webhook' || row.source === 'poll') counts[row.source] = row.n;
      }
      return counts;
    },
    lastWebhookReceivedMs() {
      const row = latest.get();
      return row === undefined ? undefined : msFromIso(row.received_at);
    },
  };
}

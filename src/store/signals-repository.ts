/**
 * Counts the protections read (src/ops/protections): where new requests were first heard of,
 * and how many webhook deliveries arrived, since a moment.
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs } from './sql-values.js';

export interface SignalsRepository {
  /** Requests first seen since `sinceMs`, by the way they came. */
  requestsFirstSeenSince(sinceMs: number): { webhook: number; poll: number };
  /** Webhook events stored since `sinceMs`. */
  webhooksReceivedSince(sinceMs: number): number;
}

export function createSignalsRepository(db: Database): SignalsRepository {
  const bySource = db.prepare<[string], { source: string; n: number }>(
    'SELECT source, COUNT(*) AS n FROM requests_seen WHERE first_seen_at >= ? GROUP BY source',
  );
  const received = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM webhook_inbox WHERE received_at >= ?');
  return {
    requestsFirstSeenSince(sinceMs) {
      const counts = { webhook: 0, poll: 0 };
      for (const row of bySource.all(isoFromMs(sinceMs))) if (row.source === 'webhook' || row.source === 'poll') counts[row.source] = row.n;
      return counts;
    },
    webhooksReceivedSince(sinceMs) {
      return received.get(isoFromMs(sinceMs))?.n ?? 0;
    },
  };
}

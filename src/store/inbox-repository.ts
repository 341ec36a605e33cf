/**
 * The webhook inbox: every verified event is written here before the listener answers 200, so
 * an event is never lost, and its uuid is unique, so a redelivered event is never handled twice.
 * The hash of the token's signed payload is unique too: with the data layout the uuid is not
 * signed, and a captured token replayed under a new uuid must still be a duplicate.
 * Events still unprocessed when the daemon stops are picked up after it restarts.
 */
import type { Database } from 'better-sqlite3';
import { isoFromMs, parseJsonColumn } from './sql-values.js';

export interface InboxEventInput {
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
  receivedAtMs: number;
  /** SHA-256 (hex) of the token's signed payload; an event whose hash is already there is a duplicate. */
  payloadSha256?: string | undefined;
  /** Store the event as already handled with this outcome (e.g. 'ignored' for unknown topics). */
  settledOutcome?: string | undefined;
}

export interface InboxEvent {
  /** Position in the inbox (arrival order), for reading on from where a pass stopped. */
  seq: number;
  webhookUuid: string;
  topic: string;
  data: Record<string, unknown>;
  receivedAt: string;
  processedAt: string | null;
  outcome: string | null;
}

interface InboxRow {
  seq: number;
  webhook_uuid: string;
  topic: string;
  data_json: string;
  received_at: string;
  processed_at: string | null;
  outcome: string | null;
}

export interface InboxRepository {
  /** Stores an event durably; 'duplicate' when its uuid or payload hash is already there (nothing changes). */
  insert(event: InboxEventInput): 'inserted' | 'duplicate';
  /**
   * Stores events in one transaction (one commit for all), in order; an answer per event, as
   * `insert` gives. Throws, storing none, when any one fails.
   */
  insertMany(events: readonly InboxEventInput[]): Array<'inserted' | 'duplicate'>;
  get(webhookUuid: string): InboxEvent | undefined;
  /** Events not yet processed, oldest first; after `after` (an event's position) when given. */
  unprocessed(limit: number, after?: Pick<InboxEvent, 'seq' | 'receivedAt'>): InboxEvent[];
  /** Marks an event handled; false when it was unknown or already processed. */
  markProcessed(webhookUuid: string, outcome: string, atMs: number): boolean;
  /** How many events wait to be processed. */
  depth(): number;
  /** When the newest event arrived (the last row inserted, by rowid: no scan), or undefined for an empty inbox. */
  lastReceivedAt(): string | undefined;
  /** When the first unprocessed event about this loan request arrived (ms), if one waits. */
  waitingSinceMs(loanRequestId: number): number | undefined;
}

function fromRow(row: InboxRow): InboxEvent {
  return {
    seq: row.seq,
    webhookUuid: row.webhook_uuid,
    topic: row.topic,
    data: parseJsonColumn<Record<string, unknown>>(row.data_json),
    receivedAt: row.received_at,
    processedAt: row.processed_at,
    outcome: row.outcome,
  };
}

export function createInboxRepository(db: Database): InboxRepository {
  const insert = db.prepare(
    // No conflict target: a clash on the uuid or on the payload hash is a duplicate alike.
    `INSERT INTO webhook_inbox (webhook_uuid, topic, data_json, received_at, processed_at, outcome, payload_sha256)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const byUuid = db.prepare<[string], InboxRow>('SELECT rowid AS seq, * FROM webhook_inbox WHERE webhook_uuid = ?');
  const pending = db.prepare<[string, number, number], InboxRow>(
    `SELECT rowid AS seq, * FROM webhook_inbox WHERE processed_at IS NULL AND (received_at, rowid) > (?, ?)
     ORDER BY received_at, rowid LIMIT ?`,
  );
  const processed = db.prepare('UPDATE webhook_inbox SET processed_at = ?, outcome = ? WHERE webhook_uuid = ? AND processed_at IS NULL');
  const newest = db.prepare<[], { received_at: string }>('SELECT received_at FROM webhook_inbox ORDER BY rowid DESC LIMIT 1');
  const count = db.prepare<[], { depth: number }>('SELECT COUNT(*) AS depth FROM webhook_inbox WHERE processed_at IS NULL');
  // While the pipeline runs, the event that brought the request is still unprocessed, so the
  // partial index on unprocessed events finds it without scanning the inbox.
  const waiting = db.prepare<[number], { received_at: string | null }>(
    `SELECT MIN(received_at) AS received_at FROM webhook_inbox
     WHERE processed_at IS NULL AND json_extract(data_json, '$.loan_request_id') = ?`,
  );

  const insertOne = (event: InboxEventInput): 'inserted' | 'duplicate' => {
    const receivedAt = isoFromMs(event.receivedAtMs);
    const settled = event.settledOutcome;
    const result = insert.run(
      event.webhookUuid,
      event.topic,
      JSON.stringify(event.data),
      receivedAt,
      settled === undefined ? null : receivedAt,
      settled ?? null,
      // 32 bytes rather than 64 hex characters: a smaller unique index, cheaper to insert into.
      event.payloadSha256 === undefined ? null : Buffer.from(event.payloadSha256, 'hex'),
    );
    return result.changes === 1 ? 'inserted' : 'duplicate';
  };
  const insertAll = db.transaction((events: readonly InboxEventInput[]) => events.map(insertOne));

  return {
    insert: insertOne,
    insertMany(events) {
      return insertAll(events);
    },
    get(webhookUuid) {
      const row = byUuid.get(webhookUuid);
      return row === undefined ? undefined : fromRow(row);
    },
    unprocessed(limit, after) {
      return pending.all(after?.receivedAt ?? '', after?.seq ?? 0, limit).map(fromRow);
    },
    markProcessed(webhookUuid, outcome, atMs) {
      return processed.run(isoFromMs(atMs), outcome, webhookUuid).changes === 1;
    },
    lastReceivedAt() {
      return newest.get()?.received_at;
    },
    depth() {
      return count.get()?.depth ?? 0;
    },
    waitingSinceMs(loanRequestId) {
      const receivedAt = waiting.get(loanRequestId)?.received_at;
      return receivedAt ? Date.parse(receivedAt) : undefined;
    },
  };
}

/**
 * The store's schema, as an ordered list of numbered steps. A file's version is kept in
 * `PRAGMA user_version`; opening a file applies every later step in one transaction, so a file
 * is always at exactly one version. Steps are append-only: never edit a released step, add one.
 *
 * Timestamps are ISO 8601 UTC texts from `Date.toISOString()` (fixed width, so they sort and
 * compare as text). Money is integer cents; rates are the API's unit (0.03 to 2.0).
 */

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'requests, purchases, decisions, offers, webhook inbox, account, state',
    sql: `
      CREATE TABLE requests_seen (
        loan_request_id INTEGER PRIMARY KEY,
        raw_json TEXT NOT NULL,
        first_seen_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('webhook', 'poll', 'replay')),
        risk_level INTEGER NOT NULL,
        total_amount_cents INTEGER NOT NULL,
        borrower_id INTEGER NOT NULL
      );
      CREATE INDEX requests_seen_first_seen ON requests_seen (first_seen_at);

      CREATE TABLE purchases (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('banking_data', 'provider')),
        provider TEXT,
        cost_cents INTEGER NOT NULL CHECK (cost_cents >= 0),
        bought_at TEXT NOT NULL,
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        error TEXT,
        payload_json TEXT
      );
      CREATE INDEX purchases_request ON purchases (loan_request_id);
      CREATE INDEX purchases_bought_at ON purchases (bought_at);

      CREATE TABLE decisions (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL UNIQUE,
        strategy TEXT,
        content_hash TEXT,
        params_json TEXT NOT NULL DEFAULT '{}',
        features_json TEXT NOT NULL DEFAULT '{}',
        probability REAL,
        rate REAL,
        action TEXT NOT NULL CHECK (action IN ('offer', 'skip')),
        reasons_json TEXT NOT NULL DEFAULT '[]',
        dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
        decided_at TEXT NOT NULL,
        timings_json TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX decisions_decided_at ON decisions (decided_at, id);
      CREATE INDEX decisions_action_decided_at ON decisions (action, decided_at, id);

      CREATE TABLE offers (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL UNIQUE,
        rate REAL NOT NULL,
        automate_fund INTEGER NOT NULL CHECK (automate_fund IN (0, 1)),
        total_amount_cents INTEGER NOT NULL,
        risk_level INTEGER NOT NULL,
        borrower_id INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN
          ('intent', 'placed', 'refused', 'unknown', 'accepted', 'funded', 'rejected', 'expired')),
        service_offer_id INTEGER,
        service_text TEXT,
        offer_json TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1))
      );
      CREATE INDEX offers_state ON offers (state, created_at);
      CREATE INDEX offers_borrower ON offers (borrower_id);

      CREATE TABLE webhook_inbox (
        webhook_uuid TEXT PRIMARY KEY,
        topic TEXT NOT NULL,
        data_json TEXT NOT NULL,
        received_at TEXT NOT NULL,
        processed_at TEXT,
        outcome TEXT
      );
      CREATE INDEX webhook_inbox_unprocessed ON webhook_inbox (received_at) WHERE processed_at IS NULL;

      CREATE TABLE loans (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER,
        list_status TEXT NOT NULL,
        status TEXT NOT NULL,
        risk_level INTEGER,
        loan_amount_cents INTEGER NOT NULL,
        remaining_cents INTEGER NOT NULL,
        interest_rate REAL NOT NULL,
        paid_off INTEGER NOT NULL CHECK (paid_off IN (0, 1)),
        raw_json TEXT NOT NULL,
        synced_at TEXT NOT NULL
      );
      CREATE INDEX loans_request ON loans (loan_request_id);

      CREATE TABLE payments (
        id INTEGER PRIMARY KEY,
        loan_id INTEGER NOT NULL,
        amount_cents INTEGER NOT NULL,
        due_date TEXT NOT NULL,
        status TEXT NOT NULL,
        raw_json TEXT NOT NULL,
        synced_at TEXT NOT NULL
      );
      CREATE INDEX payments_loan ON payments (loan_id);

      CREATE TABLE transfers (
        id INTEGER PRIMARY KEY,
        date TEXT NOT NULL,
        position INTEGER NOT NULL,
        status TEXT NOT NULL,
        type TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        loan_request_id INTEGER,
        loan_id INTEGER,
        borrower_id INTEGER,
        raw_json TEXT NOT NULL,
        synced_at TEXT NOT NULL
      );

      CREATE TABLE state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'offers: the funding schedule of accepted offers without automate_fund',
    sql: `
      ALTER TABLE offers ADD COLUMN fund_attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE offers ADD COLUMN next_fund_at TEXT;
    `,
  },
  {
    version: 3,
    description: 'decisions: the guard refusal code and what became of the offer, as codes (metrics never parse reasons)',
    sql: `
      ALTER TABLE decisions ADD COLUMN guard_code TEXT;
      ALTER TABLE decisions ADD COLUMN placement TEXT;
    `,
  },
];

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS.reduce((max, step) => Math.max(max, step.version), 0);

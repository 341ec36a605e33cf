/**
 * The store's schema, as an ordered list of numbered steps. A file's version is kept in
 * `PRAGMA user_version`; opening a file applies every later step in one transaction, so a file
 * is always at exactly one version. Steps are append-only: never edit a released step, add one.
 *
 * Timestamps are ISO 8601 UTC texts from `Date.toISOString()` (fixed width, so they sort and
 * compare as text). Money is integer cents; rates are the API's unit (0.03 to 2.0).
 */

import type { Database } from 'better-sqlite3';
import { reasonTextsToValues } from './reason-texts-to-values.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** What SQL alone cannot do, run after `sql` in the same transaction. */
  transform?: (db: Database) => void;
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
  {
    version: 4,
    description: "webhook inbox: a hash of each token's signed payload, unique, so a token replayed under a new uuid is a duplicate",
    sql: `
      -- With the data layout the uuid travels beside the token, unsigned (docs/webhooks.md): the
      -- signed content is what makes an event one event. 32 bytes; NULL for envelope-layout
      -- events (their signed uuid dedupes them) and for rows stored before this step.
      ALTER TABLE webhook_inbox ADD COLUMN payload_sha256 BLOB;
      CREATE UNIQUE INDEX webhook_inbox_payload ON webhook_inbox (payload_sha256);
    `,
  },
  {
    version: 5,
    description: 'payments: late/missed flags, delays and fees as columns, when each loan was read, a per-loan summary view',
    sql: `
      ALTER TABLE payments ADD COLUMN is_late INTEGER NOT NULL DEFAULT 0 CHECK (is_late IN (0, 1));
      ALTER TABLE payments ADD COLUMN delayed_days INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE payments ADD COLUMN fees_cents INTEGER NOT NULL DEFAULT 0;
      -- The worst state the sync has seen the payment in (late, then missed); never lowered, so a
      -- late payment paid since still counts as late, and its notification is never sent again.
      ALTER TABLE payments ADD COLUMN flag TEXT CHECK (flag IN ('late', 'missed'));
      ALTER TABLE payments ADD COLUMN flagged_at TEXT;
      -- Raised each time a flag is raised: the notification check's cursor.
      ALTER TABLE payments ADD COLUMN flag_seq INTEGER;
      CREATE INDEX payments_flag_seq ON payments (flag_seq) WHERE flag_seq IS NOT NULL;

      -- One row per loan whose payments were read: which list and status the loan had then, and
      -- when its payments are worth reading again (NULL: not until the loan moves).
      CREATE TABLE payment_reads (
        loan_id INTEGER PRIMARY KEY,
        list_status TEXT NOT NULL,
        loan_status TEXT NOT NULL,
        read_at TEXT NOT NULL,
        due_at TEXT
      );

      CREATE VIEW loan_payment_states AS
        SELECT loan_id,
          COUNT(*) AS payments,
          SUM(lower(status) = 'paid') AS paid,
          SUM(CASE WHEN lower(status) = 'paid' THEN amount_cents ELSE 0 END) AS paid_cents,
          SUM(flag IS 'late') AS late,
          SUM(flag IS 'missed') AS missed,
          MAX(delayed_days) AS max_delayed_days,
          SUM(fees_cents) AS fees_cents,
          MAX(due_date) AS last_due_date
        FROM payments GROUP BY loan_id;
    `,
  },
  {
    version: 6,
    description:
      "decisions: who decided (NULL: the strategies; agent:NAME: an agent through the connector) and the decision an agent's replaced",
    sql: `
      ALTER TABLE decisions ADD COLUMN source TEXT;
      -- An agent may offer on a request the strategies skipped: the row becomes the agent's and
      -- the strategies' decision is kept here as JSON, so "why did it (not) offer?" still has both.
      ALTER TABLE decisions ADD COLUMN previous_json TEXT;
    `,
  },
  {
    version: 7,
    description: 'offer listings: when the request of each of our offers was last listed and when a scan first missed it',
    sql: `
      -- The spec shows no offer's fate but acceptance (a loan of ours appears); what the list shows
      -- is whether the request is still open. listed_until: the last scan that listed it while our
      -- offer was out; left_list_at: the first scan that should have listed it and did not (NULL
      -- again if it comes back). A table of its own, not offer columns: written after every poll,
      -- it must not wake the offer book's triggers. docs/recording-format.md says how it is read.
      CREATE TABLE offer_listings (
        offer_id INTEGER PRIMARY KEY,
        listed_until TEXT,
        left_list_at TEXT
      );
    `,
  },
  {
    version: 8,
    description: "purchases: the strategy that asked (per-strategy budgets) and subscription rows (a flat-priced provider's monthly fee)",
    sql: `
      -- SQLite cannot change a CHECK in place: the table is rebuilt with 'subscription' allowed and
      -- a strategy column (NULL for rows written before this step and for an agent's purchases).
      -- 'borrower_history' (marketplace 4.9, free) is allowed too, so storing it needs no second rebuild.
      CREATE TABLE purchases_v8 (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('banking_data', 'provider', 'subscription', 'borrower_history')),
        provider TEXT,
        cost_cents INTEGER NOT NULL CHECK (cost_cents >= 0),
        bought_at TEXT NOT NULL,
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        error TEXT,
        payload_json TEXT,
        strategy TEXT
      );
      INSERT INTO purchases_v8 (id, loan_request_id, kind, provider, cost_cents, bought_at, ok, error, payload_json)
        SELECT id, loan_request_id, kind, provider, cost_cents, bought_at, ok, error, payload_json FROM purchases;
      DROP TABLE purchases;
      ALTER TABLE purchases_v8 RENAME TO purchases;
      CREATE INDEX purchases_request ON purchases (loan_request_id);
      CREATE INDEX purchases_bought_at ON purchases (bought_at);
      -- A strategy's month-to-date spend (its budget) from the index alone.
      CREATE INDEX purchases_strategy_spend ON purchases (strategy, bought_at, cost_cents) WHERE cost_cents > 0;
      CREATE INDEX purchases_subscriptions ON purchases (bought_at) WHERE kind = 'subscription';
    `,
  },
  {
    version: 9,
    description: "offer proposals: the offers agents asked for, waiting for a person (or placed within their token's allowance)",
    sql: `
      -- One row per offer an agent asked for through the connector (docs/agent-connector.md,
      -- "Proposals"). Beyond its token's allowance it waits as 'pending' until a person approves
      -- ('approved', then 'placing' while the offer goes the daemon's way, then 'done' with the
      -- outcome), rejects it, or it expires. Within the allowance it starts as 'placing', decided
      -- by 'allowance': those rows are what the token's allowance per day counts. Times are real
      -- time (a person's minutes), not the sandbox's market clock.
      CREATE TABLE offer_proposals (
        id INTEGER PRIMARY KEY,
        token_name TEXT NOT NULL,
        loan_request_id INTEGER NOT NULL,
        rate REAL NOT NULL,
        automate_fund INTEGER NOT NULL CHECK (automate_fund IN (0, 1)),
        amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
        risk_level INTEGER NOT NULL,
        request_json TEXT NOT NULL,
        explanation_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'placing', 'done', 'rejected', 'expired')),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        note TEXT,
        outcome TEXT,
        outcome_json TEXT,
        finished_at TEXT
      );
      CREATE INDEX offer_proposals_open ON offer_proposals (status, expires_at) WHERE status IN ('pending', 'approved', 'placing');
      CREATE INDEX offer_proposals_token ON offer_proposals (token_name, created_at);
    `,
  },
  {
    version: 10,
    description: "paper offers: what a dry run's would-be offers were modelled to bring (the paper book)",
    sql: `
      -- One row per dry-run offer (docs/daemon.md, "Paper book"): the acceptance the strategy's
      -- market response gave its rate, the score's repayment probability and the profit either way
      -- once accepted, all MODELLED when it was decided. NULLs: a strategy without a score (pricing
      -- max_rate), which models nothing. What became of the request comes from offer_listings.
      CREATE TABLE paper_offers (
        offer_id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL,
        strategy TEXT NOT NULL,
        accept_probability REAL CHECK (accept_probability IS NULL OR (accept_probability >= 0 AND accept_probability <= 1)),
        repay_probability REAL CHECK (repay_probability IS NULL OR (repay_probability >= 0 AND repay_probability <= 1)),
        repaid_profit_cents REAL,
        default_profit_cents REAL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX paper_offers_created ON paper_offers (created_at);
    `,
  },
  {
    version: 11,
    description: 'shadow decisions: what each challenger strategy (shadow: true) would have offered on a live request, never sent',
    sql: `
      -- One row per request and challenger (docs/strategies.md, "Shadow and split"). The
      -- challenger decided on the data the live decision bought and nothing more: needed_json
      -- lists what it asked for and was not given ("would have needed"). modelled_accept is the
      -- market response's chance the offer would have been accepted, a model, not an outcome.
      CREATE TABLE shadow_decisions (
        id INTEGER PRIMARY KEY,
        loan_request_id INTEGER NOT NULL,
        strategy TEXT NOT NULL,
        content_hash TEXT,
        action TEXT NOT NULL CHECK (action IN ('offer', 'skip')),
        rate REAL,
        probability REAL,
        modelled_accept REAL,
        amount_cents INTEGER NOT NULL,
        max_rate REAL NOT NULL,
        reasons_json TEXT NOT NULL DEFAULT '[]',
        needed_json TEXT NOT NULL DEFAULT '[]',
        decided_at TEXT NOT NULL,
        UNIQUE (loan_request_id, strategy)
      );
      CREATE INDEX shadow_decisions_strategy ON shadow_decisions (strategy, decided_at);
    `,
  },
  {
    version: 12,
    description: "learned market responses: each learning strategy's posterior, and which one priced each decision",
    sql: `
      -- One row per strategy with pricing.learning (docs/market-model.md, "Learning while live"):
      -- the learner's whole state as JSON (posterior mean and covariance, exploration totals), so
      -- a restart resumes it. version counts the fates learned; evidence the fates it rests on.
      CREATE TABLE market_learners (
        strategy TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        evidence INTEGER NOT NULL,
        state_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- One row per decision a learned market response priced: which version and evidence, whether
      -- the rate explored, and (offers) what the fate teaches: observation_json holds the rate's
      -- position, the default probability and the prior's log-odds at the rate. fate and
      -- learned_at are set once the offer's fate was learned (accepted, rejected, lost, expired),
      -- or fate 'none' when the offer never reached a borrower (a dry run, a refused attempt).
      CREATE TABLE market_decisions (
        loan_request_id INTEGER PRIMARY KEY,
        strategy TEXT NOT NULL,
        version INTEGER NOT NULL,
        evidence INTEGER NOT NULL,
        explored INTEGER NOT NULL DEFAULT 0 CHECK (explored IN (0, 1)),
        action TEXT NOT NULL CHECK (action IN ('offer', 'skip')),
        rate REAL,
        predicted REAL,
        observation_json TEXT,
        fate TEXT,
        learned_at TEXT,
        decided_at TEXT NOT NULL
      );
      CREATE INDEX market_decisions_unlearned ON market_decisions (decided_at) WHERE fate IS NULL AND observation_json IS NOT NULL;
    `,
  },
  {
    version: 13,
    description: 'offers: an index by creation time, for counting recent offers by state',
    sql: `
      -- lendbot status, the overview and /metrics count the offers of the last 30 days by the state
      -- every surface shows (store/offer-view.ts); this keeps that a range, not a scan of every offer.
      CREATE INDEX offers_created ON offers (created_at);
    `,
  },
  {
    version: 14,
    description: 'decisions and shadow decisions: the reasons as values beside their text',
    sql: `
      -- Each reason as a value, [{"code": ..., figures}] (src/domain/decision-reason.ts), written
      -- with every new row; reasons_json keeps the same reasons as text, byte for byte as before,
      -- so old readers and old databases read the same. Readers use this column when it is set and
      -- read the text back only for the rows written before this step, where it is NULL (until
      -- the step "reason texts to values" below wrote their values too).
      ALTER TABLE decisions ADD COLUMN reason_values_json TEXT;
      ALTER TABLE shadow_decisions ADD COLUMN reason_values_json TEXT;
    `,
  },
  {
    version: 15,
    description: 'learned default levels: each strategy learner, the loans fed to it, and which one gave each decision',
    sql: `
      -- score.calibration method learned (src/engine/market/calibration-learner.ts): each strategy's
      -- learner state, so a restart resumes it; the evidence fed so far of each funded loan (its
      -- instalments paid on time, and whether it defaulted or completed), so nothing is fed twice;
      -- and on each decision, which learned calibration gave its probability (version, evidence).
      CREATE TABLE calibration_learners (
        strategy TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        loans INTEGER NOT NULL,
        defaults INTEGER NOT NULL,
        loan_months INTEGER NOT NULL,
        state_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE calibration_loans (
        loan_id INTEGER PRIMARY KEY,
        strategy TEXT NOT NULL,
        paid INTEGER NOT NULL,
        final TEXT CHECK (final IN ('defaulted', 'completed')),
        updated_at TEXT NOT NULL
      );
      ALTER TABLE decisions ADD COLUMN calibration_json TEXT;
    `,
  },
  {
    version: 16,
    description: 'telegram_updates: the Telegram updates already obeyed, so none is obeyed twice',
    sql: `
      -- One row per update id the command poller handled (src/ops/telegram-commands): a replayed
      -- id is ignored, across restarts. Rows older than a week are pruned: Telegram's ids grow,
      -- and a message that old is refused for its age anyway.
      CREATE TABLE telegram_updates (
        update_id INTEGER PRIMARY KEY,
        handled_at TEXT NOT NULL
      );
      CREATE INDEX telegram_updates_handled ON telegram_updates (handled_at);
    `,
  },
  {
    version: 17,
    description: 'retraining while live: each round with its evidence, and the strategy versions it promoted',
    sql: `
      -- One row per retraining round of one strategy (docs/training.md, "Retraining while live"):
      -- decision is where it stands (waiting: its candidate runs in shadow until shadow_until), reason
      -- says why in plain words, and each *_json column holds the evidence of one step: the fit,
      -- the held-out check per borrower world, the shadow period's figures. next_at: when the loop
      -- looks at this strategy again (the shadow's end, or the next round), for status.
      CREATE TABLE retrain_rounds (
        id INTEGER PRIMARY KEY,
        strategy TEXT NOT NULL,
        started_at TEXT NOT NULL,
        decided_at TEXT,
        decision TEXT NOT NULL CHECK (decision IN ('promoted', 'refused', 'waiting')),
        reason TEXT NOT NULL,
        resolved_loans INTEGER NOT NULL,
        candidate_json TEXT,
        candidate_text TEXT,
        candidate_model TEXT,
        fit_json TEXT,
        held_out_json TEXT,
        shadow_name TEXT,
        shadow_until TEXT,
        shadow_json TEXT,
        next_at TEXT
      );
      CREATE INDEX retrain_rounds_strategy ON retrain_rounds (strategy, id);
      -- The managed versions of a strategy the daemon runs instead of its file (never rewritten):
      -- the newest row of a strategy is in force; text NULL means the file as written; model, the
      -- retrained model file's JSON its score.model reads instead of the file's; file_hash, the
      -- content hash of the strategy file it was built on (once the file is edited, the file runs
      -- again). parent_id
      -- is the version this one was built on, what a rollback without --to restores.
      CREATE TABLE strategy_versions (
        id INTEGER PRIMARY KEY,
        strategy TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('promoted', 'rollback')),
        round_id INTEGER REFERENCES retrain_rounds (id),
        text TEXT,
        model TEXT,
        file_hash TEXT,
        parent_id INTEGER REFERENCES strategy_versions (id),
        restored_id INTEGER REFERENCES strategy_versions (id),
        created_at TEXT NOT NULL
      );
      CREATE INDEX strategy_versions_strategy ON strategy_versions (strategy, id);
    `,
  },
  {
    version: 18,
    description: 'offers: re-sends of an unknown outcome; proposals: the offer row their placing wrote',
    sql: `
      -- An offer whose outcome is unknown is re-sent a bounded number of times, with back-off
      -- (src/daemon/unknown-offer-resends.ts): how many re-sends so far and when the next may go,
      -- kept across restarts so a crash loop cannot re-send for ever.
      ALTER TABLE offers ADD COLUMN resends INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE offers ADD COLUMN next_resend_at TEXT;
      -- The offer row an approved proposal's placing wrote, before its POST: a placing the process
      -- stopped in the middle of is taken up again as that offer's, not as "already offered".
      ALTER TABLE offer_proposals ADD COLUMN offer_id INTEGER;
    `,
  },
  {
    version: 19,
    description: 'store_mode: whether the database holds a dry run or live offers',
    sql: `
      -- One row once a daemon has opened the file (docs/daemon.md, "Dry-run databases"): every view
      -- reads the dry run's paper offers, or the live ones, from it, without a flag. set_at is the
      -- daemon's clock; how says who set it: daemon, switched (--switch-db-mode) or inferred below.
      CREATE TABLE store_mode (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        mode TEXT NOT NULL CHECK (mode IN ('live', 'dry_run')),
        set_at TEXT,
        how TEXT NOT NULL CHECK (how IN ('daemon', 'switched', 'inferred'))
      );
      -- A file written before this step says what it is by its rows: any live offer or decision
      -- makes it live; only dry-run ones, a dry run; none, nothing yet (the next daemon decides).
      INSERT INTO store_mode (id, mode, set_at, how)
      SELECT 1, CASE WHEN live THEN 'live' ELSE 'dry_run' END, NULL, 'inferred'
      FROM (
        SELECT EXISTS (SELECT 1 FROM offers WHERE dry_run = 0) OR EXISTS (SELECT 1 FROM decisions WHERE dry_run = 0) AS live,
               EXISTS (SELECT 1 FROM offers WHERE dry_run = 1) OR EXISTS (SELECT 1 FROM decisions WHERE dry_run = 1) AS dry
      )
      WHERE live OR dry;
    `,
  },
  {
    version: 20,
    description: 'transfers_request: the transfer history by loan request',
    sql: `
      -- An offer whose money the history already shows paid out no longer reserves it
      -- (book-offer.ts, PAID_OUT_SQL): the guard, the views and the book ask it per offer.
      CREATE INDEX IF NOT EXISTS transfers_request ON transfers (loan_request_id);
    `,
  },
  {
    // "reason texts to values": if another branch also adds a step 21, renumber this one after it.
    version: 21,
    description:
      "reason texts to values: every reason stored only as text (before step 14, agents' replaced decisions, proposals) as its value",
    // Readers take reasons only as values since this step; the text columns stay as written.
    sql: '',
    transform: reasonTextsToValues,
  },
];

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS.reduce((max, step) => Math.max(max, step.version), 0);

// The migration "reason texts to values" on a file written by version 13, when reasons were kept
// only as text: every stored text (decisions, shadow decisions, the strategies' decision an
// agent's replaced, a proposal's outcome) gets the value the old run-time reader gave it, the
// texts stay byte for byte, and a row that already had its values is left alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf, openStore } from '../../src/store/index.js';
import { openDatabase, schemaVersion } from '../../src/store/database.js';
import { LATEST_VERSION, MIGRATIONS } from '../../src/store/migrations.js';
import { createShadowDecisionsRepository } from '../../src/store/shadow-decisions-repository.js';
import type { DecisionReason } from '../../src/domain/decision-reason.js';
import { REASON_CASES } from '../domain/reason-cases.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Every kind of reason as the old writers wrote it, with the value the old reader gave it; and a
// text no form reads back (a plugin's own), which stays `other` with its text.
const TEXTS = [...REASON_CASES.map(([, text]) => text), 'oracle: cannot win'];
const VALUES: DecisionReason[] = [...REASON_CASES.map(([reason]) => reason), { code: 'other', text: 'oracle: cannot win' }];
const PROPOSAL_TEXTS = ['score probability 0.8412', 'service refused: RULE_REFUSED: signed'];
const AT = '2026-03-02T00:00:00.000Z';

function databaseAt(version: number, fill: (db: ReturnType<typeof openDatabase>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-reason-values-'));
  dirs.push(dir);
  const path = join(dir, 'lendbot.db');
  const old = openDatabase(
    path,
    MIGRATIONS.filter((step) => step.version <= version),
  );
  expect(schemaVersion(old)).toBe(version);
  fill(old);
  old.close();
  return path;
}

/** A version-13 file: reasons only as text in every place they were kept. */
function databaseAt13(): string {
  return databaseAt(13, (old) => {
    const decision = old.prepare(
      `INSERT INTO decisions (loan_request_id, action, reasons_json, dry_run, decided_at, source, previous_json) VALUES (?, 'skip', ?, 0, ?, ?, ?)`,
    );
    decision.run(7, JSON.stringify(TEXTS), AT, null, null);
    // An agent's decision keeping the strategies' (texts only, as a version-13 writer kept it).
    const previous = { loanRequestId: 8, action: 'skip', reasons: ['filter credit_score_low < 600'], source: null };
    decision.run(
      8,
      JSON.stringify(['agent:bot offered 0.2 on $520.00 (confirmed by dashboard)']),
      AT,
      'agent:bot',
      JSON.stringify(previous),
    );
    old
      .prepare(
        `INSERT INTO shadow_decisions (loan_request_id, strategy, action, amount_cents, max_rate, reasons_json, decided_at) VALUES (7, 'challenger', 'skip', 500, 0.3, ?, ?)`,
      )
      .run(JSON.stringify(TEXTS), AT);
    old
      .prepare(
        `INSERT INTO offer_proposals (token_name, loan_request_id, rate, automate_fund, amount_cents, risk_level, request_json, explanation_json, status, created_at, expires_at, outcome, outcome_json)
         VALUES ('bot', 9, 0.2, 0, 50000, 1, '{}', '{}', 'done', ?, ?, 'refused', ?)`,
      )
      .run(AT, AT, JSON.stringify({ reasons: PROPOSAL_TEXTS, service_offer_id: null }));
  });
}

describe('migration: reason texts to values', () => {
  it('writes every old text its value, as the run-time reader read it, and keeps the texts', () => {
    const store = openStore(databaseAt13());
    try {
      const db = databaseOf(store);
      expect(schemaVersion(db)).toBe(LATEST_VERSION);
      const row = db.prepare('SELECT reasons_json, reason_values_json FROM decisions WHERE loan_request_id = 7').get() as {
        reasons_json: string;
        reason_values_json: string | null;
      };
      expect(JSON.parse(row.reasons_json)).toEqual(TEXTS);
      expect(JSON.parse(row.reason_values_json ?? 'null')).toEqual(VALUES);
      expect(store.decisions.get(7)?.reasonValues).toEqual(VALUES);

      const shadow = db.prepare('SELECT reason_values_json FROM shadow_decisions WHERE loan_request_id = 7').pluck().get() as string | null;
      expect(JSON.parse(shadow ?? 'null')).toEqual(VALUES);
      expect(createShadowDecisionsRepository(db).forRequest(7)[0]?.reasonValues).toEqual(VALUES);

      const agent = db.prepare('SELECT previous_json FROM decisions WHERE loan_request_id = 8').pluck().get() as string;
      const filter: DecisionReason = { code: 'filter_failed', feature: 'credit_score_low', test: '<', bound: '600' };
      expect(JSON.parse(agent)).toEqual({
        loanRequestId: 8,
        action: 'skip',
        reasons: ['filter credit_score_low < 600'],
        source: null,
        reasonValues: [filter],
      });
      expect(store.decisions.get(8)?.previousReasonValues).toEqual([filter]);
      expect(store.decisions.get(8)?.reasonValues).toEqual([
        { code: 'agent_offered', agent: 'agent:bot', rate: '0.2', amount: '520.00', confirmedVia: 'dashboard' },
      ]);

      const outcome = db.prepare('SELECT outcome_json FROM offer_proposals WHERE loan_request_id = 9').pluck().get() as string;
      expect(JSON.parse(outcome)).toEqual({
        reasons: PROPOSAL_TEXTS,
        service_offer_id: null,
        reason_values: [
          { code: 'score', probability: '0.8412' },
          { code: 'service_refused', text: 'RULE_REFUSED: signed' },
        ],
      });
    } finally {
      store.close();
    }
  });

  it('leaves a row that already has its values as it is (a plugin text that looks like a filter stays the plugin’s)', () => {
    const own: DecisionReason[] = [{ code: 'other', text: 'filter credit_score < 600' }];
    const path = databaseAt(LATEST_VERSION - 1, (old) => {
      old
        .prepare(
          `INSERT INTO decisions (loan_request_id, action, reasons_json, reason_values_json, dry_run, decided_at) VALUES (7, 'skip', ?, ?, 0, ?)`,
        )
        .run(JSON.stringify(['filter credit_score < 600']), JSON.stringify(own), AT);
    });
    const store = openStore(path);
    try {
      expect(store.decisions.get(7)?.reasonValues).toEqual(own);
    } finally {
      store.close();
    }
  });
});

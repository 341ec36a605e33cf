// Migration 14 on a file written by version 13: the decisions (and shadow decisions) keep their
// texts as they were and get their values (written once by the later step "reason texts to
// values", test/store/reason-texts-to-values.test.ts), while a row written now keeps its reasons
// as values beside the same text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf, openStore } from '../../src/store/index.js';
import { openDatabase, schemaVersion } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { createShadowDecisionsRepository } from '../../src/store/shadow-decisions-repository.js';
import { reasonText, type DecisionReason } from '../../src/domain/decision-reason.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const OLD_TEXTS = ['guard balance 1.00 - reserved 0.00 - reserve 0.00 < total 5.00', 'service refused: RULE_REFUSED: signed'];

function databaseAt13(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-v14-'));
  dirs.push(dir);
  const path = join(dir, 'lendbot.db');
  const old = openDatabase(
    path,
    MIGRATIONS.filter((step) => step.version <= 13),
  );
  expect(schemaVersion(old)).toBe(13);
  old
    .prepare(
      `INSERT INTO decisions (loan_request_id, action, reasons_json, dry_run, decided_at, guard_code) VALUES (7, 'skip', ?, 0, '2026-03-02T00:00:00.000Z', 'insufficient_balance')`,
    )
    .run(JSON.stringify(OLD_TEXTS));
  old
    .prepare(
      `INSERT INTO shadow_decisions (loan_request_id, strategy, action, amount_cents, max_rate, reasons_json, decided_at) VALUES (7, 'challenger', 'skip', 500, 0.3, ?, '2026-03-02T00:00:00.000Z')`,
    )
    .run(JSON.stringify(['filter credit_score < 600']));
  old.close();
  return path;
}

describe('reasons as values at schema version 14', () => {
  it('gives a row written before the column its values, and keeps the text as it was', () => {
    const store = openStore(databaseAt13());
    try {
      const row = databaseOf(store).prepare('SELECT reasons_json, reason_values_json FROM decisions WHERE loan_request_id = 7').get() as {
        reasons_json: string;
        reason_values_json: string | null;
      };
      expect(row.reasons_json).toBe(JSON.stringify(OLD_TEXTS));
      expect((JSON.parse(row.reason_values_json ?? '[]') as DecisionReason[]).map((reason) => reason.code)).toEqual([
        'guard',
        'service_refused',
      ]);
      const stored = store.decisions.get(7);
      expect(stored?.reasons).toEqual(OLD_TEXTS);
      expect(stored?.reasonValues.map((reason) => reason.code)).toEqual(['guard', 'service_refused']);
      const shadows = createShadowDecisionsRepository(databaseOf(store)).forRequest(7);
      expect(shadows[0]?.reasonValues).toEqual([{ code: 'filter_failed', feature: 'credit_score', test: '<', bound: '600' }]);
    } finally {
      store.close();
    }
  });

  it('writes each new row with its values beside the unchanged text, and reads the values', () => {
    const store = openStore(databaseAt13());
    try {
      // A plugin's text that the text reader would take for a filter's.
      const reasons: DecisionReason[] = [
        { code: 'other', text: 'filter credit_score < 600' },
        { code: 'service_refused', text: 'RULE_REFUSED: signed' },
      ];
      store.decisions.record({ loanRequestId: 8, action: 'skip', reasons, dryRun: false, decidedAtMs: Date.parse('2026-03-03T00:00:00Z') });
      const row = databaseOf(store).prepare('SELECT reasons_json, reason_values_json FROM decisions WHERE loan_request_id = 8').get() as {
        reasons_json: string;
        reason_values_json: string;
      };
      expect(row.reasons_json).toBe(JSON.stringify(['filter credit_score < 600', 'service refused: RULE_REFUSED: signed']));
      expect(JSON.parse(row.reason_values_json)).toEqual(reasons);
      expect(store.decisions.get(8)?.reasonValues).toEqual(reasons);
      expect(store.decisions.get(8)?.reasons).toEqual(reasons.map(reasonText));

      const shadows = createShadowDecisionsRepository(databaseOf(store));
      shadows.record({
        loanRequestId: 8,
        strategy: 'challenger',
        contentHash: null,
        action: 'skip',
        rate: null,
        probability: null,
        modelledAccept: null,
        amountCents: 500,
        maxRate: 0.3,
        reasons,
        needed: [],
        decidedAtMs: Date.parse('2026-03-03T00:00:00Z'),
      });
      expect(shadows.forRequest(8)[0]).toMatchObject({ reasons: reasons.map(reasonText), reasonValues: reasons });
    } finally {
      store.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseOf, openStore, type DecisionInput } from '../../src/store/index.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

const dir = mkdtempSync(join(tmpdir(), 'lendbot-agent-decisions-'));
const store = openStore(join(dir, 'lendbot.db'));
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = Date.parse('2026-03-10T12:00:00Z');
function decision(id: number, more: Partial<DecisionInput> = {}): DecisionInput {
  return {
    loanRequestId: id,
    strategy: 'balanced',
    action: 'skip',
    reasons: storedReasons(['filter credit_score < 600']),
    dryRun: false,
    decidedAtMs: T0,
    ...more,
  };
}

describe("an agent's decisions", () => {
  it('are stored with their source when the strategies never decided the request', () => {
    expect(store.decisions.recordAgent({ ...decision(1, { action: 'offer', rate: 0.2, strategy: null }), source: 'agent:claude' })).toBe(
      'inserted',
    );
    expect(store.decisions.get(1)).toMatchObject({ action: 'offer', rate: 0.2, source: 'agent:claude', previous: null });
    // The pipeline then sees the request as decided and leaves it alone.
    expect(store.decisions.record(decision(1))).toBe('duplicate');
  });

  it("replace the strategies' decision and keep it whole", () => {
    store.decisions.record(decision(2));
    expect(
      store.decisions.recordAgent({ ...decision(2, { action: 'offer', rate: 0.3, decidedAtMs: T0 + 1000 }), source: 'agent:operator' }),
    ).toBe('replaced');
    const stored = store.decisions.get(2);
    expect(stored).toMatchObject({ action: 'offer', rate: 0.3, source: 'agent:operator' });
    expect(stored?.previous).toMatchObject({ action: 'skip', reasons: ['filter credit_score < 600'], source: null });
    expect(store.decisions.list().filter((row) => row.loanRequestId === 2)).toHaveLength(1);
    // Its reasons come back as values, and what is kept is the row as it was, nothing derived.
    expect(stored?.previousReasonValues).toEqual([{ code: 'filter_failed', feature: 'credit_score', test: '<', bound: '600' }]);
    expect(stored?.previous).not.toHaveProperty('previousReasonValues');
  });

  it("never parse a replaced decision's texts: without values (the migration wrote every older row's) they show as they are", () => {
    store.decisions.record(decision(3));
    store.decisions.recordAgent({ ...decision(3, { action: 'offer', rate: 0.3 }), source: 'agent:operator' });
    // No file holds such a row once migrated (test/store/reason-texts-to-values.test.ts); were one to, nothing reads its text.
    databaseOf(store)
      .prepare("UPDATE decisions SET previous_json = json_remove(previous_json, '$.reasonValues') WHERE loan_request_id = 3")
      .run();
    const stored = store.decisions.get(3);
    expect(stored?.previous).not.toHaveProperty('reasonValues');
    expect(stored?.previousReasonValues).toEqual([{ code: 'other', text: 'filter credit_score < 600' }]);
    expect(store.decisions.get(1)?.previousReasonValues).toBeNull();
  });

  it("never replace another agent's decision", () => {
    expect(store.decisions.recordAgent({ ...decision(2, { action: 'skip' }), source: 'agent:other' })).toBe('duplicate');
    expect(store.decisions.get(2)?.source).toBe('agent:operator');
  });
});

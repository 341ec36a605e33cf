import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseOf, type DecisionInput, type Store } from '../../src/store/index.js';
import { HOUR, T0, tempStore } from './fixtures.js';
import { storedReasons } from '../../src/store/reason-texts-to-values.js';

let store: Store;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
});
afterEach(() => cleanup());

function decision(loanRequestId: number, overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    loanRequestId,
    strategy: 'conservative',
    contentHash: 'sha256:abc',
    params: { margin: 0.05 },
    features: { credit_score: 675 },
    probability: 0.93,
    rate: 0.24,
    action: 'offer',
    reasons: storedReasons(['score 0.93 >= 0.9']),
    dryRun: false,
    decidedAtMs: T0,
    timings: { decide: 2 },
    ...overrides,
  };
}

describe('decisions', () => {
  it('stores one decision per request and refuses a second', () => {
    expect(store.decisions.record(decision(1))).toBe('inserted');
    expect(store.decisions.record(decision(1, { action: 'skip', reasons: storedReasons(['other']) }))).toBe('duplicate');
    expect(store.decisions.has(1)).toBe(true);
    expect(store.decisions.has(2)).toBe(false);
    expect(store.decisions.get(1)).toEqual({
      id: 1,
      loanRequestId: 1,
      strategy: 'conservative',
      contentHash: 'sha256:abc',
      params: { margin: 0.05 },
      features: { credit_score: 675 },
      probability: 0.93,
      rate: 0.24,
      action: 'offer',
      reasons: ['score 0.93 >= 0.9'],
      reasonValues: [{ code: 'other', text: 'score 0.93 >= 0.9' }],
      dryRun: false,
      decidedAt: '2026-03-10T12:00:00.000Z',
      timings: { decide: 2 },
      guardCode: null,
      placement: null,
      source: null,
      previous: null,
      previousReasonValues: null,
    });
  });

  it('keeps the guard code and the placement as codes beside the reasons', () => {
    store.decisions.record({
      ...decision(7),
      action: 'skip',
      guardCode: 'insufficient_balance',
      reasons: storedReasons(['guard balance 1.00 - reserved 0.00 - reserve 0.00 < total 5.00']),
    });
    store.decisions.record({
      ...decision(8),
      placement: 'refused',
      action: 'skip',
      reasons: storedReasons(['service refused: RULE_REFUSED: signed']),
    });
    expect([store.decisions.get(7)?.guardCode, store.decisions.get(7)?.placement]).toEqual(['insufficient_balance', null]);
    expect([store.decisions.get(8)?.guardCode, store.decisions.get(8)?.placement]).toEqual([null, 'refused']);
  });

  it('stores a bare skip with defaults', () => {
    store.decisions.record({
      loanRequestId: 5,
      action: 'skip',
      reasons: storedReasons(['guard kill switch on']),
      dryRun: true,
      decidedAtMs: T0,
    });
    expect(store.decisions.get(5)).toMatchObject({
      strategy: null,
      contentHash: null,
      params: {},
      features: {},
      probability: null,
      rate: null,
      dryRun: true,
      timings: {},
    });
  });

  it('lists by time, filtered by since, until and action, with limit and order', () => {
    store.decisions.record(decision(3, { decidedAtMs: T0 + 2 * HOUR, action: 'skip' }));
    store.decisions.record(decision(1, { decidedAtMs: T0 }));
    store.decisions.record(decision(2, { decidedAtMs: T0 + HOUR, action: 'skip' }));
    store.decisions.record(decision(4, { decidedAtMs: T0 + 3 * HOUR }));
    const ids = (list: { loanRequestId: number }[]) => list.map((d) => d.loanRequestId);

    expect(ids(store.decisions.list())).toEqual([1, 2, 3, 4]);
    expect(ids(store.decisions.list({ sinceMs: T0 + HOUR }))).toEqual([2, 3, 4]);
    expect(ids(store.decisions.list({ untilMs: T0 + HOUR }))).toEqual([1]);
    expect(ids(store.decisions.list({ action: 'skip' }))).toEqual([2, 3]);
    expect(ids(store.decisions.list({ action: 'offer', sinceMs: T0 + HOUR }))).toEqual([4]);
    expect(ids(store.decisions.list({ limit: 2 }))).toEqual([1, 2]);
    expect(ids(store.decisions.list({ limit: 2, order: 'desc' }))).toEqual([4, 3]);
    expect(ids([...store.decisions.iterate({ action: 'skip', order: 'desc' })])).toEqual([3, 2]);
  });

  it('lists through an index, not a table scan', () => {
    const plan = (sql: string) =>
      databaseOf(store)
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join('; ');
    expect(plan("SELECT * FROM decisions WHERE decided_at >= '' AND decided_at < '~' ORDER BY decided_at, id LIMIT 10")).toMatch(
      /USING INDEX decisions_decided_at/,
    );
    expect(
      plan("SELECT * FROM decisions WHERE action = 'skip' AND decided_at >= '' AND decided_at < '~' ORDER BY decided_at, id LIMIT 10"),
    ).toMatch(/USING INDEX decisions_action_decided_at/);
  });
});

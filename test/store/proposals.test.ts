/**
 * The offer_proposals table on a real SQLite file: a person's decision changes a proposal once;
 * an expired one cannot be approved; the allowance's day holds when two connections (two
 * processes on one file) reserve at the same time; a row a stopped process left `placing` is
 * taken up again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOWANCE_DECIDER, openStore, type ProposalInput, type Store } from '../../src/store/index.js';
import { HOUR, T0, tempStore } from './fixtures.js';

const MINUTE = 60_000;
let h: ReturnType<typeof tempStore>;
beforeEach(() => {
  h = tempStore();
});
afterEach(() => h.cleanup());

function input(overrides: Partial<ProposalInput> = {}): ProposalInput {
  return {
    tokenName: 'claude',
    loanRequestId: 1001,
    rate: 0.2,
    automateFund: true,
    amountCents: 52_000,
    riskLevel: 1,
    request: { id: 1001 },
    explanation: { why: 'no allowance' },
    createdAtMs: T0,
    expiresAtMs: T0 + 30 * MINUTE,
    ...overrides,
  };
}

const day = { dayStartMs: Date.parse('2026-03-10T00:00:00Z'), dayEndMs: Date.parse('2026-03-11T00:00:00Z'), maxPerDayCents: 100_000 };

describe('offer proposals', () => {
  it('are decided once: a second approval, or a rejection after it, changes nothing', () => {
    const proposal = h.store.proposals.propose(input());
    expect(proposal).toMatchObject({
      status: 'pending',
      decidedBy: null,
      expiresAt: '2026-03-10T12:30:00.000Z',
      explanation: { why: 'no allowance' },
      request: { id: 1001 },
    });
    expect(h.store.proposals.findPending('claude', 1001, 0.2, true, T0)?.id).toBe(proposal.id);
    expect(h.store.proposals.findPending('claude', 1001, 0.21, true, T0)).toBeUndefined();
    expect(h.store.proposals.findPending('small', 1001, 0.2, true, T0)).toBeUndefined();

    const approved = h.store.proposals.decide(proposal.id, 'approved', 'cli:alice', T0 + MINUTE);
    expect(approved).toMatchObject({
      changed: true,
      proposal: { status: 'approved', decidedBy: 'cli:alice', decidedAt: '2026-03-10T12:01:00.000Z' },
    });
    expect(h.store.proposals.decide(proposal.id, 'approved', 'dashboard:operator', T0 + 2 * MINUTE)).toMatchObject({
      changed: false,
      proposal: { status: 'approved', decidedBy: 'cli:alice' },
    });
    expect(h.store.proposals.decide(proposal.id, 'rejected', 'dashboard:operator', T0 + 2 * MINUTE)).toMatchObject({ changed: false });
    expect(h.store.proposals.approvedIds(10)).toEqual([proposal.id]);

    expect(h.store.proposals.claim(proposal.id)?.status).toBe('placing');
    expect(h.store.proposals.claim(proposal.id)).toBeUndefined();
    h.store.proposals.finish(proposal.id, 'placed', { service_offer_id: 77 }, T0 + 3 * MINUTE);
    expect(h.store.proposals.get(proposal.id)).toMatchObject({
      status: 'done',
      outcome: 'placed',
      outcomeDetail: { service_offer_id: 77 },
      finishedAt: '2026-03-10T12:03:00.000Z',
    });
    expect(h.store.proposals.decide(999, 'approved', 'cli:alice', T0)).toEqual({ changed: false, proposal: undefined });
  });

  it('expire at their time: a pending one cannot be approved after it, an approved one no daemon placed expires too', () => {
    const late = h.store.proposals.propose(input());
    const approvedLate = h.store.proposals.propose(input({ loanRequestId: 1002 }));
    h.store.proposals.decide(approvedLate.id, 'approved', 'cli:alice', T0 + MINUTE);
    expect(h.store.proposals.pendingCount('claude', T0)).toBe(1);
    expect(h.store.proposals.pendingCount('claude', T0 + 30 * MINUTE)).toBe(0);

    expect(h.store.proposals.decide(late.id, 'approved', 'cli:alice', T0 + 30 * MINUTE)).toMatchObject({
      changed: false,
      proposal: { status: 'expired' },
    });
    expect(h.store.proposals.expireDue(T0 + 30 * MINUTE)).toBe(1);
    expect(h.store.proposals.get(approvedLate.id)).toMatchObject({
      status: 'expired',
      note: 'approved, but no running daemon placed it before it expired',
    });
    expect(h.store.proposals.approvedIds(10)).toEqual([]);
    expect(h.store.proposals.list({ statuses: ['expired'], limit: 10 }).map((proposal) => proposal.id)).toEqual([approvedLate.id, late.id]);
  });

  it("hold a token's allowance for the day: what was placed, may have been, or is on its way counts; refusals do not", () => {
    const first = h.store.proposals.reserveAllowance({ ...input({ amountCents: 40_000 }), ...day });
    expect(first).toMatchObject({ reserved: true, proposal: { status: 'placing', decidedBy: ALLOWANCE_DECIDER } });
    const second = h.store.proposals.reserveAllowance({ ...input({ amountCents: 40_000, loanRequestId: 1002 }), ...day });
    expect(second.reserved).toBe(true);
    expect(h.store.proposals.reserveAllowance({ ...input({ amountCents: 40_000, loanRequestId: 1003 }), ...day })).toEqual({
      reserved: false,
      usedCents: 80_000,
    });
    // Another token's day is its own.
    expect(h.store.proposals.reserveAllowance({ ...input({ tokenName: 'small', amountCents: 40_000 }), ...day }).reserved).toBe(true);

    if (!first.reserved || !second.reserved) throw new Error('reserved above');
    h.store.proposals.finish(first.proposal.id, 'refused_by_guard', { guard: { code: 'paused', reason: 'guard paused' } }, T0);
    h.store.proposals.finish(second.proposal.id, 'unknown', {}, T0);
    expect(h.store.proposals.allowanceUsedCents('claude', day.dayStartMs, day.dayEndMs)).toBe(40_000);
    // The next UTC day starts again.
    expect(h.store.proposals.allowanceUsedCents('claude', day.dayEndMs, day.dayEndMs + 24 * HOUR)).toBe(0);
  });

  it('hold the allowance between two connections to one file (two processes)', () => {
    const other: Store = openStore(h.path);
    try {
      const results = [h.store, other, h.store, other, h.store].map((store, index) =>
        store.proposals.reserveAllowance({ ...input({ amountCents: 30_000, loanRequestId: 2000 + index }), ...day }),
      );
      expect(results.map((result) => result.reserved)).toEqual([true, true, true, false, false]);
      expect(other.proposals.allowanceUsedCents('claude', day.dayStartMs, day.dayEndMs)).toBe(90_000);
    } finally {
      other.close();
    }
  });

  it('take up a row a stopped process left placing, and list the newest first, by token and status', () => {
    const reserved = h.store.proposals.reserveAllowance({ ...input(), ...day });
    const waiting = h.store.proposals.propose(input({ tokenName: 'small', loanRequestId: 1005 }));
    expect(h.store.proposals.resumeInterrupted()).toBe(1);
    if (!reserved.reserved) throw new Error('reserved above');
    expect(h.store.proposals.get(reserved.proposal.id)?.status).toBe('approved');
    expect(h.store.proposals.list({ limit: 10 }).map((proposal) => proposal.id)).toEqual([waiting.id, reserved.proposal.id]);
    expect(h.store.proposals.list({ limit: 10, tokenName: 'small' }).map((proposal) => proposal.id)).toEqual([waiting.id]);
    expect(h.store.proposals.list({ limit: 10, statuses: ['pending'], beforeId: waiting.id })).toEqual([]);
    expect(h.store.proposals.after(reserved.proposal.id, 10).map((proposal) => proposal.id)).toEqual([waiting.id]);
  });
});

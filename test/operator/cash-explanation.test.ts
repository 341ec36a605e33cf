/**
 * Explaining a stored decision of a strategy whose hurdle followed cash: the cash position of the
 * time is not stored, so the recomputed price is the hurdle as written, and the notes say so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decideSync, type SpendLedger } from '../../src/engine/index.js';
import { explainStoredDecision } from '../../src/operator/api/decision-explanation.js';
import type { Store } from '../../src/store/index.js';
import { strategyAt } from '../engine/compile-text.js';
import { loanRequest } from '../engine/fixtures.js';
import { tempStore } from '../store/fixtures.js';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const NO_SPEND: SpendLedger = { spentSince: () => 0, subscribedSince: () => true, record: () => undefined };
const NO_DATA = {
  bankingData: () => ({ ok: false as const, detail: 'none' }),
  providerResult: () => ({ ok: false as const, detail: 'none' }),
  borrowerHistory: () => ({ ok: false as const, detail: 'none' }),
};

let store: Store;
let cleanup: () => void;
afterEach(() => cleanup());

describe('the explanation of a decision priced with the cash hurdle', () => {
  it('says the hurdle followed the cash position then and is recomputed without it', () => {
    ({ store, cleanup } = tempStore());
    const strategy = strategyAt(3, '  target_return: 0.10\n  cash_hurdle: { enabled: true }');
    const request = loanRequest();
    const then = decideSync(
      request,
      { strategies: [strategy], nowMs: NOW, ledger: NO_SPEND, cash: { freeCents: 0, recentDemandCents: [100_000] } },
      NO_DATA,
      () => ({ allowed: true }),
    ).decision;
    store.decisions.record({
      loanRequestId: request.id,
      strategy: strategy.name,
      probability: then.probability ?? null,
      rate: then.rate ?? null,
      action: 'offer',
      reasons: then.reasons,
      dryRun: false,
      decidedAtMs: NOW,
      params: then.params,
    });
    const { explanation, notes } = explainStoredDecision(
      { store, strategies: () => [strategy] },
      store.decisions.get(request.id)!,
      request,
    );
    expect(notes).toContain(
      'its hurdle followed the cash position then (the reasons say by how much); recomputed here without it, at the hurdle as written',
    );
    expect(explanation?.price.rate).toBeLessThan(then.rate as number);
  });
});

/**
 * Challengers in shadow (docs/strategies.md, "Shadow and split"): after the live decision, each
 * strategy marked `shadow: true` decides on the same request with the data the live decision
 * bought, and what it would have offered is recorded; nothing is sent, reserved or bought.
 *
 * - Same data, bought once: the shadow's data source answers only from the live decision's
 *   enrichment. A need the live decision did not buy is answered "not had" and written down as
 *   "would have needed X"; the challenger then decides without it, as any strategy does when
 *   data is missing, and the report counts those requests apart.
 * - No spend: its ledger records nothing and reports nothing spent, so a challenger never
 *   creates a purchases row nor touches a live strategy's budget.
 * - No guard: the guard's capital rules belong to the live book; a would-be offer is the
 *   strategy's own answer, with the market response's modelled chance of acceptance.
 * - After the live decision is recorded (a listener of the pipeline, attachShadows), so nothing of
 *   theirs is on the way to the offer; a failure here is logged and never touches the live decision.
 *
 * A wing (issue 38): the daemon attaches it in one line (src/daemon/daemon.ts); left out, no
 * challenger decides and the live trading is as before (test/daemon/challengers-left-out.test.ts).
 */
import { DEFAULT_MARKET_RESPONSE, expectedAcceptProbability } from '../engine/market-response.js';
import {
  decideSync,
  type CompiledStrategy,
  type DataSource,
  type DecideOutcome,
  type Enrichment,
  type Fetched,
  type SpendLedger,
} from '../engine/index.js';
import type { GuardResult } from '../risk/index.js';
import { parseCents, type LoanRequest } from '../domain/index.js';
import { createShadowDecisionsRepository, type ShadowDecisionInput } from '../store/shadow-decisions-repository.js';
import { databaseOf, type Store } from '../store/index.js';
import type { Logger } from '../log/logger.js';
import { copyLearning, marketUsedText, type MarketLearning } from '../engine/market/index.js';
import { otherReason } from '../domain/decision-reason.js';

const NOT_GIVEN = 'not bought by the live decision (a shadow strategy never buys)';

/** A ledger that spends nothing: a challenger's purchases are the live decision's, already recorded. */
const NO_SPEND: SpendLedger = {
  spentSince: () => 0,
  // Counted as subscribed: a flat-priced provider's month is never charged for a challenger.
  subscribedSince: () => true,
  record: () => undefined,
};

const ALLOW: GuardResult = { allowed: true };

/** Answers from what the live decision bought; notes every need it could not answer. */
function givenDataSource(enrichment: Enrichment, needed: Set<string>): DataSource<true> {
  function answer<T>(what: string, value: T | undefined): Fetched<T> {
    if (value !== undefined) return { ok: true, value };
    needed.add(what);
    return { ok: false, detail: NOT_GIVEN };
  }
  return {
    bankingData: () => answer('banking_data', enrichment.bankingData),
    borrowerHistory: () => answer('borrower_history', enrichment.borrowerHistory),
    providerResult: (_request, provider) => answer(provider, enrichment.providerResults?.[provider]),
  };
}

/**
 * Each challenger's decision on `request`, from the live decision's `enrichment`. `learning`: the
 * daemon's learners; a challenger that learns (`pricing.learning`) prices with a copy of what was
 * learned for it, as it would live, and the reasons say which market response priced it.
 */
export function decideShadows(
  request: LoanRequest,
  enrichment: Enrichment,
  shadows: readonly CompiledStrategy[],
  nowMs: number,
  learning?: MarketLearning,
): ShadowDecisionInput[] {
  const rows: ShadowDecisionInput[] = [];
  for (const strategy of shadows) {
    const needed = new Set<string>();
    // A copy: the step marks data unavailable on the enrichment it is given.
    const given: Enrichment = { ...enrichment };
    const context = {
      strategies: [strategy],
      nowMs,
      ledger: NO_SPEND,
      learning: learning === undefined ? undefined : copyLearning(learning),
    };
    const outcome = decideSync(request, context, givenDataSource(enrichment, needed), () => ALLOW, given);
    const { decision } = outcome;
    const offers = outcome.action === 'offer' && decision.rate !== undefined;
    const rate = offers ? (decision.rate ?? null) : null;
    const probability = decision.probability ?? null;
    const market = marketUsedText(decision);
    const reasons = outcome.reasons
      .concat([...needed].map((what) => otherReason(`would have needed ${what} (not bought by the live decision)`)))
      .concat(market === undefined ? [] : [otherReason(`priced with ${market}`)]);
    rows.push({
      loanRequestId: request.id,
      strategy: strategy.name,
      contentHash: strategy.contentHash,
      action: offers ? 'offer' : 'skip',
      rate,
      probability,
      // The strategy's own modelled chance (learned or configured market), else the default market's.
      modelledAccept:
        rate === null
          ? null
          : (decision.modelled?.acceptProbability ??
            expectedAcceptProbability(rate, request.max_interest_rate, 1 - (probability ?? 1), DEFAULT_MARKET_RESPONSE)),
      amountCents: parseCents(request.total_amount),
      maxRate: request.max_interest_rate,
      reasons,
      needed: [...needed],
      decidedAtMs: nowMs,
    });
  }
  return rows;
}

/** What a challenger hears of a request the pipeline decided (src/daemon/decision-hooks.ts, DecidedTurn). */
interface DecidedTurn {
  outcome: Pick<DecideOutcome, 'enrichment'>;
  shadows: readonly CompiledStrategy[];
  provided: { learning?: MarketLearning | undefined };
  decidedAtMs: number;
}

/** Records the challengers' would-be offers on each request the pipeline decided, on the data it bought. */
export function attachShadows(parts: {
  pipeline: { onDecided(listener: (request: LoanRequest, source: unknown, result: unknown, turn: DecidedTurn) => void): void };
  store: Store;
  log: Logger;
}): void {
  const deps = { store: parts.store, log: parts.log.child({ component: 'pipeline' }) };
  let book: ReturnType<typeof createShadowDecisionsRepository> | undefined;
  parts.pipeline.onDecided((request, _source, _result, { outcome, shadows, provided, decidedAtMs }) => {
    if (shadows.length === 0) return;
    try {
      book ??= createShadowDecisionsRepository(databaseOf(deps.store));
      for (const row of decideShadows(request, outcome.enrichment, shadows, decidedAtMs, provided.learning)) book.record(row);
    } catch (error) {
      deps.log.warn({ err: error, loanRequestId: request.id }, 'shadow decisions not recorded');
    }
  });
}

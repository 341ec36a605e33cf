/**
 * "Why did it (not) offer?" for a decision already made: the engine's decide step run again over
 * what was stored when it was made (the request as received, the data bought for it, the
 * strategy's params of the time), with the guard's verdict as stored. The guard is not asked
 * again: the balance, the reservations and today's caps have moved since, and the stored reason
 * already says what it saw. Nothing is bought and nothing is written.
 *
 * What cannot be recovered is said in `notes`: a strategy no longer loaded or whose file changed,
 * params that no longer apply, data that was never bought.
 */
import { guardReasonOf, reasonText } from '../../domain/decision-reason.js';
import { decideSync, type CompiledStrategy, type SpendLedger } from '../../engine/index.js';
import type { LoanRequest } from '../../domain/index.js';
import type { StoredDecision, Store } from '../../store/index.js';
import { curvePoint, curveRates, type PriceCurve } from '../../engine/pricing/expected-profit.js';
import { MarketLearning } from '../../engine/market/index.js';
import { purchasedData } from '../purchased-data.js';
import type { DecisionExplanation, ExplanationGuard } from './api-types.js';

/** Budgets are not replayed: the month's spend then is not known to the cent, and explaining buys nothing. */
const unlimitedLedger: SpendLedger = { spentSince: () => 0, subscribedSince: () => true, record: () => undefined };

/** Points drawn across the curve (the CLI prints 8; a chart reads better with more). */
const CURVE_POINTS = 40;

/** The price curve's points for the dashboard's chart, the chosen rate marked. */
function curvePointsOf(curve: PriceCurve | undefined, rate: number | undefined): DecisionExplanation['price']['curvePoints'] {
  if (curve === undefined || rate === undefined) return null;
  return curveRates(curve, rate, CURVE_POINTS).map((at) => {
    const { expectedReturn: _expectedReturn, ...point } = curvePoint(curve, at);
    return { ...point, chosen: at === rate };
  });
}

/** The guard's verdict, as the stored decision has it. */
function storedGuard(decision: StoredDecision): ExplanationGuard {
  if (decision.action === 'offer') return { checked: true, allowed: true, code: null, reason: null };
  const refusal = guardReasonOf(decision.reasonValues);
  const reason = refusal === undefined ? null : reasonText(refusal);
  if (decision.guardCode !== null || reason !== null) return { checked: true, allowed: false, code: decision.guardCode, reason };
  return { checked: false, allowed: null, code: null, reason: null };
}

function isNumberRecord(value: unknown): value is Record<string, number> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'number')
  );
}

/** The strategy as it was when deciding, as far as it can be had: its stored params applied. */
function strategyOfTheTime(strategy: CompiledStrategy, decision: StoredDecision, notes: string[]): CompiledStrategy {
  if (decision.contentHash !== null && decision.contentHash !== strategy.contentHash) {
    notes.push(`strategy "${strategy.name}" has changed since this decision (its file's content hash differs): the current file is used`);
  }
  if (!isNumberRecord(decision.params) || Object.keys(decision.params).length === 0) return strategy;
  const same = JSON.stringify(decision.params) === JSON.stringify(strategy.params);
  if (same) return strategy;
  try {
    return strategy.withParams(decision.params);
  } catch (error) {
    notes.push(
      `the params of the time no longer apply (${error instanceof Error ? error.message : String(error)}): the current ones are used`,
    );
    return strategy;
  }
}

export function explainStoredDecision(
  context: { store: Store; strategies: () => readonly CompiledStrategy[] },
  decision: StoredDecision,
  request: LoanRequest | undefined,
): { explanation: DecisionExplanation | null; notes: string[] } {
  const notes: string[] = [];
  if (request === undefined)
    return {
      explanation: null,
      notes: ['the request is not in the store, so the decision cannot be recomputed; its stored features and reasons are all there is'],
    };
  if (decision.strategy === null) {
    return {
      explanation: null,
      notes: ['no strategy got to decide this request (a pre-filter, or an error before deciding): the reasons say why'],
    };
  }
  const loaded = context.strategies().find((strategy) => strategy.name === decision.strategy);
  if (loaded === undefined)
    return { explanation: null, notes: [`strategy "${decision.strategy}" is no longer loaded, so the decision cannot be recomputed`] };
  if (decision.source !== null)
    notes.push(`${decision.source} made this decision; shown is what the strategy "${decision.strategy}" makes of the request`);
  const strategy = strategyOfTheTime(loaded, decision, notes);
  const missing = new Set<string>();
  const outcome = decideSync(
    request,
    // Through learners at their priors, as a daemon that had learned nothing would price (the
    // state it had then is not kept): a strategy that learns prices through them even at v0.
    { strategies: [strategy], nowMs: Date.parse(decision.decidedAt), ledger: unlimitedLedger, learning: new MarketLearning() },
    purchasedData(context.store, decision.loanRequestId, missing),
    () => ({ allowed: true }),
  );
  if (missing.size > 0) notes.push(`not bought for this request, so decided without: ${[...missing].join(', ')}`);
  if (decision.reasonValues.some((reason) => reason.code === 'data_budget'))
    notes.push('the data budget refused a purchase then; budgets are not replayed here');
  if (strategy.followsCash === true)
    notes.push(
      'its hurdle followed the cash position then (the reasons say by how much); recomputed here without it, at the hurdle as written',
    );
  const recomputed = outcome.decision;
  const guard = storedGuard(decision);
  // A guard refusal means the strategy offered: it matches an offer at the same rate.
  const offered = decision.action === 'offer' || guard.allowed === false;
  const sameRate = decision.rate === null || (recomputed.rate !== undefined && Math.abs(recomputed.rate - decision.rate) < 1e-9);
  const matchesStored = offered ? recomputed.action === 'offer' && sameRate : recomputed.action !== 'offer';
  if (!matchesStored)
    notes.push('recomputed, the strategy decides otherwise than it did: the data, the file or its params differ from then');
  return {
    notes,
    explanation: {
      contributions: recomputed.contributions.map((line) => ({
        name: line.feature,
        value: line.value,
        points: line.points,
        logOdds: line.logOdds,
        missing: line.missing === true,
      })),
      price: {
        rate: recomputed.rate ?? null,
        probability: recomputed.probability ?? null,
        expectedReturn: recomputed.expectedReturn ?? null,
        requiredRate: recomputed.requiredRate ?? null,
        curve: recomputed.priceCurve ?? null,
        curvePoints: curvePointsOf(recomputed.priceCurve, recomputed.rate),
      },
      guard,
      recomputed: {
        strategy: recomputed.strategy.name,
        action: recomputed.action,
        rate: recomputed.rate ?? null,
        probability: recomputed.probability ?? null,
        reasons: recomputed.reasons.map(reasonText),
      },
      matchesStored,
      notes,
    },
  };
}

/**
 * Evaluating against data that is already fixed (a recording, a backtest): when the strategy
 * asks for something the data does not hold, that thing is marked unavailable and the strategy
 * decides again, as the daemon would after a failed purchase. Every pass is kept so an
 * explanation can show what would have been bought.
 */
import type { LoanRequest } from '../service/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { DataNeed, Enrichment } from './enrichment.js';
import { evaluate } from './evaluate.js';

export interface OfflineEvaluation {
  /** The final decision: offer or skip. */
  decision: Decision;
  /** Every needs_data decision on the way, in order. */
  needsPasses: Decision[];
}

function markUnavailable(enrichment: Enrichment, needs: readonly DataNeed[]): Enrichment {
  const providers = new Set(enrichment.unavailable?.providers ?? []);
  let bankingData = enrichment.unavailable?.bankingData ?? false;
  for (const need of needs) {
    if (need.kind === 'banking_data') bankingData = true;
    else providers.add(need.provider);
  }
  return { ...enrichment, unavailable: { bankingData, providers: [...providers] } };
}

/** Evaluates until the strategy offers or skips, treating every requested piece of data as unavailable. */
export function evaluateOffline(
  request: LoanRequest,
  enrichment: Enrichment,
  strategy: CompiledStrategy,
  params?: Readonly<Record<string, number>>,
): OfflineEvaluation {
  const needsPasses: Decision[] = [];
  let current = enrichment;
  // A strategy can ask for banking data and each provider once; the bound only guards against a plugin that keeps asking.
  for (let pass = 0; pass < 8; pass += 1) {
    const decision = evaluate(request, current, strategy, params);
    if (decision.action !== 'needs_data') return { decision, needsPasses };
    needsPasses.push(decision);
    current = markUnavailable(current, decision.needs ?? []);
  }
  throw new RangeError(`strategy "${strategy.name}" kept asking for data it was told is unavailable`);
}

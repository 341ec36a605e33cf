/**
 * The enrich ⇄ decide loop shared by the live daemon and the backtester: evaluate; when the
 * strategies ask for data, buy it (the caller's `buy`, which also enforces budgets) and evaluate
 * again, a bounded number of rounds. A need that cannot be met is marked unavailable by `buy`, so
 * the next evaluation decides without it instead of asking again.
 */
import type { LoanRequest } from '../service/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { DataNeed, Enrichment } from './enrichment.js';
import { evaluateAll } from './evaluate.js';

/** How many rounds of "needs data" a decision may take before it is made without the data. */
export const MAX_DATA_ROUNDS = 4;

export interface DecisionWithData {
  decision: Decision;
  enrichment: Enrichment;
  /** Reasons from buying: "data budget ... > ...", "data banking_data not found". */
  dataReasons: string[];
}

/** Buys one need into `enrichment`; returns a reason when it could not. */
export type SyncBuyer = (need: DataNeed, enrichment: Enrichment, decision: Decision) => string | undefined;
export type AsyncBuyer = (need: DataNeed, enrichment: Enrichment, decision: Decision) => Promise<string | undefined>;

/** The loop for callers whose data is at hand (the backtester). */
export function decideWithDataSync(
  request: LoanRequest,
  strategies: readonly CompiledStrategy[],
  buy: SyncBuyer,
  enrichment: Enrichment = {},
): DecisionWithData {
  const dataReasons: string[] = [];
  let decision = evaluateAll(request, enrichment, strategies);
  for (let round = 0; decision.action === 'needs_data' && round < MAX_DATA_ROUNDS; round++) {
    for (const need of decision.needs ?? []) {
      const reason = buy(need, enrichment, decision);
      if (reason !== undefined) dataReasons.push(reason);
    }
    decision = evaluateAll(request, enrichment, strategies);
  }
  return { decision, enrichment, dataReasons };
}

/** The same loop for callers that buy over the network (the daemon). */
export async function decideWithData(
  request: LoanRequest,
  strategies: readonly CompiledStrategy[],
  buy: AsyncBuyer,
  enrichment: Enrichment = {},
): Promise<DecisionWithData> {
  const dataReasons: string[] = [];
  let decision = evaluateAll(request, enrichment, strategies);
  for (let round = 0; decision.action === 'needs_data' && round < MAX_DATA_ROUNDS; round++) {
    for (const need of decision.needs ?? []) {
      const reason = await buy(need, enrichment, decision);
      if (reason !== undefined) dataReasons.push(reason);
    }
    decision = evaluateAll(request, enrichment, strategies);
  }
  return { decision, enrichment, dataReasons };
}

/** The monthly data budget of the strategy that asked, in cents (0 when unknown). */
export function budgetOfDecision(strategies: readonly CompiledStrategy[], decision: Decision): number {
  return strategies.find((strategy) => strategy.name === decision.strategy.name)?.dataPolicy.monthlyBudgetCents ?? 0;
}

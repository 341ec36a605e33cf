/**
 * One decision with what the store knows around it: the request's amount and risk level (from
 * the request as first seen, else from our offer) and the offer, loan and outcome
 * (decision-outcome.ts). Every look-up is by primary key or index, one request at a time.
 */
import type { Store, StoredDecision } from '../../../store/index.js';
import { decisionFacts, type DecisionFacts, type FateSettings } from './decision-outcome.js';

export interface DecisionView extends DecisionFacts {
  decision: StoredDecision;
  /** What the borrower asks for in total (total_amount), in cents; null when the request was never stored. */
  amountCents: number | null;
  /** 0 low, 1 medium, 2 high, 3 friends, 4 crypto (RISK_LEVEL_NAMES); null when unknown. */
  riskLevel: number | null;
  /** `strategy` for the strategies' decisions, `agent:NAME` for an agent's through the connector. */
  source: string;
}

export function viewDecision(store: Store, decision: StoredDecision, settings: FateSettings): DecisionView {
  const seen = store.requests.get(decision.loanRequestId);
  const facts = decisionFacts(store, decision, settings);
  return {
    ...facts,
    decision,
    amountCents: seen?.totalAmountCents ?? facts.offer?.totalAmountCents ?? null,
    riskLevel: seen?.riskLevel ?? facts.offer?.riskLevel ?? null,
    source: decision.source ?? 'strategy',
  };
}

/**
 * What a person reads before approving an agent's offer, written when the agent asks: what would
 * happen, why it needs them (the allowance's verdict), the guard's verdict then, and what the
 * strategy that decides the request live would decide on the data already bought (explain-now.ts: nothing is
 * bought for it). The guard is asked again when the person approves.
 */
import { reasonWords } from '../log/human-reasons.js';
import { offerSummary } from '../operator/agent-asks.js';
import type { AgentContext, OfferAsk } from '../operator/agent-context.js';
import { explainNow } from '../operator/explain-now.js';

interface StrategyView {
  name: string;
  would: 'offer' | 'skip';
  /** The strategy's own rate for the request; null when it did not get to price it. */
  rate: number | null;
  /** Its estimated probability of full repayment; null when it did not get to score. */
  probability: number | null;
  reasons: string[];
}

export interface ProposalExplanation {
  /** What approving does, in one sentence. */
  summary: string;
  /** Why a person must approve it. */
  why: string;
  /** The guard's verdict when the agent asked (it allowed the offer then, or there would be no proposal). */
  guard: { allowed: boolean; code?: string; reason?: string };
  /** The bot's own view of the request; null when it could not be worked out (the note says why). */
  strategy: StrategyView | null;
  note?: string;
  /** A few facts of the request, for the person (the whole request is kept beside). */
  request: { loan_terms: number; max_interest_rate: number; total_amount: string; credit_score: string | null };
  dry_run: boolean;
}

export async function explainProposal(
  context: AgentContext,
  ask: OfferAsk,
  why: string,
  guard: ProposalExplanation['guard'],
): Promise<ProposalExplanation> {
  const { request } = ask;
  let strategy: StrategyView | null = null;
  let note: string | undefined;
  try {
    const outcome = await explainNow(context, request);
    strategy = {
      name: outcome.decision.strategy.name,
      would: outcome.action,
      rate: outcome.decision.rate ?? null,
      probability: outcome.decision.probability ?? null,
      // Plain words for the person deciding, not the engine's tokens.
      reasons: outcome.reasons.map(reasonWords),
    };
  } catch (error) {
    // The explanation helps the person; its absence must not stop the proposal.
    note = `the strategies' view could not be worked out: ${error instanceof Error ? error.message : String(error)}`;
    context.log.warn({ err: error, loanRequestId: request.id }, "proposal: strategies' view not worked out");
  }
  return {
    summary: offerSummary(ask, context.dryRun),
    why,
    guard,
    strategy,
    ...(note === undefined ? {} : { note }),
    request: {
      loan_terms: request.loan_terms,
      max_interest_rate: request.max_interest_rate,
      total_amount: request.total_amount,
      credit_score: request.borrower.credit_score ?? null,
    },
    dry_run: context.dryRun,
  };
}

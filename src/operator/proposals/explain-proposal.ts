/**
 * What a person reads before approving an agent's offer, written when the agent asks: what would
 * happen, why it needs them (the allowance's verdict), the guard's verdict then, and what the
 * strategy that decides the request live would decide on the data already bought (explain-now.ts: nothing is
 * bought for it). The guard is asked again when the person approves.
 */
import { formatCents, parseCents, type LoanRequest } from '../../domain/index.js';
import { reasonWords } from '../../log/human-reasons.js';
import type { AgentContext } from '../agent-context.js';
import { explainNow } from '../explain-now.js';

export interface OfferAsk {
  request: LoanRequest;
  rate: number;
  automateFund: boolean;
}

export interface StrategyView {
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

/** "offer rate 0.2 on loan request 1042 ($5000.00, 12 months, max rate 0.3), funded automatically on acceptance" */
export function offerSummary(ask: OfferAsk, dryRun: boolean): string {
  const { request } = ask;
  const total = formatCents(parseCents(request.total_amount));
  return `offer rate ${ask.rate} on loan request ${request.id} ($${total}, ${request.loan_terms} months, max rate ${request.max_interest_rate})${ask.automateFund ? ', funded automatically on acceptance' : ''}${dryRun ? ' [dry run: nothing is sent]' : ''}`;
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

/**
 * An agent's place_offer, past the tool's arguments: within its token's allowance the offer is
 * placed at once (after the tool's confirmation step, so an agent does not fire by accident);
 * beyond it, the tool hands it to the proposals wing (AgentContext.beyondAllowance:
 * src/proposals/, a proposal that waits for a person), or refuses it where that wing is absent.
 *
 * The allowance is checked twice: first as a preview, to choose between the two ways before any
 * confirmation prompt (a prompt could not place money beyond the allowance, so none is shown);
 * then bindingly, when the offer is placed, in one SQLite transaction with the day's use
 * (proposals-repository.ts), so calls at the same moment never share the last of it. A call that
 * finds the day used up by then is beyond it too.
 */
import { formatCents, parseCents } from '../domain/index.js';
import { reasonText, type DecisionReason } from '../domain/decision-reason.js';
import { reasonWords } from '../log/human-reasons.js';
import { utcDayBounds, type ProposalInput, type ProposalOutcome } from '../store/index.js';
import type { AgentCaller, AgentContext, OfferAsk } from './agent-context.js';
import { placeAgentOffer, type AgentOfferResult } from './agent-offer.js';
import { allowanceVerdict, type AllowanceVerdict } from './allowance.js';

/** An offer the allowance does not cover (now, or once the day's use was taken meanwhile), and why. */
export interface BeyondAllowance {
  status: 'beyond_allowance';
  why: string;
}

/** The outcome's figures as stored (outcomeOf writes them; the proposals wing reads them back). */
export interface OutcomeDetail {
  service_offer_id?: number | null;
  reasons?: string[];
  /** The same reasons as values (what readers use; the migration "reason texts to values" wrote older rows'). */
  reason_values?: DecisionReason[];
  /** The guard's refusal: its machine text, and (since issue 36) its words. */
  guard?: { code: string; reason: string; words?: string };
  offer_state?: string;
  error?: string;
}

/** "offer rate 0.2 on loan request 1042 ($5000.00, 12 months, max rate 0.3), funded automatically on acceptance" */
export function offerSummary(ask: OfferAsk, dryRun: boolean): string {
  const { request } = ask;
  const total = formatCents(parseCents(request.total_amount));
  return `offer rate ${ask.rate} on loan request ${request.id} ($${total}, ${request.loan_terms} months, max rate ${request.max_interest_rate})${ask.automateFund ? ', funded automatically on acceptance' : ''}${dryRun ? ' [dry run: nothing is sent]' : ''}`;
}

function amountOf(ask: OfferAsk): { amountCents: number; riskLevel: number } {
  return { amountCents: parseCents(ask.request.total_amount), riskLevel: ask.request.borrower_card_color };
}

/** The row of an agent's ask, made now, waiting until the proposals' time is up. */
export function rowOf(context: AgentContext, caller: AgentCaller, ask: OfferAsk, explanation: unknown): ProposalInput {
  const nowMs = context.realClock.now();
  return {
    tokenName: caller.tokenName,
    loanRequestId: ask.request.id,
    rate: ask.rate,
    automateFund: ask.automateFund,
    ...amountOf(ask),
    request: ask.request,
    explanation,
    createdAtMs: nowMs,
    expiresAtMs: nowMs + context.approvals.proposalTtlMs,
  };
}

/** Whether the caller's allowance covers this offer now (a preview: placeWithinAllowance decides). */
export function allowanceNow(context: AgentContext, caller: AgentCaller, ask: OfferAsk): AllowanceVerdict {
  const allowance = context.approvals.allowanceOf(caller.tokenName);
  const day = utcDayBounds(context.realClock.now());
  const used = allowance === undefined ? 0 : context.store.proposals.allowanceUsedCents(caller.tokenName, day.startMs, day.endMs);
  return allowanceVerdict(caller.tokenName, allowance, amountOf(ask), used);
}

/** The stored outcome of an offer that went the daemon's way, and its figures. */
export function outcomeOf(result: AgentOfferResult): { outcome: ProposalOutcome; detail: OutcomeDetail } {
  switch (result.status) {
    case 'refused_by_guard':
      // The machine text for programs, the words for the person reading the proposal.
      return {
        outcome: 'refused_by_guard',
        detail: { guard: { code: result.guard.code, reason: reasonText(result.guard.reason), words: reasonWords(result.guard.reason) } },
      };
    case 'already_offered':
      return { outcome: 'already_offered', detail: { offer_state: result.state } };
    default: {
      const { outcome } = result;
      return {
        outcome: outcome.kind,
        detail: {
          // Stored with the proposal as JSON: the reasons' machine texts, and the values readers use.
          reasons: result.reasons.map(reasonText),
          reason_values: result.reasons,
          service_offer_id: outcome.kind === 'placed' ? outcome.serviceOfferId : null,
          ...(outcome.kind === 'exists' ? { offer_state: outcome.state } : {}),
        },
      };
    }
  }
}

/**
 * Places an offer the allowance covers, confirmed by the agent's client (`via`): the day's use is
 * taken in the same transaction that checks it; when it no longer fits, beyond the allowance.
 */
export async function placeWithinAllowance(
  context: AgentContext,
  caller: AgentCaller,
  ask: OfferAsk,
  via: string,
): Promise<AgentOfferResult | BeyondAllowance> {
  const { store, realClock } = context;
  const verdict = allowanceNow(context, caller, ask);
  if (!verdict.within) return { status: 'beyond_allowance', why: verdict.why };
  const day = utcDayBounds(realClock.now());
  const reservation = store.proposals.reserveAllowance({
    ...rowOf(context, caller, ask, { why: `within token "${caller.tokenName}"'s allowance, confirmed by ${via}` }),
    dayStartMs: day.startMs,
    dayEndMs: day.endMs,
    maxPerDayCents: verdict.allowance.maxPerDayCents,
  });
  if (!reservation.reserved) {
    const now = allowanceVerdict(caller.tokenName, verdict.allowance, amountOf(ask), reservation.usedCents);
    return { status: 'beyond_allowance', why: now.within ? 'the allowance was used up meanwhile' : now.why };
  }
  const id = reservation.proposal.id;
  try {
    const result = await placeAgentOffer(context, caller, {
      ...ask,
      confirmedVia: `${via} within the allowance of token ${caller.tokenName}`,
      proposalId: id,
    });
    const { outcome, detail } = outcomeOf(result);
    store.proposals.finish(id, outcome, detail, realClock.now());
    return result;
  } catch (error) {
    store.proposals.finish(id, 'failed', { error: error instanceof Error ? error.message : String(error) }, realClock.now());
    throw error;
  }
}

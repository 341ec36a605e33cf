/**
 * An agent's place_offer, past the tool's arguments: within its token's allowance the offer is
 * placed at once (after the tool's confirmation step, so an agent does not fire by accident);
 * beyond it, the offer becomes a proposal that waits for a person (decide-proposal.ts).
 *
 * The allowance is checked twice: first as a preview, to choose between the two ways before any
 * confirmation prompt (a prompt could not place money beyond the allowance, so none is shown);
 * then bindingly, when the offer is placed, in one SQLite transaction with the day's use
 * (proposals-repository.ts), so calls at the same moment never share the last of it. A call that
 * finds the day used up by then becomes a proposal too.
 */
import { parseCents } from '../../domain/index.js';
import { reasonText } from '../../domain/decision-reason.js';
import { reasonWords } from '../../log/human-reasons.js';
import { holdWhileWaiting } from './request-holds.js';
import { utcDayBounds, type ProposalInput, type ProposalOutcome, type StoredProposal } from '../../store/index.js';
import type { AgentCaller, AgentContext } from '../agent-context.js';
import { agentGuardCheck, placeAgentOffer, type AgentOfferResult } from '../agent-offer.js';
import { allowanceVerdict, type AllowanceVerdict } from './allowance.js';
import { explainProposal, type OfferAsk } from './explain-proposal.js';
import type { OutcomeDetail } from './proposal-text.js';

/** Proposals one token may have waiting at once: an agent asking in a loop cannot flood the person. */
export const MAX_PENDING_PER_TOKEN = 20;

export type ProposeResult =
  | { status: 'proposed'; proposal: StoredProposal; already: boolean }
  | { status: 'too_many_pending'; pending: number }
  | Extract<AgentOfferResult, { status: 'refused_by_guard' }>;

function amountOf(ask: OfferAsk): { amountCents: number; riskLevel: number } {
  return { amountCents: parseCents(ask.request.total_amount), riskLevel: ask.request.borrower_card_color };
}

/** The row of an agent's ask, made now, waiting until the proposals' time is up. */
function rowOf(context: AgentContext, caller: AgentCaller, ask: OfferAsk, explanation: unknown): ProposalInput {
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

/**
 * A proposal for a person, unless the guard refuses the offer now (then nothing waits: the
 * refusal is the answer, as for an offer within the allowance). The same offer asked again
 * while its proposal waits gets that proposal back, not a second one.
 */
export async function proposeOffer(context: AgentContext, caller: AgentCaller, ask: OfferAsk, why: string): Promise<ProposeResult> {
  const { store, realClock, log } = context;
  const nowMs = realClock.now();
  const same = store.proposals.findPending(caller.tokenName, ask.request.id, ask.rate, ask.automateFund, nowMs);
  if (same !== undefined) return { status: 'proposed', proposal: same, already: true };
  const guard = await agentGuardCheck(context, ask);
  if (!guard.allowed) return { status: 'refused_by_guard', guard };
  const pending = store.proposals.pendingCount(caller.tokenName, nowMs);
  if (pending >= MAX_PENDING_PER_TOKEN) return { status: 'too_many_pending', pending };

  const explanation = await explainProposal(context, ask, why, { allowed: true });
  // Checked again with no await before the insert: the same ask made meanwhile is this one.
  const meanwhile = store.proposals.findPending(caller.tokenName, ask.request.id, ask.rate, ask.automateFund, realClock.now());
  if (meanwhile !== undefined) return { status: 'proposed', proposal: meanwhile, already: true };
  const proposal = store.proposals.propose(rowOf(context, caller, ask, explanation));
  log.info(
    {
      proposal: proposal.id,
      loanRequestId: ask.request.id,
      rate: ask.rate,
      agent: `agent:${caller.tokenName}`,
      expiresAt: proposal.expiresAt,
    },
    `agent offer proposed, waiting for a person: ${why}`,
  );
  // In the sandbox the borrower would decide long before a person could answer.
  await holdWhileWaiting(context, proposal);
  return { status: 'proposed', proposal, already: false };
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
 * taken in the same transaction that checks it; when it no longer fits, a proposal instead.
 */
export async function placeWithinAllowance(
  context: AgentContext,
  caller: AgentCaller,
  ask: OfferAsk,
  via: string,
): Promise<AgentOfferResult | ProposeResult> {
  const { store, realClock } = context;
  const verdict = allowanceNow(context, caller, ask);
  if (!verdict.within) return proposeOffer(context, caller, ask, verdict.why);
  const day = utcDayBounds(realClock.now());
  const reservation = store.proposals.reserveAllowance({
    ...rowOf(context, caller, ask, { why: `within token "${caller.tokenName}"'s allowance, confirmed by ${via}` }),
    dayStartMs: day.startMs,
    dayEndMs: day.endMs,
    maxPerDayCents: verdict.allowance.maxPerDayCents,
  });
  if (!reservation.reserved) {
    const now = allowanceVerdict(caller.tokenName, verdict.allowance, amountOf(ask), reservation.usedCents);
    return proposeOffer(context, caller, ask, now.within ? 'the allowance was used up meanwhile' : now.why);
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

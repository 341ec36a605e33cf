/**
 * An agent's offer beyond its token's allowance (src/operator/agent-asks.ts): a proposal that
 * waits for a person (decide-proposal.ts), unless the guard refuses it now. Handed to place_offer
 * through the agent context (AgentContext.beyondAllowance, this wing's entry in
 * src/daemon/wing-parts.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentCaller, AgentContext, OfferAsk } from '../operator/agent-context.js';
import { agentGuardCheck } from '../operator/agent-offer.js';
import { rowOf } from '../operator/agent-asks.js';
import { guardRefusalAnswer } from '../operator/tools/offer-tools.js';
import { explainProposal } from './explain-proposal.js';
import { MAX_PENDING_PER_TOKEN, proposalAnswer, type ProposeResult } from './proposal-tools.js';
import { holdWhileWaiting } from './request-holds.js';

/**
 * A proposal for a person, unless the guard refuses the offer now (then nothing waits: the
 * refusal is the answer, as for an offer within the allowance). The same offer asked again
 * while its proposal waits gets that proposal back, not a second one.
 */
async function proposeOffer(context: AgentContext, caller: AgentCaller, ask: OfferAsk, why: string): Promise<ProposeResult> {
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

/** place_offer's answer beyond the allowance: the proposal, or the guard's refusal. */
export async function proposeForAPerson(
  context: AgentContext,
  caller: AgentCaller,
  ask: OfferAsk,
  why: string,
  preview: Record<string, unknown>,
): Promise<CallToolResult> {
  const result = await proposeOffer(context, caller, ask, why);
  return result.status === 'refused_by_guard' ? guardRefusalAnswer(result.guard, preview) : proposalAnswer(context, result, preview);
}

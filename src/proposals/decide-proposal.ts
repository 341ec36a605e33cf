/**
 * A person's decision on an agent's proposal, and placing the offer once approved.
 *
 * Approving is a change of state in the database (pending → approved), made by whoever the
 * person used: the dashboard (through the operator API, which then places at once) or
 * `lendbot approve` (which only records the decision; the running daemon's ProposalRunner places
 * it within a second or so). Placing goes the daemon's way and asks everything again: is the
 * request still open, with the same total; the guard on a fresh snapshot (placeAgentOffer, between
 * two of the pipeline's requests); the OfferPlacer's intent row, so nothing is sent twice.
 *
 * Approving twice, or approving what was rejected or expired, changes nothing and says why.
 */
import type { Clock } from '../clock/clock.js';
import { parseCents } from '../domain/index.js';
import type { Store, StoredProposal } from '../store/index.js';
import type { AgentContext } from '../operator/agent-context.js';
import { placeAgentOffer } from '../operator/agent-offer.js';
import { findOpenRequest } from '../operator/find-request.js';
import { outcomeOf } from '../operator/agent-asks.js';
import { proposalHeadline, proposalStateText, unchangedText } from './proposal-text.js';
import { releaseHold } from './request-holds.js';

export type ProposalDecision =
  { changed: true; proposal: StoredProposal; message: string } | { changed: false; proposal: StoredProposal | undefined; message: string };

type Deciding = { store: Pick<Store, 'proposals'>; clock: Clock };

/** Records a person's approval (nothing is placed here). `by`: who, e.g. `cli:alice`, `dashboard:operator`. */
export function approveProposal({ store, clock }: Deciding, id: number, by: string): ProposalDecision {
  const result = store.proposals.decide(id, 'approved', by, clock.now());
  if (!result.changed) return { ...result, message: unchangedText(id, result.proposal) };
  return { ...result, message: `approved proposal ${id}: ${proposalHeadline(result.proposal)}` };
}

export function rejectProposal({ store, clock }: Deciding, id: number, by: string, reason?: string): ProposalDecision {
  const result = store.proposals.decide(id, 'rejected', by, clock.now(), reason);
  if (!result.changed) return { ...result, message: unchangedText(id, result.proposal) };
  return { ...result, message: `rejected proposal ${id}: ${proposalHeadline(result.proposal)}; nothing is placed` };
}

/**
 * Places an approved proposal's offer; undefined when it was not (or no longer) approved, e.g.
 * another caller took it first. Never throws for the offer's own troubles: they are its outcome.
 */
export async function placeApproved(context: AgentContext, id: number): Promise<StoredProposal | undefined> {
  const { store, realClock, log } = context;
  const claimed = store.proposals.claim(id);
  if (claimed === undefined) return undefined;
  const finish = (outcome: Parameters<typeof store.proposals.finish>[1], detail: unknown) =>
    store.proposals.finish(id, outcome, detail, realClock.now());
  try {
    const request = await findOpenRequest(context.client, claimed.loanRequestId);
    if (request === undefined) finish('not_open', {});
    else if (parseCents(request.total_amount) !== claimed.amountCents) {
      finish('failed', { error: `the request's total is now ${request.total_amount}, not the amount approved; nothing was sent` });
    } else {
      const result = await placeAgentOffer(
        context,
        { tokenName: claimed.tokenName },
        {
          request,
          rate: claimed.rate,
          automateFund: claimed.automateFund,
          confirmedVia: `the approval of proposal ${id} by ${claimed.decidedBy ?? 'a person'}`,
          proposalId: id,
        },
      );
      const { outcome, detail } = outcomeOf(result);
      finish(outcome, detail);
    }
  } catch (error) {
    // Reading the list failed (an outage): nothing was sent. The agent may propose again.
    finish('failed', { error: `${error instanceof Error ? error.message : String(error)}; nothing was sent` });
  }
  // Placed or not, the proposal is decided: the borrower (held in the sandbox) decides now.
  await releaseHold(context, claimed.loanRequestId);
  const done = store.proposals.get(id);
  if (done !== undefined)
    log.info(
      {
        proposal: id,
        loanRequestId: done.loanRequestId,
        agent: `agent:${done.tokenName}`,
        outcome: done.outcome,
        approvedBy: done.decidedBy,
      },
      `approved proposal: ${proposalStateText(done)}`,
    );
  return done;
}

/** The dashboard's way: approve and place at once, answering with what became of the offer. */
export async function approveAndPlace(context: AgentContext, id: number, by: string): Promise<ProposalDecision> {
  const approved = approveProposal({ store: context.store, clock: context.realClock }, id, by);
  if (!approved.changed) return approved;
  const placed = (await placeApproved(context, id)) ?? context.store.proposals.get(id) ?? approved.proposal;
  return { changed: true, proposal: placed, message: `proposal ${id} ${proposalStateText(placed)}` };
}

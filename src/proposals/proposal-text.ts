/**
 * A proposal in words, the same everywhere a person or an agent reads it (the dashboard through
 * the API, `lendbot approve`, the connector's get_proposal): what it asks, where it stands, and
 * what became of its offer.
 */
import { dollarsFromCents as dollars } from '../log/plain-figures.js';
import type { OutcomeDetail } from '../operator/agent-asks.js';
import type { StoredProposal } from '../store/index.js';
import type { ProposalExplanation } from './explain-proposal.js';

export type { OutcomeDetail };

/** The explanation column, read back (its shape is this build's; older rows may lack fields). */
export function explanationOf(proposal: StoredProposal): Partial<ProposalExplanation> {
  const value = proposal.explanation;
  return value !== null && typeof value === 'object' ? (value as Partial<ProposalExplanation>) : {};
}

/** "offer 0.2 on loan request 1042 ($5,000.00, funded automatically), asked by agent:claude" */
export function proposalHeadline(proposal: StoredProposal): string {
  const funded = proposal.automateFund ? ', funded automatically on acceptance' : '';
  return `offer ${proposal.rate} on loan request ${proposal.loanRequestId} (${dollars(proposal.amountCents)}, risk level ${proposal.riskLevel}${funded}), asked by agent:${proposal.tokenName}`;
}

/** What became of an approved proposal's offer, in a few words. */
function outcomeText(proposal: StoredProposal): string {
  const detail = (proposal.outcomeDetail ?? {}) as OutcomeDetail;
  const last = detail.reasons?.at(-1);
  switch (proposal.outcome) {
    case 'placed':
      return `placed${detail.service_offer_id ? ` (offer ${detail.service_offer_id})` : ''}`;
    case 'refused_by_guard':
      return `not placed: ${detail.guard?.words ?? detail.guard?.reason ?? 'the guard refused it'}`;
    case 'refused':
      return `the marketplace refused it${last ? ` (${last})` : ''}`;
    case 'unknown':
      return `sent, outcome unknown${last ? ` (${last})` : ''}: the reconciler settles it, and it reserves its money meanwhile`;
    case 'already_offered':
    case 'exists':
      return `not sent: an offer on loan request ${proposal.loanRequestId} is already recorded${detail.offer_state ? ` (${detail.offer_state})` : ''}`;
    case 'not_open':
      return `not placed: loan request ${proposal.loanRequestId} is no longer open`;
    case 'failed':
      return `not placed: ${detail.error ?? 'it failed'}`;
    case null:
      return 'no outcome yet';
  }
}

/**
 * What happened to a proposal, as one word a badge can show: `done` alone says nothing of the
 * money (an approval the guard refused, or whose request had closed, is done too), so every view
 * shows this instead: placed; approved but not placed; sent with its fate unknown; rejected;
 * expired; or still waiting or on its way.
 */
export type ProposalVerdict = 'waiting' | 'approved' | 'placed' | 'not_placed' | 'unknown' | 'rejected' | 'expired';

export function proposalVerdict(proposal: StoredProposal): ProposalVerdict {
  switch (proposal.status) {
    case 'pending':
      return 'waiting';
    case 'approved':
    case 'placing':
      return 'approved';
    case 'rejected':
    case 'expired':
      return proposal.status;
    case 'done':
      return proposal.outcome === 'placed' ? 'placed' : proposal.outcome === 'unknown' ? 'unknown' : 'not_placed';
  }
}

/** The verdict as a badge reads it. */
export const VERDICT_LABELS: Record<ProposalVerdict, string> = {
  waiting: 'waiting for approval',
  approved: 'approved, being placed',
  placed: 'approved and placed',
  not_placed: 'approved, not placed',
  unknown: 'sent, outcome unknown',
  rejected: 'rejected',
  expired: 'expired',
};

/** Where the proposal stands, in one sentence. */
export function proposalStateText(proposal: StoredProposal): string {
  const by = proposal.decidedBy === null ? '' : ` by ${proposal.decidedBy}`;
  const at = proposal.decidedAt === null ? '' : ` at ${proposal.decidedAt}`;
  switch (proposal.status) {
    case 'pending':
      return `waiting for a person's approval until ${proposal.expiresAt}`;
    case 'approved':
      return `approved${by}${at}; the running daemon places it`;
    case 'placing':
      return `approved${by}${at}; being placed now`;
    case 'done':
      return `approved${by}${at}: ${outcomeText(proposal)}`;
    case 'rejected':
      return `rejected${by}${at}${proposal.note ? `: ${proposal.note}` : ''}`;
    case 'expired':
      return `expired at ${proposal.expiresAt}${proposal.note ? ` (${proposal.note})` : ' without a decision'}`;
  }
}

/** Why approving or rejecting a proposal changed nothing. */
export function unchangedText(id: number, proposal: StoredProposal | undefined): string {
  if (proposal === undefined) return `there is no proposal ${id}`;
  return `proposal ${id} is no longer waiting: ${proposalStateText(proposal)}; nothing was done`;
}

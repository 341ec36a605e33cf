/**
 * An agent's proposals (src/proposals/): the answer place_offer gives when an offer waits
 * for a person, and get_proposal / list_proposals to follow them. An agent sees the proposals of
 * its own token only, and nothing here can approve one: that takes a person (the dashboard signed
 * in with the operator token, or `lendbot approve` on the daemon's machine).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PROPOSAL_STATUSES, type StoredProposal } from '../store/index.js';
import type { AgentContext, ToolDeps } from '../operator/agent-context.js';
import type { AgentOfferResult } from '../operator/agent-offer.js';
import { approveCommand, proposalLink } from './proposal-link.js';
import { explanationOf, proposalHeadline, proposalStateText, proposalVerdict, type OutcomeDetail } from './proposal-text.js';
import { answer } from '../operator/tool-answer.js';
import { answerWithServiceTexts, reasonsApart, UNTRUSTED_FIELD } from '../operator/untrusted-data.js';
import { otherReason } from '../domain/decision-reason.js';

/** Proposals one token may have waiting at once: an agent asking in a loop cannot flood the person. */
export const MAX_PENDING_PER_TOKEN = 20;

export type ProposeResult =
  | { status: 'proposed'; proposal: StoredProposal; already: boolean }
  | { status: 'too_many_pending'; pending: number }
  | Extract<AgentOfferResult, { status: 'refused_by_guard' }>;

/** Where a person approves a waiting proposal (null where it no longer waits). */
function approveAt(context: AgentContext, proposal: StoredProposal): { dashboard: string | null; command: string } | null {
  if (proposal.status !== 'pending') return null;
  return { dashboard: proposalLink(context.store.state, proposal.id) ?? null, command: approveCommand(proposal.id) };
}

/**
 * The proposal as an agent may read it: the service's words in its outcome (a refusal's text, an
 * error's message) are taken out onto `texts`, to go under untrusted_marketplace_data.
 */
function withServiceTextsApart(proposal: StoredProposal, texts: string[]): StoredProposal {
  const detail = proposal.outcomeDetail;
  if (detail === null || typeof detail !== 'object') return proposal;
  const { reasons, reason_values: values, error, ...rest } = detail as OutcomeDetail;
  const apart: OutcomeDetail = { ...rest };
  // The values are stored beside the texts (an outcome without them shows its texts as they are).
  const typed = values ?? reasons?.map(otherReason);
  if (typed !== undefined) apart.reasons = reasonsApart(typed, texts);
  if (error !== undefined) {
    texts.push(error);
    apart.error = `see ${UNTRUSTED_FIELD}.service_texts[${texts.length - 1}]`;
  }
  return { ...proposal, outcomeDetail: apart };
}

function proposalFacts(context: AgentContext, stored: StoredProposal, texts: string[] = []): Record<string, unknown> {
  const proposal = withServiceTextsApart(stored, texts);
  return {
    proposal_id: proposal.id,
    loan_request_id: proposal.loanRequestId,
    rate: proposal.rate,
    automate_fund: proposal.automateFund,
    amount_cents: proposal.amountCents,
    risk_level: proposal.riskLevel,
    status: proposal.status,
    state: proposalStateText(proposal),
    verdict: proposalVerdict(proposal),
    why: explanationOf(proposal).why ?? null,
    created_at: proposal.createdAt,
    expires_at: proposal.expiresAt,
    decided_by: proposal.decidedBy,
    decided_at: proposal.decidedAt,
    outcome: proposal.outcome,
    outcome_detail: proposal.outcomeDetail,
    approve_at: approveAt(context, proposal),
  };
}

/** place_offer's answer when the offer was not placed but proposed (or could not be). */
export function proposalAnswer(
  context: AgentContext,
  result: Exclude<ProposeResult, { status: 'refused_by_guard' }>,
  preview: Record<string, unknown>,
): CallToolResult {
  if (result.status === 'too_many_pending') {
    return answer(
      `Not proposed: ${result.pending} of your proposals already wait for a person (at most ${MAX_PENDING_PER_TOKEN}); wait until they are decided or expire.`,
      { ...preview, status: 'too_many_pending', pending: result.pending },
      true,
    );
  }
  const { proposal } = result;
  const where = approveAt(context, proposal);
  const dashboard = where?.dashboard ? ` on the dashboard (${where.dashboard})` : ' on the dashboard';
  const why = explanationOf(proposal).why ?? 'it needs a person';
  return answer(
    `Not placed: ${why}. Proposal ${proposal.id}${result.already ? ' (already made for this offer)' : ''} waits until ${proposal.expiresAt} for a person to approve it${dashboard} or with \`${approveCommand(proposal.id)}\` on the daemon's machine; nothing is placed unless they do. Follow it with get_proposal {"proposal_id": ${proposal.id}}.`,
    {
      ...preview,
      ...proposalFacts(context, proposal),
      status: 'proposal_pending',
      proposal_status: proposal.status,
      already_proposed: result.already,
      needs: "a person's approval",
    },
  );
}

export function registerProposalTools({ server, context, caller }: ToolDeps): void {
  const own = (id: number): StoredProposal | undefined => {
    const found = context.store.proposals.get(id);
    return found?.tokenName === caller.tokenName ? found : undefined;
  };

  server.registerTool(
    'get_proposal',
    {
      title: 'One of your offer proposals',
      description:
        "Where an offer place_offer proposed stands: waiting for a person's approval (and until when), approved and placed (with the outcome), rejected or expired. Only your own token's proposals.",
      inputSchema: { proposal_id: z.number().int().positive() },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      context.store.proposals.expireDue(context.realClock.now());
      const proposal = own(args.proposal_id);
      if (proposal === undefined)
        return answer(`You have no proposal ${args.proposal_id}.`, { status: 'not_found', proposal_id: args.proposal_id }, true);
      const texts: string[] = [];
      const facts = proposalFacts(context, proposal, texts);
      return answerWithServiceTexts(`Proposal ${proposal.id}: ${proposalHeadline(proposal)}; ${String(facts.state)}.`, facts, texts);
    },
  );

  server.registerTool(
    'list_proposals',
    {
      title: 'Your offer proposals',
      description:
        "The offers you asked for beyond your token's allowance (and those placed within it), latest first; `status` narrows them, e.g. pending.",
      inputSchema: {
        status: z.enum(PROPOSAL_STATUSES).optional(),
        limit: z.number().int().min(1).max(100).default(20),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      context.store.proposals.expireDue(context.realClock.now());
      const proposals = context.store.proposals.list({
        statuses: args.status === undefined ? undefined : [args.status],
        tokenName: caller.tokenName,
        limit: args.limit,
      });
      const pending = proposals.filter((proposal) => proposal.status === 'pending').length;
      const texts: string[] = [];
      const listed = proposals.map((proposal) => proposalFacts(context, proposal, texts));
      return answerWithServiceTexts(
        `${proposals.length} proposals of yours (${pending} waiting for a person).`,
        { proposals: listed },
        texts,
      );
    },
  );
}

/**
 * Agents' offer proposals on the operator API (docs/operator-api.md, "Proposals"):
 *
 * - `GET /api/proposals` (`?status=pending`, `limit`, `before`) and `GET /api/proposals/:id`: any
 *   caller who may read;
 * - `POST /api/proposals/:id/approve` (body `{}`) and `/reject` (`{ "reason": "..." }`): only the
 *   operator, that is a dashboard session signed in with LENDBOT_OPERATOR_TOKEN or that token as a
 *   bearer. A named token (an agent's) is refused with 403 even through a dashboard session. A
 *   token is one identity, bearer or session alike: a proposal it asked for at /mcp cannot be
 *   approved by it (403), only by another person's way (`lendbot approve`, Telegram's /approve);
 *   it may reject its own ask, which places nothing. Approving places the offer at once
 *   (the guard asked again), and answers what became of it; approving anything no longer
 *   waiting answers 409 and changes nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PROPOSAL_STATUSES, type StoredProposal } from '../store/index.js';
import type { OperatorApp } from '../operator/operator-listener.js';
import { OPERATOR_TOKEN_NAME } from '../operator/operator-tokens.js';
import { approveAndPlace, rejectProposal } from './decide-proposal.js';
import { proposalLink } from './proposal-link.js';
import { releaseHold } from './request-holds.js';
import { explanationOf, proposalStateText, proposalVerdict, VERDICT_LABELS, type OutcomeDetail } from './proposal-text.js';
import { fail, parseOr400, type ApiDeps } from '../operator/api/api-deps.js';
import type { ApiProposal, ProposalDecisionAnswer, ProposalsAnswer } from '../operator/api/api-types.js';

const listQuery = z.strictObject({
  status: z.enum([...PROPOSAL_STATUSES, 'all']).default('all'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().positive().optional(),
});
const idParams = z.strictObject({ id: z.coerce.number().int().positive() });
const approveBody = z.strictObject({});
const rejectBody = z.strictObject({ reason: z.string().trim().max(200).optional() });

const NEEDS_OPERATOR =
  "approving needs the operator: sign in with LENDBOT_OPERATOR_TOKEN (agents' named tokens cannot approve), or run lendbot approve ID on the daemon's machine";

function apiProposal(proposal: StoredProposal, link: string | null): ApiProposal {
  const explanation = explanationOf(proposal);
  const detail = (proposal.outcomeDetail ?? {}) as OutcomeDetail;
  return {
    id: proposal.id,
    agent: `agent:${proposal.tokenName}`,
    loanRequestId: proposal.loanRequestId,
    rate: proposal.rate,
    automateFund: proposal.automateFund,
    amountCents: proposal.amountCents,
    riskLevel: proposal.riskLevel,
    status: proposal.status,
    state: proposalStateText(proposal),
    verdict: proposalVerdict(proposal),
    verdictLabel: VERDICT_LABELS[proposalVerdict(proposal)],
    createdAt: proposal.createdAt,
    expiresAt: proposal.expiresAt,
    decidedBy: proposal.decidedBy,
    decidedAt: proposal.decidedAt,
    note: proposal.note,
    outcome: proposal.outcome,
    serviceOfferId: detail.service_offer_id ?? null,
    explanation: {
      summary: explanation.summary ?? null,
      why: explanation.why ?? null,
      guardAtProposal: explanation.guard
        ? { allowed: explanation.guard.allowed, code: explanation.guard.code ?? null, reason: explanation.guard.reason ?? null }
        : null,
      strategy: explanation.strategy ?? null,
      notes: explanation.note ? [explanation.note] : [],
      loanTerms: explanation.request?.loan_terms ?? null,
      maxInterestRate: explanation.request?.max_interest_rate ?? null,
      creditScore: explanation.request?.credit_score ?? null,
      dryRun: explanation.dry_run ?? false,
    },
    link,
  };
}

export function registerProposalRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { context, auth, log } = deps;
  const { store, realClock } = context;
  const view = (proposal: StoredProposal): ApiProposal => apiProposal(proposal, proposalLink(store.state, proposal.id) ?? null);
  const isOperator = (request: FastifyRequest): boolean => auth.callerOf(request) === OPERATOR_TOKEN_NAME;

  /**
   * Why this caller may not decide this proposal (403), or undefined when it may. The caller is
   * its token, whether it came as a bearer header or as the session it signed in with: one sign-in
   * must not give a token a right its bearer header lacks (issue 37, item 8).
   */
  const refusal = (request: FastifyRequest, proposal: StoredProposal, action: 'approve' | 'reject'): string | undefined => {
    const caller = auth.callerOf(request);
    if (caller !== OPERATOR_TOKEN_NAME) return NEEDS_OPERATOR;
    if (action === 'approve' && proposal.tokenName === caller) {
      return `proposal ${proposal.id} was asked for with the operator token at /mcp: that token cannot approve it too, as a bearer or through a session signed in with it; approve it with lendbot approve ${proposal.id} on the daemon's machine or /approve ${proposal.id} in Telegram`;
    }
    return undefined;
  };
  const decider = (request: FastifyRequest): string =>
    `${request.headers.authorization === undefined ? 'dashboard' : 'api'}:${OPERATOR_TOKEN_NAME}`;

  api.get('/proposals', async (request, reply) => {
    const query = parseOr400(listQuery, request.query, reply);
    if (query === undefined) return reply;
    store.proposals.expireDue(realClock.now());
    const proposals = store.proposals.list({
      statuses: query.status === 'all' ? undefined : [query.status],
      limit: query.limit,
      beforeId: query.before,
    });
    const operator = isOperator(request);
    const answer: ProposalsAnswer = {
      proposals: proposals.map(view),
      canApprove: operator,
      approveNeeds: operator ? null : NEEDS_OPERATOR,
    };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  api.get('/proposals/:id', async (request, reply) => {
    const params = parseOr400(idParams, request.params, reply);
    if (params === undefined) return reply;
    store.proposals.expireDue(realClock.now());
    const proposal = store.proposals.get(params.id);
    if (proposal === undefined) return fail(reply, 404, `there is no proposal ${params.id}`);
    const operator = isOperator(request);
    const answer: ProposalsAnswer = { proposals: [view(proposal)], canApprove: operator, approveNeeds: operator ? null : NEEDS_OPERATOR };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  const decide = (action: 'approve' | 'reject') =>
    async function (request: FastifyRequest, reply: FastifyReply) {
      const params = parseOr400(idParams, request.params, reply);
      if (params === undefined) return reply;
      const body = parseOr400(action === 'approve' ? approveBody : rejectBody, request.body, reply);
      if (body === undefined) return reply;
      const proposal = store.proposals.get(params.id);
      if (proposal === undefined) return fail(reply, 404, `there is no proposal ${params.id}`);
      const refused = refusal(request, proposal, action);
      if (refused !== undefined) {
        log.warn({ proposal: params.id, caller: auth.callerOf(request) ?? null }, `proposal ${action} refused: ${refused}`);
        return fail(reply, 403, refused);
      }
      const by = decider(request);
      const reason = 'reason' in body ? body.reason : undefined;
      const decision =
        action === 'approve'
          ? await approveAndPlace(context, params.id, by)
          : rejectProposal({ store, clock: realClock }, params.id, by, reason);
      if (!decision.changed || decision.proposal === undefined)
        return fail(reply, decision.proposal === undefined ? 404 : 409, decision.message);
      log.info({ proposal: params.id, by, status: decision.proposal.status, outcome: decision.proposal.outcome }, decision.message);
      // A rejection ends the wait: the borrower (held in the sandbox) decides now.
      if (action === 'reject') await releaseHold(context, decision.proposal.loanRequestId);
      const answer: ProposalDecisionAnswer = { proposal: view(decision.proposal), message: decision.message };
      return reply.header('cache-control', 'no-store').send(answer);
    };
  api.post('/proposals/:id/approve', decide('approve'));
  api.post('/proposals/:id/reject', decide('reject'));
}

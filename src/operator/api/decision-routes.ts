/**
 * `GET /api/decisions`: the decisions, newest first, a page at a time (`before` is the last id
 * seen), filtered by action, strategy or text; `GET /api/decisions/:loanRequestId`: one decision
 * with all that was stored and its explanation (decision-explanation.ts).
 */
import { z } from 'zod';
import { decisionJson } from '../../domain/decision-json.js';
import { reasonWords, skipReasonWords } from '../../log/human-reasons.js';
import { offerViewQuery } from '../../risk/index.js';
import type { LoanRequest } from '../../domain/index.js';
import { UnknownCursorError, type PagedDecision, type StoredDecision } from '../../store/index.js';
import type { OperatorApp } from '../operator-listener.js';
import { fail, parseOr400, type ApiDeps } from './api-deps.js';
import type { DecisionAnswer, DecisionDetail, DecisionRow, DecisionsAnswer } from './api-types.js';
import { explainStoredDecision } from './decision-explanation.js';

const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
  action: z.enum(['offer', 'skip']).optional(),
  strategy: z.string().min(1).max(100).optional(),
  q: z.string().max(200).optional(),
});
const oneParams = z.strictObject({ loanRequestId: z.coerce.number().int().positive() });

function rowOf(decision: StoredDecision, extra: Pick<PagedDecision, 'amountCents' | 'riskLevel' | 'offerState'>): DecisionRow {
  return {
    id: decision.id,
    ...decisionJson(decision),
    why: decision.action === 'offer' ? 'offered' : skipReasonWords(decision.reasonValues),
    amount_cents: extra.amountCents,
    risk_level: extra.riskLevel,
    offer_state: extra.offerState,
  };
}

export function registerDecisionRoutes(api: OperatorApp, deps: ApiDeps): void {
  const { context } = deps;
  const { store } = context;
  // The offer's state as every surface shows it (store/offer-view.ts), not the table's column.
  const offerStateOf = (loanRequestId: number): string | null => {
    const offer = store.offers.getByRequest(loanRequestId);
    return offer === undefined ? null : store.offers.view(offer, offerViewQuery(context.clock.now(), context.limits())).state;
  };

  api.get('/decisions', async (request, reply) => {
    const query = parseOr400(listQuery, request.query, reply);
    if (query === undefined) return reply;
    try {
      const page = store.decisions.page({
        limit: query.limit,
        beforeId: query.before,
        action: query.action,
        strategy: query.strategy,
        text: query.q,
      });
      const answer: DecisionsAnswer = {
        decisions: page.decisions.map((decision) =>
          rowOf(decision, { ...decision, offerState: decision.offerState === null ? null : offerStateOf(decision.loanRequestId) }),
        ),
        nextBefore: page.nextBefore,
      };
      return reply.header('cache-control', 'no-store').send(answer);
    } catch (error) {
      if (error instanceof UnknownCursorError) return fail(reply, 400, `before: ${error.message}`);
      throw error;
    }
  });

  api.get('/decisions/:loanRequestId', async (request, reply) => {
    const params = parseOr400(oneParams, request.params, reply);
    if (params === undefined) return reply;
    const decision = store.decisions.get(params.loanRequestId);
    if (decision === undefined) return fail(reply, 404, `no decision about loan request ${params.loanRequestId}`);
    const seen = store.requests.get(params.loanRequestId);
    const request_ = seen === undefined ? undefined : (JSON.parse(seen.rawJson) as LoanRequest);
    const detail: DecisionDetail = {
      ...rowOf(decision, {
        amountCents: seen?.totalAmountCents ?? null,
        riskLevel: seen?.riskLevel ?? null,
        offerState: offerStateOf(params.loanRequestId),
      }),
      features: decision.features,
      params: decision.params,
      timings: decision.timings,
      previous: decision.previous,
      content_hash: decision.contentHash,
      reason_words: decision.reasonValues.map(reasonWords),
      reason_codes: decision.reasonValues.map((reason) => reason.code),
    };
    const { explanation, notes } = explainStoredDecision(context, decision, request_);
    const answer: DecisionAnswer = {
      decision: detail,
      request: (request_ as Record<string, unknown> | undefined) ?? null,
      explanation,
      notes,
    };
    return reply.header('cache-control', 'no-store').send(answer);
  });
}

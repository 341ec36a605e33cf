/**
 * An agent's offer, the daemon's way: between two of the pipeline's requests, through the same
 * guard (checkOffer on the store's snapshot, with any pause), through the same OfferPlacer (the
 * intent row committed before the POST, so it is sent at most once), and recorded as a decision
 * whose source is `agent:NAME`.
 *
 * A guard refusal is answered and logged, not stored as a decision: a skip row would keep the
 * strategies from ever deciding the request themselves.
 */
import { placementReason, reasonText, type DecisionReason } from '../domain/decision-reason.js';
import { checkOffer, offerViewQuery, snapshotFromStore, type GuardResult } from '../risk/index.js';
import { formatCents, parseCents, type LoanRequest, type PlaceOutcome } from '../domain/index.js';
import type { OfferRecord } from '../store/index.js';
import type { AgentCaller, AgentContext } from './agent-context.js';

export interface AgentOfferInput {
  request: LoanRequest;
  rate: number;
  automateFund: boolean;
  /** How it was confirmed (elicitation or code within the allowance, or the person who approved its proposal), kept in the decision's reasons. */
  confirmedVia: string;
  /** The approved proposal being placed: its offer row is noted, and found again after a restart. */
  proposalId?: number | undefined;
}

export type AgentOfferResult =
  | { status: 'refused_by_guard'; guard: Extract<GuardResult, { allowed: false }> }
  | { status: 'already_offered'; state: string }
  | { status: PlaceOutcome['kind']; outcome: PlaceOutcome; reasons: DecisionReason[] };

/** The guard's verdict on an agent's offer now: the store's snapshot, the current balance, any pause. */
export async function agentGuardCheck(
  context: AgentContext,
  offer: { request: LoanRequest; rate: number; automateFund: boolean },
): Promise<GuardResult> {
  const limits = context.limits();
  const balanceCents = await context.balance.current();
  const snapshot = {
    ...snapshotFromStore(context.store, balanceCents, context.clock.now(), limits, { dryRun: context.dryRun }),
    pauseReason: context.protections.activePause()?.reason,
  };
  return checkOffer(offer, snapshot, limits);
}

export function placeAgentOffer(context: AgentContext, caller: AgentCaller, input: AgentOfferInput): Promise<AgentOfferResult> {
  return context.exclusive(async () => {
    const { store, clock, log } = context;
    const { request, rate, automateFund } = input;
    const existing = store.offers.getByRequest(request.id);
    if (existing !== undefined) {
      // This approval's own placing, which a stopped process left in the middle: its offer, not another's.
      const resumed = input.proposalId !== undefined && store.proposals.offerIdOf(input.proposalId) === existing.id;
      if (resumed) return recordAgentOffer(context, caller, input, outcomeOfExisting(existing));
      // The state every surface shows (store/offer-view.ts), not the table's bookkeeping column.
      return { status: 'already_offered', state: store.offers.view(existing, offerViewQuery(clock.now(), context.limits())).state };
    }

    const guard = await agentGuardCheck(context, { request, rate, automateFund });
    const agent = `agent:${caller.tokenName}`;
    if (!guard.allowed) {
      log.info({ loanRequestId: request.id, rate, agent, guard: guard.code }, `agent offer refused: ${reasonText(guard.reason)}`);
      return { status: 'refused_by_guard', guard };
    }

    const { proposalId } = input;
    const noteOffer = proposalId === undefined ? undefined : (offerId: number) => store.proposals.noteOffer(proposalId, offerId);
    const outcome = await context.placer.place(request, rate, automateFund, undefined, noteOffer);
    return recordAgentOffer(context, caller, input, outcome);
  });
}

/** What an offer row this approval wrote says of its placing, as the placer would have answered. */
function outcomeOfExisting(offer: OfferRecord): PlaceOutcome {
  switch (offer.state) {
    case 'intent':
      return {
        kind: 'unknown',
        text: 'the process stopped while placing it; settled by reading, or sent again (a bounded number of times)',
      };
    case 'unknown':
      return { kind: 'unknown', text: offer.serviceText ?? 'outcome unknown' };
    case 'refused':
      return { kind: 'refused', text: offer.serviceText ?? 'refused', serviceText: offer.serviceText ?? undefined };
    default:
      return { kind: 'placed', serviceOfferId: offer.serviceOfferId };
  }
}

/** Records the agent's decision for a placing and answers with it. */
function recordAgentOffer(context: AgentContext, caller: AgentCaller, input: AgentOfferInput, outcome: PlaceOutcome): AgentOfferResult {
  const { store, clock, log } = context;
  const { request, rate, automateFund } = input;
  const agent = `agent:${caller.tokenName}`;
  const reasons: DecisionReason[] = [
    {
      code: 'agent_offered',
      agent,
      rate: String(rate),
      amount: formatCents(parseCents(request.total_amount)),
      confirmedVia: input.confirmedVia,
    },
  ];
  const fate = placementReason(outcome);
  if (fate !== undefined) reasons.push(fate);
  // Replaces any decision a poll recorded meanwhile for a placing taken up after a restart: the agent's offer.
  store.decisions.recordAgent({
    loanRequestId: request.id,
    strategy: null,
    params: { automate_fund: automateFund },
    rate,
    action: outcome.kind === 'refused' ? 'skip' : 'offer',
    reasons,
    dryRun: context.dryRun,
    decidedAtMs: clock.now(),
    placement: outcome.kind,
    source: agent,
  });
  log.info({ loanRequestId: request.id, rate, automateFund, agent, placement: outcome.kind }, 'agent offer');
  if (outcome.kind === 'placed' && !context.dryRun) {
    // The offer may have moved money (automate_fund): read the balance again in the background.
    context.balance.refresh().catch((error: unknown) => log.warn({ err: error }, 'balance refresh failed'));
  }
  return { status: outcome.kind, outcome, reasons };
}

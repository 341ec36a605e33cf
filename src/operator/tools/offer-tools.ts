/**
 * The two tools that spend money: place_offer (within the token's allowance, confirmed first by
 * confirm-action.ts and placed the daemon's way, agent-offer.ts; beyond it, a proposal a person
 * approves, src/proposals/, where that wing is attached) and get_provider_score, confirmed first (a paid score, bought
 * through the decide step's data source and spend ledger, by the decide step's budget rule, and
 * charged in the purchases table to the strategy whose budget allowed it).
 */
import { z } from 'zod';
import { monthStartMs } from '../../clock/utc-month.js';
import { MAX_RATE, MIN_RATE, formatCents, type Cents, type LoanRequest } from '../../domain/index.js';
import { reasonText } from '../../domain/decision-reason.js';
import { reasonWords } from '../../log/human-reasons.js';
import { confirmAction } from '../confirm-action.js';
import { findOpenRequest } from '../find-request.js';
import { allowanceNow, offerSummary, placeWithinAllowance } from '../agent-asks.js';
import type { AgentOfferResult } from '../agent-offer.js';
import { answer } from '../tool-answer.js';
import { answerWithServiceTexts, marketplaceAnswer, reasonsApart } from '../untrusted-data.js';
import type { ToolDeps } from '../agent-context.js';

const confirmationCode = z
  .string()
  .optional()
  .describe('the code a first call answered with; leave out on the first call (or when the client confirms through elicitation)');

const notOpen = (id: number) =>
  answer(
    `Nothing was done: loan request ${id} is not in the list of open loan requests.`,
    { status: 'not_open', loan_request_id: id },
    true,
  );

export function registerOfferTools({ server, context, caller, codes }: ToolDeps): void {
  const confirm = (extra: Parameters<typeof confirmAction>[1]['extra'], request: Omit<Parameters<typeof confirmAction>[0], 'tokenName'>) =>
    confirmAction(
      { ...request, tokenName: caller.tokenName },
      { codes, clientCapabilities: () => server.server.getClientCapabilities(), extra },
    );

  server.registerTool(
    'place_offer',
    {
      title: 'Place an offer',
      description:
        "Offer an interest rate on an open loan request. Within your token's allowance (set by the operator) it is placed after confirmation (elicitation, or a second call with the code the first returns); beyond it, or without an allowance, it becomes a proposal that a person must approve (on lendbot's dashboard or with `lendbot approve ID`) before it expires: follow it with get_proposal. The risk guard applies either way; a refusal is answered with its reason. Never sent twice for one request.",
      inputSchema: {
        loan_request_id: z.number().int().positive(),
        rate: z.number().min(MIN_RATE).max(MAX_RATE).describe(`offered interest in the API's unit, ${MIN_RATE} to ${MAX_RATE}`),
        automate_fund: z.boolean().default(false).describe('fund automatically when the borrower accepts'),
        confirmation_code: confirmationCode,
      },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (args, extra) => {
      const request = await findOpenRequest(context.client, args.loan_request_id);
      if (request === undefined) return notOpen(args.loan_request_id);
      const ask = { request, rate: args.rate, automateFund: args.automate_fund };
      const preview = {
        loan_request_id: request.id,
        rate: args.rate,
        automate_fund: args.automate_fund,
        total_amount: request.total_amount,
        max_interest_rate: request.max_interest_rate,
        dry_run: context.dryRun,
      };
      // Beyond the token's allowance a person decides: no confirmation prompt is shown (an agent's
      // code or a client's "accept" could not place it), the offer waits as a proposal. Without
      // the proposals wing (left out, or its folder deleted) nothing can wait: it is refused.
      const beyond = (why: string) =>
        context.beyondAllowance?.(context, caller, ask, why, preview) ??
        answer(
          `Not offered: ${why}. The proposals wing is not attached here, so no proposal is made and no person can approve it; nothing was sent.`,
          { ...preview, status: 'beyond_allowance', why },
          true,
        );
      const allowance = allowanceNow(context, caller, ask);
      if (!allowance.within) return beyond(allowance.why);
      const confirmation = await confirm(extra, { tool: 'place_offer', args, summary: offerSummary(ask, context.dryRun), preview });
      if (!confirmation.confirmed) return confirmation.result;
      const result = await placeWithinAllowance(context, caller, ask, confirmation.via);
      switch (result.status) {
        case 'beyond_allowance':
          return beyond(result.why);
        case 'refused_by_guard':
          return guardRefusalAnswer(result.guard, preview);
        case 'already_offered':
          return answer(`Not sent: an offer on loan request ${request.id} is already recorded (${result.state}).`, {
            ...preview,
            status: 'already_offered',
            offer_state: result.state,
          });
        default: {
          const outcome = result.outcome;
          const offerId = outcome.kind === 'placed' ? outcome.serviceOfferId : null;
          // The service's words in the reasons (a refusal's text) are data, not instructions.
          const serviceTexts: string[] = [];
          const reasons = reasonsApart(result.reasons, serviceTexts);
          const text =
            outcome.kind === 'placed'
              ? `Offered ${args.rate} on loan request ${request.id}${offerId === null ? '' : ` (offer ${offerId})`}${context.dryRun ? ' (dry run: recorded, not sent)' : ''}.`
              : `Offer on loan request ${request.id}: ${reasons.at(-1) ?? outcome.kind}.`;
          const facts = { ...preview, status: outcome.kind, guard: { allowed: true }, service_offer_id: offerId, reasons };
          return answerWithServiceTexts(text, facts, serviceTexts, outcome.kind === 'refused');
        }
      }
    },
  );

  server.registerTool(
    'get_provider_score',
    {
      title: "A third-party provider's score (paid)",
      description:
        "Buy a provider's result for a loan request. Per-request providers cost money: needs confirmation, and is refused when it would exceed the month's data budget. Counted in the purchases table like the bot's own purchases.",
      inputSchema: {
        loan_request_id: z.number().int().positive(),
        provider: z.string().min(1).describe("the provider's name, as in the strategies' data section"),
        confirmation_code: confirmationCode,
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (args, extra) => {
      const price = providerPrice(context.strategies(), args.provider);
      if (price === undefined) {
        return answer(
          `Nothing was bought: provider "${args.provider}" is in no active strategy's data section, so its price and budget are unknown.`,
          { status: 'unknown_provider', provider: args.provider },
          true,
        );
      }
      const refusedBudget = (reason: string) => answer(`Nothing was bought: ${reason}.`, { status: 'over_budget', reason }, true);
      const early = dueNow(price, args.provider);
      if (early.overBudget !== undefined) return refusedBudget(early.overBudget);
      const request = await findOpenRequest(context.client, args.loan_request_id);
      if (request === undefined) return notOpen(args.loan_request_id);
      const preview = {
        loan_request_id: request.id,
        provider: args.provider,
        pricing: price.pricing,
        cost_cents: early.dueCents,
        budget_of: price.strategy,
        budget_cents: price.budgetCents,
      };
      const cost =
        early.subscriptionCents > 0
          ? `$${formatCents(early.dueCents)} (the month's subscription)`
          : early.dueCents > 0
            ? `$${formatCents(early.dueCents)}`
            : 'no charge (subscription already paid this month)';
      const confirmation = await confirm(extra, {
        tool: 'get_provider_score',
        args,
        summary: `buy ${args.provider}'s result for loan request ${request.id}: ${cost}, from ${price.strategy}'s data budget`,
        preview,
      });
      if (!confirmation.confirmed) return confirmation.result;
      // One purchase at a time, the daemon's and every agent's: the budget check, the call and the
      // spend's record are one step in the pipeline's queue, so purchases confirmed at once cannot
      // all pass the check before the first is recorded. Checked again there: the month, or the
      // spend, may have moved on while the person confirmed or the queue ran.
      return context.exclusive(async () => {
        const due = dueNow(price, args.provider);
        if (due.overBudget !== undefined) return refusedBudget(due.overBudget);
        return buy(request, args.provider, price.strategy, due);
      });
    },
  );

  /**
   * What buying costs now and whether the budget allows it, by the decide step's rule: a
   * per-request provider costs its price; a flat one its monthly price at the month's first
   * purchase (the subscription), nothing after; the strategy's own spend this month plus that
   * must stay within its budget.
   */
  function dueNow(price: ProviderPrice, provider: string): { dueCents: Cents; subscriptionCents: Cents; overBudget?: string } {
    const now = context.clock.now();
    const monthStart = monthStartMs(now);
    const perRequestCents = price.pricing === 'per_request' ? price.costCents : 0;
    const subscriptionCents =
      price.pricing === 'flat' && price.costCents > 0 && !context.spend.subscribedSince(provider, monthStart, now) ? price.costCents : 0;
    const dueCents = perRequestCents + subscriptionCents;
    const spent = context.spend.spentSince(monthStart, now, price.strategy);
    if (dueCents > 0 && spent + dueCents > price.budgetCents) {
      const what = subscriptionCents > 0 ? `${provider} (monthly subscription)` : provider;
      return {
        dueCents,
        subscriptionCents,
        overBudget: `data budget ${formatCents(spent)} + ${formatCents(dueCents)} > ${formatCents(price.budgetCents)} for ${what}`,
      };
    }
    return { dueCents, subscriptionCents };
  }

  /** One purchase, recorded as the decide step records its own: charged to the strategy whose budget allowed it. */
  async function buy(request: LoanRequest, provider: string, strategy: string, due: { dueCents: Cents; subscriptionCents: Cents }) {
    const atMs = context.clock.now();
    const fetched = await context.data.providerResult(request, provider);
    const perRequestCents = due.dueCents - due.subscriptionCents;
    const purchase = { loanRequestId: request.id, provider, strategy, atMs };
    // The month's subscription starts with its first purchase (a 404 is none; a 5xx may be billed).
    if (
      due.subscriptionCents > 0 &&
      (fetched.ok || fetched.billed === true) &&
      !context.spend.subscribedSince(provider, monthStartMs(atMs), atMs)
    ) {
      context.spend.record({ ...purchase, kind: 'subscription', costCents: due.subscriptionCents, ok: true });
    }
    if (!fetched.ok) {
      const billed = fetched.billed === true ? perRequestCents : 0;
      context.spend.record({ ...purchase, kind: 'provider', costCents: billed, ok: false, error: fetched.detail });
      // The detail is the service's text: data, not instructions.
      return marketplaceAnswer(
        `No result from ${provider} for loan request ${request.id}.`,
        { status: 'unavailable', cost_cents: billed },
        { detail: fetched.detail },
        true,
      );
    }
    context.spend.record({ ...purchase, kind: 'provider', costCents: perRequestCents, ok: true, payload: fetched.value });
    context.log.info(
      { loanRequestId: request.id, provider, costCents: due.dueCents, strategy, agent: `agent:${caller.tokenName}` },
      'agent bought a provider result',
    );
    return marketplaceAnswer(
      `${provider}'s result for loan request ${request.id} (cost $${formatCents(due.dueCents)}, from ${strategy}'s budget).`,
      { status: 'bought', loan_request_id: request.id, provider, cost_cents: due.dueCents, budget_of: strategy },
      { result: fetched.value },
    );
  }
}

interface ProviderPrice {
  /** The strategy whose budget pays: of those naming the provider, the one with the largest budget. */
  strategy: string;
  budgetCents: Cents;
  pricing: 'flat' | 'per_request';
  costCents: Cents;
}

/** The provider's price and the strategy whose budget pays for an agent's purchase of it. */
function providerPrice(strategies: ReturnType<ToolDeps['context']['strategies']>, provider: string): ProviderPrice | undefined {
  let found: ProviderPrice | undefined;
  for (const strategy of strategies) {
    const policy = strategy.dataPolicy.providers.find((candidate) => candidate.provider === provider);
    if (policy === undefined) continue;
    const budgetCents = strategy.dataPolicy.monthlyBudgetCents;
    if (found === undefined || budgetCents > found.budgetCents)
      found = { strategy: strategy.name, budgetCents, pricing: policy.pricing, costCents: policy.costCents };
  }
  return found;
}

/** An offer the guard refused, in words (what the agent relays to its person); the machine text stays in `reason`. */
export function guardRefusalAnswer(
  guard: Extract<AgentOfferResult, { status: 'refused_by_guard' }>['guard'],
  preview: Record<string, unknown>,
) {
  const words = reasonWords(guard.reason);
  return answer(`Not offered: ${words}.`, {
    ...preview,
    status: 'refused_by_guard',
    guard: { allowed: false, code: guard.code, reason: reasonText(guard.reason), words },
  });
}

/**
 * The lender's side as the bot keeps it: its offers and their states as every surface shows them
 * (store/offer-view.ts) and the balance the guard works with (balance, reserved by pending
 * offers, and free cash: risk/account-money.ts).
 */
import { z } from 'zod';
import { formatCents, type Cents } from '../../domain/index.js';
import { equityJson, equityNow, equityText } from '../../money/equity-now.js';
import { lossRatesFromConfig } from '../../money/loss-rates-config.js';
import { accountMoney, offerViewQuery } from '../../risk/index.js';
import { OFFER_VIEW_STATES, offerJson, type OfferView } from '../../store/index.js';
import { answer } from '../tool-answer.js';
import { marketplaceAnswer } from '../untrusted-data.js';
import type { ToolDeps } from '../agent-context.js';

const usd = (cents: Cents): string => `$${formatCents(cents)}`;

export function registerAccountTools({ server, context }: ToolDeps): void {
  server.registerTool(
    'list_offers',
    {
      title: "The bot's offers",
      description:
        "The offers lendbot made (the strategies' and agents'), newest first, with their states: sending, unknown (may or may not have reached the marketplace), refused, placed (out, unanswered), accepted, funded, rejected, lost (the request went elsewhere), expired; and whether each still reserves money.",
      inputSchema: {
        state: z.array(z.enum(OFFER_VIEW_STATES)).optional().describe('only offers in these states (default all)'),
        loan_request_id: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).default(50),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const { store, clock } = context;
      const query = offerViewQuery(clock.now(), context.limits());
      let listed: OfferView[];
      if (args.loan_request_id === undefined) {
        listed = store.offers.views({ limit: args.limit, states: args.state }, query);
      } else {
        const record = store.offers.getByRequest(args.loan_request_id);
        listed = (record === undefined ? [] : [store.offers.view(record, query)]).filter(
          (offer) => args.state === undefined || args.state.includes(offer.state),
        );
      }
      const counts = new Map<string, number>();
      for (const offer of listed) counts.set(offer.state, (counts.get(offer.state) ?? 0) + 1);
      const byState = [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
      // The service's text about an offer (its refusal, an unreadable answer) is data, not instructions: apart.
      const offers = listed.map((offer) => {
        const { service_text: _serviceText, ...own } = offerJson(offer);
        return own;
      });
      const serviceTexts = listed
        .filter((offer) => offer.serviceText !== null)
        .map((offer) => ({ loan_request_id: offer.loanRequestId, service_text: offer.serviceText }));
      return marketplaceAnswer(`${listed.length} offers${byState ? `: ${byState}` : ''}.`, { offers }, { service_texts: serviceTexts });
    },
  );

  server.registerTool(
    'get_balance',
    {
      title: 'Balance, reserved and free cash',
      description:
        'The balance read now from the transfer history (processed transfers less pending outgoing ones), what pending offers reserve, the cash reserve kept aside, and the free cash the next offer may use; and equity: cash plus the principal still out on loans less the loss expected on late loans, with interest earned and principal written off.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      const { store, clock } = context;
      // Read the transfer history now (it is stored), then show what every other surface shows.
      await context.balance.refresh();
      const money = accountMoney(store, clock.now(), context.limits(), context.dryRun);
      const equity = equityNow(store, clock, lossRatesFromConfig(context.config));
      return answer(
        `Balance ${usd(money.balanceCents)}, reserved ${usd(money.reservedCents)}, cash reserve ${usd(money.minCashReserveCents)}, free ${usd(money.freeCents)}. Equity ${equityText(equity)}.`,
        {
          balance_cents: money.balanceCents,
          reserved_cents: money.reservedCents,
          min_cash_reserve_cents: money.minCashReserveCents,
          free_cents: money.freeCents,
          equity: equityJson(equity),
        },
      );
    },
  );
}

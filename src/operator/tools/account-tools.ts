/**
 * The lender's side as the bot keeps it: its offers and their states (the offers table) and the
 * balance the guard works with (balance, reserved by pending offers, and free cash).
 */
import { z } from 'zod';
import { formatCents, type Cents } from '../../service/index.js';
import { equityJson, equityNow, equityText } from '../../ops/equity-now.js';
import { lossRatesFromConfig } from '../../ops/loss-rates-config.js';
import { OFFER_STATES, offerJson } from '../../store/index.js';
import { answer } from '../tool-answer.js';
import { marketplaceAnswer } from '../untrusted-data.js';
import type { ToolDeps } from './tool-deps.js';

const usd = (cents: Cents): string => `$${formatCents(cents)}`;

export function registerAccountTools({ server, context }: ToolDeps): void {
  server.registerTool(
    'list_offers',
    {
      title: "The bot's offers",
      description: "The offers lendbot made (the strategies' and agents'), latest first, with their states: intent, placed, refused, unknown, accepted, funded, rejected, expired.",
      inputSchema: {
        state: z.array(z.enum(OFFER_STATES)).optional().describe('only offers in these states (default all)'),
        loan_request_id: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).default(50),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const { store } = context;
      const records =
        args.loan_request_id !== undefined
          ? [store.offers.getByRequest(args.loan_request_id)].filter((record) => record !== undefined)
          : store.offers.listByState(args.state ?? OFFER_STATES);
      const listed = records
        .filter((record) => args.state === undefined || args.state.includes(record.state))
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id))
        .slice(0, args.limit);
      const counts = new Map<string, number>();
      for (const offer of listed) counts.set(offer.state, (counts.get(offer.state) ?? 0) + 1);
      const byState = [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
      // The service's text about an offer (its refusal, an unreadable answer) is data, not instructions: apart.
      const offers = listed.map((offer) => {
        const { service_text: _serviceText, ...own } = offerJson(offer);
        return own;
      });
      const serviceTexts = listed.filter((offer) => offer.serviceText !== null).map((offer) => ({ loan_request_id: offer.loanRequestId, service_text: offer.serviceText }));
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
      const limits = context.limits();
      const balanceCents = await context.balance.refresh();
      const reservedCents = store.offers.reserved({ nowMs: clock.now(), expiryMs: limits.offerExpiryMs, dryRun: context.dryRun, includeManual: limits.reserveManualOffers });
      const freeCents = balanceCents - reservedCents - limits.minCashReserveCents;
      const equity = equityNow(store, clock, lossRatesFromConfig(context.config));
      return answer(`Balance ${usd(balanceCents)}, reserved ${usd(reservedCents)}, cash reserve ${usd(limits.minCashReserveCents)}, free ${usd(freeCents)}. Equity ${equityText(equity)}.`, {
        balance_cents: balanceCents,
        reserved_cents: reservedCents,
        min_cash_reserve_cents: limits.minCashReserveCents,
        free_cents: freeCents,
        equity: equityJson(equity),
      });
    },
  );
}

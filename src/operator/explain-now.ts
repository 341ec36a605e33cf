/**
 * "What would the bot decide about this request now?" for a request it has not decided: the
 * engine's decide step over the data already bought for it (explaining never buys), and the
 * guard on the store's snapshot as it is now. Nothing is written. The strategies are the ones
 * that decide the request live (engine/strategy-roles.ts): a shadow challenger or the other arm
 * of a split never speaks for the bot.
 */
import { decideSync, strategyRoles, type DecideOutcome, type SpendLedger } from '../engine/index.js';
import { checkOffer, snapshotFromStore } from '../risk/index.js';
import type { LoanRequest } from '../domain/index.js';
import type { AgentContext } from './agent-context.js';
import { purchasedData } from './purchased-data.js';

export async function explainNow(context: AgentContext, request: LoanRequest): Promise<DecideOutcome> {
  const { store, clock } = context;
  const source = purchasedData(store, request.id);
  // Reads the real month's spend (so the budget rule answers as the daemon would); records nothing.
  const ledger: SpendLedger = {
    spentSince: (fromMs, nowMs, strategy) => context.spend.spentSince(fromMs, nowMs, strategy),
    subscribedSince: (provider, fromMs, nowMs) => context.spend.subscribedSince(provider, fromMs, nowMs),
    record: () => undefined,
  };
  const limits = context.limits();
  const balanceCents = await context.balance.current();
  const nowMs = clock.now();
  const snapshot = {
    ...snapshotFromStore(store, balanceCents, nowMs, limits, { dryRun: context.dryRun }),
    pauseReason: context.protections.activePause()?.reason,
  };
  const { live } = strategyRoles(context.strategies(), limits.split, request.id);
  if (live.length === 0) throw new Error('every active strategy is marked shadow: true, so none decides live');
  return decideSync(request, { strategies: live, nowMs, ledger }, source, (offer) => checkOffer(offer, snapshot, limits));
}

/**
 * The features a decision reads or feeds, attached to the pipeline in the order their hooks run
 * (decision-hooks.ts): the cash position (cash-position.ts), the market's learners
 * (market-fates.ts), the protections' count of account refusals, the balance read after a placed
 * offer, and the challengers in shadow (shadow-decide.ts). The operations' metrics listen after
 * them (src/ops/instrument.ts, attached by attachOps).
 */
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { Store } from '../store/index.js';
import type { BalanceTracker } from './balance-tracker.js';
import { attachCashPosition } from './cash-position.js';
import type { MarketFates } from './market-fates.js';
import type { Pipeline } from './pipeline.js';
import { attachShadows } from './shadow-decide.js';

export interface PipelineFeatureParts {
  store: Store;
  log: Logger;
  limits: () => RiskLimits;
  dryRun: boolean;
  balance: BalanceTracker;
  marketFates: MarketFates;
  /** The automatic pauses: refusals for account reasons feed them (src/ops/protections). */
  refusals: { noteOfferRefusal(serviceText: string | undefined): void };
}

export function attachPipelineFeatures(pipeline: Pipeline, parts: PipelineFeatureParts): void {
  const { log, dryRun, balance } = parts;
  attachCashPosition(pipeline, parts);
  parts.marketFates.attachTo(pipeline, dryRun);
  pipeline.onDecided((_request, _source, _result, { placement }) => {
    if (placement?.kind === 'refused') parts.refusals.noteOfferRefusal(placement.serviceText);
    // The offer may have moved money (automate_fund): refresh in the background.
    if (placement?.kind === 'placed' && !dryRun)
      balance.refresh().catch((error: unknown) => log.warn({ err: error }, 'balance refresh failed'));
  });
  attachShadows(pipeline, parts);
}

/**
 * The backtest's side of the enrich ⇄ decide loop: "buys" data from the recording line instead of
 * the service, enforcing the strategy's monthly data budget against the simulated spend ledger.
 * It mirrors src/daemon/enricher.ts step for step (budget checked before the call, flat-priced
 * providers free per request, nothing billed for data that is not there) and gives the same
 * reasons, so a backtest explains a skip as the daemon would.
 */
import { budgetOfDecision, type CompiledStrategy, type SyncBuyer } from '../engine/index.js';
import type { RecordingLine } from './recording-schema.js';
import type { SimLedger } from './sim-ledger.js';

const usd = (cents: number): string => (cents / 100).toFixed(2);

export function recordingBuyer(line: RecordingLine, nowMs: number, ledger: SimLedger, strategies: readonly CompiledStrategy[]): SyncBuyer {
  return (need, enrichment, decision) => {
    if (need.kind === 'banking_data') {
      if (line.data_aggs) {
        enrichment.bankingData = line.data_aggs;
        return undefined;
      }
      enrichment.unavailable = { ...enrichment.unavailable, bankingData: true };
      return 'data banking_data not found';
    }
    const markUnavailable = (): void => {
      enrichment.unavailable = { ...enrichment.unavailable, providers: [...(enrichment.unavailable?.providers ?? []), need.provider] };
    };
    const costCents = need.pricing === 'per_request' ? need.costCents : 0;
    if (costCents > 0) {
      const budget = budgetOfDecision(strategies, decision);
      const spent = ledger.spendThisMonth(nowMs);
      if (spent + costCents > budget) {
        markUnavailable();
        return `data budget ${usd(spent)} + ${usd(costCents)} > ${usd(budget)} for ${need.provider}`;
      }
    }
    const result = line.scores?.[need.provider];
    if (result === undefined) {
      // The service answers 404 for a score it does not have, and does not bill it.
      markUnavailable();
      return `data ${need.provider} unavailable: not in recording`;
    }
    ledger.dataBought(nowMs, costCents);
    enrichment.providerResults = { ...enrichment.providerResults, [need.provider]: result };
    return undefined;
  };
}

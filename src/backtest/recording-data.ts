/**
 * The backtest's two seams of the decide step (src/engine/decide-step.ts): data comes from the
 * recording line (what the daemon bought, or the sandbox knew), and spend goes to the simulated
 * ledger. A score the recording lacks is "not there", as the service's 404 is, and is not billed.
 */
import type { DataSource, SpendLedger } from '../engine/index.js';
import type { RecordingLine } from '../recording/index.js';
import type { SimLedger } from './sim-ledger.js';

export function recordingDataSource(line: RecordingLine): DataSource<true> {
  return {
    bankingData: () => (line.data_aggs ? { ok: true, value: line.data_aggs } : { ok: false, detail: 'not in recording' }),
    providerResult: (_request, provider) => {
      const result = line.scores?.[provider];
      return result === undefined ? { ok: false, detail: 'not in recording' } : { ok: true, value: result };
    },
  };
}

export function simSpendLedger(ledger: SimLedger): SpendLedger {
  return {
    spentSince: (_fromMs, nowMs) => ledger.spendThisMonth(nowMs),
    record: (purchase) => {
      if (purchase.costCents > 0) ledger.dataBought(purchase.atMs, purchase.costCents);
    },
  };
}

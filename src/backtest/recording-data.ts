/**
 * The backtest's two seams of the decide step (src/engine/decide-step.ts): data comes from the
 * recording line (what the daemon bought, or the sandbox knew), and spend goes to the simulated
 * ledger. A score the recording lacks is "not there", as the service's 404 is, and is not billed;
 * so is a borrower history the recording lacks (`borrower_history` absent, not `[]`).
 */
import type { DataSource, Fetched, SpendLedger } from '../engine/index.js';
import type { BankingData, BorrowerLoanHistoryItem, LoanRequest, ProviderResult } from '../domain/index.js';
import type { RecordedData, RecordingLine } from '../recording/index.js';
import type { SimLedger } from './sim-ledger.js';

/**
 * recordingDataSource for a replay: one object whose `line` is set to the request being decided
 * (its line, or what was bought about it: ReplayRead's `data`), so a hundred thousand requests
 * do not each build a source.
 */
export class ReplayDataSource implements DataSource<true> {
  line: RecordedData | undefined;

  bankingData(): Fetched<BankingData> {
    const aggs = this.line?.data_aggs;
    return aggs ? { ok: true, value: aggs } : NOT_RECORDED;
  }

  providerResult(_request: LoanRequest, provider: string): Fetched<ProviderResult> {
    const result = this.line?.scores?.[provider];
    return result === undefined ? NOT_RECORDED : { ok: true, value: result };
  }

  borrowerHistory(): Fetched<BorrowerLoanHistoryItem[]> {
    const history = this.line?.borrower_history;
    return history ? { ok: true, value: history } : NOT_RECORDED;
  }
}

/** What a recording lacks (shared: nobody changes a Fetched). */
const NOT_RECORDED = Object.freeze({ ok: false, detail: 'not in recording' } as const);

export function recordingDataSource(line: RecordingLine): DataSource<true> {
  return {
    bankingData: () => (line.data_aggs ? { ok: true, value: line.data_aggs } : { ok: false, detail: 'not in recording' }),
    providerResult: (_request, provider) => {
      const result = line.scores?.[provider];
      return result === undefined ? { ok: false, detail: 'not in recording' } : { ok: true, value: result };
    },
    borrowerHistory: () => (line.borrower_history ? { ok: true, value: line.borrower_history } : { ok: false, detail: 'not in recording' }),
  };
}

/**
 * Spend in the simulated ledger. A subscription is charged by the decide step in the simulated
 * month's first call to its provider, during the request that made it: that request's
 * contribution to the net carries the fee, so the per-request contributions still add up to
 * the net (tune's paired comparisons).
 */
export function simSpendLedger(ledger: SimLedger): SpendLedger {
  return {
    spentSince: (_fromMs, nowMs, strategy) => ledger.spendThisMonth(nowMs, strategy),
    subscribedSince: (provider, _fromMs, nowMs) => ledger.subscribed(nowMs, provider),
    record: (purchase) => {
      if (purchase.costCents > 0) {
        ledger.dataBought(
          purchase.atMs,
          purchase.costCents,
          purchase.strategy,
          purchase.kind === 'subscription' ? purchase.provider : undefined,
        );
      }
    },
  };
}

/**
 * Writes the daemon's history as a recording (docs/recording-format.md), so a backtest can
 * replay what the daemon saw: each request as first listed, the data bought about it, and, where
 * the investor's own loan lists tell, what became of it. Outcomes of requests the investor did
 * not fund are unknown to the daemon and left out.
 */
import type { BankingData, ProviderResult } from '../service/index.js';
import type { StoredLoan, Store } from '../store/index.js';
import { RECORDING_VERSION, type Outcome, type RecordingLine } from './recording-schema.js';
import { openRecordingWriter, parseRecordingLine } from './recording-io.js';

export interface StoreExportSummary {
  written: number;
  /** Requests whose stored JSON no longer validates (reported, not written). */
  invalid: Array<{ loanRequestId: number; message: string }>;
}

/** The recording lines of every request the store has seen, oldest first. */
export function* recordingLinesFromStore(store: Store, invalid: StoreExportSummary['invalid']): Generator<RecordingLine> {
  const loansByRequest = new Map<number, StoredLoan>();
  for (const loan of store.account.loans()) if (loan.loanRequestId !== null) loansByRequest.set(loan.loanRequestId, loan);
  for (const seen of store.requests.list()) {
    const line: Record<string, unknown> = {
      v: RECORDING_VERSION,
      seen_at: seen.firstSeenAt,
      loan_request: JSON.parse(seen.rawJson) as unknown,
    };
    const scores: Record<string, ProviderResult> = {};
    for (const purchase of store.purchases.forRequest(seen.loanRequestId)) {
      if (!purchase.ok || purchase.payloadJson === null) continue;
      if (purchase.kind === 'banking_data') line.data_aggs = JSON.parse(purchase.payloadJson) as BankingData;
      else if (purchase.provider !== null) scores[purchase.provider] = JSON.parse(purchase.payloadJson) as ProviderResult;
    }
    if (Object.keys(scores).length > 0) line.scores = scores;
    const loan = loansByRequest.get(seen.loanRequestId);
    if (loan) line.outcome = outcomeOfStoredLoan(loan);
    // Round-trip through the reader so the file holds only lines a backtest accepts.
    const parsed = parseRecordingLine(JSON.stringify(line));
    if (parsed.ok) yield parsed.value;
    else invalid.push({ loanRequestId: seen.loanRequestId, message: parsed.message });
  }
}

/** What the investor's own loan says about the request's fate. */
function outcomeOfStoredLoan(loan: StoredLoan): Outcome {
  const status = loan.listStatus === 'current' ? 'current' : loan.listStatus;
  const due = loan.loan.loan_return ?? null;
  const outcome: Outcome = { status, funded_rate: loan.interestRate };
  if (status === 'completed') outcome.repaid_fraction = 1;
  else if (due !== null && due > 0) {
    const repaid = Math.max(0, due - loan.remainingCents / 100);
    outcome.repaid_fraction = Math.min(1, Math.round((repaid / due) * 10_000) / 10_000);
  }
  return outcome;
}

/** Writes the recording to `path`. */
export async function exportRecordingFromStore(store: Store, path: string): Promise<StoreExportSummary> {
  const summary: StoreExportSummary = { written: 0, invalid: [] };
  const writer = await openRecordingWriter(path);
  for (const line of recordingLinesFromStore(store, summary.invalid)) {
    await writer.write(line);
    summary.written += 1;
  }
  await writer.close();
  return summary;
}

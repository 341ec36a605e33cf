/**
 * Writes the daemon's history as a recording (docs/recording-format.md), so a backtest can
 * replay what the daemon saw: each request as first listed, the data bought about it, and, where
 * the investor's own loan lists tell, what became of it. Outcomes of requests the investor did
 * not fund are unknown to the daemon and left out. The investor's own offer on each request is
 * written as `offer`, so `lendbot train` can fit the take-up curve from it.
 */
import { systemClock, type Clock } from '../clock/clock.js';
import { DEFAULT_OFFER_EXPIRY_HOURS } from '../risk/index.js';
import type { BankingData, ProviderResult } from '../service/index.js';
import type { OfferRecord, StoredLoan, Store } from '../store/index.js';
import { RECORDING_VERSION, type Outcome, type OwnOffer, type RecordingLine } from './recording-schema.js';
import { openRecordingWriter, parseRecordingLine } from './recording-io.js';

export interface StoreExportSummary {
  written: number;
  /** Requests whose stored JSON no longer validates (reported, not written). */
  invalid: Array<{ loanRequestId: number; message: string }>;
}

/** How to read offers the service never answered (it does not say when offers expire). */
export interface OwnOfferSettings {
  /** "Now", for the age of an unanswered offer. */
  clock?: Clock;
  /** risk.offer_expiry_hours: an offer unanswered for longer counts as expired. */
  offerExpiryMs?: number;
}

/** The recording lines of every request the store has seen, oldest first. */
export function* recordingLinesFromStore(
  store: Store,
  invalid: StoreExportSummary['invalid'],
  settings: OwnOfferSettings = {},
): Generator<RecordingLine> {
  const nowMs = (settings.clock ?? systemClock).now();
  const expiryMs = settings.offerExpiryMs ?? DEFAULT_OFFER_EXPIRY_HOURS * 3_600_000;
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
    const offer = store.offers.getByRequest(seen.loanRequestId);
    const own = offer === undefined ? undefined : ownOfferOf(offer, nowMs, expiryMs);
    if (own) line.offer = own;
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

/**
 * The offer as the recording states it, or undefined when no offer reached the service:
 * - a dry run's offer never left lendbot;
 * - intent, unknown and refused rows are attempts the service did not (knowingly) take;
 * - an expired row without the service's offer id is an ambiguous attempt the reconciler gave up
 *   on (src/daemon/intent-reconciler.ts), not an offer a borrower saw.
 * The service never tells rejection or expiry (spec: transitions "not shown"); the daemon learns
 * acceptance from its loan lists. So a placed offer unanswered for longer than the offer expiry
 * counts as expired, as the guard counts it (its money is no longer reserved); a later acceptance
 * turns it into accepted in the store and in the next export.
 */
function ownOfferOf(offer: OfferRecord, nowMs: number, expiryMs: number): OwnOffer | undefined {
  if (offer.dryRun) return undefined;
  const at = offer.createdAt;
  switch (offer.state) {
    case 'accepted':
    case 'funded':
      return { rate: offer.rate, status: 'accepted', at };
    case 'rejected':
      return { rate: offer.rate, status: 'rejected', at };
    case 'expired':
      return offer.serviceOfferId === null ? undefined : { rate: offer.rate, status: 'expired', at };
    case 'placed':
      return { rate: offer.rate, status: nowMs - Date.parse(at) > expiryMs ? 'expired' : 'pending', at };
    case 'intent':
    case 'unknown':
    case 'refused':
      return undefined;
  }
}

/** Writes the recording to `path`. */
export async function exportRecordingFromStore(store: Store, path: string, settings: OwnOfferSettings = {}): Promise<StoreExportSummary> {
  const summary: StoreExportSummary = { written: 0, invalid: [] };
  const writer = await openRecordingWriter(path);
  for (const line of recordingLinesFromStore(store, summary.invalid, settings)) {
    await writer.write(line);
    summary.written += 1;
  }
  await writer.close();
  return summary;
}

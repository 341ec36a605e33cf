/**
 * Writes the daemon's history as a recording (docs/recording-format.md), so a backtest can
 * replay what the daemon saw: each request as first listed, the data bought about it, and, where
 * the investor's own loan lists tell, what became of it. Outcomes of requests the investor did
 * not fund are unknown to the daemon and left out; a loan's outcome carries its synced payments.
 * The investor's own offer on each request is written as `offer`, with its fate as the store
 * reads it (src/store/offer-fate.ts: accepted, rejected, lost, expired, pending), so `lendbot
 * train` can fit the take-up curve from it; a request our offer watched until it aged out of the
 * list is written `unfunded`: nobody funded it while we watched. The service never shows who
 * funded a request nor at what rate, so `best_competing_rate` stays out. A dry run's offer is
 * written apart, as `paper_offer` with the paper book's modelled figures (never as `offer`).
 * A loan of ours carries its rate as `funded_rate` and our offer `accepted` at that rate: together
 * they say the borrower took our rate, and a backtest reads them so, not as a competitor's rate
 * to beat (src/backtest/own-accepted-offer.ts).
 */
import { systemClock, type Clock } from '../clock/clock.js';
import { HOUR_MS } from '../clock/time-constants.js';
import { DEFAULT_OFFER_EXPIRY_HOURS } from '../risk/index.js';
import type { BankingData, ProviderResult } from '../domain/index.js';
import type { PaperOfferRecord, StoredLoan, Store } from '../store/index.js';
import { RECORDING_VERSION, type Outcome, type OwnOffer, type PaperOffer, type RecordingLine } from './recording-schema.js';
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
  const expiryMs = settings.offerExpiryMs ?? DEFAULT_OFFER_EXPIRY_HOURS * HOUR_MS;
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
      else if (purchase.kind === 'borrower_history') line.borrower_history = JSON.parse(purchase.payloadJson) as unknown;
      else if (purchase.provider !== null) scores[purchase.provider] = JSON.parse(purchase.payloadJson) as ProviderResult;
    }
    if (Object.keys(scores).length > 0) line.scores = scores;
    const loan = loansByRequest.get(seen.loanRequestId);
    if (loan) line.outcome = outcomeOfStoredLoan(loan, store);
    const offer = store.offers.getByRequest(seen.loanRequestId);
    const fate = offer === undefined ? undefined : store.offers.fate(offer, { nowMs, expiryMs });
    if (offer !== undefined && fate !== undefined) {
      line.offer = { rate: offer.rate, status: fate.fate, at: offer.createdAt } satisfies OwnOffer;
      if (!loan && fate.agedOut && fate.leftListAt !== null)
        line.outcome = { status: 'unfunded', resolved_at: fate.leftListAt } satisfies Outcome;
    }
    if (offer !== undefined && offer.dryRun) {
      const paper = store.paper.get(offer.id);
      if (paper !== undefined) line.paper_offer = paperOfferLine(paper);
    }
    // Round-trip through the reader so the file holds only lines a backtest accepts.
    const parsed = parseRecordingLine(JSON.stringify(line));
    if (parsed.ok) yield parsed.value;
    else invalid.push({ loanRequestId: seen.loanRequestId, message: parsed.message });
  }
}

/** A paper book row as the recording's `paper_offer`: the modelled figures named so. */
function paperOfferLine(paper: PaperOfferRecord): PaperOffer {
  return {
    paper: true,
    rate: paper.rate,
    at: paper.createdAt,
    strategy: paper.strategy,
    modelled_accept_probability: paper.acceptProbability,
    modelled_repay_probability: paper.repayProbability,
    modelled_expected_profit: paper.expectedProfitCents === null ? null : paper.expectedProfitCents / 100,
    request: paper.request,
  };
}

/** What the investor's own loan says about the request's fate. */
function outcomeOfStoredLoan(loan: StoredLoan, store: Store): Outcome {
  const status = loan.listStatus;
  const due = loan.loan.loan_return ?? null;
  const outcome: Outcome = { status, funded_rate: loan.interestRate };
  if (status === 'completed') outcome.repaid_fraction = 1;
  else if (due !== null && due > 0) {
    const repaid = Math.max(0, due - loan.remainingCents / 100);
    outcome.repaid_fraction = Math.min(1, Math.round((repaid / due) * 10_000) / 10_000);
  }
  const payments = store.payments.forLoan(loan.id);
  if (payments.length > 0) outcome.payments = payments;
  // The instalment after the last one paid, as the daemon's learned level counts the default
  // (calibration-fates.ts): a backtest of this recording writes the loan off there.
  if ((status === 'collection' || status === 'default') && payments.length > 0)
    outcome.missed_month = payments.filter((payment) => payment.payment_status.toLowerCase() === 'paid').length + 1;
  return outcome;
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

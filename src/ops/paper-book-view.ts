/**
 * A dry run's paper book as people and scripts read it (`lendbot status`, the operator API and
 * dashboard): every modelled figure says so in its name or its words, and the requests' fates,
 * which the real market showed, are kept apart from them (docs/daemon.md, "Paper book").
 */
import { formatCents, type Cents } from '../domain/index.js';
import type { PaperBookSummary, PaperOfferRecord } from '../store/index.js';

/** Said wherever the book is shown. */
export const PAPER_BOOK_NOTE =
  "modelled: nothing was sent; P(accept) from the strategy's market response, repayment from its score; 95 % interval from the acceptances and defaults, offers taken as independent";

/** snake_case JSON, amounts as integer cents. */
export function paperBookJson(summary: PaperBookSummary): Record<string, unknown> {
  return {
    basis: summary.basis,
    note: PAPER_BOOK_NOTE,
    offers: summary.offers,
    not_modelled: summary.notModelled,
    modelled_expected_accepted: round2(summary.expectedAccepted),
    modelled_expected_lent_cents: summary.expectedLentCents,
    modelled_expected_profit_cents: summary.expectedProfitCents,
    modelled_sd_cents: summary.sdCents,
    modelled_interval_95_cents: { low: summary.interval95.lowCents, high: summary.interval95.highCents },
    requests: summary.requests,
  };
}

/** One paper offer, snake_case; the modelled numbers named so. */
export function paperOfferJson(offer: PaperOfferRecord): Record<string, unknown> {
  return {
    offer_id: offer.offerId,
    loan_request_id: offer.loanRequestId,
    strategy: offer.strategy,
    rate: offer.rate,
    amount_cents: offer.amountCents,
    modelled_accept_probability: offer.acceptProbability,
    modelled_repay_probability: offer.repayProbability,
    modelled_expected_profit_cents: offer.expectedProfitCents,
    request: offer.request,
    created_at: offer.createdAt,
  };
}

/** The `paper book` lines of `lendbot status`. */
export function paperBookLines(summary: PaperBookSummary): Array<[string, string]> {
  const { requests } = summary;
  const lines: Array<[string, string]> = [
    [
      'paper book',
      `${summary.offers} paper offers (${requests.listed} still listed, ${requests.gone} gone, ${requests.not_scanned} not scanned since)`,
    ],
  ];
  if (summary.offers > summary.notModelled) {
    lines.push([
      '  modelled profit',
      `${usd(summary.expectedProfitCents)} expected (95 % ${usd(summary.interval95.lowCents)} to ${usd(summary.interval95.highCents)}), ` +
        `${summary.expectedAccepted.toFixed(1)} accepted and ${usd(summary.expectedLentCents)} lent expected: MODELLED, nothing was sent`,
    ]);
  }
  if (summary.notModelled > 0) lines.push(['  not modelled', `${summary.notModelled} offers of strategies without a score`]);
  return lines;
}

function usd(cents: Cents): string {
  return formatCents(cents);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

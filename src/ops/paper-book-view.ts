/**
 * A dry run's paper book as people and scripts read it (`lendbot status`, the operator API and
 * dashboard, the agent connector): the one computation of ops/paper-book-figures.ts, with the
 * source of its acceptance named, the capital it assumes, and the curve's own modelled figures
 * kept apart and named so (docs/daemon.md, "Paper book").
 */
import { formatCents } from '../domain/index.js';
import type { PaperOfferRecord } from '../store/index.js';
import { percent, type PaperBookFigures } from './paper-book-figures.js';

/** Said wherever the book is shown. */
export const PAPER_BOOK_NOTE =
  "nothing was sent: acceptance from what the market did where it shows (the fates of live offers, or of the paper offers' requests), else the strategy's assumed curve; repayment from its score; lifetime profit is earned over the loans' terms";

/** snake_case JSON, amounts as integer cents. */
export function paperBookJson(book: PaperBookFigures): Record<string, unknown> {
  const { summary, acceptance, capital } = book;
  return {
    basis: summary.basis,
    note: PAPER_BOOK_NOTE,
    offers: summary.offers,
    not_modelled: summary.notModelled,
    requests: summary.requests,
    fates: summary.fates,
    acceptance: {
      source: acceptance.source,
      label: acceptance.label,
      rate: round4(acceptance.rate),
      interval_95:
        acceptance.interval95 === null ? null : { low: round4(acceptance.interval95.low), high: round4(acceptance.interval95.high) },
      fates: acceptance.n,
      assumed_curve_rate: round4(acceptance.curveRate),
    },
    expected_accepted: round2(book.expectedAccepted),
    expected_lent_cents: book.expectedLentCents,
    lifetime_profit_cents: book.lifetimeProfitCents,
    lifetime_profit_95_cents: { low: book.lifetimeProfit95.lowCents, high: book.lifetimeProfit95.highCents },
    capital: {
      balance_cents: capital.balanceCents,
      days: capital.days,
      annual_return: capital.annualReturn === null ? null : round4(capital.annualReturn),
      annual_return_95:
        capital.annualReturn95 === null ? null : { low: round4(capital.annualReturn95.low), high: round4(capital.annualReturn95.high) },
    },
    in_words: book.words,
    modelled_expected_accepted: round2(summary.expectedAccepted),
    modelled_expected_lent_cents: summary.expectedLentCents,
    modelled_expected_profit_cents: summary.expectedProfitCents,
    modelled_sd_cents: summary.sdCents,
    modelled_interval_95_cents: { low: summary.interval95.lowCents, high: summary.interval95.highCents },
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

/** The acceptance in one line: its source and its uncertainty. */
function acceptanceText(book: PaperBookFigures): string {
  const { acceptance } = book;
  const interval =
    acceptance.interval95 === null
      ? 'an assumption: nothing was sent'
      : `95 % ${percent(acceptance.interval95.low)} to ${percent(acceptance.interval95.high)}, ${acceptance.n} offer${acceptance.n === 1 ? '' : 's'}`;
  return `${acceptance.label.replace(/^acceptance: /, '')} (${percent(acceptance.rate)}; ${interval})`;
}

/** The return on the balance in one line, or why there is none. */
function returnText(book: PaperBookFigures): string {
  const { capital } = book;
  const on = `on the balance of ${formatCents(capital.balanceCents)}`;
  if (capital.annualReturn === null || capital.annualReturn95 === null) return `none yet ${on}: ${book.words.split('; ').at(-1) ?? ''}`;
  return `${percent(capital.annualReturn)} a year ${on} (95 % ${percent(capital.annualReturn95.low)} to ${percent(capital.annualReturn95.high)}), at the pace of ${capital.days} days of paper offers`;
}

/** The `paper book` lines of `lendbot status`. */
export function paperBookLines(book: PaperBookFigures): Array<[string, string]> {
  const { summary } = book;
  const { requests } = summary;
  const lines: Array<[string, string]> = [
    [
      'paper book',
      `${summary.offers} paper offers (${requests.listed} still listed, ${requests.gone} gone, ${requests.not_scanned} not scanned since): nothing was sent`,
    ],
  ];
  if (summary.offers > summary.notModelled) {
    lines.push(
      ['  acceptance', acceptanceText(book)],
      [
        '  lifetime profit',
        `${formatCents(book.lifetimeProfitCents)} expected (95 % ${formatCents(book.lifetimeProfit95.lowCents)} to ${formatCents(book.lifetimeProfit95.highCents)}), ` +
          `${book.expectedAccepted.toFixed(1)} accepted and ${formatCents(book.expectedLentCents)} lent expected, earned over the loans' terms`,
      ],
      ['  return', returnText(book)],
    );
  }
  if (summary.notModelled > 0) lines.push(['  not modelled', `${summary.notModelled} offers of strategies without a score`]);
  return lines;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * The competition and adverse-selection tables of every report (terminal and HTML share these
 * rows): what became of each strategy's offers, its win rates with and without a competitor, and
 * the realised default of the loans it won against its offers and the recording's population,
 * each with its 95 % interval and sample size (src/backtest/offer-stats.ts).
 */
import type { DefaultRate, RateRatio } from '../../math/index.js';
import type { OfferStats, WinRate } from '../offer-stats.js';
import { escapeHtml, table } from './report-tables.js';
import { pct } from './summary-lines.js';

/** "8.1% [5.2% to 12.3%] of 210", or "- (none)" for an empty sample. */
function defaultRateCell(rate: DefaultRate): string {
  if (rate.rate === null || rate.low === null || rate.high === null) return `- (n 0)`;
  return `${pct(rate.rate)} [${pct(rate.low)} to ${pct(rate.high)}] (n ${rate.n})`;
}

/** "1.95 [1.20 to 3.10]"; "-" when it cannot be computed. */
export function ratioCell(ratio: RateRatio): string {
  const point = ratio.ratio === null ? '-' : ratio.ratio.toFixed(2);
  if (ratio.low === null || ratio.high === null) return point;
  return `${point} [${ratio.low.toFixed(2)} to ${ratio.high.toFixed(2)}]`;
}

const winCell = (w: WinRate): string => (w.rate === null ? '- (n 0)' : `${pct(w.rate)} (${w.won} of ${w.offers})`);

/** "600 offers: 12 won, 487 outbid, 65 declined, 36 unjudged, 0 expired" (the run's last row: its strategy, or all). */
export function offerOutcomesText(rows: readonly OfferStats[]): string | null {
  const r = rows.at(-1);
  if (!r) return null;
  return `${r.offers.toLocaleString('en-US')} offers: ${r.won.toLocaleString('en-US')} won (${r.funded.toLocaleString('en-US')} funded), ${r.outbid.toLocaleString('en-US')} outbid, ${r.declined.toLocaleString('en-US')} declined, ${r.unjudged.toLocaleString('en-US')} unjudged, ${r.expired.toLocaleString('en-US')} expired`;
}

export const COMPETITION_HEADER = [
  'strategy',
  'offers',
  'won',
  'funded',
  'outbid',
  'declined',
  'unjudged',
  'expired',
  'win rate contested',
  'win rate uncontested',
  'recorded acceptance',
];

/** One row per strategy: offers and what became of them. */
export function competitionRows(rows: readonly OfferStats[]): string[][] {
  return rows.map((r) => [
    r.strategy,
    String(r.offers),
    String(r.won),
    String(r.funded),
    String(r.outbid),
    String(r.declined),
    String(r.unjudged),
    String(r.expired),
    winCell(r.contested),
    winCell(r.uncontested),
    String(r.recordedAcceptance),
  ]);
}

export const ADVERSE_SELECTION_HEADER = [
  'strategy',
  'default of funded loans [95 %]',
  'default of its offers [95 %]',
  'default of the population [95 %]',
  'funded / offered [95 %]',
];

/** One row per strategy: realised default of funded loans, offers and population, and their ratio. */
export function adverseSelectionRows(rows: readonly OfferStats[]): string[][] {
  return rows.map((r) => [
    r.strategy,
    defaultRateCell(r.fundedDefault),
    defaultRateCell(r.offeredDefault),
    defaultRateCell(r.populationDefault),
    ratioCell(r.adverseSelection),
  ]);
}

/** What the two tables mean, in one paragraph (both reports print it). */
export const ADVERSE_SELECTION_NOTE =
  'Won = the borrower took our offer (funded, or not for want of cash); outbid = a competitor offered at or below our rate; declined = the borrower walked away from our rate; ' +
  'unjudged = the recording cannot say how the borrower would have repaid. Contested: the recording names a competing offer. ' +
  'Default rates are the recording’s realised fates (default or collection) of the loans funded, the requests offered on and all requests, where known. ' +
  'Funded / offered above 1: the offers that were taken were the worse ones (adverse selection).';

/** The HTML section: both tables over every run (each row names its strategy) and the note. */
export function competitionHtml(
  results: ReadonlyArray<{ offerStats: readonly OfferStats[]; settings: { market: { settle: boolean } } }>,
): string {
  const rows = results.filter((r) => r.settings.market.settle).flatMap((r) => r.offerStats);
  if (rows.length === 0) return '';
  return (
    `<h2>Competition and adverse selection</h2><div class="scroll">${table('competition', COMPETITION_HEADER, competitionRows(rows))}` +
    `${table('adverse-selection', ADVERSE_SELECTION_HEADER, adverseSelectionRows(rows))}</div><p>${escapeHtml(ADVERSE_SELECTION_NOTE)}</p>`
  );
}

/**
 * The band across borrower worlds in every report (src/backtest/worlds-band.ts): the headline as a
 * range that names the world at its low end, what the headline itself is and what each world
 * changes, and one row for the headline then one per world (terminal and HTML share these).
 */
import { ratioCell } from './adverse-selection.js';
import { escapeHtml, table } from './report-tables.js';
import { pct } from './summary-lines.js';
import type { DrawsSummary } from '../draws.js';
import type { OfferStats } from '../offer-stats.js';
import type { BandEnd, WorldsBand } from '../worlds-band.js';

const endText = (end: BandEnd): string => (end.world === 'headline' ? `the headline, ${end.label}` : `${end.world}, ${end.label}`);

/** The band's headline line: its range over the headline run and the four worlds, naming both ends. */
export function bandHeadline(band: WorldsBand): string {
  const high = band.high.world === 'headline' ? 'the headline' : band.high.world;
  return (
    `Net annualized return across borrower worlds: ${pct(band.low.netAnnualizedReturn)} to ${pct(band.high.netAnnualizedReturn)}` +
    ` (low end: ${endText(band.low)}; high end: ${high})`
  );
}

/** What the headline figure is, and what each world changes, so a reader knows why it matches none of them. */
export function headlineExplained(band: WorldsBand): string {
  const figure = pct(band.headline.netAnnualizedReturn);
  const worlds = "each world replaces every borrower's answer with its own rule, whatever the recording says";
  switch (band.headline.basis) {
    case 'recorded':
      return (
        `The headline (${figure}) is the recording's truth: every request records the highest rate its borrower would accept (reservation_rate), ` +
        `and each offer is judged by it; ${worlds}: what the strategy would earn where borrowers answer a rate differently`
      );
    case 'mixed':
      return (
        `The headline (${figure}) judges offers on the ${pct(band.recordedShare)} of requests that record the highest rate their borrower would accept by that rate, ` +
        `and the others by the assumed take-up curve, given what the recorded borrower did; ${worlds}`
      );
    case 'curve':
      return (
        `The headline (${figure}) judges each offer by the assumed take-up curve, given what the recorded borrower did (one who took a competitor's rate takes any cheaper offer); ` +
        `${worlds}, so even the assumed world differs from the headline where the recording names a competing offer`
      );
  }
}

export const WORLDS_HEADER = [
  'borrowers',
  'net ann. return (mean)',
  'range over draws',
  'funded',
  'default of funded',
  'default of offers',
  'funded / offered [95 %]',
];

/** The headline run's own draws and first-draw competition rows, for its row of the table. */
export interface HeadlineFigures {
  draws: DrawsSummary;
  offerStats: readonly OfferStats[];
}

/** The headline's row, then one per world: the first draw's adverse-selection figures of the run's last row (its strategy, or "all"). */
export function worldsRows(band: WorldsBand, headline?: HeadlineFigures): string[][] {
  const row = (name: string, draws: DrawsSummary, offerStats: readonly OfferStats[]): string[] => {
    const stats = offerStats.at(-1);
    const rate = (r: { rate: number | null; n: number } | undefined): string =>
      r === undefined || r.rate === null ? '-' : `${pct(r.rate)} (n ${r.n})`;
    return [
      name,
      pct(draws.netAnnualizedReturn.mean),
      `${pct(draws.netAnnualizedReturn.min)} to ${pct(draws.netAnnualizedReturn.max)}`,
      draws.funded.mean.toFixed(0),
      rate(stats?.fundedDefault),
      rate(stats?.offeredDefault),
      stats ? ratioCell(stats.adverseSelection) : '-',
    ];
  };
  const head = headline ? [row(`headline: ${band.headline.label}`, headline.draws, headline.offerStats)] : [];
  return [...head, ...band.worlds.map((w) => row(`${w.world}: ${w.label}`, w.draws, w.offerStats))];
}

/** The HTML section: each run's band line, what its headline is, and its table; empty when no run has a band. */
export function worldsHtml(
  names: readonly string[],
  bands: ReadonlyArray<WorldsBand | null | undefined>,
  headlines: ReadonlyArray<HeadlineFigures | undefined> = [],
): string {
  const parts = names.flatMap((name, i) => {
    const band = bands[i];
    if (!band) return [];
    const rows = table('worlds', WORLDS_HEADER, worldsRows(band, headlines[i]));
    return [
      `<h3>${escapeHtml(name)}</h3><p class="band">${escapeHtml(bandHeadline(band))}.</p><p class="band-headline">${escapeHtml(headlineExplained(band))}.</p>${rows}`,
    ];
  });
  if (parts.length === 0) return '';
  return `<h2>Across borrower worlds</h2><p>The same draws with borrowers who answer a rate by structurally different rules (docs/backtesting.md, "A band across borrower worlds"); default rates of the first draw.</p><div class="scroll">${parts.join('')}</div>`;
}

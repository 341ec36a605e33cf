/**
 * The band across borrower worlds in every report (src/backtest/worlds-band.ts): the headline as a
 * range that names the world at its low end, and one row per world (terminal and HTML share these).
 */
import { ratioCell } from './adverse-selection.js';
import { escapeHtml, table } from './report-tables.js';
import { pct } from './summary-lines.js';
import type { WorldsBand } from '../worlds-band.js';

/** The band's headline line; without worlds (every request records acceptance) it says the run's figure is the recording's. */
export function bandHeadline(band: WorldsBand): string {
  const recorded =
    band.recordedShare > 0 ? `; ${pct(band.recordedShare)} of the requests record acceptance and are judged alike in every world` : '';
  if (!band.low || !band.high)
    return `Acceptance is recorded on every request (reservation_rate): no borrower world is assumed, the figure above is the recording's`;
  return (
    `Net annualized return across borrower worlds: ${pct(band.low.netAnnualizedReturn)} to ${pct(band.high.netAnnualizedReturn)}` +
    ` (low end: ${band.low.world}, ${band.low.label}; high end: ${band.high.world})${recorded}`
  );
}

export const WORLDS_HEADER = [
  'world',
  'net ann. return (mean)',
  'range over draws',
  'funded',
  'default of funded',
  'default of offers',
  'funded / offered [95 %]',
];

/** One row per world, the first draw's adverse-selection figures of the run's last row (its strategy, or "all"). */
export function worldsRows(band: WorldsBand): string[][] {
  return band.worlds.map((w) => {
    const stats = w.offerStats.at(-1);
    const rate = (r: { rate: number | null; n: number } | undefined): string =>
      r === undefined || r.rate === null ? '-' : `${pct(r.rate)} (n ${r.n})`;
    return [
      `${w.world}: ${w.label}`,
      pct(w.draws.netAnnualizedReturn.mean),
      `${pct(w.draws.netAnnualizedReturn.min)} to ${pct(w.draws.netAnnualizedReturn.max)}`,
      w.draws.funded.mean.toFixed(0),
      rate(stats?.fundedDefault),
      rate(stats?.offeredDefault),
      stats ? ratioCell(stats.adverseSelection) : '-',
    ];
  });
}

/** The HTML section: each run's band headline and its worlds' table; empty when no run has a band. */
export function worldsHtml(names: readonly string[], bands: ReadonlyArray<WorldsBand | null | undefined>): string {
  const parts = names.flatMap((name, i) => {
    const band = bands[i];
    if (!band) return [];
    const rows = band.worlds.length > 0 ? table('worlds', WORLDS_HEADER, worldsRows(band)) : '';
    return [`<h3>${escapeHtml(name)}</h3><p class="band">${escapeHtml(bandHeadline(band))}.</p>${rows}`];
  });
  if (parts.length === 0) return '';
  return `<h2>Across borrower worlds</h2><p>The same draws with borrowers who answer a rate by structurally different rules (docs/backtesting.md, "A band across borrower worlds"); default rates of the first draw.</p><div class="scroll">${parts.join('')}</div>`;
}

/**
 * The band across borrower worlds (docs/backtesting.md, "A band across borrower worlds"): the
 * same draws of a backtest re-run in each borrower world (borrower-worlds.ts), so the headline is
 * a range over structurally different borrowers, not one curve's figure, and names the world at
 * its low end. In the band every borrower answers by the world's rule, even on lines that record
 * their answer (`reservation_rate`): a recording whose every line records it still has a band,
 * the recorded truth plus what the strategy would earn with borrowers who answer differently.
 * The headline run is one end candidate beside the worlds, so the band always holds it.
 */
import type { CompiledStrategy } from '../engine/index.js';
import { borrowerWorlds, type WorldName } from './borrower-worlds.js';
import { runDraws, runDrawsTogether, type Draws, type DrawsSummary } from './draws.js';
import { DEFAULT_MARKET } from './market-model.js';
import type { OfferStats } from './offer-stats.js';
import { outcomeCountsOf, type PreparedRecording } from './prepared-recording.js';
import { hasRecordedAcceptance } from './recorded-acceptance.js';
import type { BacktestOptions } from './run-backtest.js';

interface WorldFigures {
  world: WorldName;
  label: string;
  /** The world's runs over the backtest's seeds. */
  draws: DrawsSummary;
  /** The first draw's competition and adverse-selection rows (offer-stats.ts). */
  offerStats: OfferStats[];
}

/**
 * What judged the headline run's offers: the recording's own answers on every line (`recorded`),
 * the assumed take-up curve given what each recorded borrower did (`curve`), or both (`mixed`).
 */
type HeadlineBasis = 'recorded' | 'curve' | 'mixed';

/** The headline run as the band sees it: what judged it, and its mean net annualized return over the draws. */
interface BandHeadline {
  basis: HeadlineBasis;
  label: string;
  netAnnualizedReturn: number;
}

/** One end of the band: a world, or the headline run, and its mean net annualized return over the draws. */
export interface BandEnd {
  world: WorldName | 'headline';
  label: string;
  netAnnualizedReturn: number;
}

export interface WorldsBand {
  /** Share of the recording's requests that record acceptance: they judge the headline run, not the worlds. */
  recordedShare: number;
  headline: BandHeadline;
  /** The four worlds, each replacing every borrower's answer with its own rule. */
  worlds: WorldFigures[];
  /** The lowest and the highest mean net annualized return of the headline and the worlds. */
  low: BandEnd;
  high: BandEnd;
}

/** Share of the recording's requests with `outcome.reservation_rate`. */
export function recordedAcceptanceShare(recording: PreparedRecording): number {
  const n = recording.entries.length;
  if (n === 0) return 0;
  const counted = outcomeCountsOf(recording)?.recordedAcceptance;
  return (counted ?? recording.entries.filter((entry) => hasRecordedAcceptance(entry.line)).length) / n;
}

const HEADLINE_LABELS: Record<HeadlineBasis, string> = {
  recorded: "the recording's own answers (reservation_rate on every request)",
  curve: 'the assumed take-up curve, given what each recorded borrower did',
  mixed: "the recording's own answers where it has them, the assumed take-up curve elsewhere",
};

/** What judged the headline run, from the share of requests that record acceptance. */
function headlineBasis(recordedShare: number): HeadlineBasis {
  return recordedShare === 1 ? 'recorded' : recordedShare === 0 ? 'curve' : 'mixed';
}

/**
 * `strategies` backtested over `seeds` in each borrower world; `headline` is the same backtest's
 * own draws (run here when not given).
 */
export function runWorlds(
  recording: PreparedRecording,
  strategies: readonly CompiledStrategy[],
  options: BacktestOptions,
  seeds: readonly number[],
  headline: DrawsSummary = runDraws(recording, strategies, { ...options, recordDecisions: false }, seeds).draws,
): WorldsBand {
  const recordedShare = recordedAcceptanceShare(recording);
  const basis = headlineBasis(recordedShare);
  const head: BandHeadline = { basis, label: HEADLINE_LABELS[basis], netAnnualizedReturn: headline.netAnnualizedReturn.mean };
  const response = options.market?.response ?? DEFAULT_MARKET.response;
  const band = borrowerWorlds(recording, response, { replaceRecorded: true });
  // Every world's draws replayed in lockstep: each request read once for all of them.
  const runs = runDrawsTogether(
    recording,
    strategies,
    band.map((world) => ({ ...options, world, recordDecisions: false })),
    seeds,
  );
  const worlds = band.map((world, index): WorldFigures => {
    const { first, draws } = runs[index] as Draws;
    return { world: world.name, label: world.label, draws, offerStats: first.offerStats };
  });
  const ends: BandEnd[] = [
    { world: 'headline', label: head.label, netAnnualizedReturn: head.netAnnualizedReturn },
    ...worlds.map((w) => ({ world: w.world, label: w.label, netAnnualizedReturn: w.draws.netAnnualizedReturn.mean })),
  ];
  // The headline comes first, so a world that ties it does not take its place as an end.
  const end = (pick: (a: number, b: number) => boolean): BandEnd =>
    ends.reduce((best, candidate) => (pick(candidate.netAnnualizedReturn, best.netAnnualizedReturn) ? candidate : best));
  return { recordedShare, headline: head, worlds, low: end((a, b) => a < b), high: end((a, b) => a > b) };
}

/**
 * The band across borrower worlds (docs/backtesting.md, "A band across borrower worlds"): the
 * same draws of a backtest re-run in each borrower world (borrower-worlds.ts), so the headline is
 * a range over structurally different borrowers, not one curve's figure, and names the world at
 * its low end. Lines that record acceptance (`reservation_rate`) are judged alike in every world.
 */
import type { CompiledStrategy } from '../engine/index.js';
import { borrowerWorlds, type WorldName } from './borrower-worlds.js';
import { runDraws, type DrawsSummary } from './draws.js';
import { DEFAULT_MARKET } from './market-model.js';
import type { OfferStats } from './offer-stats.js';
import { outcomeCountsOf, type PreparedRecording } from './prepared-recording.js';
import { hasRecordedAcceptance } from './recorded-acceptance.js';
import type { BacktestOptions } from './run-backtest.js';

export interface WorldFigures {
  world: WorldName;
  label: string;
  /** The world's runs over the backtest's seeds. */
  draws: DrawsSummary;
  /** The first draw's competition and adverse-selection rows (offer-stats.ts). */
  offerStats: OfferStats[];
}

/** One end of the band: a world and its mean net annualized return over the draws. */
export interface BandEnd {
  world: WorldName;
  label: string;
  netAnnualizedReturn: number;
}

export interface WorldsBand {
  /** Share of the recording's requests that record acceptance: the same in every world. */
  recordedShare: number;
  /** Empty when every request records acceptance: no world is assumed. */
  worlds: WorldFigures[];
  /** The world with the lowest mean net annualized return, and the highest; null without worlds. */
  low: BandEnd | null;
  high: BandEnd | null;
}

/** Share of the recording's requests with `outcome.reservation_rate`. */
export function recordedAcceptanceShare(recording: PreparedRecording): number {
  const n = recording.entries.length;
  if (n === 0) return 0;
  const counted = outcomeCountsOf(recording)?.recordedAcceptance;
  return (counted ?? recording.entries.filter((entry) => hasRecordedAcceptance(entry.line)).length) / n;
}

/** `strategies` backtested over `seeds` in each borrower world. */
export function runWorlds(
  recording: PreparedRecording,
  strategies: readonly CompiledStrategy[],
  options: BacktestOptions,
  seeds: readonly number[],
): WorldsBand {
  const recordedShare = recordedAcceptanceShare(recording);
  if (recordedShare === 1) return { recordedShare, worlds: [], low: null, high: null };
  const response = options.market?.response ?? DEFAULT_MARKET.response;
  const worlds = borrowerWorlds(recording, response).map((world): WorldFigures => {
    const { first, draws } = runDraws(recording, strategies, { ...options, world, recordDecisions: false }, seeds);
    return { world: world.name, label: world.label, draws, offerStats: first.offerStats };
  });
  const end = (pick: (a: number, b: number) => boolean): BandEnd | null =>
    worlds.reduce<BandEnd | null>((best, w) => {
      const value = w.draws.netAnnualizedReturn.mean;
      return best === null || pick(value, best.netAnnualizedReturn) ? { world: w.world, label: w.label, netAnnualizedReturn: value } : best;
    }, null);
  return { recordedShare, worlds, low: end((a, b) => a < b), high: end((a, b) => a > b) };
}

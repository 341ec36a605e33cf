/**
 * Competition and adverse selection, per strategy (docs/backtesting.md, "Competition and adverse
 * selection"): what became of the strategy's offers (won, outbid, declined, unjudged), how often
 * it won where a competitor was on the request and where none was, and whether the loans it won
 * default more than the requests it offered on and than the recording's population: the
 * adverse-selection ratio. Default rates use the recording's realised fate (realised-fate.ts),
 * the same for every strategy, with 95 % Wilson intervals and their sample sizes.
 *
 * This module keeps a bounded memo of each prepared recording's population default rate
 * (MEMO_POPULATION_DEFAULT, weakly by recording): a property of the recording alone, asked once
 * by every replay of it (each draw, sensitivity case and world of one backtest).
 */
import { outcomeCountsOf, recordingLines, type PreparedRecording } from './prepared-recording.js';
import { defaultCounts, realisedDefault, type DefaultCount } from './realised-fate.js';
import type { RecordingLine } from '../recording/index.js';
import { rateRatio, wilson, type DefaultRate, type RateRatio } from '../math/index.js';

/** Wins among judged offers of one kind. */
export interface WinRate {
  offers: number;
  won: number;
  rate: number | null;
}

/** What became of a strategy's offers, counted. */
interface OfferCounts {
  offers: number;
  /** The borrower accepted (funded, or not for want of cash: fundingFailed). */
  won: number;
  funded: number;
  fundingFailed: number;
  /** A competitor offered at or below our rate and the borrower did not take ours. */
  outbid: number;
  /** The borrower walked away from our rate, no cheaper competitor in the way. */
  declined: number;
  /** The recording cannot say how the borrower would have repaid (no outcome, or unfunded without if_funded). */
  unjudged: number;
  /** Never answered: the offer expired first (a dry run, or a decision delay beyond the expiry). */
  expired: number;
  /** Offers judged by the line's own reservation_rate rather than by the curve or a world. */
  recordedAcceptance: number;
}

const COUNT_KEYS = ['offers', 'won', 'funded', 'fundingFailed', 'outbid', 'declined', 'unjudged', 'expired', 'recordedAcceptance'] as const;

export interface OfferStats extends OfferCounts {
  /** The strategy's name, or "all" for several together. */
  strategy: string;
  /** Judged offers on requests where the recording names a competing offer (or assumes one). */
  contested: WinRate;
  /** Judged offers on requests nobody else offered on. */
  uncontested: WinRate;
  /** Realised default of the loans this strategy funded. */
  fundedDefault: DefaultRate;
  /** Realised default of the requests it offered on (whether won or not). */
  offeredDefault: DefaultRate;
  /** Realised default of every request of the recording. */
  populationDefault: DefaultRate;
  /** fundedDefault / offeredDefault: above 1, the offers it won were the worse ones. */
  adverseSelection: RateRatio;
}

/** What the market did with one offer, as the tally counts it (a backtest decision's `market`). */
export type OfferFate = 'won' | 'outbid' | 'declined' | 'unfunded' | 'no_outcome' | 'funding_failed' | 'expired';

interface Counts extends OfferCounts {
  contested: WinRate;
  uncontested: WinRate;
  fundedFates: DefaultCount;
  offeredFates: DefaultCount;
}

const emptyCounts = (): Counts => ({
  ...(Object.fromEntries(COUNT_KEYS.map((key) => [key, 0])) as unknown as OfferCounts),
  contested: { offers: 0, won: 0, rate: null },
  uncontested: { offers: 0, won: 0, rate: null },
  fundedFates: { defaults: 0, n: 0 },
  offeredFates: { defaults: 0, n: 0 },
});

/** The population default rate of each recording replayed (entries are never changed once prepared). */
const MEMO_POPULATION_DEFAULT = new WeakMap<PreparedRecording, DefaultRate>();

/** The recording's population default rate (every request whose fate it knows); a copy each call. */
export function populationDefault(recording: PreparedRecording): DefaultRate {
  const known = MEMO_POPULATION_DEFAULT.get(recording);
  if (known !== undefined) return { ...known };
  const counted = outcomeCountsOf(recording);
  const all = counted
    ? { defaults: counted.defaults, n: counted.resolved }
    : defaultCounts(recordingLines(recording), () => 'all').get('all');
  const rate = wilson(all?.defaults ?? 0, all?.n ?? 0);
  MEMO_POPULATION_DEFAULT.set(recording, rate);
  return { ...rate };
}

/** Counts offers per strategy as the replay settles them. */
export class OfferTally {
  private readonly byStrategy = new Map<string, Counts>();

  constructor(private readonly strategies: readonly string[]) {
    for (const name of strategies) this.byStrategy.set(name, emptyCounts());
  }

  /**
   * One settled (or expired) offer: `fate` as the decisions list names it, `contested` whether
   * a competitor was on the request, `recorded` whether the line's reservation_rate judged it.
   */
  add(strategy: string, line: RecordingLine, fate: OfferFate, contested: boolean, recorded: boolean): void {
    let counts = this.byStrategy.get(strategy);
    if (!counts) this.byStrategy.set(strategy, (counts = emptyCounts()));
    counts.offers += 1;
    const won = fate === 'won' || fate === 'funding_failed';
    if (fate === 'won') counts.funded += 1;
    else if (fate === 'funding_failed') counts.fundingFailed += 1;
    else if (fate === 'outbid') counts.outbid += 1;
    else if (fate === 'declined') counts.declined += 1;
    else if (fate === 'expired') counts.expired += 1;
    else counts.unjudged += 1;
    if (won) counts.won += 1;
    const judged = won || fate === 'outbid' || fate === 'declined';
    if (judged) {
      if (recorded) counts.recordedAcceptance += 1;
      const kind = contested ? counts.contested : counts.uncontested;
      kind.offers += 1;
      if (won) kind.won += 1;
    }
    const defaulted = realisedDefault(line);
    if (defaulted === undefined || fate === 'expired') return;
    counts.offeredFates.n += 1;
    if (defaulted) counts.offeredFates.defaults += 1;
    if (fate === 'won') {
      counts.fundedFates.n += 1;
      if (defaulted) counts.fundedFates.defaults += 1;
    }
  }

  /** One row per strategy (in the run's order), and an "all" row when there are several. */
  rows(population: DefaultRate): OfferStats[] {
    const names = [...this.byStrategy.keys()];
    const rows = names.map((name) => row(name, this.byStrategy.get(name) ?? emptyCounts(), population));
    if (names.length > 1) rows.push(row('all', sum([...this.byStrategy.values()]), population));
    return rows;
  }
}

function sum(all: readonly Counts[]): Counts {
  const total = emptyCounts();
  for (const c of all) {
    for (const key of COUNT_KEYS) total[key] += c[key];
    for (const key of ['contested', 'uncontested'] as const) {
      total[key].offers += c[key].offers;
      total[key].won += c[key].won;
    }
    for (const key of ['fundedFates', 'offeredFates'] as const) {
      total[key].n += c[key].n;
      total[key].defaults += c[key].defaults;
    }
  }
  return total;
}

const winRate = (w: WinRate): WinRate => ({ offers: w.offers, won: w.won, rate: w.offers === 0 ? null : w.won / w.offers });

function row(strategy: string, c: Counts, population: DefaultRate): OfferStats {
  const fundedDefault = wilson(c.fundedFates.defaults, c.fundedFates.n);
  const offeredDefault = wilson(c.offeredFates.defaults, c.offeredFates.n);
  const counts = Object.fromEntries(COUNT_KEYS.map((key) => [key, c[key]])) as unknown as OfferCounts;
  return {
    strategy,
    ...counts,
    contested: winRate(c.contested),
    uncontested: winRate(c.uncontested),
    fundedDefault,
    offeredDefault,
    populationDefault: population,
    adverseSelection: rateRatio(fundedDefault, offeredDefault),
  };
}

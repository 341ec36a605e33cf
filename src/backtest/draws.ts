/**
 * A backtest over several draws of the market, and its sensitivity to how rate-sensitive
 * borrowers are (docs/backtesting.md). Acceptance and prepayment are seeded draws, so one run is
 * one possible history: N seeds give the spread of the result that is luck of the draw alone.
 * Every strategy, and every sensitivity case, sees the same N seeds (common random numbers).
 */
import type { CompiledStrategy, MarketResponse, TakeUpCurve } from '../engine/index.js';
import type { BacktestResult, BacktestSummary } from './backtest-result.js';
import { DEFAULT_MARKET } from './market-model.js';
import type { PreparedRecording } from './prepared-recording.js';
import { runBacktestsTogether, type BacktestOptions } from './run-backtest.js';

/** Mean and range (smallest to largest draw) of one figure. */
export interface Spread {
  mean: number;
  min: number;
  max: number;
}

export interface DrawFigures {
  seed: number;
  netAnnualizedReturn: number;
  returnOnDeployed: number;
  funded: number;
  netCents: number;
  maxDrawdown: number;
}

export interface DrawsSummary {
  seeds: number[];
  draws: DrawFigures[];
  netAnnualizedReturn: Spread;
  funded: Spread;
  maxDrawdown: Spread;
}

export interface SensitivityCase {
  label: string;
  takeUp: TakeUpCurve;
  draws: DrawsSummary;
}

/** The seeds of `count` draws starting at `first`. */
export function drawSeeds(first: number, count: number): number[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => first + i);
}

function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values) };
}

function figures(seed: number, summary: BacktestSummary): DrawFigures {
  const { netAnnualizedReturn, returnOnDeployed, funded, netCents, maxDrawdown } = summary;
  return { seed, netAnnualizedReturn, returnOnDeployed, funded, netCents, maxDrawdown };
}

export function summarizeDraws(draws: DrawFigures[]): DrawsSummary {
  return {
    seeds: draws.map((d) => d.seed),
    draws,
    netAnnualizedReturn: spread(draws.map((d) => d.netAnnualizedReturn)),
    funded: spread(draws.map((d) => d.funded)),
    maxDrawdown: spread(draws.map((d) => d.maxDrawdown)),
  };
}

/**
 * Backtests `strategies` once per seed. Returns the first draw's full result (the report's
 * tables) and every draw's headline figures.
 */
export function runDraws(
  recording: PreparedRecording,
  strategies: readonly CompiledStrategy[],
  options: BacktestOptions,
  seeds: readonly number[],
): Draws {
  return runDrawsTogether(recording, strategies, [options], seeds)[0] as Draws;
}

/** What runDraws gives: the first draw's full result and every draw's headline figures. */
export interface Draws {
  first: BacktestResult;
  draws: DrawsSummary;
}

/** The options of draw `index`, with seed `seed`: only the first keeps its decisions and its onRead. */
function drawOptions(options: BacktestOptions, seed: number, index: number): BacktestOptions {
  return { ...options, market: { ...options.market, seed }, ...(index === 0 ? {} : { recordDecisions: false, onRead: undefined }) };
}

/**
 * At most this many replays run side by side: each holds its state (loans, offers, learners,
 * the day series) until the end, so a default backtest's 20 world runs go 4 at a time, which
 * shares each line's reading four ways and keeps the one-draw command's memory to 4 replays.
 */
const REPLAYS_TOGETHER = 4;

/**
 * Above this many requests, replays run one at a time: each holds state that grows with the
 * recording (its learners' evidence: about 20 bytes a request of the 200,000-request sandbox
 * export), so 4 side by side peaked 130 MB higher on 1,000,000 requests (1,448 MB against
 * 1,317 MB) for no CPU saved there, where on 50,000 they save about a tenth of the command.
 */
const REPLAYS_TOGETHER_MAX_REQUESTS = 200_000;

/**
 * runDraws for each of `optionSets` (the sensitivity curves, the borrower worlds), the draws
 * replayed in lockstep, REPLAYS_TOGETHER at a time (runBacktestsTogether; one at a time above
 * REPLAYS_TOGETHER_MAX_REQUESTS): each request is read once for all of them, with the same
 * results as one after another. Options with a learner of
 * their own (`learning`) carry what one draw learned into the next, so those run one by one.
 */
export function runDrawsTogether(
  recording: PreparedRecording,
  strategies: readonly CompiledStrategy[],
  optionSets: readonly BacktestOptions[],
  seeds: readonly number[],
): Draws[] {
  if (seeds.length === 0) throw new RangeError('runDraws needs at least one seed');
  const runs = optionSets.flatMap((options) => seeds.map((seed, index) => ({ strategies, options: drawOptions(options, seed, index) })));
  const carried = optionSets.some((options) => options.learning !== undefined);
  const results: BacktestResult[] = [];
  const together = carried || recording.entries.length > REPLAYS_TOGETHER_MAX_REQUESTS ? 1 : REPLAYS_TOGETHER;
  for (let start = 0; start < runs.length; start += together) {
    const group = runs.slice(start, start + together);
    results.push(...runBacktestsTogether(recording, group));
  }
  return optionSets.map((_, set) => {
    const own = results.slice(set * seeds.length, (set + 1) * seeds.length);
    const draws = own.map((result, index) => figures(seeds[index] as number, result.summary));
    return { first: own[0] as BacktestResult, draws: summarizeDraws(draws) };
  });
}

/**
 * The take-up curves of the sensitivity section: borrowers half and twice as sensitive to the
 * rate around the midpoint, and walking away earlier (midpoint − 0.15) or later (+ 0.15).
 */
function sensitivityCurves(curve: TakeUpCurve): Array<{ label: string; takeUp: TakeUpCurve }> {
  // Rounded so that 0.7 − 0.15 reads 0.55, not 0.5499999999999999.
  const round = (x: number): number => Math.round(x * 1e9) / 1e9;
  return [
    { label: 'steepness ×0.5 (less rate-sensitive)', takeUp: { ...curve, steepness: round(curve.steepness * 0.5) } },
    { label: 'steepness ×2 (more rate-sensitive)', takeUp: { ...curve, steepness: round(curve.steepness * 2) } },
    { label: 'midpoint −0.15 (walk away sooner)', takeUp: { ...curve, midpoint: round(curve.midpoint - 0.15) } },
    { label: 'midpoint +0.15 (walk away later)', takeUp: { ...curve, midpoint: round(curve.midpoint + 0.15) } },
  ];
}

/** The draws re-run under each sensitivity curve (the same seeds). */
export function runSensitivity(
  recording: PreparedRecording,
  strategies: readonly CompiledStrategy[],
  options: BacktestOptions,
  seeds: readonly number[],
): SensitivityCase[] {
  const response: MarketResponse = options.market?.response ?? DEFAULT_MARKET.response;
  const curves = sensitivityCurves(response.takeUp);
  const runs = runDrawsTogether(
    recording,
    strategies,
    curves.map(({ takeUp }) => ({ ...options, market: { ...options.market, response: { ...response, takeUp } }, recordDecisions: false })),
    seeds,
  );
  return curves.map(({ label, takeUp }, index) => ({ label, takeUp, draws: (runs[index] as Draws).draws }));
}

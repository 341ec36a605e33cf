/**
 * The held-out comparison repeated in every borrower world (borrower-worlds.ts), so a tune writes
 * its candidate only when the held-out gain holds whichever way borrowers answer a rate, not only
 * under the assumed take-up curve the main comparison uses (held-out-comparison.ts). Each world's
 * runs are full held-out backtests of the candidate and the current values with that world's
 * reservation rates, compared request by request as the main one is. A recording whose every line
 * records acceptance (`reservation_rate`) has no worlds: its main comparison already judged by it.
 */
import { borrowerWorlds, WORLD_NAMES, type WorldName } from '../borrower-worlds.js';
import { DEFAULT_MARKET } from '../market-model.js';
import { recordedAcceptanceShare } from '../worlds-band.js';
import { compareHeldOut, type HeldOutEvidence, type HeldOutPair } from './held-out-comparison.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { TimeWindow } from './time-splits.js';
import { runTrialByBacktest, type TrialContext, type TrialOutcome } from './trial-evaluator.js';

export interface WorldHeldOut {
  world: WorldName;
  label: string;
  evidence: HeldOutEvidence;
}

/** One window's held-out runs of the candidate and the values it would replace, with `backtest`'s options (a world's). */
export type HeldOutRuns = (backtest: BacktestOptions, window: number) => { candidate: TrialOutcome; baseline: TrialOutcome };

/**
 * Held-out evidence per borrower world for any candidate against what it would replace (tune's
 * params, train's calibrated strategy): `runs` backtests both on a window's held-out period in one
 * world; empty when every held-out line records acceptance.
 */
export function heldOutInWorlds(
  windows: readonly TimeWindow[],
  backtest: BacktestOptions,
  seed: number,
  runs: HeldOutRuns,
): WorldHeldOut[] {
  if (windows.every((window) => recordedAcceptanceShare(window.test) === 1)) return [];
  const response = backtest.market?.response ?? DEFAULT_MARKET.response;
  const perWindow = windows.map((window) => borrowerWorlds(window.test, response));
  return WORLD_NAMES.map((name, index): WorldHeldOut => {
    const pairs: HeldOutPair[] = windows.map((window, w) => {
      const world = perWindow[w]?.[index];
      return {
        ...runs({ ...backtest, ...(world === undefined ? {} : { world }) }, w),
        spanMs: (window.test.entries.at(-1)?.seenMs ?? 0) - (window.test.entries[0]?.seenMs ?? 0),
      };
    });
    return {
      world: name,
      label: perWindow[0]?.[index]?.label ?? name,
      evidence: compareHeldOut(pairs, backtest.startingBalanceCents, seed),
    };
  });
}

/**
 * Held-out evidence per borrower world for the candidates (one trial per window, 0 = the current
 * values); empty when every held-out line records acceptance.
 */
export function heldOutAcrossWorlds(context: TrialContext, candidates: readonly number[], seed: number): WorldHeldOut[] {
  return heldOutInWorlds(context.windows, context.backtest, seed, (backtest, w) => {
    const run = (trial: number) => runTrialByBacktest({ ...context, backtest }, { trial, window: w, part: 'test' });
    return { candidate: run(candidates[w] ?? 0), baseline: run(0) };
  });
}

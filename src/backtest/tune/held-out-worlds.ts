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
import { runTrialByBacktest, type TrialContext } from './trial-evaluator.js';

export interface WorldHeldOut {
  world: WorldName;
  label: string;
  evidence: HeldOutEvidence;
}

/**
 * Held-out evidence per borrower world for the candidates (one trial per window, 0 = the current
 * values); empty when every held-out line records acceptance.
 */
export function heldOutAcrossWorlds(context: TrialContext, candidates: readonly number[], seed: number): WorldHeldOut[] {
  const { windows, backtest } = context;
  if (windows.every((window) => recordedAcceptanceShare(window.test) === 1)) return [];
  const response = backtest.market?.response ?? DEFAULT_MARKET.response;
  const perWindow = windows.map((window) => borrowerWorlds(window.test, response));
  return WORLD_NAMES.map((name, index): WorldHeldOut => {
    const pairs: HeldOutPair[] = windows.map((window, w) => {
      const world = perWindow[w]?.[index];
      const inWorld: TrialContext = { ...context, backtest: { ...backtest, ...(world === undefined ? {} : { world }) } };
      const run = (trial: number) => runTrialByBacktest(inWorld, { trial, window: w, part: 'test' });
      return {
        candidate: run(candidates[w] ?? 0),
        baseline: run(0),
        spanMs: (window.test.entries.at(-1)?.seenMs ?? 0) - (window.test.entries[0]?.seenMs ?? 0),
      };
    });
    return { world: name, label: perWindow[0]?.[index]?.label ?? name, evidence: compareHeldOut(pairs, backtest.startingBalanceCents, seed) };
  });
}

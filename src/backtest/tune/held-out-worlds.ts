/**
 * The held-out comparison repeated in every borrower world (borrower-worlds.ts), so a tune writes
 * its candidate only when the held-out gain holds whichever way borrowers answer a rate, not only
 * under the assumed take-up curve the main comparison uses (held-out-comparison.ts). Each world's
 * runs are full held-out backtests of the candidate and the current values with that world's
 * reservation rates, compared request by request as the main one is. A recording whose every line
 * records acceptance (`reservation_rate`) has no worlds: its main comparison already judged by it.
 *
 * A tune's world runs are trial tasks like any other (a held-out task with a `world`), so the
 * worker threads run them beside the plain held-out runs (tuner.ts): each thread finds a task's
 * world with windowWorld, from the same held-out requests, so every thread replays the same world.
 *
 * This module keeps a bounded memo of each tune context's worlds (MEMO_WORLDS: one list per
 * window, held weakly by the context: they go when the tune does).
 */
import { borrowerWorlds, WORLD_NAMES, type BorrowerWorld, type WorldName } from '../borrower-worlds.js';
import { DEFAULT_MARKET } from '../market-model.js';
import { recordedAcceptanceShare } from '../worlds-band.js';
import { compareHeldOut, type HeldOutEvidence, type HeldOutPair } from './held-out-comparison.js';
import type { BacktestOptions } from '../run-backtest.js';
import type { TimeWindow } from './time-splits.js';
import type { TrialContext, TrialOutcome } from './trial-context.js';

export interface WorldHeldOut {
  world: WorldName;
  label: string;
  evidence: HeldOutEvidence;
}

/**
 * One window's held-out runs of the candidate and the values it would replace, with `backtest`'s
 * options (in heldOutInWorlds, world `world`'s: an index into WORLD_NAMES).
 */
export type HeldOutRuns = (
  backtest: BacktestOptions,
  window: number,
  world?: number,
) => { candidate: TrialOutcome; baseline: TrialOutcome };

/** Whether any window's held-out period has lines that do not record acceptance (else there are no worlds to judge in). */
export function judgedInWorlds(windows: readonly TimeWindow[]): boolean {
  return !windows.every((window) => recordedAcceptanceShare(window.test) === 1);
}

/** The borrower worlds of a window's held-out period, in WORLD_NAMES order. */
function worldsOf(window: TimeWindow, backtest: BacktestOptions): BorrowerWorld[] {
  return borrowerWorlds(window.test, backtest.market?.response ?? DEFAULT_MARKET.response);
}

/** Per tune context (weakly, as long as the context), each window's borrower worlds. */
const MEMO_WORLDS = new WeakMap<TrialContext, Map<number, BorrowerWorld[]>>();

/** World `world` (an index into WORLD_NAMES) of window `window`'s held-out period. */
export function windowWorld(context: TrialContext, window: number, world: number): BorrowerWorld {
  let byWindow = MEMO_WORLDS.get(context);
  if (!byWindow) MEMO_WORLDS.set(context, (byWindow = new Map()));
  let worlds = byWindow.get(window);
  if (!worlds) {
    const period = context.windows[window];
    if (!period) throw new RangeError(`no window ${window}`);
    byWindow.set(window, (worlds = worldsOf(period, context.backtest)));
  }
  const found = worlds[world];
  if (!found) throw new RangeError(`no borrower world ${world}`);
  return found;
}

/**
 * Held-out evidence per borrower world for any candidate against what it would replace (tune's
 * params, train's calibrated strategy): `runs` backtests both on a window's held-out period in one
 * world (or gives the runs already made); empty when every held-out line records acceptance.
 */
export function heldOutInWorlds(
  windows: readonly TimeWindow[],
  backtest: BacktestOptions,
  seed: number,
  runs: HeldOutRuns,
): WorldHeldOut[] {
  if (!judgedInWorlds(windows)) return [];
  const perWindow = windows.map((window) => worldsOf(window, backtest));
  return WORLD_NAMES.map((name, index): WorldHeldOut => {
    const pairs: HeldOutPair[] = windows.map((window, w) => {
      const world = perWindow[w]?.[index];
      return {
        ...runs({ ...backtest, ...(world === undefined ? {} : { world }) }, w, index),
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

/**
 * Tune's honesty for `lendbot train calibration` (docs/training.md, "Checked across borrower
 * worlds"): before a strategy is written, the strategy with the new calibration (fitted on the
 * first part of each recording only) and the strategy it replaces are backtested on each
 * recording's held-out part, in every borrower world of the band, and compared request by request
 * with tune's own code (tune/held-out-worlds.ts, tune/held-out-comparison.ts). The write goes ahead
 * only when the candidate loses in no world; a recording whose every held-out line records
 * acceptance is judged by that alone.
 */
import type { CompiledStrategy } from '../../engine/index.js';
import { defaultBalance } from '../default-balance.js';
import { sliceRecording, type PreparedRecording } from '../prepared-recording.js';
import type { BacktestOptions } from '../run-backtest.js';
import { compareHeldOut, type HeldOutEvidence } from '../tune/held-out-comparison.js';
import { heldOutInWorlds, type HeldOutRuns, type WorldHeldOut } from '../tune/held-out-worlds.js';
import type { TimeWindow } from '../tune/time-splits.js';
import { runTrialByBacktest, type TrialContext } from '../tune/trial-evaluator.js';

/** One recording and where its held-out part starts (an index into its entries). */
export interface HeldOutPart {
  recording: PreparedRecording;
  heldOutFrom: number;
}

export interface WorldsCheck {
  /** Starting balance of every run: the default balance of the largest held-out part. */
  startingBalanceCents: number;
  /** The comparison under the backtest's assumed take-up curve (or the recorded acceptance). */
  assumed: HeldOutEvidence;
  /** The comparison in each borrower world (empty when every held-out line records acceptance). */
  worlds: WorldHeldOut[];
  /** The worlds (or, without worlds, the recorded comparison) where the candidate loses. */
  losing: Array<{ world: string; gain: number }>;
  holds: boolean;
}

/**
 * A calibration is for honest probabilities, not for money: it often changes a handful of
 * decisions, and the held-out return then moves by hundredths of a point either way. It is refused
 * when it costs at least this much net annualized return (0.1 points) in some world.
 */
export const MATERIAL_LOSS = 0.001;

/** The seed of the market draws and of the bootstrap: tune's default. */
export const CHECK_SEED = 1;

/** Compares `candidate` with `current` on the held-out parts, in every borrower world. */
export function checkAcrossWorlds(parts: readonly HeldOutPart[], candidate: CompiledStrategy, current: CompiledStrategy): WorldsCheck {
  const windows: TimeWindow[] = parts.map(({ recording, heldOutFrom }) => ({
    train: sliceRecording(recording, 0, heldOutFrom),
    test: sliceRecording(recording, heldOutFrom, recording.entries.length),
  }));
  const startingBalanceCents = Math.max(...windows.map((window) => defaultBalance(window.test).cents));
  const backtest: BacktestOptions = { startingBalanceCents, market: { seed: CHECK_SEED } };
  const context = (strategy: CompiledStrategy, options: BacktestOptions): TrialContext => ({
    strategy,
    windows,
    trials: [strategy.params],
    backtest: options,
    objective: { objective: 'net_return', maxDefault: 1 },
  });
  const runs: HeldOutRuns = (options, window) => ({
    candidate: runTrialByBacktest(context(candidate, options), { trial: 0, window, part: 'test' }),
    baseline: runTrialByBacktest(context(current, options), { trial: 0, window, part: 'test' }),
  });
  const assumed = compareHeldOut(
    windows.map((window, w) => ({
      ...runs(backtest, w),
      spanMs: (window.test.entries.at(-1)?.seenMs ?? 0) - (window.test.entries[0]?.seenMs ?? 0),
    })),
    startingBalanceCents,
    CHECK_SEED,
  );
  const worlds = heldOutInWorlds(windows, backtest, CHECK_SEED, runs);
  const judged =
    worlds.length > 0 ? worlds.map((w) => ({ world: w.world, gain: w.evidence.gain })) : [{ world: 'recorded', gain: assumed.gain }];
  const losing = judged.filter((w) => !(w.gain > -MATERIAL_LOSS));
  return { startingBalanceCents, assumed, worlds, losing, holds: losing.length === 0 };
}

/**
 * Successive halving (Jamieson and Talwalkar, 2016; the rungs of ASHA, Li et al., 2020) for a
 * tune too large to replay every trial on the whole training period: every trial is first judged
 * on the last part of the period, and only the best third of each rung is promoted to the next,
 * three times longer part, until the last rung replays the survivors on all of it. Each rung then
 * costs about as much as the last one, so a search of 1,000 trials costs about 37 full replays a
 * rung instead of 1,000 (a year of a busy marketplace: issue 39).
 *
 * What the tune writes is judged as before: the candidate is the best trial on the whole training
 * period, and it is compared with the current values held out (tuner.ts). The rungs only decide
 * which trials reach the whole period. The parts are the most recent requests of the period
 * (nearest to the held-out one), each rung's part inside the next one's.
 *
 * A tune whose trials × training requests stay under HALVING_WORK replays every trial on the
 * whole period, as every tune did before (the halving changes no small tune's report).
 */

import type { TrialEvaluator, TrialOutcome, TrialTask } from './trial-context.js';

/** Each rung keeps about one trial in ETA for the next, whose part is ETA times longer. */
export const HALVING_ETA = 3;
/** No rung judges on fewer requests than this (a part too short to tell trials apart). */
export const MIN_RUNG_REQUESTS = 20_000;
/** Trials × training requests from which a tune halves by default (about 10 minutes of replays on one core). */
export const HALVING_WORK = 100_000_000;
/** The last rung keeps at least this many trials, so the best of the whole period is chosen among several. */
export const MIN_LAST_RUNG_TRIALS = 9;

/** One rung: the share of the training period (its most recent part) its trials are replayed on. */
export interface Rung {
  share: number;
  /** How many trials it promotes to from the rung before (all of them in the first rung); the current values are judged beside them. */
  trials: number;
}

/**
 * The rungs for `trials` trials over a training period of `requests` requests, shortest part
 * first; one rung of share 1 (every trial on the whole period) when halving cannot help.
 */
export function halvingRungs(trials: number, requests: number, eta = HALVING_ETA, minRequests = MIN_RUNG_REQUESTS): Rung[] {
  let count = 1;
  while (requests / eta ** count >= minRequests && trials / eta ** count >= MIN_LAST_RUNG_TRIALS) count += 1;
  return Array.from({ length: count }, (_, k) => ({
    share: 1 / eta ** (count - 1 - k),
    trials: Math.ceil(trials / eta ** k),
  }));
}

/** Whether a tune of this size halves when not told: see HALVING_WORK. */
export function halvesByDefault(trials: number, trainRequests: number): boolean {
  return trials * trainRequests >= HALVING_WORK;
}

/** The first index of the last `share` of `length` requests (the part a rung replays). */
export function rungStart(length: number, share: number): number {
  return share >= 1 ? 0 : length - Math.ceil(length * share);
}

/**
 * The trials promoted from a rung: the best `keep` by score (ties to the earlier trial), with the
 * current values (trial 0) always kept beside them, as the last rung must score them on the whole
 * period for the comparison. Returned in trial order.
 */
export function promote(scored: ReadonlyArray<{ trial: number; score: number }>, keep: number): number[] {
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.trial - b.trial);
  const kept = new Set(ranked.slice(0, keep).map((s) => s.trial));
  kept.add(0);
  return [...kept].sort((a, b) => a - b);
}

/** What a rung did: its share of the training period, how many trials it judged per window, and their outcomes. */
export interface RungOutcomes {
  share: number;
  trials: number;
  outcomes: TrialOutcome[];
}

/**
 * Replays the training trials rung by rung on every window, promoting each window's best to the
 * next rung; the last rung (share 1) replays its trials on the whole period, as a tune without
 * halving does every trial. Returns every rung's outcomes, the last rung's last.
 */
export async function trainByRungs(
  evaluator: TrialEvaluator,
  windows: number,
  trials: number,
  rungs: readonly Rung[],
  onDone: () => void,
  /** Called as rung `k` (from 0) starts, with how many trials it judges per window. */
  onRung?: (k: number, trials: number) => void,
): Promise<RungOutcomes[]> {
  let alive: number[][] = Array.from({ length: windows }, () => Array.from({ length: trials }, (_, trial) => trial));
  const done: RungOutcomes[] = [];
  for (let k = 0; k < rungs.length; k += 1) {
    const rung = rungs[k] as Rung;
    const last = k === rungs.length - 1;
    onRung?.(k, alive[0]?.length ?? 0);
    const tasks: TrialTask[] = alive.flatMap((judged, window) =>
      judged.map((trial) => ({ trial, window, part: 'train' as const, ...(last ? {} : { rung: k }) })),
    );
    const outcomes = await evaluator.evaluate(tasks, onDone);
    done.push({ share: rung.share, trials: alive[0]?.length ?? 0, outcomes });
    const next = rungs[k + 1];
    if (next)
      alive = alive.map((_, window) =>
        promote(
          outcomes.filter((o) => o.window === window),
          next.trials,
        ),
      );
  }
  return done;
}

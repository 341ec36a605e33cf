/**
 * A live split's sequential test as retraining evidence (docs/training.md, "Retraining while
 * live"): when `risk.split` runs the strategy against its waiting candidate
 * (`<strategy>-retrain-<round>`), the mSPRT on the arms' per-loan returns since the round began
 * (src/risk/shadow-split-stats.ts) may end the round early: promoted when the test says the
 * candidate returns more, refused when it says less. It stays valid however often it is looked
 * at, so the loop reads it at every look; "no difference shown yet" decides nothing.
 */
import { DEFAULT_ALPHA, splitVerdict, splitVerdictText } from '../risk/shadow-split-stats.js';
import type { SplitSettings } from '../risk/risk-limits.js';
import { createShadowSplitRepository } from '../store/shadow-split-repository.js';
import { databaseOf, isoFromMs, msFromIso, type RetrainRound, type Store } from '../store/index.js';

/** The test's evidence as stored with the round (shadow.split) and named in its reason. */
export interface SplitEvidence {
  /** The strategy as it runs, then the candidate. */
  arms: [string, string];
  /** Resolved loans of each arm decided since the round began. */
  counts: [number, number];
  verdict: 'not_yet' | 'no_difference_yet' | 'different';
  /** The mSPRT's likelihood ratio (its statistic), null before the test speaks. */
  likelihoodRatio: number | null;
  /** What the ratio must reach to call the difference real: 1 / alpha. */
  threshold: number;
  /** Mean per-loan return of the candidate minus the strategy's, with its always-valid interval. */
  difference: number | null;
  interval: [number, number] | null;
  /** Which arm the test says returns more; null while it says nothing. */
  favours: 'candidate' | 'current' | null;
  text: string;
}

/** The split's evidence on `round`, or undefined when no live split runs the strategy against this candidate. */
export function splitEvidence(store: Store, split: SplitSettings | undefined, round: RetrainRound): SplitEvidence | undefined {
  const candidate = round.shadowName;
  if (split === undefined || candidate === null) return undefined;
  if (!split.strategies.includes(round.strategy) || !split.strategies.includes(candidate)) return undefined;
  const book = createShadowSplitRepository(databaseOf(store));
  const since = isoFromMs(msFromIso(round.startedAt));
  const returns = (name: string) => book.resolvedLoans(name, since).map((loan) => loan.return);
  const verdict = splitVerdict(
    { name: round.strategy, returns: returns(round.strategy) },
    { name: candidate, returns: returns(candidate) },
  );
  const threshold = 1 / DEFAULT_ALPHA;
  const base = { arms: [round.strategy, candidate] as [string, string], counts: verdict.counts, threshold };
  const text = splitVerdictText(round.strategy, candidate, verdict);
  if (verdict.kind === 'not_yet')
    return { ...base, verdict: verdict.kind, likelihoodRatio: null, difference: null, interval: null, favours: null, text };
  const favours = verdict.kind !== 'different' ? null : verdict.difference > 0 ? 'candidate' : 'current';
  const statistic = `likelihood ratio ${ratio(verdict.likelihoodRatio)} against ${threshold} (1/alpha, alpha ${DEFAULT_ALPHA * 100} %)`;
  return {
    ...base,
    verdict: verdict.kind,
    likelihoodRatio: verdict.likelihoodRatio,
    difference: verdict.difference,
    interval: verdict.interval,
    favours,
    text: `${text}; ${statistic}`,
  };
}

function ratio(value: number): string {
  return value >= 1e6 ? value.toExponential(2) : value.toFixed(2);
}

/**
 * A score's `calibration: { method: learned }` at evaluation time: the posterior of its
 * strategy's calibration learner when the decide step has learners active (active-learning.ts),
 * else the prior (tuning, `strategy explain` without a daemon), and what pricing and the
 * decision's record read of it: the predicted default's log-odds with their uncertainty, and
 * which calibration it was (version and evidence).
 *
 * With `history_anchor` the belief at each request is blended with what the rates of the
 * borrower's completed loans imply (market/history-anchor.ts): one more contribution line after
 * the learned one, so the probability decided with, the price and the reasons all read the same
 * blended level. Without the borrower's history (not fetched, none, or a recording without it)
 * nothing changes.
 */
import type { CalibrationUsed, Contribution } from '../decision.js';
import type { CalibrationDefinition } from '../definition/strategy-schema.js';
import type { FeatureSource } from '../features/feature-source.js';
import { activeLearning } from '../market/active-learning.js';
import { levelAt, meanDefaultLogOdds, type CalibrationLearner, type CalibrationSettings } from '../market/calibration-learner.js';
import { calibrationPosterior, learnedLineOf } from '../market/calibration-learners.js';
import { relationTrust } from '../market/anchor-relation.js';
import { anchoredLevel, historyAnchorOf, type HistoryAnchorSettings } from '../market/history-anchor.js';
import type { Posterior } from '../market/logistic-correction.js';
import { logistic } from '../../math/index.js';
import { calibrationSettingsOf } from './compile-calibration.js';

/** The feature name of the history anchor's contribution line (its value: the probability before it). */
export const HISTORY_ANCHOR_LINE = 'calibration.history_anchor';

/** The lender's costs the anchor reads the market's past prices after (the strategy's pricing). */
export interface AnchorCosts {
  targetReturn: number;
  recovery: number;
  servicingCost: number;
  /** `pricing.funded_amount: loan_amount`: the lender funds the loan alone, not its fees. */
  fundLoanAmountOnly: boolean;
}

/** What the borrower's history added to the level at one request. */
export interface AnchorUsed {
  loans: number;
  /** The default the history's rates imply after this lender's costs (σ of the anchor's mean). */
  implied: number;
  /** The anchor's weight against the learned level, 0 to 1. */
  weight: number;
  /** The implied default's log-odds (what the request teaches the anchor relation). */
  logOdds: number;
}

/** What pricing reads of the learned level for one request. */
export interface LevelEvidence {
  used: CalibrationUsed;
  /** The predicted default's log-odds: posterior mean and sd at this request's score (after the anchor, if any). */
  mean: number;
  sd: number;
  /** The history anchor's part, when it had a history to read. */
  anchor?: AnchorUsed;
}

export interface LearnedCalibration {
  settings: CalibrationSettings;
  /** The posterior the score prices with now. */
  posterior(): Posterior;
  /** The level pricing reads, from the decision's contribution lines (undefined without the learned line). */
  levelOf(contributions: readonly Contribution[], source?: FeatureSource): LevelEvidence | undefined;
  /** The history anchor's line after the learned one (`lines` so far), or undefined when it has nothing to read. */
  anchorLine(lines: readonly Contribution[], source: FeatureSource | undefined): Contribution | undefined;
}

/** The level's belief at one request: log-odds of default, normal. */
interface Belief {
  mean: number;
  variance: number;
  anchor?: AnchorUsed;
}

/** The learned part of a score's calibration, or undefined for a fitted one; `strategy` names its learner. */
export function learnedCalibrationOf(
  calibration: CalibrationDefinition | undefined,
  strategy: string | undefined,
  costs?: AnchorCosts,
): LearnedCalibration | undefined {
  if (calibration?.method !== 'learned') return undefined;
  const settings = calibrationSettingsOf(calibration);
  const anchorSettings: HistoryAnchorSettings | undefined =
    calibration.history_anchor === undefined || costs === undefined ? undefined : { sd: calibration.history_anchor.sd };
  const learner = (): CalibrationLearner | undefined =>
    strategy === undefined ? undefined : activeLearning()?.calibration.learnerFor(strategy, settings);
  /** The belief at the score's default, blended with the history when there is one. */
  const beliefAt = (posterior: Posterior, scoreDefault: number, source: FeatureSource | undefined): Belief => {
    const { mean, variance } = levelAt(posterior, scoreDefault);
    if (anchorSettings === undefined || costs === undefined || source === undefined) return { mean, variance };
    const anchor = historyAnchorOf(
      source.history,
      {
        targetReturn: costs.targetReturn,
        recovery: costs.recovery,
        servicingCost: costs.servicingCost,
        fundedCents: costs.fundLoanAmountOnly ? source.loanAmountCents : source.totalAmountCents,
        repaidPrincipalCents: source.totalAmountCents,
        terms: source.request.loan_terms,
      },
      anchorSettings,
    );
    if (anchor === undefined) return { mean, variance };
    const blended = anchoredLevel({ mean, variance }, anchor, relationTrust(learner()?.anchorRelation));
    return {
      mean: blended.mean,
      variance: blended.variance,
      anchor: { loans: anchor.loans, implied: logistic(anchor.mean), weight: blended.weight, logOdds: anchor.mean },
    };
  };
  return {
    settings,
    posterior: () => calibrationPosterior(learner(), settings),
    levelOf: (contributions, source) => {
      const line = learnedLineOf(contributions);
      if (line === undefined || typeof line.value !== 'number') return undefined;
      const scoreDefault = 1 - line.value;
      const active = learner();
      const belief = beliefAt(calibrationPosterior(active, settings), scoreDefault, source);
      const evidence = active?.evidence ?? { loans: 0, defaults: 0, loanMonths: 0 };
      const level: LevelEvidence = {
        used: { version: active?.version ?? 0, ...evidence, scoreDefault },
        mean: belief.mean,
        sd: Math.sqrt(belief.variance),
      };
      if (belief.anchor !== undefined) {
        level.anchor = belief.anchor;
        level.used.historyLogOdds = belief.anchor.logOdds;
      }
      return level;
    },
    anchorLine: (lines, source) => {
      if (anchorSettings === undefined || source === undefined) return undefined;
      const line = learnedLineOf(lines);
      if (line === undefined || typeof line.value !== 'number') return undefined;
      const belief = beliefAt(calibrationPosterior(learner(), settings), 1 - line.value, source);
      if (belief.anchor === undefined) return undefined;
      let total = 0;
      for (const each of lines) total += each.logOdds;
      // The blended belief's mean default, as the learned line prices its own (compile-calibration.ts, learnedMap).
      const logOdds = -meanDefaultLogOdds(belief.mean, belief.variance) - total;
      // Its value is the probability before it, as every calibration line's (the implied default is in the reason).
      return { feature: HISTORY_ANCHOR_LINE, value: logistic(total), points: logOdds, logOdds, model: 'calibration' };
    },
  };
}

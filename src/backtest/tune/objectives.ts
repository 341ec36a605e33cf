/**
 * What a tune maximizes, from a backtest's summary (docs/backtesting.md):
 * - net_return: the net annualized return on the starting balance;
 * - risk_adjusted: that return less the max drawdown, so a path that dips deep scores lower;
 * - return_with_max_default: the return, less 10 × how far the default rate goes above the cap.
 */
import type { BacktestSummary } from '../backtest-result.js';

export const OBJECTIVES = ['net_return', 'risk_adjusted', 'return_with_max_default'] as const;
export type Objective = (typeof OBJECTIVES)[number];

export interface ObjectiveSettings {
  objective: Objective;
  /** For return_with_max_default: the highest default rate (0 to 1) without penalty. */
  maxDefault: number;
}

export const DEFAULT_MAX_DEFAULT = 0.1;
const DEFAULT_PENALTY = 10;

/** The score of a backtest's figures (a summary, or a column trial's figures). */
export function objectiveScore(
  summary: Pick<BacktestSummary, 'netAnnualizedReturn' | 'maxDrawdown' | 'defaultRate'>,
  settings: ObjectiveSettings,
): number {
  switch (settings.objective) {
    case 'net_return':
      return summary.netAnnualizedReturn;
    case 'risk_adjusted':
      return summary.netAnnualizedReturn - summary.maxDrawdown;
    case 'return_with_max_default':
      return summary.netAnnualizedReturn - DEFAULT_PENALTY * Math.max(0, summary.defaultRate - settings.maxDefault);
  }
}

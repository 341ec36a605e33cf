/**
 * Which strategies decide a request live, which only shadow it, and the arm of a live split it
 * falls in (docs/strategies.md, "Shadow and split"): a live split's other arm sits the request
 * out; a split whose arms are not both live strategies does not run, said once a configuration.
 */
import { strategyRoles, type CompiledStrategy } from '../engine/index.js';
import type { Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/index.js';
import type { SplitArm } from './request-guard.js';

/** The strategies of one request. */
export interface RequestStrategyRoles {
  /** Those that decide live, in priority order. */
  live: readonly CompiledStrategy[];
  /** Those that decide beside them on their data, recorded apart (src/challengers/shadow-decide.ts). */
  shadows: readonly CompiledStrategy[];
  /** The arm of a live split the request falls in; undefined without one. */
  splitArm: SplitArm | undefined;
}

export interface RequestStrategiesDeps {
  /** The active strategies, in priority order; a function so hot reload can swap them. */
  strategies: () => readonly CompiledStrategy[];
  limits: () => RiskLimits;
  log: Logger;
}

export class RequestStrategies {
  /** The split last warned about as not running (its arms not both live), so it is said once. */
  private splitWarned: string | undefined;

  constructor(private readonly deps: RequestStrategiesDeps) {}

  /** The roles for the request with this id; throws when no strategy decides live. */
  forRequest(loanRequestId: number): RequestStrategyRoles {
    const active = this.deps.strategies();
    const split = this.deps.limits().split;
    const { live, shadows, arm } = strategyRoles(active, split, loanRequestId);
    if (split !== undefined && arm === undefined) this.warnSplitIdle(split.strategies);
    if (live.length === 0) {
      throw new Error(
        'every active strategy is marked shadow: true; at least one must decide live (docs/strategies.md, "Shadow and split")',
      );
    }
    return {
      live,
      shadows,
      splitArm: split !== undefined && arm !== undefined ? { split, arm } : undefined,
    };
  }

  /** A split whose arms are not both live strategies does not run: said once a configuration. */
  private warnSplitIdle(arms: readonly string[]): void {
    const key = arms.join(',');
    if (this.splitWarned === key) return;
    this.splitWarned = key;
    this.deps.log.warn(
      { split: arms },
      'risk.split names strategies that are not both active and live; requests are decided without the split',
    );
  }
}

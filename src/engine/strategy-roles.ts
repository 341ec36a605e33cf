/**
 * Which strategies decide a request live and which only shadow it (docs/strategies.md, "Shadow
 * and split"): a strategy marked `shadow: true` never decides; under a live split only the arm
 * the request falls in decides, the other arm sits it out. One pure answer, so the daemon's
 * pipeline and every "what would the bot do" view (a proposal's "the bot's own view", the agent
 * connector's explain) name the same strategy: a shadow challenger listed first must not speak
 * for the bot.
 */
import { armOf } from '../risk/arm-share-rule.js';
import type { SplitSettings } from '../risk/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';

/** Where a feature lays strategies over the files' (the daemon's strategies() reads through it; retraining's managed versions). */
export interface StrategyLayer {
  over: (files: readonly CompiledStrategy[]) => readonly CompiledStrategy[];
}

export interface StrategyRoles {
  /** Those that decide live, in priority order (empty when every strategy is a shadow). */
  live: readonly CompiledStrategy[];
  /** Those that decide beside them, recorded apart. */
  shadows: readonly CompiledStrategy[];
  /** The arm of a live split the request falls in; undefined without one running. */
  arm: 0 | 1 | undefined;
}

/** The roles of the active strategies for the request with this id. */
export function strategyRoles(active: readonly CompiledStrategy[], split: SplitSettings | undefined, loanRequestId: number): StrategyRoles {
  // A split runs only when both arms are active live strategies.
  const runs =
    split !== undefined && split.strategies.every((name) => active.some((strategy) => strategy.name === name && strategy.shadow !== true));
  const arm = runs ? armOf(loanRequestId, split) : undefined;
  const otherArm = split === undefined || arm === undefined ? undefined : split.strategies[1 - arm];
  return {
    live: active.filter((strategy) => strategy.shadow !== true && strategy.name !== otherArm),
    shadows: active.filter((strategy) => strategy.shadow === true),
    arm,
  };
}

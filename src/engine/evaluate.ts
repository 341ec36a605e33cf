/**
 * Evaluating strategies: `evaluate` (one strategy) and `evaluateAll` (several, in priority
 * order), which the decide step (decide-step.ts) calls for the daemon, the backtester, the tuner
 * and `strategy explain`. Both are pure: the same request, enrichment, strategy and params always
 * give the same decision (the two memos below only keep work already done, per object).
 */
import type { LoanRequest } from '../domain/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { Enrichment } from './enrichment.js';

// `evaluate` with a params object compiles the strategy with them once per object and keeps the
// result while both objects live. No caller in src/ passes params today: the tuner compiles each
// trial itself (`strategy.withParams` in backtest/tune/trial-evaluator.ts) and hands the compiled
// strategy to the decide step; the argument serves callers that try params on a strategy.
const withParamsCache = new WeakMap<CompiledStrategy, WeakMap<object, CompiledStrategy>>();

function strategyWith(strategy: CompiledStrategy, params: Readonly<Record<string, number>>): CompiledStrategy {
  let cache = withParamsCache.get(strategy);
  if (!cache) {
    cache = new WeakMap();
    withParamsCache.set(strategy, cache);
  }
  let compiled = cache.get(params);
  if (!compiled) {
    compiled = strategy.withParams(params);
    cache.set(params, compiled);
  }
  return compiled;
}

/**
 * Decides about one request. `params` overrides some of the strategy's params; pass
 * the same object across calls to reuse the compiled result (so do not mutate it in between:
 * the compiled strategy is cached per object).
 */
export function evaluate(
  request: LoanRequest,
  enrichment: Enrichment,
  strategy: CompiledStrategy,
  params?: Readonly<Record<string, number>>,
): Decision {
  const effective = params === undefined ? strategy : strategyWith(strategy, params);
  return effective.evaluate(request, enrichment);
}

/**
 * The last list ordered and its order: the decide step asks about the same list for every request
 * (a replay, a daemon between reloads), and each call used to sort a copy.
 */
let lastListed: readonly CompiledStrategy[] | undefined;
let lastOrdered: CompiledStrategy[] = [];

/** evaluateAll's order, remembered for the list last asked about (lists are not changed once made). */
function orderOf(strategies: readonly CompiledStrategy[]): readonly CompiledStrategy[] {
  if (strategies !== lastListed) {
    lastOrdered = byPriority(strategies);
    lastListed = strategies;
  }
  return lastOrdered;
}

/** Strategies in priority order: lower `priority` first, those without one last, ties as given. */
export function byPriority(strategies: readonly CompiledStrategy[]): CompiledStrategy[] {
  return strategies
    .map((strategy, index) => ({ strategy, index }))
    .sort((a, b) => (a.strategy.priority ?? Infinity) - (b.strategy.priority ?? Infinity) || a.index - b.index)
    .map((entry) => entry.strategy);
}

/**
 * Evaluates several active strategies in priority order: the first that offers or needs data
 * wins; when all skip, the first skip is returned. Throws RangeError on an empty list.
 */
export function evaluateAll(request: LoanRequest, enrichment: Enrichment, strategies: readonly CompiledStrategy[]): Decision {
  let firstSkip: Decision | undefined;
  for (const strategy of orderOf(strategies)) {
    const decision = strategy.evaluate(request, enrichment);
    if (decision.action !== 'skip') return decision;
    firstSkip ??= decision;
  }
  if (!firstSkip) throw new RangeError('evaluateAll needs at least one strategy');
  return firstSkip;
}

/**
 * Evaluating strategies: `evaluate` (one strategy) and `evaluateAll` (several, in priority
 * order), which the decide step (decide-step.ts) calls for the daemon, the backtester, the tuner
 * and `strategy explain`. Both are pure: the same request, enrichment, strategy and params always
 * give the same decision.
 *
 * This module keeps a bounded memo of one thing: the priority order of the strategy list last
 * asked about (MEMO_PRIORITY_ORDER, one list), which only saves sorting the same list again.
 */
import type { LoanRequest } from '../domain/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { Enrichment } from './enrichment.js';

/**
 * Decides about one request. `params` overrides some of the strategy's params: the strategy is
 * compiled with them for this call. A caller trying one param set on many requests compiles it
 * once itself (`strategy.withParams`, as the tuner does) and keeps it as long as it needs it.
 */
export function evaluate(
  request: LoanRequest,
  enrichment: Enrichment,
  strategy: CompiledStrategy,
  params?: Readonly<Record<string, number>>,
): Decision {
  const effective = params === undefined ? strategy : strategy.withParams(params);
  return effective.evaluate(request, enrichment);
}

/**
 * The last list ordered and its order: the decide step asks about the same list for every request
 * (a replay, a daemon between reloads), and each call used to sort a copy. One entry, compared by
 * identity (lists are not changed once made), so it holds at most one list alive.
 */
const MEMO_PRIORITY_ORDER: { listed: readonly CompiledStrategy[] | undefined; ordered: readonly CompiledStrategy[] } = {
  listed: undefined,
  ordered: [],
};

/** evaluateAll's order: the memo's when `strategies` is the list last asked about. */
function orderOf(strategies: readonly CompiledStrategy[]): readonly CompiledStrategy[] {
  if (strategies !== MEMO_PRIORITY_ORDER.listed) {
    MEMO_PRIORITY_ORDER.ordered = byPriority(strategies);
    MEMO_PRIORITY_ORDER.listed = strategies;
  }
  return MEMO_PRIORITY_ORDER.ordered;
}

/** Strategies in priority order: lower `priority` first, those without one last, ties as given. */
function byPriority(strategies: readonly CompiledStrategy[]): CompiledStrategy[] {
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

/**
 * A strategy's filters read against what a webhook event tells before the request is fetched
 * (marketplace 6.2: the amount and whether it is crypto-backed). Only filters on those features are
 * checked, and a fact the event does not carry never fails: the prefilter may only save a fetch
 * the full evaluation would have wasted, never drop a request the strategy might take.
 */
import type { DecisionReason } from '../../domain/decision-reason.js';
import type { FilterDefinition } from '../definition/strategy-schema.js';
import type { FeatureValue } from '../features/feature-definition.js';
import { compileFilter } from './compile-filters.js';
import { FeatureTable } from './feature-table.js';

/** What a `new_loan_request_created` event says about its request. */
export interface EventFacts {
  /** `loan_request_amount`, USD. */
  loanAmount?: number | undefined;
  /** `loan_request_type` is `crypto`. */
  cryptoBacked?: boolean | undefined;
}

const EVENT_FEATURES: Record<string, (facts: EventFacts) => FeatureValue> = {
  loan_amount: (facts) => facts.loanAmount ?? null,
  crypto_backed: (facts) => facts.cryptoBacked ?? null,
};

/** Returns the reason the event's request cannot pass the filters, or null when it may. */
export type EventPrefilter = (facts: EventFacts) => DecisionReason | null;

export function compileEventPrefilter(filters: readonly FilterDefinition[], params: Record<string, number>): EventPrefilter {
  const table = new FeatureTable();
  const checks = filters.filter((filter) => filter.feature in EVENT_FEATURES).map((filter) => compileFilter(filter, params, table));
  const readers = table.names.map((name) => EVENT_FEATURES[name] as (facts: EventFacts) => FeatureValue);
  return (facts) => {
    const values = readers.map((read) => read(facts));
    for (const check of checks) {
      if (values[check.slot] === null) continue;
      const reason = check.test(values);
      if (reason !== null) return reason;
    }
    return null;
  };
}

/** A strategy as far as prefiltering goes. */
export interface PrefilteringStrategy {
  name: string;
  prefilterEvent?: EventPrefilter | undefined;
}

/**
 * Whether a webhook event's request could be offered on at all, before it is fetched: not when
 * it is crypto-backed and risk level 4 is not allowed, nor when every strategy's filters refuse
 * its amount (or type). What the event does not say never drops it. Returns the reason to drop.
 */
export function eventDropReason(
  data: Readonly<Record<string, unknown>>,
  allowedRiskLevels: readonly number[],
  strategies: readonly PrefilteringStrategy[],
): DecisionReason | null {
  const cryptoBacked = data.loan_request_type === 'crypto' ? true : data.loan_request_type === 'cash' ? false : undefined;
  if (cryptoBacked === true && !allowedRiskLevels.includes(4)) return { code: 'crypto_not_allowed' };
  const loanAmount = typeof data.loan_request_amount === 'number' ? data.loan_request_amount : undefined;
  const refusals: Array<{ strategy: string; reason: DecisionReason }> = [];
  for (const strategy of strategies) {
    const reason = strategy.prefilterEvent?.({ loanAmount, cryptoBacked }) ?? null;
    if (reason === null) return null;
    refusals.push({ strategy: strategy.name, reason });
  }
  return { code: 'prefiltered', refusals };
}

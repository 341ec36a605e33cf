/** A strategy ready to evaluate: YAML compiled to plain functions, or a checked plugin module. */
import type { ListRestriction, LoanRequest } from '../domain/index.js';
import type { DecisionReason } from '../domain/decision-reason.js';
import type { Decision } from './decision.js';
import type { ParamSpec } from './definition/strategy-schema.js';
import type { Enrichment } from './enrichment.js';
import type { EventFacts } from './compile/event-prefilter.js';

/** One paid provider a strategy may buy, and when. */
export interface ProviderPolicy {
  slot: 'provider_a' | 'provider_b';
  /** The provider's name as the service knows it (marketplace 4.5 provider_name). */
  provider: string;
  pricing: 'flat' | 'per_request';
  /** USD cents a month (flat) or per request. */
  costCents: number;
  /** Bought only when the probability estimated without it is within this band. */
  whenProbability: { min: number; max: number };
}

/** What a strategy may buy; the caller's spend ledger enforces the budget. */
export interface DataPolicy {
  monthlyBudgetCents: number;
  bankingData: 'always' | 'after_filters' | 'never';
  /** Marketplace 4.9, free: fetched before any filter, after the free filters, or never. Absent: never (plugins). */
  borrowerHistory?: 'always' | 'after_filters' | 'never';
  /** Flat-priced providers first: they are asked for before per-request ones. */
  providers: ProviderPolicy[];
}

export interface CompiledStrategy {
  name: string;
  version: string;
  /** sha256 (16 hex digits) of the file the strategy came from. */
  contentHash: string;
  description: string;
  /** The file it was loaded from. */
  file: string;
  kind: 'yaml' | 'plugin';
  params: Readonly<Record<string, number>>;
  paramSpecs: Readonly<Record<string, ParamSpec>>;
  dataPolicy: DataPolicy;
  automateFund: boolean;
  /** Lower runs first in evaluateAll; absent runs after every strategy that has one. */
  priority?: number;
  /** A challenger (`shadow: true`): decides beside the live strategies on their data, never offers (src/challengers/shadow-decide.ts). */
  shadow?: boolean;
  /**
   * Where an expected-profit strategy's market response comes from: numbers written in its
   * `pricing.market`, a market file, a trained model's fit, or the unfitted defaults (the
   * backtest report, status and the dashboard say so). Absent for other pricing and plugins.
   */
  marketSource?: MarketSource;
  /** Its hurdle follows the cash position (`pricing.cash_hurdle`): the caller passes one in the decide context. */
  followsCash?: boolean;
  /** Names of the features the strategy reads. */
  features: readonly string[];
  evaluate(request: LoanRequest, enrichment: Enrichment): Decision;
  /**
   * The reason a webhook event's request cannot pass this strategy's filters, or null when it
   * may; absent for plugins, whose rules are not known.
   */
  prefilterEvent?: (facts: EventFacts) => DecisionReason | null;
  /**
   * The risk levels and amounts the strategy's filters allow, for the poll's list filters; absent
   * for plugins (no restriction known).
   */
  listRestriction?: ListRestriction;
  /** The same strategy with some params changed; no file or YAML work. Throws RangeError on an unknown name. */
  withParams(overrides: Readonly<Record<string, number>>): CompiledStrategy;
}

/** Checks overrides against the specs and merges them over the current values. */
export function mergeParams(
  current: Readonly<Record<string, number>>,
  specs: Readonly<Record<string, ParamSpec>>,
  overrides: Readonly<Record<string, number>>,
): Record<string, number> {
  const merged = { ...current };
  for (const [name, value] of Object.entries(overrides)) {
    const spec = specs[name];
    if (!spec) throw new RangeError(`unknown param "${name}"; this strategy has ${Object.keys(specs).join(', ') || 'no params'}`);
    if (!Number.isFinite(value)) throw new RangeError(`param "${name}" must be a finite number (got ${value})`);
    merged[name] = value;
  }
  return merged;
}

/** Where one part of a market response (competition or take-up) comes from. */
export type MarketPartSource = 'default' | 'file' | 'explicit' | 'model';
/**
 * Where an expected-profit strategy's market response comes from (CompiledStrategy.marketSource):
 * one word when both parts come from the same place, else each part's own, such as
 * "model competition, default take-up" for a model that carries only a competition fit.
 */
export type MarketSource = MarketPartSource | `${MarketPartSource} competition, ${MarketPartSource} take-up`;

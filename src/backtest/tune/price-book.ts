/**
 * FAST PATH of src/engine/compile/compile-strategy.ts:compileStrategy; equivalence:
 * test/backtest/tune-column-path.test.ts; change both or neither.
 *
 * Prices of one period's requests, per distinct value of the params pricing reads: a tune's
 * trials differ mostly in their filters and thresholds, and pricing (about a hundred rates tried
 * per request) is the costly part of a decision, so each request is priced once per pricing
 * value, when a trial first needs it, by the engine's compiled pricing. The market's verdict on
 * an offer and the won loan's cash flows depend only on the request and the rate, so they are
 * kept beside the price. Only the last few pricing values are kept (the worker pool hands out
 * trials grouped by them).
 */
import { compilePricing, type CompiledPricing } from '../../engine/compile/compile-pricing.js';
import { findParamReferences } from '../../engine/definition/param-values.js';
import { addMonthsUtc } from '../../clock/utc-month.js';
import { loanCashFlows, type LoanCashFlows } from '../../math/index.js';
import { defaultProbabilityOf, judgeOffer, type MarketAssumptions, type MarketVerdict } from '../market-model.js';
import type { ParamValues } from './param-space.js';
import type { TrialColumns } from './trial-columns.js';

const NOT_PRICED = 0;
const OFFERED = 1;

/** A won loan's cash flows and when each arrives (instalments in order, then loss, then recovery). */
export interface FundedLoan {
  fundedMs: number;
  flows: LoanCashFlows;
  instalmentMs: Float64Array;
  lossMs: number;
  recoveryMs: number;
}

/** One pricing value's prices and what the market makes of them, filled in as trials ask. */
export class PricedRequests {
  private readonly state: Uint8Array;
  private readonly rates: Float64Array;
  private readonly verdicts: Array<MarketVerdict | undefined>;
  private readonly loans: Array<FundedLoan | undefined>;

  constructor(
    private readonly columns: TrialColumns,
    private readonly pricing: CompiledPricing,
    private readonly market: MarketAssumptions,
  ) {
    const n = columns.recording.entries.length;
    this.state = new Uint8Array(n);
    this.rates = new Float64Array(n);
    this.verdicts = new Array<MarketVerdict | undefined>(n);
    this.loans = new Array<FundedLoan | undefined>(n);
  }

  /** The offered rate for request `i`, or NaN when pricing skips it. */
  rate(i: number): number {
    if (this.state[i] === NOT_PRICED) {
      const price = this.pricing(this.columns.sources[i] as TrialColumns['sources'][number], this.columns.probability[i] as number);
      this.state[i] = price.ok ? OFFERED : 2;
      this.rates[i] = price.ok ? price.rate : Number.NaN;
    }
    return this.rates[i] as number;
  }

  /** judgeOffer's verdict on request `i` at its rate. */
  verdict(i: number): MarketVerdict {
    let verdict = this.verdicts[i];
    if (verdict === undefined) {
      const entry = this.columns.recording.entries[i];
      if (!entry) throw new RangeError(`no request ${i}`);
      this.verdicts[i] = verdict = judgeOffer(
        entry.line,
        this.rate(i),
        this.market,
        undefined,
        defaultProbabilityOf(this.columns.probability[i]),
      );
    }
    return verdict;
  }

  /**
   * The cash flows of request `i` won and funded at `fundedMs`: always its offer time + the
   * decision delay, so they are kept (NaN: look up a loan already funded).
   */
  loan(i: number, fundedMs: number): FundedLoan {
    let loan = this.loans[i];
    if (loan !== undefined && !Number.isNaN(fundedMs) && loan.fundedMs !== fundedMs)
      throw new RangeError(`request ${i} funded at ${fundedMs}, kept at ${loan.fundedMs}`);
    if (loan === undefined) {
      const entry = this.columns.recording.entries[i];
      const verdict = this.verdict(i);
      if (!entry || !verdict.won) throw new RangeError(`request ${i} was not won`);
      const flows = loanCashFlows(
        entry.totalCents,
        this.rate(i),
        entry.line.loan_request.loan_terms,
        verdict.plan,
        this.market.recoveryDelayMonths,
      );
      loan = {
        fundedMs,
        flows,
        instalmentMs: Float64Array.from(flows.instalments, (instalment) => addMonthsUtc(fundedMs, instalment.month)),
        lossMs: flows.lossMonth === null ? Number.NaN : addMonthsUtc(fundedMs, flows.lossMonth),
        recoveryMs: flows.recoveryMonth === null ? Number.NaN : addMonthsUtc(fundedMs, flows.recoveryMonth),
      };
      this.loans[i] = loan;
    }
    return loan;
  }
}

/** Prices per pricing value, the last `kept` values remembered. */
export class PriceBook {
  private readonly priced = new Map<string, PricedRequests>();
  private readonly refs: string[];

  constructor(
    private readonly columns: TrialColumns,
    private readonly market: MarketAssumptions,
    private readonly kept = 2,
  ) {
    this.refs = findParamReferences(columns.source.definition.pricing).map((ref) => ref.name);
  }

  /** The pricing value of a (complete) param set: equal keys, equal prices. */
  key(params: ParamValues): string {
    return pricingKey(this.refs, params);
  }

  forParams(params: ParamValues): PricedRequests {
    const key = this.key(params);
    let priced = this.priced.get(key);
    if (priced) {
      this.priced.delete(key);
    } else {
      const { definition, fittedMarket } = this.columns.source;
      if (!definition.pricing) throw new RangeError(`strategy "${definition.name}" has no pricing`);
      // As compile-strategy.ts's buildPlan: the fitted market (market file over model) under the strategy's own.
      priced = new PricedRequests(this.columns, compilePricing(definition.pricing, params, fittedMarket), this.market);
    }
    this.priced.set(key, priced);
    if (this.priced.size > this.kept) this.priced.delete(this.priced.keys().next().value as string);
    return priced;
  }
}

/** The values of the params named in `refs`, as one string. */
export function pricingKey(refs: readonly string[], params: ParamValues): string {
  return JSON.stringify(refs.map((name) => params[name] ?? null));
}

/** What the caller bought or fetched about a loan request, handed to evaluate with the request. */
import type { BankingData, BorrowerLoanHistoryItem, ProviderResult } from '../domain/index.js';
import type { CashPosition } from './pricing/cash-hurdle.js';

export interface Enrichment {
  /** Marketplace 2.9, from fetch_loan_request_data_aggs. */
  bankingData?: BankingData;
  /** Marketplace 2.10, keyed by provider name (the brand name the operator gives). */
  providerResults?: Record<string, ProviderResult>;
  /** Marketplace 2.8 (from 4.9, every page): the borrower's completed loans; empty when there are none. */
  borrowerHistory?: BorrowerLoanHistoryItem[];
  /**
   * Data the caller asked for and could not get (404, budget spent, outage). The strategy then
   * treats it as absent and decides without it instead of asking again.
   */
  unavailable?: {
    bankingData?: boolean;
    borrowerHistory?: boolean;
    /** Provider names. */
    providers?: readonly string[];
  };
  /** The lender's free cash and recent demand, set by the decide step from its context (a strategy's cash_hurdle prices with it). */
  cash?: CashPosition;
  /**
   * Set by the decide step when its caller needs the strategies' probability alone (a backtest's
   * calibration section): a YAML strategy that gets as far as pricing skips there, with the
   * probability and contributions it would price with, and searches no price.
   */
  probabilityOnly?: true;
}

/** A piece of data a strategy wants before it can decide; the caller buys it and evaluates again. */
export type DataNeed =
  | { kind: 'banking_data' }
  /** Marketplace 4.9: free, so no price and no budget check. */
  | { kind: 'borrower_history' }
  | { kind: 'provider'; provider: string; pricing: 'flat' | 'per_request'; costCents: number };

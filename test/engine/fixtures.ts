/**
 * Realistic loan requests, banking data and provider results for tests and examples. Every
 * builder parses its result through the service's schemas, so fixtures cannot drift from spec.
 */
import {
  bankingDataSchema,
  borrowerLoanHistoryItemSchema,
  loanRequestSchema,
  providerAResultSchema,
  providerBBand,
  providerBResultSchema,
  type BankingData,
  type Borrower,
  type BorrowerLoanHistoryItem,
  type LoanRequest,
  type ProviderAResult,
  type ProviderBResult,
} from '../../src/domain/index.js';
import { bankingDataJson } from '../service/fixtures/resources.js';

export interface LoanRequestOverrides extends Partial<Omit<LoanRequest, 'borrower'>> {
  borrower?: Partial<Borrower>;
}

/** A medium-risk request for 1000.00 over 12 months, borrower with a "650-700" credit score. */
export function loanRequest(overrides: LoanRequestOverrides = {}): LoanRequest {
  const { borrower, ...rest } = overrides;
  return loanRequestSchema.parse({
    id: 1001,
    borrower: {
      id: 501,
      avatar: 3,
      initial: 'J.D.',
      svc_score: 710,
      credit_score: '650-700',
      svc_color: 1,
      hard_inquiries: 2,
      deregatory_mark: 0,
      total_accounts: 9,
      credit_utilization: 0.31,
      annual_income: 54000,
      payment_history: 97,
      completed_loans_count: 2,
      ...borrower,
    },
    borrower_card_color: 1,
    loan_amount: '1000.00',
    loan_terms: 12,
    total_amount: '1050.00',
    total_fees: '50.00',
    fee_legislative: '10.00',
    fee_extra: '0.00',
    fee_svc: '40.00',
    created: '2026-11-20T14:00:00Z',
    fav_loan_request_id: null,
    svc_prediction_purchased: false,
    count_views: 4,
    census_tract_geo_id: '06037206300',
    max_interest_rate: 0.6,
    borrower_data_aggs: { avg_credit: 1520.5, avg_debit: 1310.25, sum_values: [{ CREDIT: 4561.5, DEBIT: 3930.75 }] },
    ...rest,
  });
}

export interface Agg90Overrides {
  [field: string]: number | null | undefined;
}

/** Banking data of a borrower earning about 4500 a month and spending about 3900. */
export function bankingData(agg90: Agg90Overrides = {}, balance = '812.40'): BankingData {
  return bankingDataSchema.parse({
    created: '2026-11-20T14:00:05Z',
    borrower_bank_name_at_loan_request: 'First Example Bank',
    borrower_bank_balance: balance,
    // The raw bank response is not read by any feature; share the service tests' sample of it.
    data_aggregation: bankingDataJson().data_aggregation,
    agg_90: {
      avg_credit: 1500,
      avg_debit: 1300,
      credit_30: 4600,
      credit_60: 4500,
      credit_90: 4400,
      debit_30: 4000,
      debit_60: 3900,
      debit_90: 3800,
      total_credit: 13500,
      total_debit: 11700,
      food_spending_last90: 1755,
      food_spending_percentage_from_total: 15,
      transportation_spending_last_90: 936,
      transportation_spending_percentage_from_total: 8,
      bank_fees_spending_last90: 35,
      bank_fees_spending_percentage_from_total: 0.3,
      cash_advance_last90: 0,
      cash_advance_percentage_from_total: 0,
      negative_balance_count: 1,
      ...agg90,
    },
  });
}

/** Provider A's answer. */
export function providerA(score = 720, loanRequestId = 1001): ProviderAResult {
  return providerAResultSchema.parse({
    loan_request_id: loanRequestId,
    model_version: 'a-3.2',
    a_score: score,
    a_score_request_id: '3f2b9a4e-8c1d-4e5f-9a7b-1c2d3e4f5a6b',
    timestamp: '2026-11-20T14:00:09Z',
  });
}

/** Provider B's answer, with the band that goes with the score. */
export function providerB(score = 64, loanRequestId = 1001): ProviderBResult {
  return providerBResultSchema.parse({
    p2p_score: { date: '2026-11-20', score, score_band: providerBBand(score), loan_request_id: String(loanRequestId) },
    attributes: { date: '2026-11-20', loan_request_id: String(loanRequestId), attributes: { cf_001: 12 } },
  });
}

/** One completed loan of the borrower's history. */
export function historyItem(loanAmount = '500.00', interestRate = '0.2400'): BorrowerLoanHistoryItem {
  return borrowerLoanHistoryItemSchema.parse({
    lender: { initial: 'L.K.', avatar: 1 },
    borrower: { initial: 'J.D.', avatar: 3 },
    borrower_card_color: 1,
    loan_amount: loanAmount,
    payment_terms: 6,
    interest_rate: interestRate,
  });
}

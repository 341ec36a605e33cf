// Shared test fixtures: temp store files and loan requests built through the real schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loanRequestSchema, type LoanRequest } from '../../src/domain/index.js';
import { openStore, type Store } from '../../src/store/index.js';

export interface LoanRequestOverrides {
  id?: number;
  borrowerId?: number;
  riskLevel?: number;
  totalAmount?: string;
  loanAmount?: string;
  maxInterestRate?: number;
  created?: string;
  extra?: Record<string, unknown>;
}

/** A loan request as the list endpoint sends it, validated by loanRequestSchema. */
export function loanRequest(overrides: LoanRequestOverrides = {}): LoanRequest {
  const riskLevel = overrides.riskLevel ?? 1;
  return loanRequestSchema.parse({
    id: overrides.id ?? 1001,
    borrower: {
      id: overrides.borrowerId ?? 501,
      avatar: 3,
      initial: 'J.D.',
      svc_score: 640,
      credit_score: '650-700',
      svc_color: riskLevel,
      hard_inquiries: 1,
      deregatory_mark: 0,
      total_accounts: 7,
      credit_utilization: 0.31,
      annual_income: 52000,
      payment_history: 98,
      completed_loans_count: 2,
    },
    borrower_card_color: riskLevel,
    loan_amount: overrides.loanAmount ?? '500.00',
    loan_terms: 6,
    total_amount: overrides.totalAmount ?? '520.00',
    total_fees: '20.00',
    fee_legislative: '5.00',
    fee_extra: '5.00',
    fee_svc: '10.00',
    created: overrides.created ?? '2026-01-01T00:00:00Z',
    fav_loan_request_id: null,
    svc_prediction_purchased: false,
    count_views: 4,
    census_tract_geo_id: '06075010100',
    max_interest_rate: overrides.maxInterestRate ?? 0.6,
    borrower_data_aggs: { avg_credit: 2100.5, avg_debit: 1900.25, sum_values: [{ CREDIT: 6300, DEBIT: 5700 }] },
    ...overrides.extra,
  });
}

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A store on a real file in a temp directory. */
export function tempStore(): { store: Store; path: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const path = join(dir, 'lendbot.db');
  const store = openStore(path);
  return {
    store,
    path,
    cleanup: () => {
      store.close();
      cleanup();
    },
  };
}

export const T0 = Date.parse('2026-03-10T12:00:00.000Z');
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/**
 * The market's records as the resources of marketplace part 2. Every view here validates under the
 * client's zod schemas (the tests check it). Internally consistent by construction: totals are
 * sums of the fees, agg_90 comes from the transactions, loan figures from the payment schedule.
 */
import { formatCents } from '../domain/index.js';
import { aggregate90, generateTransactions } from './bank-history.js';
import { creditScoreRange } from './borrower-generator.js';
import { monthlyPayment } from '../math/index.js';
import { paymentSchedule } from './amortization.js';
import type { LoanBook } from './loan-servicing.js';
import type { LoanRecord, LoanRequestRecord, OfferRecord, PaymentRecord, TransferRecord } from './market-types.js';
import { totalCents } from './offer-rules.js';
import { forkRandom, roundTo } from './random.js';
import { historyRates } from './history-rates.js';
import type { MarketShape } from './shapes/market-shape.js';

type Json = Record<string, unknown>;

/** ISO 8601 UTC, as most timestamps of the spec. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The `YYYY-MM-DD HH:MM:SS+00:00` form loans use (marketplace 2.5). */
export function loanTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const dollars = (cents: number): number => roundTo(cents / 100, 2);

/** Marketplace 2.2 with the borrower of 2.3. */
export function loanRequestView(request: LoanRequestRecord): Json {
  const b = request.borrower;
  const fees = request.feeLegislativeCents + request.feeExtraCents + request.feeSvcCents;
  const view: Json = {
    id: request.id,
    borrower: {
      id: b.id,
      avatar: b.avatar,
      initial: b.initial,
      svc_score: b.svcScore,
      credit_score: creditScoreRange(b.creditScore),
      svc_color: b.svcColor,
      hard_inquiries: b.hardInquiries,
      deregatory_mark: b.derogatoryMarks,
      total_accounts: b.totalAccounts,
      credit_utilization: b.creditUtilization,
      annual_income: b.annualIncome,
      payment_history: b.paymentHistory,
      completed_loans_count: b.completedLoans,
    },
    borrower_card_color: b.svcColor,
    loan_amount: formatCents(request.loanAmountCents),
    loan_terms: request.loanTerms,
    total_amount: formatCents(totalCents(request)),
    total_fees: formatCents(fees),
    fee_legislative: formatCents(request.feeLegislativeCents),
    fee_extra: formatCents(request.feeExtraCents),
    fee_svc: formatCents(request.feeSvcCents),
    created: isoTime(request.createdMs),
    fav_loan_request_id: null,
    svc_prediction_purchased: false,
    count_views: request.countViews,
    census_tract_geo_id: request.censusTract,
    max_interest_rate: request.maxInterestRate,
    borrower_data_aggs: request.bank
      ? {
          avg_credit: request.bank.agg90.avg_credit,
          avg_debit: request.bank.agg90.avg_debit,
          sum_values: request.bank.monthly.map((m) => ({ CREDIT: m.credit, DEBIT: m.debit })),
        }
      : null,
  };
  if (request.crypto) {
    // Crypto-backed: the collateral is worth more than the loan (150%).
    const collateral = Math.round(request.loanAmountCents * 1.5);
    Object.assign(view, {
      crypto_currency: 'BTC',
      crypto_amount: (collateral / 100 / 60_000).toFixed(6),
      crypto_interest_rate: request.maxInterestRate,
      crypto_logo: 'https://sandbox.invalid/crypto/btc.png',
      crypto_name: 'Bitcoin',
      crypto_market_value: formatCents(collateral),
    });
  }
  if (b.completedLoans >= 3) {
    view.highlight = { status: 1, title: 'Returning borrower', message: `${b.completedLoans} loans repaid on this service` };
  }
  return view;
}

/** Marketplace 2.9: the banking data, with the transactions rebuilt from their seed. */
export function bankingDataView(request: LoanRequestRecord): Json | undefined {
  const bank = request.bank;
  if (!bank) return undefined;
  const transactions = generateTransactions(bank.input);
  const { agg90 } = aggregate90(transactions, request.createdMs, bank.input.endBalanceCents);
  return {
    created: isoTime(request.createdMs),
    borrower_bank_name_at_loan_request: bank.bankName,
    borrower_bank_balance: formatCents(bank.input.endBalanceCents),
    data_aggregation: {
      Status: { Severity: 'Info', StatusCode: 0, StatusDesc: 'Success' },
      DepAcctTrns: {
        FIAcctId: { AcctId: 40_000_000 + request.borrower.id, AcctType: 'DDA', ExtAcctType: 'Checking' },
        BankAcctTrnRec: transactions,
        SelectionCriterion: {
          SelRangeDt: { StartDt: isoDate(request.createdMs - 90 * 86_400_000), EndDt: isoDate(request.createdMs - 86_400_000) },
        },
      },
    },
    agg_90: agg90,
  };
}

/** Banking data without the raw transactions (smaller; for recordings). */
export function bankingSummaryView(request: LoanRequestRecord): Json | undefined {
  const bank = request.bank;
  if (!bank) return undefined;
  return {
    created: isoTime(request.createdMs),
    borrower_bank_name_at_loan_request: bank.bankName,
    borrower_bank_balance: formatCents(bank.input.endBalanceCents),
    agg_90: bank.agg90,
  };
}

/** Marketplace 2.4. */
export function offerView(offer: OfferRecord, request: LoanRequestRecord): Json {
  const total = totalCents(request);
  const schedule = paymentSchedule(total, offer.rate, request.loanTerms);
  return {
    id: offer.id,
    offered_interest: offer.rate,
    offer_status: offer.status,
    lender: { id: 1, initial: 'SI', avatar: 1 },
    loan_request: loanRequestView(request),
    monthly_payment: dollars(monthlyPayment(total, offer.rate, request.loanTerms)),
    loan_gain: dollars(schedule.reduce((a, b) => a + b, 0) - total),
    created: isoTime(offer.createdMs),
    offer_status_changed: isoTime(offer.statusChangedMs),
    processed_on_processor: offer.processed,
    automate_fund: offer.automateFund,
  };
}

/** Marketplace 2.5. */
export function loanView(loan: LoanRecord, request: LoanRequestRecord, book: LoanBook): Json {
  const next = book.nextDue(loan.id);
  const scheduled = book.scheduledTotal(loan.id);
  const collected = dollars(loan.collectedCents);
  return {
    id: loan.id,
    borrower_card_color: request.borrower.svcColor,
    loan_amount: dollars(loan.principalCents),
    payment_terms: loan.terms,
    monthly_payment_amount: dollars(loan.monthlyPaymentCents),
    loan_return: dollars(scheduled),
    is_approved: true,
    loan_paid_off: loan.status === 'completed',
    loan_balance: dollars(loan.remainingCents),
    interest_rate: loan.rate,
    lender: { id: 1, initial: 'SI' },
    next_payment_date: next ? loanTime(next.dueMs) : null,
    borrower: { id: request.borrower.id, initial: request.borrower.initial, avatar: request.borrower.avatar },
    status: loan.status,
    loan_due_amount: next ? dollars(next.amountCents) : 0,
    created_date: loanTime(loan.createdMs),
    original_debt: dollars(loan.originalDebtCents),
    collected_amount: collected,
    remaining_debt: dollars(loan.remainingCents),
    collection_fee: dollars(loan.collectionFeeCents),
    collected_percentage: loan.originalDebtCents === 0 ? 0 : roundTo((loan.collectedCents / loan.originalDebtCents) * 100, 2),
    net_collected: dollars(loan.collectedCents - loan.collectionFeeCents),
    loan_request_id: request.id,
  };
}

/** Marketplace 2.6. */
export function paymentView(payment: PaymentRecord): Json {
  return {
    id: payment.id,
    loan: payment.loanId,
    payment_amount: formatCents(payment.amountCents),
    payment_due_date: isoDate(payment.dueMs),
    payment_status: payment.status,
    payment_status_changed: isoTime(payment.statusChangedMs),
    late_payment_fees_amount: payment.lateFeeCents > 0 ? dollars(payment.lateFeeCents) : null,
    created: isoTime(payment.createdMs),
    modified: isoTime(payment.statusChangedMs),
    is_late_payment: payment.lateDays > 0 || payment.status === 'Missed Payment',
    processed_on_processor: payment.status === 'paid',
    delayed_days_count: payment.lateDays,
    pay_later_fees: null,
  };
}

/** Marketplace 2.7: transfers grouped by date, newest date first (and newest first within a date). */
export function transferGroupsView(transfers: readonly TransferRecord[]): Json[] {
  const groups = new Map<string, Json[]>();
  for (const transfer of [...transfers].reverse()) {
    const date = isoDate(transfer.createdMs);
    const list = groups.get(date) ?? [];
    list.push({
      transfer_status: transfer.status,
      transfer_type: transfer.type,
      transfer_amount: formatCents(transfer.amountCents),
      transfer_source_dest: transfer.sourceDest,
      loan_request_id: transfer.loanRequestId,
      loan_id: transfer.loanId,
      borrower_id: transfer.borrowerId,
    });
    groups.set(date, list);
  }
  return [...groups.entries()].map(([date, transactions]) => ({ date, transactions }));
}

/**
 * Marketplace 2.8: the borrower's completed loans, one per completed loan, drawn from the
 * borrower's id; their rates as `shape` prices past loans (history-rates.ts).
 */
export function borrowerHistoryView(seed: number, request: LoanRequestRecord, shape: MarketShape): Json[] {
  const random = forkRandom(seed, 'history', request.borrower.id);
  const rate = historyRates(seed, request, shape);
  return Array.from({ length: request.borrower.completedLoans }, () => ({
    lender: { initial: `${random.pick([...'ABCDEFGHJKLMNPRST'])}${random.pick([...'ABCDEFGHJKLMNPRST'])}`, avatar: random.int(1, 24) },
    borrower: { initial: request.borrower.initial, avatar: request.borrower.avatar },
    borrower_card_color: request.borrower.svcColor,
    loan_amount: formatCents(random.int(2, 40) * 5000),
    payment_terms: random.pick([3, 6, 9, 12]),
    interest_rate: rate(random).toFixed(2),
  }));
}

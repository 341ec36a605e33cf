/**
 * The market's internal state. Resources of the spec are views of these records
 * (resource-views.ts); these hold what the views need plus the hidden truth the API never shows.
 * Money is integer cents, times are epoch milliseconds of the simulated clock.
 */
import type { Agg90 } from '../domain/index.js';
import type { BankHistoryInput } from './bank-history.js';

export interface BorrowerProfile {
  id: number;
  avatar: number;
  initial: string;
  svcScore: number;
  /** The numeric score behind the `credit_score` range text. */
  creditScore: number;
  svcColor: number;
  hardInquiries: number;
  derogatoryMarks: number;
  totalAccounts: number;
  creditUtilization: number;
  annualIncome: number;
  paymentHistory: number;
  completedLoans: number;
  state: string;
  zipCode: string;
  invited: boolean;
  /** Whether the borrower has a primary funding resource (fund precondition 4 of marketplace 4.3). */
  hasFundingResource: boolean;
}

/** What the borrower's bank history looked like, enough to rebuild its transactions from `seed`. */
export interface BankProfile {
  /** What rebuilds the transactions (including the balance at the request, in cents). */
  input: BankHistoryInput;
  bankName: string;
  agg90: Agg90;
  /** Monthly CREDIT/DEBIT sums (oldest first), for `borrower_data_aggs.sum_values`. */
  monthly: Array<{ credit: number; debit: number }>;
}

export type LoanRequestStatus =
  /** Listed; open to offers. */
  | 'open'
  /** The borrower accepted an offer ("Offered" in marketplace 4.3). */
  | 'offered'
  /** Funded: the loan agreement is signed. */
  | 'signed'
  | 'canceled'
  /** Closed without a loan (no acceptable offer in time). */
  | 'expired';

/** The hidden truth about a request: what the API never shows, the ground truth shows. */
export interface HiddenTruth {
  /** Probability the borrower repays in full, from observable features plus noise. */
  repayProbability: number;
  /** The logit before noise: what a perfect model of observable features would know. */
  observableLogit: number;
  noise: number;
  /** The month (1-based) of the first missed payment if funded, or null if the loan is repaid. */
  missedMonth: number | null;
  /** Share of the remaining debt recovered in collection. */
  recoveryShare: number;
  /** Per-payment lateness in days (0 = on time), drawn up front. */
  lateDays: number[];
}

export interface LoanRequestRecord {
  id: number;
  createdMs: number;
  borrower: BorrowerProfile;
  loanAmountCents: number;
  loanTerms: number;
  feeLegislativeCents: number;
  feeExtraCents: number;
  feeSvcCents: number;
  maxInterestRate: number;
  censusTract: string;
  crypto: boolean;
  automated: boolean;
  bank: BankProfile | null;
  status: LoanRequestStatus;
  statusChangedMs: number;
  countViews: number;
  truth: HiddenTruth;
  offerIds: number[];
  acceptedOfferId: number | null;
  loanId: number | null;
  /** Lowest rate offered by lenders other than the sandbox investor. */
  bestCompetingRate: number | null;
  /** Competitor offers still to arrive (so the ground truth can be shown before they do). */
  plannedCompetitorOffers: number;
  /**
   * The highest rate the borrower accepts from any lender, fixed up front by the shape's rule
   * (borrower-rules.ts); 0 when it accepts none.
   */
  reservationRate: number;
  /** The lowest rate the borrower walked away from (above its reservation rate), or null. */
  refusedRate: number | null;
}

export type OfferStatus = 'pending' | 'accepted' | 'rejected' | 'expired';

export interface OfferRecord {
  id: number;
  loanRequestId: number;
  /** 'investor' is the sandbox investor; competitors are 'competitor-<n>'. */
  lender: string;
  rate: number;
  automateFund: boolean;
  status: OfferStatus;
  createdMs: number;
  statusChangedMs: number;
  processed: boolean;
}

export type LoanStatus = 'pending' | 'funded' | 'completed' | 'collection' | 'default';

export interface PaymentRecord {
  id: number;
  loanId: number;
  amountCents: number;
  dueMs: number;
  /** 'pending' before it falls due, then 'paid' or 'Missed Payment'. */
  status: 'pending' | 'paid' | 'Missed Payment';
  statusChangedMs: number;
  createdMs: number;
  lateDays: number;
  lateFeeCents: number;
}

export interface LoanRecord {
  id: number;
  loanRequestId: number;
  offerId: number;
  lender: string;
  principalCents: number;
  rate: number;
  terms: number;
  monthlyPaymentCents: number;
  status: LoanStatus;
  createdMs: number;
  statusChangedMs: number;
  payments: PaymentRecord[];
  /** Money the lender received: payments, late fees and net collections. */
  receivedCents: number;
  /** Scheduled principal plus interest still unpaid. */
  remainingCents: number;
  collectedCents: number;
  collectionFeeCents: number;
  originalDebtCents: number;
  resolvedMs: number | null;
}

export type TransferStatus = 'pending' | 'processed' | 'failed';

export interface TransferRecord {
  id: number;
  createdMs: number;
  status: TransferStatus;
  type: string;
  amountCents: number;
  sourceDest: string;
  loanRequestId: number | null;
  loanId: number | null;
  borrowerId: number | null;
}

/** The sandbox investor's account settings (rules 2 and 9 of marketplace 4.2). */
export interface InvestorAccount {
  borrowing: boolean;
  bankVerified: boolean;
  zipCodes: string[];
}

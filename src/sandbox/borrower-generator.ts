/**
 * New loan requests: a borrower with credit data, an address, 90 days of bank history, a loan
 * request with fees, and the hidden truth. Every feature is drawn around one latent quality, so
 * the features agree with each other the way real files do, and the hidden repayment chance is
 * then computed from the features (repayment-model.ts, weighted by the market shape), never from
 * the latent quality directly. What a shape adds to the population (bigger loans, irregular pay)
 * is drawn from a stream of its own, so the classic shape's borrowers are drawn as they always were.
 */
import { aggregate90, generateTransactions, type BankHistoryInput } from './bank-history.js';
import { fixedReservationRate, reservationRate, type BorrowerFacts } from './borrower-rules.js';
import { monthlyPayment } from '../math/index.js';
import type { BankProfile, BorrowerProfile, LoanRequestRecord } from './market-types.js';
import { clamp, forkRandom, roundTo, type Random } from './random.js';
import { drawHiddenTruth, REFERENCE_RATE, type ObservableFeatures } from './repayment-model.js';
import { CLASSIC_SHAPE } from './shapes/classic.js';
import type { BorrowerPopulation, MarketShape } from './shapes/market-shape.js';
import { stateCode, US_STATES } from './us-states.js';

/** Fields a caller may fix when creating a loan request on demand (control API). */
export interface LoanRequestFields {
  loanAmountCents?: number;
  loanTerms?: number;
  /** Risk level 0-4. */
  svcColor?: number;
  creditScore?: number;
  completedLoans?: number;
  /** Two-letter code or full name. */
  state?: string;
  zipCode?: string;
  invited?: boolean;
  hasBankingData?: boolean;
  hasFundingResource?: boolean;
  maxInterestRate?: number;
  /** Overrides the hidden chance of full repayment (1: always repays, 0: misses a payment). */
  repayProbability?: number;
  /** The month (1 = first) whose payment is missed, or null for none, instead of a drawn one (after repayProbability). */
  missedMonth?: number | null;
  /** Days each monthly payment is paid late (0: on time), the first month first, instead of drawn ones; missing months are on time. */
  lateDays?: number[];
  /** How many competing offers will arrive (0: none). */
  competitorOffers?: number;
  /** Competing offers at exactly these rates (clamped to 0.03 and the max rate), instead of drawn ones. */
  competitorRates?: number[];
  /** How long the borrower waits before accepting the best offer. */
  decisionDelayMs?: number;
  /** The borrower cancels the request instead of accepting. */
  cancel?: boolean;
  /**
   * How willing the borrower is to take an offer, 0 to 1: 1 takes any offer (its reservation rate
   * is the maximum), 0 walks away from every one (reservation rate 0); between, 1 − takeUp is the
   * borrower's draw under the shape's rule (borrower-rules.ts; with a take-up curve, the borrower
   * takes an offer when 1 − takeUp is below the curve at its rate). Absent: drawn like every
   * borrower of the market.
   */
  takeUp?: number;
  /** The highest rate the borrower accepts (0: none), instead of one from the shape's rule; wins over takeUp. */
  reservationRate?: number;
  /** Created automatically rather than manually (webhook `automated_loan_request`). */
  automated?: boolean;
}

/** Max interest rate by risk level: low, medium, high, friends, crypto. */
export const MAX_RATE_BY_COLOR = [0.36, 0.6, 0.99, 0.36, 0.24] as const;
const TERMS = [3, 6, 6, 9, 12, 12, 12, 18, 24] as const;
const BANKS = ['First Community Bank', 'Metro Credit Union', 'National Savings', 'Pioneer Bank', 'Summit Federal'];
const LETTERS = 'ABCDEFGHIJKLMNOPRSTW';
/** Share of requests with no banking data (fetching it answers 404). */
const NO_BANKING_SHARE = 0.08;

/** Credit score as the range text of marketplace 2.3 ("650-699"). */
export function creditScoreRange(score: number): string {
  const low = Math.floor(score / 50) * 50;
  return `${low}-${low + 49}`;
}

function colorOf(svcScore: number, random: Random): number {
  if (random.chance(0.05)) return 3;
  if (random.chance(0.04)) return 4;
  if (svcScore >= 62) return 0;
  return svcScore >= 40 ? 1 : 2;
}

/** Builds request `id` created at `createdMs` from the market seed; `fields` fix chosen values. */
export function generateLoanRequest(
  seed: number,
  id: number,
  createdMs: number,
  fields: LoanRequestFields = {},
  shape: MarketShape = CLASSIC_SHAPE,
): LoanRequestRecord {
  const random = forkRandom(seed, 'request', id);
  const q = random.normal();
  const svcScore = Math.round(clamp(50 + 18 * q + random.normal(0, 10), 1, 99));
  const svcColor = fields.svcColor ?? colorOf(svcScore, random);
  const fixedState = fields.state === undefined ? undefined : stateCode(fields.state);
  const state = US_STATES.find((s) => s.code === fixedState) ?? random.pick(US_STATES);
  const zipCode = fields.zipCode ?? `${state.zipPrefix}${String(random.int(0, 99)).padStart(2, '0')}`;
  const annualIncome = Math.round(Math.exp(random.normal(10.7 + 0.15 * q, 0.35)) / 100) * 100;
  const borrower: BorrowerProfile = {
    id: 500_000 + id,
    avatar: random.int(1, 24),
    initial: `${random.pick([...LETTERS])}${random.pick([...LETTERS])}`,
    svcScore,
    creditScore: fields.creditScore ?? Math.round(clamp(660 + 55 * q + random.normal(0, 30), 480, 840)),
    svcColor,
    hardInquiries: random.poisson(Math.max(0.2, 2 - 0.8 * q)),
    derogatoryMarks: random.poisson(Math.max(0.05, 0.4 - 0.3 * q)),
    totalAccounts: random.int(3, 25),
    creditUtilization: roundTo(clamp(0.45 - 0.15 * q + random.normal(0, 0.15), 0, 1), 2),
    annualIncome,
    paymentHistory: Math.round(clamp(90 + 6 * q + random.normal(0, 4), 40, 100)),
    completedLoans: fields.completedLoans ?? Math.min(12, random.poisson(Math.max(0.1, 0.8 + 0.5 * q))),
    state: state.code,
    zipCode,
    invited: fields.invited ?? random.chance(0.08),
    hasFundingResource: fields.hasFundingResource ?? random.chance(0.97),
  };
  const crypto = svcColor === 4;
  const sizeFactor = shape.population.loanSizeFactor;
  const amountDraw = Math.exp(random.normal(6.7 + 0.2 * q - 0.2 * Math.min(svcColor, 2), 0.6)) * sizeFactor;
  const amountDollars = clamp(Math.round(amountDraw / 50) * 50, 100, 5000 * Math.max(1, sizeFactor));
  const loanAmountCents = fields.loanAmountCents ?? amountDollars * 100;
  const loanTerms = fields.loanTerms ?? (crypto ? 12 : random.pick(TERMS));
  const feeSvcCents = Math.round(loanAmountCents * 0.05);
  const feeLegislativeCents = ((state.code.charCodeAt(0) + state.code.charCodeAt(1)) % 16) * 100;
  const feeExtraCents = random.chance(0.2) ? 500 : 0;
  const totalCents = loanAmountCents + feeSvcCents + feeLegislativeCents + feeExtraCents;

  const monthlyIncomeCents = Math.round((annualIncome * 100) / 12);
  const hasBank = fields.hasBankingData ?? !random.chance(NO_BANKING_SHARE);
  const bankInput: BankHistoryInput = {
    seed: random.int(1, 2 ** 31 - 1),
    createdMs,
    monthlyIncomeCents,
    spendRatio: clamp(0.95 - 0.08 * q + random.normal(0, 0.08), 0.6, 1.4),
    stress: clamp(0.3 - 0.25 * q + random.normal(0, 0.15), 0, 1),
    endBalanceCents: Math.round(monthlyIncomeCents * clamp(0.3 + 0.3 * q + random.normal(0, 0.3), -0.3, 2)),
    ...payMultipliers(shape.population, forkRandom(seed, 'population', id)),
  };
  const bankName = random.pick(BANKS);
  const bank = hasBank ? buildBankProfile(bankInput, bankName) : null;

  const features: ObservableFeatures = {
    creditScore: borrower.creditScore,
    creditUtilization: borrower.creditUtilization,
    hardInquiries: borrower.hardInquiries,
    derogatoryMarks: borrower.derogatoryMarks,
    completedLoans: borrower.completedLoans,
    monthlyIncomeCents,
    referencePaymentCents: monthlyPayment(totalCents, REFERENCE_RATE, loanTerms),
    agg90: bank?.agg90 ?? null,
  };
  const truth = drawHiddenTruth(features, loanTerms, shape.repayment, random);
  if (fields.repayProbability !== undefined) {
    truth.repayProbability = clamp(fields.repayProbability, 0, 1);
    truth.missedMonth = random.next() < truth.repayProbability ? null : 1 + Math.floor(loanTerms * random.next() ** 1.5);
  }
  if (fields.missedMonth !== undefined) truth.missedMonth = fields.missedMonth;
  if (fields.lateDays !== undefined) {
    const late = fields.lateDays;
    truth.lateDays = Array.from({ length: loanTerms }, (_, month) => Math.max(0, Math.round(late[month] ?? 0)));
  }
  const maxInterestRate = fields.maxInterestRate ?? MAX_RATE_BY_COLOR[svcColor] ?? 0.36;
  return {
    id,
    createdMs,
    borrower,
    loanAmountCents,
    loanTerms,
    feeLegislativeCents,
    feeExtraCents,
    feeSvcCents,
    maxInterestRate,
    censusTract: `${String(US_STATES.indexOf(state) + 1).padStart(2, '0')}${String(random.int(0, 999_999_999)).padStart(9, '0')}`,
    crypto,
    automated: fields.automated ?? random.chance(0.3),
    bank,
    status: 'open',
    statusChangedMs: createdMs,
    countViews: random.int(0, 40),
    truth,
    offerIds: [],
    acceptedOfferId: null,
    loanId: null,
    bestCompetingRate: null,
    plannedCompetitorOffers: 0,
    refusedRate: null,
    reservationRate: borrowerReservation(seed, id, { maxInterestRate, repayProbability: truth.repayProbability }, fields, shape),
  };
}

/** The reservation rate: fixed by the caller, or from the shape's rule with the request's own draw. */
function borrowerReservation(seed: number, id: number, facts: BorrowerFacts, fields: LoanRequestFields, shape: MarketShape): number {
  const fixed = fixedReservationRate(facts, fields);
  if (fixed !== undefined) return fixed;
  const draw = fields.takeUp === undefined ? forkRandom(seed, 'take-up', id).next() : 1 - clamp(fields.takeUp, 0, 1);
  return reservationRate(shape.borrowers, facts, draw);
}

/** An irregular earner's pay multiplier for each of the last three months (mean 1), or nothing. */
function payMultipliers(population: BorrowerPopulation, random: Random): { payMultipliers?: number[] } {
  if (population.irregularIncomeShare <= 0 || !random.chance(population.irregularIncomeShare)) return {};
  const sd = population.irregularIncomeSd;
  return { payMultipliers: [0, 1, 2].map(() => Math.exp(random.normal(0, sd) - (sd * sd) / 2)) };
}

/** The bank profile: aggregates computed from the generated transactions, which are then dropped. */
export function buildBankProfile(input: BankHistoryInput, bankName: string): BankProfile {
  const { agg90, monthly } = aggregate90(generateTransactions(input), input.createdMs, input.endBalanceCents);
  return { input, bankName, agg90, monthly };
}

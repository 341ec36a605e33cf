/**
 * The JSON answers of the operator API (docs/operator-api.md), exactly as sent: the server builds
 * them with these types and the dashboard reads them with the same ones. Money is integer cents
 * (`...Cents`), rates and probabilities are fractions in the API's unit (0.228 = 22.8 %), times
 * are ISO strings in the daemon's clock (the sandbox's simulated one in the sandbox).
 *
 * Additions to the contract (/tmp/h/api-contract.md), all extra fields, none renamed:
 * - DecisionRow.offerState: what became of the offer made on the request (null: none).
 * - DecisionRow.why: the decisive reason in plain words (src/log/human-reasons.ts).
 * - OverviewLimits: minCashReserveCents, maxPerBorrowerCents, allowedRiskLevels, killSwitch.
 * - DecisionExplanation: recomputed, matchesStored, notes (what could not be recovered);
 *   contributions carry logOdds and missing besides name, value and points.
 * - DecisionsAnswer / OffersAnswer paging: `nextBefore` is the id to pass as `before`.
 * - ReturnsAnswer: `totals` (the last point, and equity's parts) and `notes` (how the figures were made).
 * - PauseAnswer.pause is the StatusReport's pause shape, and `already` on POST /api/pause.
 */
import type { DecisionJson } from '../../domain/decision-json.js';
import type { StatusReport } from '../../ops/status-report.js';
import type { LoanPaymentState, OfferView, StoredLoan } from '../../store/index.js';

/** Every error: the HTTP status says what kind, `error` says what in one line. */
export interface ErrorAnswer {
  error: string;
}

/** GET /api/me: who the caller is (answers without authentication). */
export interface MeAnswer {
  /** True with a valid session cookie or bearer token. */
  signedIn: boolean;
  /** The token's name ("operator" for LENDBOT_OPERATOR_TOKEN, else the ops.tokens name); null when not signed in. */
  name: string | null;
  /** Whether GET /api/... answers this caller (signed in, or anonymous on loopback with ops.open_on_loopback). */
  canRead: boolean;
  /** Whether POST /api/pause and /api/resume answer this caller (signed in only). */
  canChange: boolean;
  /**
   * The GET routes the attached wings serve (e.g. `/api/cash-flow`), to a caller who may read;
   * a wing left out or deleted serves none, and the dashboard leaves out its panel.
   */
  wingRoutes: string[];
}

/** GET /api/overview. */
export interface OverviewAnswer {
  mode: 'live' | 'sandbox';
  dryRun: boolean;
  /** The strategies in use, in priority order. */
  strategies: string[];
  /** The same report as `lendbot status --json` (src/ops/status-report.ts). */
  status: StatusReport;
  /** The newest webhook stored in the inbox; null when none was ever received. */
  lastWebhook: { at: string; ageSeconds: number } | null;
  limits: OverviewLimits;
  /** Decisions in the last 24 hours of the run's clock (a rolling day: in the sandbox a UTC day passes in a second). */
  last24h: { offer: number; skip: number };
}

export interface OverviewLimits {
  maxOffersPerDay: number | null;
  maxAmountPerDayCents: number | null;
  maxExposureCents: number | null;
  /** Per risk level ("0".."4"), the cap in cents: max_share_by_risk_level × max_open_exposure. Only levels with a share. */
  maxExposureByRiskLevelCents: Record<string, number>;
  minCashReserveCents: number;
  maxPerBorrowerCents: number | null;
  /** Balance plus money lent out: the caps configured as shares are shares of it (in cents above). */
  capitalCents: number;
  allowedRiskLevels: number[];
  killSwitch: boolean;
}

/**
 * One decision, as the list shows it: the one decision shape (docs/decision-shape.md, the same
 * object `lendbot decisions --json` and the agent tools give) and what the list adds.
 */
export interface DecisionRow extends DecisionJson {
  /** The decision's row id: pass the last one as `before` for the next (older) page. */
  id: number;
  /** Why, in plain words (as the terminal says it): "credit score is under the strategy's minimum 600". */
  why: string;
  /** The request's total amount; null when the request is not in the store. */
  amount_cents: number | null;
  risk_level: number | null;
  /** The state of the offer made on this request now (placed, accepted, funded, expired, ...); null when none. */
  offer_state: string | null;
}

/** GET /api/decisions?limit=50&before=ID&action=offer|skip&strategy=NAME&q=TEXT, newest first. */
export interface DecisionsAnswer {
  decisions: DecisionRow[];
  /** The `before` of the next (older) page; null when this page is the last. */
  nextBefore: number | null;
}

/** One decision with everything stored about it. */
export interface DecisionDetail extends DecisionRow {
  /** The features as computed when deciding (null values: absent). */
  features: unknown;
  /** The strategy's parameters when deciding. */
  params: unknown;
  /** Milliseconds per step (enrich, decide, guard, act). */
  timings: Record<string, number>;
  /** The strategies' decision an agent's replaced, when there was one. */
  previous: unknown;
  /** Hash of the strategy file's content when deciding. */
  content_hash: string | null;
  /** Each of `reasons` in plain words (src/log/human-reasons.ts), in the same order. */
  reason_words: string[];
  /** Each of `reasons`' code (filter_failed, score, guard, ...: src/domain/decision-reason.ts), in the same order. */
  reason_codes: string[];
}

/** One line of the score. */
interface ExplanationContribution {
  /** The feature, or `scorecard.base` / `logistic.intercept`. */
  name: string;
  value: number | string | boolean | null;
  /** Scorecard points, or for a logistic term its log-odds contribution. */
  points: number;
  /** What the line adds to the log-odds of repayment (all lines sum to the total). */
  logOdds: number;
  /** The feature was absent and the term's `missing` value was used. */
  missing: boolean;
}

interface ExplanationPrice {
  rate: number | null;
  probability: number | null;
  expectedReturn: number | null;
  /** The rate that exactly reaches the target return (expected_profit: the break-even). */
  requiredRate: number | null;
  /** expected_profit pricing only: the curve's inputs (src/engine/pricing/expected-profit.ts PriceCurve). */
  curve: unknown;
  /** expected_profit pricing only: the curve from break-even to the cap, the chosen rate among them (as `strategy explain` prints it). */
  curvePoints: Array<{ rate: number; acceptProbability: number; profitCents: number; valueCents: number; chosen: boolean }> | null;
}

/** The guard's verdict as stored with the decision (the guard is not run again: the book has moved since). */
export interface ExplanationGuard {
  /** False when the strategies did not offer, so the guard was not asked. */
  checked: boolean;
  allowed: boolean | null;
  code: string | null;
  /** The guard's reason line, e.g. "guard balance 41.00 < total 520.00". */
  reason: string | null;
}

export interface DecisionExplanation {
  contributions: ExplanationContribution[];
  price: ExplanationPrice;
  guard: ExplanationGuard;
  /** The strategies' decision recomputed from the stored request and the data bought for it. */
  recomputed: {
    strategy: string;
    action: 'offer' | 'skip' | 'needs_data';
    rate: number | null;
    probability: number | null;
    reasons: string[];
  };
  /** Whether the recomputed action and rate are the stored ones. */
  matchesStored: boolean;
  /** What could not be recovered, in plain words (a changed strategy file, data not bought, ...). */
  notes: string[];
}

/** GET /api/decisions/:loanRequestId. */
export interface DecisionAnswer {
  decision: DecisionDetail;
  /** The loan request as received (spec's LoanRequest); null when it is not in the store. */
  request: Record<string, unknown> | null;
  /** Null when it could not be recomputed at all; `notes` of the answer say why. */
  explanation: DecisionExplanation | null;
  /** Why there is no explanation, or nothing when there is one. */
  notes: string[];
}

/** An offer as every surface shows it (store/offer-view.ts), without the service's raw JSON and the table's own state. */
export type OfferRow = Omit<OfferView, 'offerJson' | 'recordedState'>;

/** GET /api/offers?state=STATE&limit=100&before=ID, newest first. */
export interface OffersAnswer {
  offers: OfferRow[];
  nextBefore: number | null;
}

/** A loan's synced payments, summed (the store's LoanPaymentState, its fees named as charged). */
export interface LoanPayments extends Omit<LoanPaymentState, 'loanId' | 'feesCents' | 'lastDueDate'> {
  /** Late and pay-later fees charged on its payments (received or not; what was received is in the returns' lateFeesReceivedCents). */
  lateFeesChargedCents: number;
  /** The last due date of its schedule; null when no payment was synced yet. */
  lastDueDate: string | null;
}

/** A loan as the store keeps it (the list it is in, what is still owed), without the service's raw loan. */
export interface LoanRow extends Omit<StoredLoan, 'loan'> {
  /** When the loan started (from the loan's own dates, else our offer's creation); null when unknown. */
  originatedAt: string | null;
  payments: LoanPayments;
}

/** GET /api/loans. */
export interface LoansAnswer {
  loans: LoanRow[];
}

export interface DefaultRate {
  loans: number;
  /** Loans in collection or default. */
  defaults: number;
  /** defaults / loans (0 when there are no loans). */
  rate: number;
}

/**
 * GET /api/returns. Series have one point per UTC day with a movement, a late loan's expected
 * loss stepping up, or today (`at` is the day's start, the value as the day ended; today's as of
 * now), oldest first; interest and losses are cumulative (money/equity.ts).
 */
export interface ReturnsAnswer {
  /** Cash plus principal still out on loans, less the loss expected on late loans. */
  equity: Array<{ at: string; equityCents: number }>;
  /** Realised interest: the interest part of repayments, by each loan's amortisation. */
  interest: Array<{ at: string; cents: number }>;
  /** Principal written off at default plus the loss expected on late loans that day. */
  losses: Array<{ at: string; cents: number }>;
  defaultRates: {
    byRiskLevel: Array<DefaultRate & { riskLevel: number | null }>;
    /** "YYYY-MM" of origination. */
    byOriginationMonth: Array<DefaultRate & { month: string }>;
  };
  /** The last point's figures, and equity's parts (equity = cash + outstanding − expected loss). */
  totals: {
    equityCents: number;
    interestCents: number;
    lossesCents: number;
    cashCents: number;
    outstandingCents: number;
    expectedLossCents: number;
    writtenOffCents: number;
    /** Late fees that reached the account in repayments (the ledger's late_fees_received). */
    lateFeesReceivedCents: number;
    recoveriesCents: number;
  };
  /** How the figures were made and what they leave out. */
  notes: string[];
}

export interface ReportEntry {
  /** The file name (always ends in .html). */
  name: string;
  sizeBytes: number;
  modifiedAt: string;
  /** Where to open it: /reports/NAME (URL-encoded). */
  url: string;
}

/** GET /api/reports. */
export interface ReportsAnswer {
  /** ops.reports_dir as configured (relative to the daemon's working directory). */
  folder: string;
  /** Newest first. Empty when the folder does not exist. */
  reports: ReportEntry[];
}

/** POST /api/pause (already: a pause was in force and is kept) and POST /api/resume (pause: null). */
export interface PauseAnswer {
  /** A pause of new offers, as the status report shows it. */
  pause: StatusReport['pause'];
  already?: boolean;
}

/**
 * One agent's offer proposal (src/proposals/; docs/agent-connector.md, "Proposals"): an
 * offer an agent asked for beyond its token's allowance, waiting for the operator, or one already
 * decided (and, for `allowance` ones, placed within the token's allowance). Times are real time.
 */
export interface ApiProposal {
  id: number;
  /** "agent:NAME": the token that asked. */
  agent: string;
  loanRequestId: number;
  rate: number;
  automateFund: boolean;
  /** The request's total: what the offer commits. */
  amountCents: number;
  riskLevel: number;
  /** pending, approved, placing, done, rejected, expired. */
  status: string;
  /** Where it stands, in one sentence. */
  state: string;
  /** What happened, one word (src/proposals/proposal-text.ts): waiting, approved, placed, not_placed, unknown, rejected, expired. */
  verdict: string;
  /** The verdict as the badge reads it ("approved, not placed"). */
  verdictLabel: string;
  createdAt: string;
  expiresAt: string;
  /** `allowance`, `dashboard:operator`, `api:operator`, `cli:NAME`; null while pending. */
  decidedBy: string | null;
  decidedAt: string | null;
  /** A rejection's reason, or why an approval expired. */
  note: string | null;
  /** What became of the offer (done): placed, unknown, refused, refused_by_guard, already_offered, exists, not_open, failed. */
  outcome: string | null;
  serviceOfferId: number | null;
  explanation: ProposalExplanationView;
  /** This proposal on the dashboard (`/#proposal-ID`). */
  link: string | null;
}

/** What the person reads before deciding, as written when the agent asked. */
interface ProposalExplanationView {
  summary: string | null;
  /** Why a person must approve it (the allowance's verdict). */
  why: string | null;
  /** The guard's verdict when the agent asked; it is asked again at approval. */
  guardAtProposal: { allowed: boolean; code: string | null; reason: string | null } | null;
  /** What the bot's own strategies would decide on the data already bought; null when unknown. */
  strategy: { name: string; would: 'offer' | 'skip'; rate: number | null; probability: number | null; reasons: string[] } | null;
  notes: string[];
  loanTerms: number | null;
  maxInterestRate: number | null;
  creditScore: string | null;
  dryRun: boolean;
}

/** GET /api/proposals and GET /api/proposals/:id. */
export interface ProposalsAnswer {
  /** Latest first. */
  proposals: ApiProposal[];
  /** Whether this caller may approve and reject (the operator, signed in or with its bearer token). */
  canApprove: boolean;
  /** When it may not, what it takes, in one line; null when it may. */
  approveNeeds: string | null;
}

/** POST /api/proposals/:id/approve and /reject (200: changed; 409 when it no longer waits). */
export interface ProposalDecisionAnswer {
  proposal: ApiProposal;
  /** What was done, or what became of the offer, in one line. */
  message: string;
}

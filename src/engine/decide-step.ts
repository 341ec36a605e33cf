/**
 * The one decide step the daemon, the backtester and `strategy explain` all run:
 *
 *   evaluate ⇄ buy what the strategy asks for (guard and budget first) ─> guard ─> offer or skip
 *
 * Two seams differ between them: where data comes from (the service, a recording) and where
 * spend is recorded (the purchases table, a simulated ledger); the guard's snapshot is the third
 * (the store, the simulated ledger). Everything else (the rounds, the budget rule, what a flat
 * price costs and when its subscription is charged, the reason texts) exists only here.
 *
 * Before the first purchase the guard is asked about the offer without its rate (every rule but
 * the rate rules: kill switch, pause, risk level, balance, exposure, daily caps): when it refuses,
 * the request is skipped there, so no data is bought and no price searched for an offer that
 * could not be made. The guard is asked again, with the rate, once the strategy offers.
 *
 * The loop is written once, as a generator that yields each data need (and the question to the
 * guard) and is handed back the answer; `decideSync` (backtest, explain) and `decideAsync`
 * (daemon) only drive it.
 */
import { monthStartMs } from '../clock/utc-month.js';
import type { DecisionReason } from '../domain/decision-reason.js';
import type { GuardResult, OfferToCheck } from '../risk/index.js';
import {
  formatCents,
  type BankingData,
  type BorrowerLoanHistoryItem,
  type Cents,
  type LoanRequest,
  type ProviderResult,
} from '../domain/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { DataNeed, Enrichment } from './enrichment.js';
import type { CashPosition } from './pricing/cash-hurdle.js';
import { evaluateAll } from './evaluate.js';
import { withLearning } from './market/active-learning.js';
import type { MarketLearning } from './market/market-learning.js';

/** How many rounds of "needs data" a decision may take before it is made without the data. */
const MAX_DATA_ROUNDS = 4;

/** What fetching one need came to. */
export type Fetched<T> =
  | { ok: true; value: T }
  /**
   * Not had. Without `outage` (404, not in the recording, refused) the strategy decides without
   * it and `detail` says why; with `outage` (a 5xx, a timeout) the step records the price when
   * `billed` (the call reached the service, which may bill it) and throws `outage`, so the
   * request is decided later instead of blind.
   */
  | { ok: false; detail: string; billed?: boolean; outage?: unknown };

/** Where data comes from, synchronously (a recording) or not (the service). */
export interface DataSource<Sync extends boolean> {
  bankingData(request: LoanRequest): Sync extends true ? Fetched<BankingData> : Promise<Fetched<BankingData>>;
  providerResult(request: LoanRequest, provider: string): Sync extends true ? Fetched<ProviderResult> : Promise<Fetched<ProviderResult>>;
  /** Marketplace 4.9: every page of the borrower's completed loans (free). */
  borrowerHistory(
    request: LoanRequest,
  ): Sync extends true ? Fetched<BorrowerLoanHistoryItem[]> : Promise<Fetched<BorrowerLoanHistoryItem[]>>;
}

export interface PurchaseEntry {
  /** The request the purchase was made for (for a subscription: the one whose need started it). */
  loanRequestId: number;
  /** `subscription`: a flat-priced provider's monthly fee, one row a provider a UTC month. */
  kind: 'banking_data' | 'borrower_history' | 'provider' | 'subscription';
  provider?: string | undefined;
  /** The strategy whose decision asked for it: its own monthly budget counts the cost. */
  strategy?: string | undefined;
  costCents: Cents;
  atMs: number;
  ok: boolean;
  error?: string | undefined;
  payload?: unknown;
}

/** Where spend is recorded and read back for the monthly budgets. */
export interface SpendLedger {
  /**
   * Spent on data since `fromMs` (the start of the UTC month) up to `nowMs`: by `strategy` when
   * given (what its budget is checked against), else by the whole account.
   */
  spentSince(fromMs: number, nowMs: number, strategy?: string): Cents;
  /** Whether `provider`'s monthly subscription was charged since `fromMs` (the start of the UTC month). */
  subscribedSince(provider: string, fromMs: number, nowMs: number): boolean;
  record(purchase: PurchaseEntry): void;
}

export interface DecideContext {
  strategies: readonly CompiledStrategy[];
  nowMs: number;
  ledger: SpendLedger;
  /**
   * The learners of strategies that learn their market (`pricing.learning`): they price while
   * the strategies evaluate, and each offer is counted against its learner's exploration budget.
   * Absent: every strategy prices with its configured market.
   */
  learning?: MarketLearning | undefined;
  /** Free cash and recent demand now, for strategies whose hurdle follows cash (pricing/cash-hurdle.ts); absent: the hurdle as written. */
  cash?: CashPosition | undefined;
  /**
   * Only the strategies' probability is needed (a backtest's calibration section): a YAML
   * strategy searches no price and skips where it would price (Enrichment.probabilityOnly); the
   * data rounds, filters and score run as always, so the probability is a whole evaluation's.
   */
  probabilityOnly?: boolean | undefined;
}

/** The outcome of the step before acting: offer (guard allowed) or skip, and why. */
export interface DecideOutcome {
  /** The strategies' last decision (offer, skip, or needs_data when rounds ran out). */
  decision: Decision;
  enrichment: Enrichment;
  action: 'offer' | 'skip';
  /** The strategies' reasons, then buying's, then the guard's refusal. */
  reasons: DecisionReason[];
  /**
   * The guard's verdict: on the offer, or a refusal before buying data (then `decision` is the
   * strategies' needs_data decision and no rate was searched); undefined when there was neither.
   */
  guard?: GuardResult | undefined;
  /** Every needs_data decision on the way, in order (for explanations). */
  needsPasses: Decision[];
}

/** What the generator yields: a need to fetch (and, when it is priced, was within budget). */
interface FetchRequest {
  need: DataNeed;
}

/** What the generator yields before the first purchase: the offer to ask the guard about, without a rate. */
interface GuardRequest {
  need?: undefined;
  beforeBuying: AmountToGuard;
}

type Answer = Fetched<BankingData> | Fetched<ProviderResult> | Fetched<BorrowerLoanHistoryItem[]>;

interface Evaluated {
  decision: Decision;
  enrichment: Enrichment;
  dataReasons: DecisionReason[];
  needsPasses: Decision[];
  /** The guard's refusal before buying data, when it refused. */
  refusedBeforeBuying?: GuardResult | undefined;
}

/** The monthly data budget of the strategy that asked, in cents (0 when unknown). */
function budgetOfDecision(strategies: readonly CompiledStrategy[], decision: Decision): number {
  return strategies.find((strategy) => strategy.name === decision.strategy.name)?.dataPolicy.monthlyBudgetCents ?? 0;
}

function markUnavailable(enrichment: Enrichment, need: DataNeed): void {
  const unavailable = enrichment.unavailable;
  if (need.kind === 'banking_data') enrichment.unavailable = { ...unavailable, bankingData: true };
  else if (need.kind === 'borrower_history') enrichment.unavailable = { ...unavailable, borrowerHistory: true };
  else enrichment.unavailable = { ...unavailable, providers: [...(unavailable?.providers ?? []), need.provider] };
}

/** Evaluate, buy, evaluate again, at most MAX_DATA_ROUNDS times. */
function* evaluateWithData(
  request: LoanRequest,
  context: DecideContext,
  enrichment: Enrichment,
): Generator<FetchRequest | GuardRequest, Evaluated, Answer | GuardResult> {
  const { strategies, nowMs, ledger } = context;
  const dataReasons: DecisionReason[] = [];
  const needsPasses: Decision[] = [];
  if (context.cash !== undefined) enrichment.cash = context.cash;
  if (context.probabilityOnly === true) enrichment.probabilityOnly = true;
  const evaluateNow = (): Decision => withLearning(context.learning, () => evaluateAll(request, enrichment, strategies));
  let decision = evaluateNow();
  for (let round = 0; decision.action === 'needs_data' && round < MAX_DATA_ROUNDS; round++) {
    needsPasses.push(decision);
    if (round === 0) {
      const verdict = (yield { beforeBuying: { request, beforePricing: true, automateFund: decision.automateFund } }) as GuardResult;
      if (!verdict.allowed) return { decision, enrichment, dataReasons, needsPasses, refusedBeforeBuying: verdict };
    }
    const asking = { strategy: decision.strategy.name, budgetCents: budgetOfDecision(strategies, decision) };
    for (const need of decision.needs ?? []) {
      const reason: DecisionReason | undefined = yield* buyOne(request, need, enrichment, asking, nowMs, ledger);
      if (reason !== undefined) dataReasons.push(reason);
    }
    decision = evaluateNow();
  }
  return { decision, enrichment, dataReasons, needsPasses };
}

/**
 * Buys one need into `enrichment`, unless the asking strategy's spend this month plus what the
 * purchase costs would exceed that strategy's own budget. A per-request provider costs its price.
 * A flat-priced provider costs its monthly price at the first purchase of a UTC month (the
 * subscription is charged then, once for the account, to the strategy that asked: a row of its
 * own, kind `subscription`) and nothing after. Returns a reason when the data could not be had.
 */
function* buyOne(
  request: LoanRequest,
  need: DataNeed,
  enrichment: Enrichment,
  asking: { strategy: string; budgetCents: Cents },
  nowMs: number,
  ledger: SpendLedger,
): Generator<FetchRequest, DecisionReason | undefined, Answer | GuardResult> {
  const name = need.kind === 'provider' ? need.provider : need.kind;
  const provider = need.kind === 'provider' ? need.provider : undefined;
  const { strategy, budgetCents } = asking;
  const costCents = need.kind === 'provider' && need.pricing === 'per_request' ? need.costCents : 0;
  // Only a priced need reads the month (free ones, the history and banking data, are most of them).
  const priced = need.kind === 'provider' && need.costCents > 0;
  const monthStart = priced ? monthStartMs(nowMs) : 0;
  const subscriptionCents =
    priced && need.pricing === 'flat' && !ledger.subscribedSince(need.provider, monthStart, nowMs) ? need.costCents : 0;
  const dueCents = costCents + subscriptionCents;
  if (dueCents > 0) {
    const spent = ledger.spentSince(monthStart, nowMs, strategy);
    if (spent + dueCents > budgetCents) {
      markUnavailable(enrichment, need);
      return {
        code: 'data_budget',
        spent: formatCents(spent),
        cost: formatCents(dueCents),
        budget: formatCents(budgetCents),
        what: name,
        subscription: subscriptionCents > 0,
      };
    }
  }
  // A need is answered with what was fetched (the guard's answers go to GuardRequests only).
  const answer = (yield { need }) as Answer;
  // Every entry of the same shape, built whole: spreading a base object into each cost a tune
  // most of this function's time (a free need is bought once a trial and a request).
  const entry = (kind: PurchaseEntry['kind'], entryCents: Cents, ok: boolean, error?: string, payload?: unknown): PurchaseEntry => ({
    loanRequestId: request.id,
    kind,
    provider,
    strategy,
    costCents: entryCents,
    atMs: nowMs,
    ok,
    error,
    payload,
  });
  // The month's subscription starts with its first purchase (a 404 is none: no score, no charge;
  // a 5xx may be billed). Asked again now, after the call: another request decided meanwhile may
  // have charged it, and from here to the record nothing else runs.
  if (
    provider !== undefined &&
    subscriptionCents > 0 &&
    (answer.ok || answer.billed === true) &&
    !ledger.subscribedSince(provider, monthStart, nowMs)
  ) {
    ledger.record(entry('subscription', subscriptionCents, true));
  }
  if (!answer.ok) {
    const billedCents = answer.billed === true ? costCents : 0;
    ledger.record(entry(need.kind, billedCents, false, answer.detail));
    if (answer.outage !== undefined) throw answer.outage;
    markUnavailable(enrichment, need);
    return need.kind === 'provider'
      ? { code: 'data_unavailable', what: name, detail: answer.detail }
      : { code: 'data_not_found', what: name };
  }
  ledger.record(entry(need.kind, costCents, true, undefined, answer.value));
  if (need.kind === 'banking_data') enrichment.bankingData = answer.value as BankingData;
  else if (need.kind === 'borrower_history') enrichment.borrowerHistory = answer.value as BorrowerLoanHistoryItem[];
  else enrichment.providerResults = { ...enrichment.providerResults, [need.provider]: answer.value as ProviderResult };
  return undefined;
}

/**
 * What the guard is asked (its own question, src/risk/check-offer.ts): an offer with its rate, or,
 * before buying data, the offer without it (every rule but the rate rules).
 */
export type GuardQuestion = OfferToCheck;
/** The guard's question for an offer decision. */
type OfferToGuard = Extract<OfferToCheck, { rate: number }>;
/** The guard's question before buying data. */
type AmountToGuard = Extract<OfferToCheck, { beforePricing: true }>;

function offerOf(request: LoanRequest, decision: Decision): OfferToGuard | undefined {
  return decision.action === 'offer' && decision.rate !== undefined
    ? { request, rate: decision.rate, automateFund: decision.automateFund }
    : undefined;
}

/** The guard's verdict to report: its refusal before buying, else its verdict on the offer (asked now), else none. */
function finalVerdict<R extends GuardResult | Promise<GuardResult>>(
  request: LoanRequest,
  evaluated: Evaluated,
  guard: (question: GuardQuestion) => R,
): R | GuardResult | undefined {
  if (evaluated.refusedBeforeBuying !== undefined) return evaluated.refusedBeforeBuying;
  const offer = offerOf(request, evaluated.decision);
  return offer === undefined ? undefined : guard(offer);
}

function outcome(
  request: LoanRequest,
  evaluated: Evaluated,
  guard: GuardResult | undefined,
  learning: MarketLearning | undefined,
): DecideOutcome {
  const { decision, enrichment, needsPasses } = evaluated;
  const reasons = decision.reasons.concat(evaluated.dataReasons);
  if (decision.action === 'needs_data' && evaluated.refusedBeforeBuying === undefined) reasons.push({ code: 'data_still_missing' });
  if (guard !== undefined && !guard.allowed) reasons.push(guard.reason);
  const action = guard?.allowed === true ? 'offer' : 'skip';
  if (action === 'offer') learning?.offered(decision);
  // Once per request, offer or not: whether the market's past prices track risk within its level (anchor-relation.ts).
  learning?.calibration.historyRead(decision, request.borrower_card_color);
  return { decision, enrichment, action, reasons, guard, needsPasses };
}

/** The source's answer to one need. */
function fetchNeed<Sync extends boolean>(
  source: DataSource<Sync>,
  request: LoanRequest,
  need: DataNeed,
): Sync extends true ? Answer : Promise<Answer> {
  if (need.kind === 'banking_data') return source.bankingData(request);
  if (need.kind === 'borrower_history') return source.borrowerHistory(request);
  return source.providerResult(request, need.provider);
}

/** The step over data at hand (backtest, explain). */
export function decideSync(
  request: LoanRequest,
  context: DecideContext,
  source: DataSource<true>,
  guard: (question: GuardQuestion) => GuardResult,
  enrichment: Enrichment = {},
): DecideOutcome {
  const steps = evaluateWithData(request, context, enrichment);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    next = steps.next(step.need === undefined ? guard(step.beforeBuying) : fetchNeed(source, request, step.need));
  }
  return outcome(request, next.value, finalVerdict(request, next.value, guard), context.learning);
}

/** The step over the network (the daemon). An outage thrown by the source ends it. */
export async function decideAsync(
  request: LoanRequest,
  context: DecideContext,
  source: DataSource<false>,
  guard: (question: GuardQuestion) => Promise<GuardResult>,
  enrichment: Enrichment = {},
): Promise<DecideOutcome> {
  const steps = evaluateWithData(request, context, enrichment);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    next = steps.next(step.need === undefined ? await guard(step.beforeBuying) : await fetchNeed(source, request, step.need));
  }
  return outcome(request, next.value, await finalVerdict(request, next.value, guard), context.learning);
}

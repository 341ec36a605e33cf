/**
 * The one decide step the daemon, the backtester and `strategy explain` all run:
 *
 *   evaluate ⇄ buy what the strategy asks for (budget first) ─> guard ─> offer or skip, with reasons
 *
 * Two seams differ between them: where data comes from (the service, a recording) and where
 * spend is recorded (the purchases table, a simulated ledger); the guard's snapshot is the third
 * (the store, the simulated ledger). Everything else (the rounds, the budget rule, what a flat
 * price costs and when its subscription is charged, the reason texts) exists only here.
 *
 * The loop is written once, as a generator that yields each data need and is handed back what
 * was fetched; `decideSync` (backtest, explain) and `decideAsync` (daemon) only drive it.
 */
import { monthStartMs } from '../clock/utc-month.js';
import type { GuardResult } from '../risk/index.js';
import { formatCents, type BankingData, type BorrowerLoanHistoryItem, type Cents, type LoanRequest, type ProviderResult } from '../service/index.js';
import type { CompiledStrategy } from './compiled-strategy.js';
import type { Decision } from './decision.js';
import type { DataNeed, Enrichment } from './enrichment.js';
import { evaluateAll } from './evaluate.js';

/** How many rounds of "needs data" a decision may take before it is made without the data. */
export const MAX_DATA_ROUNDS = 4;

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
  /** Spec 4.9: every page of the borrower's completed loans (free). */
  borrowerHistory(request: LoanRequest): Sync extends true ? Fetched<BorrowerLoanHistoryItem[]> : Promise<Fetched<BorrowerLoanHistoryItem[]>>;
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
}

/** The outcome of the step before acting: offer (guard allowed) or skip, and why. */
export interface DecideOutcome {
  /** The strategies' last decision (offer, skip, or needs_data when rounds ran out). */
  decision: Decision;
  enrichment: Enrichment;
  action: 'offer' | 'skip';
  /** The strategies' reasons, then buying's, then the guard's refusal. */
  reasons: string[];
  /** The guard's verdict; undefined when the strategies did not offer. */
  guard?: GuardResult | undefined;
  /** Every needs_data decision on the way, in order (for explanations). */
  needsPasses: Decision[];
}

/** What the generator yields: a need to fetch (and, when it is priced, was within budget). */
interface FetchRequest {
  need: DataNeed;
}

type Answer = Fetched<BankingData> | Fetched<ProviderResult> | Fetched<BorrowerLoanHistoryItem[]>;

interface Evaluated {
  decision: Decision;
  enrichment: Enrichment;
  dataReasons: string[];
  needsPasses: Decision[];
}

/** The monthly data budget of the strategy that asked, in cents (0 when unknown). */
export function budgetOfDecision(strategies: readonly CompiledStrategy[], decision: Decision): number {
  return strategies.find((strategy) => strategy.name === decision.strategy.name)?.dataPolicy.monthlyBudgetCents ?? 0;
}

function markUnavailable(enrichment: Enrichment, need: DataNeed): void {
  if (need.kind === 'banking_data') {
    enrichment.unavailable = { ...enrichment.unavailable, bankingData: true };
    return;
  }
  if (need.kind === 'borrower_history') {
    enrichment.unavailable = { ...enrichment.unavailable, borrowerHistory: true };
    return;
  }
  enrichment.unavailable = { ...enrichment.unavailable, providers: [...(enrichment.unavailable?.providers ?? []), need.provider] };
}

/** Evaluate, buy, evaluate again, at most MAX_DATA_ROUNDS times. */
function* evaluateWithData(request: LoanRequest, context: DecideContext, enrichment: Enrichment): Generator<FetchRequest, Evaluated, Answer> {
  const { strategies, nowMs, ledger } = context;
  const dataReasons: string[] = [];
  const needsPasses: Decision[] = [];
  let decision = evaluateAll(request, enrichment, strategies);
  for (let round = 0; decision.action === 'needs_data' && round < MAX_DATA_ROUNDS; round++) {
    needsPasses.push(decision);
    const asking = { strategy: decision.strategy.name, budgetCents: budgetOfDecision(strategies, decision) };
    for (const need of decision.needs ?? []) {
      const reason = yield* buyOne(request, need, enrichment, asking, nowMs, ledger);
      if (reason !== undefined) dataReasons.push(reason);
    }
    decision = evaluateAll(request, enrichment, strategies);
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
): Generator<FetchRequest, string | undefined, Answer> {
  const name = need.kind === 'provider' ? need.provider : need.kind;
  const provider = need.kind === 'provider' ? need.provider : undefined;
  const { strategy, budgetCents } = asking;
  const costCents = need.kind === 'provider' && need.pricing === 'per_request' ? need.costCents : 0;
  const monthStart = monthStartMs(nowMs);
  const subscriptionCents =
    need.kind === 'provider' && need.pricing === 'flat' && need.costCents > 0 && !ledger.subscribedSince(need.provider, monthStart, nowMs) ? need.costCents : 0;
  const dueCents = costCents + subscriptionCents;
  if (dueCents > 0) {
    const spent = ledger.spentSince(monthStart, nowMs, strategy);
    if (spent + dueCents > budgetCents) {
      markUnavailable(enrichment, need);
      const what = subscriptionCents > 0 ? `${name} (monthly subscription)` : name;
      return `data budget ${formatCents(spent)} + ${formatCents(dueCents)} > ${formatCents(budgetCents)} for ${what}`;
    }
  }
  const answer = yield { need };
  // The month's subscription starts with its first purchase (a 404 is none: no score, no charge;
  // a 5xx may be billed). Asked again now, after the call: another request decided meanwhile may
  // have charged it, and from here to the record nothing else runs.
  if (provider !== undefined && subscriptionCents > 0 && (answer.ok || answer.billed === true) && !ledger.subscribedSince(provider, monthStart, nowMs)) {
    ledger.record({ loanRequestId: request.id, kind: 'subscription', provider, strategy, atMs: nowMs, costCents: subscriptionCents, ok: true });
  }
  if (!answer.ok) {
    const billedCents = answer.billed === true ? costCents : 0;
    ledger.record({ loanRequestId: request.id, kind: need.kind, provider, strategy, atMs: nowMs, costCents: billedCents, ok: false, error: answer.detail });
    if (answer.outage !== undefined) throw answer.outage;
    markUnavailable(enrichment, need);
    return need.kind === 'provider' ? `data ${name} unavailable: ${answer.detail}` : `data ${name} not found`;
  }
  ledger.record({ loanRequestId: request.id, kind: need.kind, provider, strategy, atMs: nowMs, costCents, ok: true, payload: answer.value });
  if (need.kind === 'banking_data') enrichment.bankingData = answer.value as BankingData;
  else if (need.kind === 'borrower_history') enrichment.borrowerHistory = answer.value as BorrowerLoanHistoryItem[];
  else enrichment.providerResults = { ...enrichment.providerResults, [need.provider]: answer.value as ProviderResult };
  return undefined;
}

/** The guard's question for an offer decision; undefined when there is nothing to guard. */
export interface OfferToGuard {
  request: LoanRequest;
  rate: number;
  automateFund: boolean;
}

function offerOf(request: LoanRequest, decision: Decision): OfferToGuard | undefined {
  return decision.action === 'offer' && decision.rate !== undefined ? { request, rate: decision.rate, automateFund: decision.automateFund } : undefined;
}

function outcome(evaluated: Evaluated, guard: GuardResult | undefined): DecideOutcome {
  const { decision, enrichment, needsPasses } = evaluated;
  const reasons = decision.reasons.concat(evaluated.dataReasons);
  if (decision.action === 'needs_data') reasons.push('data still missing after buying; skipped');
  if (guard !== undefined && !guard.allowed) reasons.push(guard.reason);
  const action = guard?.allowed === true ? 'offer' : 'skip';
  return { decision, enrichment, action, reasons, guard, needsPasses };
}

/** The source's answer to one need. */
function fetchNeed<Sync extends boolean>(source: DataSource<Sync>, request: LoanRequest, need: DataNeed): Sync extends true ? Answer : Promise<Answer> {
  if (need.kind === 'banking_data') return source.bankingData(request);
  if (need.kind === 'borrower_history') return source.borrowerHistory(request);
  return source.providerResult(request, need.provider);
}

/** The step over data at hand (backtest, explain). */
export function decideSync(
  request: LoanRequest,
  context: DecideContext,
  source: DataSource<true>,
  guard: (offer: OfferToGuard) => GuardResult,
  enrichment: Enrichment = {},
): DecideOutcome {
  const steps = evaluateWithData(request, context, enrichment);
  let next = steps.next();
  while (!next.done) {
    const { need } = next.value;
    next = steps.next(fetchNeed(source, request, need));
  }
  const offer = offerOf(request, next.value.decision);
  return outcome(next.value, offer === undefined ? undefined : guard(offer));
}

/** The step over the network (the daemon). An outage thrown by the source ends it. */
export async function decideAsync(
  request: LoanRequest,
  context: DecideContext,
  source: DataSource<false>,
  guard: (offer: OfferToGuard) => Promise<GuardResult>,
  enrichment: Enrichment = {},
): Promise<DecideOutcome> {
  const steps = evaluateWithData(request, context, enrichment);
  let next = steps.next();
  while (!next.done) {
    const { need } = next.value;
    next = steps.next(await fetchNeed(source, request, need));
  }
  const offer = offerOf(request, next.value.decision);
  return outcome(next.value, offer === undefined ? undefined : await guard(offer));
}

/**
 * The one decide step the daemon, the backtester and `strategy explain` all run:
 *
 *   evaluate ⇄ buy what the strategy asks for (budget first) ─> guard ─> offer or skip, with reasons
 *
 * Two seams differ between them: where data comes from (the service, a recording) and where
 * spend is recorded (the purchases table, a simulated ledger); the guard's snapshot is the third
 * (the store, the simulated ledger). Everything else (the rounds, the budget rule, what a flat
 * price costs, the reason texts) exists only here.
 *
 * The loop is written once, as a generator that yields each data need and is handed back what
 * was fetched; `decideSync` (backtest, explain) and `decideAsync` (daemon) only drive it.
 */
import { monthStartMs } from '../clock/utc-month.js';
import type { GuardResult } from '../risk/index.js';
import { formatCents, type BankingData, type Cents, type LoanRequest, type ProviderResult } from '../service/index.js';
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
}

export interface PurchaseEntry {
  loanRequestId: number;
  kind: 'banking_data' | 'provider';
  provider?: string | undefined;
  costCents: Cents;
  atMs: number;
  ok: boolean;
  error?: string | undefined;
  payload?: unknown;
}

/** Where spend is recorded and read back for the monthly budget. */
export interface SpendLedger {
  /** Spent on data since `fromMs` (the start of the UTC month) up to `nowMs`. */
  spentSince(fromMs: number, nowMs: number): Cents;
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

type Answer = Fetched<BankingData> | Fetched<ProviderResult>;

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
    for (const need of decision.needs ?? []) {
      const reason = yield* buyOne(request, need, enrichment, budgetOfDecision(strategies, decision), nowMs, ledger);
      if (reason !== undefined) dataReasons.push(reason);
    }
    decision = evaluateAll(request, enrichment, strategies);
  }
  return { decision, enrichment, dataReasons, needsPasses };
}

/**
 * Buys one need into `enrichment`, unless the month's spend plus its price would exceed the
 * asking strategy's budget. Flat-priced providers cost nothing per request (their subscription
 * is paid either way). Returns a reason when the data could not be had.
 */
function* buyOne(
  request: LoanRequest,
  need: DataNeed,
  enrichment: Enrichment,
  budgetCents: Cents,
  nowMs: number,
  ledger: SpendLedger,
): Generator<FetchRequest, string | undefined, Answer> {
  const name = need.kind === 'banking_data' ? 'banking_data' : need.provider;
  const costCents = need.kind === 'provider' && need.pricing === 'per_request' ? need.costCents : 0;
  if (costCents > 0) {
    const spent = ledger.spentSince(monthStartMs(nowMs), nowMs);
    if (spent + costCents > budgetCents) {
      markUnavailable(enrichment, need);
      return `data budget ${formatCents(spent)} + ${formatCents(costCents)} > ${formatCents(budgetCents)} for ${name}`;
    }
  }
  const answer = yield { need };
  const entry = { loanRequestId: request.id, kind: need.kind, provider: need.kind === 'provider' ? need.provider : undefined, atMs: nowMs };
  if (!answer.ok) {
    ledger.record({ ...entry, costCents: answer.billed === true ? costCents : 0, ok: false, error: answer.detail });
    if (answer.outage !== undefined) throw answer.outage;
    markUnavailable(enrichment, need);
    return need.kind === 'banking_data' ? 'data banking_data not found' : `data ${name} unavailable: ${answer.detail}`;
  }
  ledger.record({ ...entry, costCents, ok: true, payload: answer.value });
  if (need.kind === 'banking_data') enrichment.bankingData = answer.value as BankingData;
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
  const reasons = [...decision.reasons, ...evaluated.dataReasons];
  if (decision.action === 'needs_data') reasons.push('data still missing after buying; skipped');
  if (guard !== undefined && !guard.allowed) reasons.push(guard.reason);
  const action = guard?.allowed === true ? 'offer' : 'skip';
  return { decision, enrichment, action, reasons, guard, needsPasses };
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
    next = steps.next(need.kind === 'banking_data' ? source.bankingData(request) : source.providerResult(request, need.provider));
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
    next = steps.next(need.kind === 'banking_data' ? await source.bankingData(request) : await source.providerResult(request, need.provider));
  }
  const offer = offerOf(request, next.value.decision);
  return outcome(next.value, offer === undefined ? undefined : await guard(offer));
}

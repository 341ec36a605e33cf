/**
 * The control API (not part of the spec): what a test, a demo or the daemon's default mode does
 * to the sandbox from outside the market. The HTTP routes under /_sandbox/ call these same
 * methods. Refusals throw a SandboxControlError carrying the HTTP status the route answers.
 */
import { loanRequestSchema, offerSchema, type LoanRequest, type Offer } from '../domain/index.js';
import type { LoanRequestFields } from './borrower-generator.js';
import type { SandboxFaults } from './faults.js';
import { groundTruthOf, type GroundTruth } from './ground-truth.js';
import type { Outcome } from './market.js';
import type { OfferRecord } from './market-types.js';
import { offerView, loanRequestView, isoTime } from './resource-views.js';
import type { Billing, SandboxRuntime } from './runtime.js';
import type { WebhookDelivery, WebhookSubscription } from './webhook-sender.js';

export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message);
  }
}

export interface SandboxControl {
  /** Moves simulated time forward and runs the market to it. */
  advance(ms: number): void;
  /** Moves simulated time forward to an ISO time (never backwards). */
  setTime(iso: string): void;
  /** Simulated now, ISO 8601. */
  now(): string;
  /** The market shape's name (`--shape`). */
  shape(): string;
  /**
   * Creates a loan request now (webhooks fire), with the given fields fixed. Unless `takeUp` or
   * `reservationRate` is given, its borrower takes any offer (takeUp 1: its reservation rate is
   * the maximum), so a test or demo sees its offer decided by rate alone; pass a takeUp below 1
   * or a reservationRate for a borrower who may walk away from an expensive offer.
   */
  createLoanRequest(fields?: LoanRequestFields): LoanRequest;
  /** Sets the investor's processed balance (by an Add Money or Withdrawal transfer). */
  setBalance(cents: number): void;
  balance(): { balanceCents: number; availableCents: number };
  /** The borrower accepts this pending offer now (automatic funding applies). */
  acceptOffer(offerId: number): Offer;
  rejectOffer(offerId: number): Offer;
  /**
   * The request's borrower waits for a lender's answer until `untilIso` (simulated time;
   * borrower-holds.ts): what lendbot asks while an agent's proposal on it waits for a person.
   */
  holdLoanRequest(loanRequestId: number, untilIso: string): { held_until: string };
  /** Ends a hold now: the borrower's put-off decision runs at once. */
  releaseLoanRequest(loanRequestId: number): void;
  /** Subscribes a URL to webhooks; the secret signs every event's JWT. */
  /** `active: false`: paused until reactivated (see WebhookSender.subscribe). */
  subscribe(url: string, email: string, options?: { active?: boolean }): { id: number; secret: string };
  reactivate(id: number): void;
  webhooks(): { subscriptions: readonly WebhookSubscription[]; deliveries: readonly WebhookDelivery[] };
  /** Resolves once every webhook attempt under way has finished. */
  flushWebhooks(): Promise<void>;
  setFaults(faults: SandboxFaults): void;
  /** Rules 2 and 9 of marketplace 4.2: whether the investor is borrowing, has a verified bank account. */
  setInvestor(settings: { borrowing?: boolean; bankVerified?: boolean }): void;
  groundTruth(loanRequestId: number): GroundTruth;
  /** The sandbox investor's offers with their current status. */
  offers(): Offer[];
  /** The last 1000 fund calls (marketplace 4.3) on the investor's offers: offer id, time, `started` or the refusal text. */
  fundCalls(): Array<{ offer_id: number; at: string; outcome: string }>;
  billing(): Billing;
}

export function createControl(runtime: SandboxRuntime, webhookSecret: string): SandboxControl {
  const market = runtime.market;
  const unwrap = (outcome: Outcome<OfferRecord>): Offer => {
    if (!outcome.ok) throw new SandboxControlError(outcome.refusal.text, outcome.refusal.status === 404 ? 404 : 400);
    return viewOffer(outcome.value);
  };
  const viewOffer = (offer: OfferRecord): Offer => {
    const request = market.requests.get(offer.loanRequestId);
    if (!request) throw new SandboxControlError('Not found.', 404);
    return offerSchema.parse(offerView(offer, request));
  };
  return {
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new SandboxControlError(`ms must be a number >= 0 (got ${ms})`, 400);
      runtime.advance(ms);
    },
    setTime(iso) {
      const target = Date.parse(iso);
      if (Number.isNaN(target)) throw new SandboxControlError(`not an ISO 8601 time: "${iso}"`, 400);
      runtime.sync();
      const now = runtime.clock.now();
      if (target < now) throw new SandboxControlError(`simulated time cannot go backwards (now ${isoTime(now)})`, 400);
      runtime.advance(target - now);
    },
    now: () => isoTime(runtime.clock.now()),
    shape: () => market.shape.name,
    createLoanRequest(fields = {}) {
      runtime.sync();
      return loanRequestSchema.parse(loanRequestView(market.createLoanRequest({ takeUp: 1, ...fields })));
    },
    setBalance(cents) {
      if (!Number.isSafeInteger(cents)) throw new SandboxControlError(`cents must be a whole number (got ${cents})`, 400);
      runtime.sync();
      market.setBalance(cents);
    },
    balance: () => ({ balanceCents: market.ledger.balanceCents(), availableCents: market.ledger.availableCents() }),
    acceptOffer(offerId) {
      runtime.sync();
      return unwrap(market.acceptOffer(offerId));
    },
    rejectOffer(offerId) {
      runtime.sync();
      return unwrap(market.rejectOffer(offerId));
    },
    holdLoanRequest(loanRequestId, untilIso) {
      const until = Date.parse(untilIso);
      if (Number.isNaN(until)) throw new SandboxControlError(`not an ISO 8601 time: "${untilIso}"`, 400);
      runtime.sync();
      const held = market.holdRequest(loanRequestId, until);
      if (!held.ok) throw new SandboxControlError(held.refusal.text, held.refusal.status === 404 ? 404 : 400);
      return { held_until: isoTime(until) };
    },
    releaseLoanRequest(loanRequestId) {
      runtime.sync();
      market.releaseRequest(loanRequestId);
      runtime.sync();
    },
    subscribe(url, email, options) {
      try {
        return { id: runtime.webhooks.subscribe(url, email, options).id, secret: webhookSecret };
      } catch (error) {
        throw new SandboxControlError(error instanceof Error ? error.message : String(error), 400);
      }
    },
    reactivate(id) {
      if (!runtime.webhooks.reactivate(id)) throw new SandboxControlError(`no webhook subscription ${id}`, 404);
    },
    webhooks: () => ({ subscriptions: runtime.webhooks.list(), deliveries: runtime.webhooks.deliveries() }),
    flushWebhooks: () => runtime.webhooks.flush(),
    setFaults(faults) {
      try {
        runtime.faults.set(faults);
      } catch (error) {
        throw new SandboxControlError(error instanceof Error ? error.message : String(error), 400);
      }
    },
    setInvestor(settings) {
      if (settings.borrowing !== undefined) market.account.borrowing = settings.borrowing;
      if (settings.bankVerified !== undefined) market.account.bankVerified = settings.bankVerified;
    },
    groundTruth(loanRequestId) {
      runtime.sync();
      const truth = groundTruthOf(market, loanRequestId);
      if (!truth) throw new SandboxControlError(`no loan request ${loanRequestId}`, 404);
      return truth;
    },
    offers() {
      runtime.sync();
      return market.investorOffers().map(viewOffer);
    },
    fundCalls: () => market.fundCalls.map((call) => ({ offer_id: call.offerId, at: isoTime(call.atMs), outcome: call.outcome })),
    billing: () => runtime.billing(),
  };
}

/**
 * The simulated marketplace, independent of HTTP: loan requests arrive over simulated time,
 * competitors offer, borrowers consider the lowest rate after a delay (or cancel) and take it
 * when it is at or below their reservation rate (borrower-rules.ts, by the market shape's rule),
 * accepted offers are funded, loans are serviced. The investor acts through makeOffer and fund;
 * the control API through the rest. Everything happens in `advanceTo`, in time order, so a run is reproducible:
 * the same seed and the same actions at the same simulated times give the same market.
 */
import { generateLoanRequest, type LoanRequestFields } from './borrower-generator.js';
import { BorrowerHolds } from './borrower-holds.js';
import { planCompetition } from './competitor-model.js';
import { EventQueue } from '../clock/event-queue.js';
import { Ledger } from './ledger.js';
import { INVESTOR, LoanBook } from './loan-servicing.js';
import { ACCEPTANCE_TTL_MS, LIST_WINDOW_MS, REDECIDE_MS, type MarketContext, type MarketEvent } from './market-events.js';
import { HOUR_MS } from '../clock/time-constants.js';
import type { InvestorAccount, LoanRequestRecord, OfferRecord } from './market-types.js';
import { checkFund, checkOfferRules, totalCents, type Refusal } from './offer-rules.js';
import { forkRandom, type Random } from './random.js';
import { CLASSIC_SHAPE } from './shapes/classic.js';
import type { MarketShape } from './shapes/market-shape.js';

export interface MarketOptions {
  seed: number;
  startMs: number;
  /** New loan requests per simulated hour (0: only on demand). */
  arrivalsPerHour: number;
  /** Stop arriving after this many requests (a headless export). */
  maxArrivals?: number;
  initialBalanceCents?: number;
  /** What drives default and how lenders and borrowers behave (default: the classic shape). */
  shape?: MarketShape;
  /**
   * Hears each request once its fate is final: closed without a loan, or its loan completed or
   * defaulted. The market then forgets the request, its offers and its loan, so it holds only
   * what is live (the headless export, recording-export.ts, streams its lines this way), and
   * keeps no request's bank profile past its arrival: such a caller shows a request as generated
   * from the seed. Absent: the market keeps every request, as the server and the tests that read
   * it need.
   */
  onFinal?: (request: LoanRequestRecord) => void;
}

/** A fund call that reached the market: the offer, when, and `started` or the refusal text. */
export interface FundCall {
  offerId: number;
  atMs: number;
  outcome: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

const FUND_CALLS_KEPT = 1000;

const NOT_FOUND: Refusal = { rule: 'not found', status: 404, key: 'detail', text: 'Not found.' };

export class Market {
  readonly seed: number;
  readonly shape: MarketShape;
  readonly requests = new Map<number, LoanRequestRecord>();
  readonly offers = new Map<number, OfferRecord>();
  readonly ledger = new Ledger();
  readonly loanBook: LoanBook;
  readonly account: InvestorAccount = { borrowing: false, bankVerified: true, zipCodes: ['94103', '10001'] };
  /** Provider B calls billed, by loan request id (marketplace 4.5: 1.50 USD each). */
  readonly providerBCalls: number[] = [];
  /** Months (YYYY-MM) in which provider A was used (200 USD each, flat). */
  readonly providerAMonths = new Set<string>();
  /** The last 1000 fund calls on the investor's offers, oldest first (for tests: how often, and why refused). */
  readonly fundCalls: FundCall[] = [];
  private readonly queue = new EventQueue<MarketEvent>();
  private readonly holds = new BorrowerHolds();
  private readonly arrivals: Random;
  private readonly listeners: Array<(request: LoanRequestRecord) => void> = [];
  private current: number;
  private nextRequestId = 1001;
  private nextOfferId = 70_001;
  private arrived = 0;

  constructor(private readonly options: MarketOptions) {
    this.seed = options.seed;
    this.shape = options.shape ?? CLASSIC_SHAPE;
    this.current = options.startMs;
    this.arrivals = forkRandom(options.seed, 'arrivals');
    const context: MarketContext = { now: () => this.current, schedule: (at, event) => this.queue.add(at, event) };
    this.loanBook = new LoanBook(context, this.ledger);
    if (options.initialBalanceCents) this.setBalance(options.initialBalanceCents);
    this.scheduleArrival();
  }

  /**
   * Forgets requests that closed without a loan (expired or canceled) before `beforeMs`, with
   * their competitors' offers, so a server left running keeps a bounded market. A request the
   * sandbox investor offered on is kept (its offers stay readable), and so is every signed one.
   * Returns how many requests were forgotten. The headless export never calls it.
   */
  pruneClosed(beforeMs: number): number {
    let pruned = 0;
    for (const [id, request] of this.requests) {
      if ((request.status !== 'expired' && request.status !== 'canceled') || request.statusChangedMs >= beforeMs) continue;
      const offers = request.offerIds.map((offerId) => this.offers.get(offerId));
      if (offers.some((offer) => offer?.lender === 'investor')) continue;
      for (const offerId of request.offerIds) this.offers.delete(offerId);
      this.requests.delete(id);
      pruned += 1;
    }
    return pruned;
  }

  /** Simulated now, epoch milliseconds. */
  now(): number {
    return this.current;
  }

  /** Requests created by arrivals so far (not counting those made on demand). */
  get arrivedCount(): number {
    return this.arrived;
  }

  /** The time of the next scheduled event, if any. */
  nextEventTime(): number | undefined {
    return this.queue.size > 0 ? this.queue.peekTime() : undefined;
  }

  /** Hears about every new loan request, as it is created. */
  onNewLoanRequest(listener: (request: LoanRequestRecord) => void): void {
    this.listeners.push(listener);
  }

  /** Runs every event up to `targetMs` in order; the clock then reads `targetMs`. */
  advanceTo(targetMs: number): void {
    for (let at = this.queue.peekTime(); at <= targetMs; at = this.queue.peekTime()) {
      const next = this.queue.pop();
      if (!next) break;
      this.current = Math.max(this.current, next.atMs);
      this.handle(next.event);
    }
    this.current = Math.max(this.current, targetMs);
  }

  /** Creates a loan request now, with the given fields fixed. */
  createLoanRequest(fields: LoanRequestFields = {}): LoanRequestRecord {
    const id = this.nextRequestId++;
    const request = generateLoanRequest(this.seed, id, this.current, fields, this.shape);
    const plan = planCompetition(request, forkRandom(this.seed, 'competition', id), fields, this.shape.competitors);
    request.plannedCompetitorOffers = plan.offers.length;
    this.requests.set(id, request);
    for (const offer of plan.offers) {
      this.queue.add(this.current + offer.afterMs, { kind: 'competitor-offer', requestId: id, lender: offer.lender, rate: offer.rate });
    }
    const decideAt = this.current + plan.decisionAfterMs;
    this.queue.add(decideAt, plan.cancel ? { kind: 'cancel', requestId: id } : { kind: 'decision', requestId: id });
    this.queue.add(this.current + LIST_WINDOW_MS, { kind: 'window-end', requestId: id });
    for (const listener of this.listeners) listener(request);
    // A market that forgets serves a caller that shows requests as generated from the seed (the
    // export); the bank profile, two-thirds of a request's memory, is then read by nothing more.
    if (this.options.onFinal) request.bank = null;
    return request;
  }

  /** The sandbox investor's offers, oldest first. */
  investorOffers(): OfferRecord[] {
    return [...this.offers.values()].filter((offer) => offer.lender === INVESTOR);
  }

  /** Marketplace 4.2: the investor offers on a request. */
  makeOffer(requestId: number, rate: number, automateFund: boolean): Outcome<OfferRecord> {
    const request = this.requests.get(requestId);
    if (!request) return { ok: false, refusal: NOT_FOUND };
    const refusal = checkOfferRules({
      account: this.account,
      request,
      investorOffers: this.investorOffers(),
      rate,
      automateFund,
      availableCents: this.ledger.availableCents(),
    });
    if (refusal) return { ok: false, refusal };
    return { ok: true, value: this.addOffer(request, INVESTOR, rate, automateFund) };
  }

  /** Marketplace 4.3: the investor funds its accepted offer. */
  fund(offerId: number): Outcome<OfferRecord> {
    const offer = this.offers.get(offerId);
    const request = offer ? this.requests.get(offer.loanRequestId) : undefined;
    if (!offer || !request || offer.lender !== INVESTOR) return { ok: false, refusal: NOT_FOUND };
    const refusal = checkFund({ offer, request, availableCents: this.ledger.availableCents() });
    this.fundCalls.push({ offerId, atMs: this.current, outcome: refusal ? refusal.text : 'started' });
    // A server left running keeps a bounded log.
    if (this.fundCalls.length > FUND_CALLS_KEPT) this.fundCalls.splice(0, this.fundCalls.length - FUND_CALLS_KEPT);
    if (refusal) return { ok: false, refusal };
    this.startFunding(request, offer);
    return { ok: true, value: offer };
  }

  /** Control: the borrower accepts this pending offer now. */
  acceptOffer(offerId: number): Outcome<OfferRecord> {
    const offer = this.offers.get(offerId);
    const request = offer ? this.requests.get(offer.loanRequestId) : undefined;
    if (!offer || !request) return { ok: false, refusal: NOT_FOUND };
    if (offer.status !== 'pending' || request.status !== 'open') {
      return {
        ok: false,
        refusal: { rule: 'control', status: 400, key: 'detail', text: 'Only a pending offer on an open loan request can be accepted.' },
      };
    }
    this.accept(request, offer);
    return { ok: true, value: offer };
  }

  /** Control: the borrower rejects this pending offer. */
  rejectOffer(offerId: number): Outcome<OfferRecord> {
    const offer = this.offers.get(offerId);
    if (!offer) return { ok: false, refusal: NOT_FOUND };
    if (offer.status !== 'pending') {
      return { ok: false, refusal: { rule: 'control', status: 400, key: 'detail', text: 'Only a pending offer can be rejected.' } };
    }
    this.setOfferStatus(offer, 'rejected');
    return { ok: true, value: offer };
  }

  /**
   * Control: the borrower of this open request waits for a lender's answer until `untilMs`
   * (borrower-holds.ts); a later call extends it. Refused for a request that is not open.
   */
  holdRequest(requestId: number, untilMs: number): Outcome<LoanRequestRecord> {
    const request = this.requests.get(requestId);
    if (!request) return { ok: false, refusal: NOT_FOUND };
    if (request.status !== 'open') {
      return { ok: false, refusal: { rule: 'control', status: 400, key: 'detail', text: 'Only an open loan request can be held.' } };
    }
    if (!this.holds.hold(requestId, untilMs)) {
      return { ok: false, refusal: { rule: 'control', status: 400, key: 'detail', text: 'Too many loan requests are held already.' } };
    }
    this.queue.add(untilMs, { kind: 'hold-end', requestId });
    return { ok: true, value: request };
  }

  /** Control: ends a hold now; the borrower's put-off events run at once (nothing when not held). */
  releaseRequest(requestId: number): void {
    for (const event of this.holds.release(requestId)) this.queue.add(this.current, event);
  }

  /** Control: sets the processed balance by an `Add Money` or `Withdrawal` transfer. */
  setBalance(cents: number): void {
    const difference = cents - this.ledger.balanceCents();
    if (difference === 0) return;
    this.ledger.add(this.current, 'processed', {
      type: difference > 0 ? 'Add Money' : 'Withdrawal',
      amountCents: difference,
      sourceDest: difference > 0 ? 'from bank account' : 'to bank account',
      loanRequestId: null,
      loanId: null,
      borrowerId: null,
    });
  }

  private scheduleArrival(): void {
    if (this.options.arrivalsPerHour <= 0) return;
    if (this.options.maxArrivals !== undefined && this.arrived >= this.options.maxArrivals) return;
    const gap = Math.max(1000, Math.round(this.arrivals.exponential(HOUR_MS / this.options.arrivalsPerHour)));
    this.queue.add(this.current + gap, { kind: 'arrival' });
  }

  private handle(event: MarketEvent): void {
    if (this.loanBook.handle(event)) {
      if ('loanId' in event) this.finalIfResolved(event.loanId);
      return;
    }
    if (this.holds.defer(event, this.current)) return;
    switch (event.kind) {
      case 'hold-end': {
        // A hold extended since this event was queued ends at its own, later, event.
        const until = this.holds.heldUntil(event.requestId);
        if (until !== undefined && until <= this.current) this.releaseRequest(event.requestId);
        return;
      }
      case 'arrival':
        this.arrived += 1;
        this.createLoanRequest();
        this.scheduleArrival();
        return;
      case 'competitor-offer': {
        const request = this.requests.get(event.requestId);
        if (request?.status !== 'open') return;
        this.addOffer(request, event.lender, event.rate, true);
        return;
      }
      case 'decision':
        this.decide(event.requestId);
        return;
      case 'cancel':
        this.close(event.requestId, 'canceled');
        return;
      case 'window-end':
        this.close(event.requestId, 'expired');
        return;
      case 'acceptance-expiry':
        this.expireAcceptance(event.requestId, event.offerId);
        return;
      default:
        return;
    }
  }

  private addOffer(request: LoanRequestRecord, lender: string, rate: number, automateFund: boolean): OfferRecord {
    const offer: OfferRecord = {
      id: this.nextOfferId++,
      loanRequestId: request.id,
      lender,
      rate,
      automateFund,
      status: 'pending',
      createdMs: this.current,
      statusChangedMs: this.current,
      processed: false,
    };
    this.offers.set(offer.id, offer);
    request.offerIds.push(offer.id);
    if (lender !== INVESTOR && (request.bestCompetingRate === null || rate < request.bestCompetingRate)) {
      request.bestCompetingRate = rate;
    }
    return offer;
  }

  /**
   * Pending offers, cheapest first. At equal rates a competitor's offer comes before the sandbox
   * investor's, whichever came first (the backtest's recorded acceptance gives a tie to the
   * competitor, so a replay of the export decides it the same way), then the earliest.
   */
  private pendingOffers(request: LoanRequestRecord): OfferRecord[] {
    const rank = (offer: OfferRecord): number => (offer.lender === INVESTOR ? 1 : 0);
    return request.offerIds
      .map((id) => this.offers.get(id))
      .filter((offer): offer is OfferRecord => offer?.status === 'pending')
      .sort((a, b) => a.rate - b.rate || rank(a) - rank(b) || a.createdMs - b.createdMs || a.id - b.id);
  }

  /**
   * The borrower looks at the offers: takes the lowest if it is at or below its reservation rate,
   * else walks away from it and from every dearer one, and looks again later in case a cheaper
   * offer comes before the window closes.
   */
  private decide(requestId: number): void {
    const request = this.requests.get(requestId);
    if (request?.status !== 'open') return;
    const pending = this.pendingOffers(request);
    const best = pending[0];
    if (best && best.rate <= request.reservationRate) {
      this.accept(request, best);
      return;
    }
    if (best && (request.refusedRate === null || best.rate < request.refusedRate)) request.refusedRate = best.rate;
    for (const offer of pending) this.setOfferStatus(offer, 'rejected');
    if (this.current + REDECIDE_MS < request.createdMs + LIST_WINDOW_MS) {
      this.queue.add(this.current + REDECIDE_MS, { kind: 'decision', requestId });
    }
  }

  private accept(request: LoanRequestRecord, offer: OfferRecord): void {
    this.setOfferStatus(offer, 'accepted');
    request.status = 'offered';
    request.statusChangedMs = this.current;
    request.acceptedOfferId = offer.id;
    const canFund = request.borrower.hasFundingResource;
    const automatic = offer.lender !== INVESTOR || (offer.automateFund && this.ledger.availableCents() > totalCents(request));
    if (canFund && automatic) {
      this.startFunding(request, offer);
      return;
    }
    // The investor's accepted offer now waits for its fund call: listed as a pending loan.
    if (offer.lender === INVESTOR) this.loanBook.openAwaitingFunding(request, offer);
    this.queue.add(this.current + ACCEPTANCE_TTL_MS, { kind: 'acceptance-expiry', requestId: request.id, offerId: offer.id });
  }

  private startFunding(request: LoanRequestRecord, offer: OfferRecord): void {
    offer.processed = true;
    const loan = this.loanBook.startFunding(request, offer);
    request.loanId = loan.id;
    // Other offers lose as soon as the agreement is signed, which the funding makes final.
    request.status = 'signed';
    request.statusChangedMs = this.current;
    for (const other of this.pendingOffers(request)) this.setOfferStatus(other, 'rejected');
  }

  private expireAcceptance(requestId: number, offerId: number): void {
    const request = this.requests.get(requestId);
    const offer = this.offers.get(offerId);
    if (!request || !offer || offer.status !== 'accepted' || offer.processed) return;
    this.setOfferStatus(offer, 'expired');
    this.loanBook.withdrawAwaitingFunding(offer.id);
    request.status = 'open';
    request.statusChangedMs = this.current;
    request.acceptedOfferId = null;
    if (this.current >= request.createdMs + LIST_WINDOW_MS) this.close(requestId, 'expired');
    else this.decide(requestId);
  }

  private close(requestId: number, status: 'canceled' | 'expired'): void {
    const request = this.requests.get(requestId);
    if (request?.status !== 'open') return;
    request.status = status;
    request.statusChangedMs = this.current;
    for (const offer of this.pendingOffers(request)) this.setOfferStatus(offer, 'expired');
    this.forgetFinal(request);
  }

  /** A loan that completed or defaulted makes its request's fate final. */
  private finalIfResolved(loanId: number): void {
    const loan = this.loanBook.loans.get(loanId);
    const request = loan && loan.resolvedMs !== null ? this.requests.get(loan.loanRequestId) : undefined;
    if (request) this.forgetFinal(request);
  }

  /** With `onFinal`: tells it, then forgets the request with its offers and loan (nothing changes them any more). */
  private forgetFinal(request: LoanRequestRecord): void {
    if (!this.options.onFinal) return;
    this.options.onFinal(request);
    for (const offerId of request.offerIds) this.offers.delete(offerId);
    if (request.loanId !== null) this.loanBook.forget(request.loanId);
    this.requests.delete(request.id);
  }

  private setOfferStatus(offer: OfferRecord, status: OfferRecord['status']): void {
    offer.status = status;
    offer.statusChangedMs = this.current;
  }
}

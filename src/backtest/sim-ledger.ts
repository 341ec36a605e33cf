/**
 * The simulated account of a backtest: balance, pending offers (reservations), open loans
 * (exposure in total, per borrower and per risk level), today's offers, and the month's data
 * spend. It answers the guard with the same GuardSnapshot the daemon builds from its store, so
 * `checkOffer` refuses in a backtest exactly what it would refuse live.
 */
import { monthStartMs } from '../clock/utc-month.js';
import type { GuardSnapshot } from '../risk/index.js';
import { DAY_MS } from '../clock/time-constants.js';

/** What the ledger needs to know about an offer or loan to count its exposure. */
export interface ExposureKey {
  borrowerId: number;
  riskLevel: number;
}

export class SimLedger {
  balanceCents: number;
  reservedCents = 0;
  exposureCents = 0;
  /** Principal of funded loans not yet repaid or written off. */
  deployedCents = 0;
  readonly byBorrower = new Map<number, number>();
  readonly byRiskLevel: Record<number, number> = {};
  largestExposureCents = 0;
  largestBorrowerExposureCents = 0;
  dataSpendCents = 0;
  /** The part of dataSpendCents that is flat-priced providers' monthly subscriptions. */
  subscriptionCents = 0;
  private dayStartMs = Number.NEGATIVE_INFINITY;
  private offersToday = 0;
  private amountTodayCents = 0;
  private spendMonthMs = Number.NEGATIVE_INFINITY;
  private spendThisMonthCents = 0;
  /** This month's spend by the strategy that asked (each strategy's own budget). */
  private readonly strategySpendThisMonth = new Map<string, number>();
  /** Flat-priced providers whose subscription this month has been charged. */
  private readonly subscribedThisMonth = new Set<string>();

  constructor(startingBalanceCents: number) {
    this.balanceCents = startingBalanceCents;
  }

  /**
   * The guard's view at `nowMs` (the kill switch file does not exist in a backtest). One object,
   * refreshed at each call and reading the exposure maps live, since a replay asks for it once
   * per offer: read it before the ledger next changes.
   */
  snapshot(nowMs: number): GuardSnapshot {
    this.rollDay(nowMs);
    const view = this.view;
    view.balanceCents = this.balanceCents;
    view.reservedCents = this.reservedCents;
    view.exposureCents = this.exposureCents;
    view.offersToday = this.offersToday;
    view.amountTodayCents = this.amountTodayCents;
    return view;
  }

  private readonly view: GuardSnapshot = {
    balanceCents: 0,
    reservedCents: 0,
    exposureCents: 0,
    exposureByBorrowerCents: (borrowerId) => this.byBorrower.get(borrowerId) ?? 0,
    exposureByRiskLevelCents: this.byRiskLevel,
    offersToday: 0,
    amountTodayCents: 0,
    killSwitchOn: false,
  };

  /**
   * An offer was made: it counts towards today's caps and exposure, and `reserves` its total
   * (automate_fund offers, and by default every offer: risk.reserve_manual_offers).
   */
  offerPlaced(nowMs: number, totalCents: number, reserves: boolean, key: ExposureKey): void {
    this.rollDay(nowMs);
    this.offersToday += 1;
    this.amountTodayCents += totalCents;
    if (reserves) this.reservedCents += totalCents;
    this.addExposure(key, totalCents);
  }

  /** An offer stopped pending (lost, expired or funded): its reservation and exposure go. */
  offerClosed(totalCents: number, reserves: boolean, key: ExposureKey): void {
    if (reserves) this.reservedCents -= totalCents;
    this.addExposure(key, -totalCents);
  }

  /** A won offer is funded: the money leaves the balance and becomes open principal. */
  loanFunded(principalCents: number, key: ExposureKey): void {
    this.balanceCents -= principalCents;
    this.deployedCents += principalCents;
    this.addExposure(key, principalCents);
  }

  /** An instalment arrived: cash back, principal no longer at risk. */
  instalmentReceived(amountCents: number, principalCents: number, key: ExposureKey): void {
    this.balanceCents += amountCents;
    this.principalGone(principalCents, key);
  }

  /** Money a defaulter still paid after its principal was written off (not principal: it is gone). */
  recoveryReceived(amountCents: number): void {
    this.balanceCents += amountCents;
  }

  /** Principal that will never come back. */
  principalLost(principalCents: number, key: ExposureKey): void {
    this.principalGone(principalCents, key);
  }

  /** Month-to-date data spend at `nowMs` (per-request prices and subscriptions), of `strategy` when given. */
  spendThisMonth(nowMs: number, strategy?: string): number {
    this.rollMonth(nowMs);
    return strategy === undefined ? this.spendThisMonthCents : (this.strategySpendThisMonth.get(strategy) ?? 0);
  }

  /** Whether `provider`'s subscription was charged in the month of `nowMs`. */
  subscribed(nowMs: number, provider: string): boolean {
    this.rollMonth(nowMs);
    return this.subscribedThisMonth.has(provider);
  }

  /**
   * A paid data purchase or a month's subscription (`subscription` names its provider), for
   * `strategy`: billed monthly, so it is counted against the return, not the balance.
   */
  dataBought(nowMs: number, costCents: number, strategy?: string, subscription?: string): void {
    this.rollMonth(nowMs);
    this.spendThisMonthCents += costCents;
    this.dataSpendCents += costCents;
    if (strategy !== undefined) this.strategySpendThisMonth.set(strategy, (this.strategySpendThisMonth.get(strategy) ?? 0) + costCents);
    if (subscription !== undefined) {
      this.subscribedThisMonth.add(subscription);
      this.subscriptionCents += costCents;
    }
  }

  private principalGone(principalCents: number, key: ExposureKey): void {
    this.deployedCents -= principalCents;
    this.addExposure(key, -principalCents);
  }

  private addExposure(key: ExposureKey, cents: number): void {
    this.exposureCents += cents;
    const borrower = (this.byBorrower.get(key.borrowerId) ?? 0) + cents;
    if (borrower === 0) this.byBorrower.delete(key.borrowerId);
    else this.byBorrower.set(key.borrowerId, borrower);
    this.byRiskLevel[key.riskLevel] = (this.byRiskLevel[key.riskLevel] ?? 0) + cents;
    if (cents > 0) {
      this.largestExposureCents = Math.max(this.largestExposureCents, this.exposureCents);
      this.largestBorrowerExposureCents = Math.max(this.largestBorrowerExposureCents, borrower);
    }
  }

  private rollDay(nowMs: number): void {
    if (nowMs >= this.dayStartMs + DAY_MS) {
      this.dayStartMs = nowMs - (nowMs % DAY_MS);
      this.offersToday = 0;
      this.amountTodayCents = 0;
    }
  }

  private rollMonth(nowMs: number): void {
    const month = monthStartMs(nowMs);
    if (month !== this.spendMonthMs) {
      this.spendMonthMs = month;
      this.spendThisMonthCents = 0;
      this.strategySpendThisMonth.clear();
      this.subscribedThisMonth.clear();
    }
  }
}

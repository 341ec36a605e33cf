/**
 * The risk guard: a pure function of (offer, snapshot, limits), so the live daemon and the
 * backtester (with a simulated ledger) refuse exactly the same offers. A refusal is a value with
 * a machine-readable code and a reason that names the figures, never an exception.
 *
 * Checks run in a fixed order and the first failure is reported: kill switch, a protection's
 * pause, a non-positive total, rate bounds, the request's max rate, risk level, balance, open
 * exposure, per borrower, share per risk level, offers per day, amount per day.
 *
 * Every rule but the two rate rules is about the amount alone: asked `beforePricing` (the decide
 * step asks so before buying data for a request), the guard checks those and skips the rate
 * rules, so data is never bought, nor a price searched, for an offer it would refuse anyway.
 */
import { MAX_RATE, MIN_RATE, RISK_LEVEL_NAMES, formatCents as usd, parseCents, type Cents, type LoanRequest } from '../domain/index.js';
import { guardReason, type GuardReason, type GuardRule } from '../domain/decision-reason.js';
import { balanceShortfall } from './balance-rule.js';
import { capsNow } from './money-caps.js';
import type { RiskLimits } from './risk-limits.js';

/** What the guard knows about the world when it checks an offer. */
export interface GuardSnapshot {
  /** Money usable now (see docs/risk-guard.md for how transfers count). */
  balanceCents: Cents;
  /** Held back by pending automate_fund offers. */
  reservedCents: Cents;
  exposureCents: Cents;
  exposureByBorrowerCents: (borrowerId: number) => Cents;
  exposureByRiskLevelCents: Record<number, Cents>;
  offersToday: number;
  amountTodayCents: Cents;
  /** The kill switch file exists (the config flag is read from the limits). */
  killSwitchOn: boolean;
  /** A protection's pause of new offers, with its reason (the daemon's protections; none in a backtest). */
  pauseReason?: string | undefined;
}

export type GuardRefusalCode =
  | 'kill_switch'
  | 'paused'
  | 'invalid_total'
  | 'rate_out_of_bounds'
  | 'rate_above_max'
  | 'risk_level_not_allowed'
  | 'insufficient_balance'
  | 'max_open_exposure'
  | 'max_per_borrower'
  | 'max_share_by_risk_level'
  | 'max_offers_per_day'
  | 'max_amount_per_day'
  /** A live split's arm would commit more than its share of the capital (arm-share-rule.ts). */
  | 'arm_share';

/** A refusal's reason is a value (its stored text: reasonText); its guardCode is `code`. */
export type GuardResult = { allowed: true } | { allowed: false; reason: GuardReason; code: GuardRefusalCode };

export type OfferToCheck =
  | { request: LoanRequest; rate: number; automateFund: boolean }
  /** Before pricing (the decide step asks so before buying data): the rate rules are skipped. */
  | { request: LoanRequest; beforePricing: true; automateFund: boolean };

function refuse(rule: GuardRule & { guardCode: GuardRefusalCode }): GuardResult {
  return { allowed: false, code: rule.guardCode, reason: guardReason(rule) };
}

/** A share as percent with one decimal, as the reason shows it ("35.4"). */
function percent(share: number): string {
  return (share * 100).toFixed(1);
}

/** Whether lendbot may make this offer now; the first rule broken is the reason. */
export function checkOffer(input: OfferToCheck, snapshot: GuardSnapshot, limits: RiskLimits): GuardResult {
  const { request } = input;
  const total = parseCents(request.total_amount);
  const level = request.borrower_card_color;

  if (limits.killSwitch) return refuse({ guardCode: 'kill_switch' });
  if (snapshot.killSwitchOn) return refuse({ guardCode: 'kill_switch', file: limits.killSwitchFile ?? '?' });
  if (snapshot.pauseReason !== undefined) return refuse({ guardCode: 'paused', why: snapshot.pauseReason });

  // A second line behind the client's validation: an offer on nothing (or less) is never made.
  if (!Number.isSafeInteger(total) || total <= 0) return refuse({ guardCode: 'invalid_total', at: 'offer', total: request.total_amount });

  // An offer without a rate (a caller's mistake) fails the first rate rule: only an explicit
  // beforePricing skips them.
  if (!('beforePricing' in input)) {
    const { rate } = input;
    if (!Number.isFinite(rate) || rate < MIN_RATE || rate > MAX_RATE) {
      return refuse({ guardCode: 'rate_out_of_bounds', rate: String(rate), min: String(MIN_RATE), max: MAX_RATE.toFixed(1) });
    }
    if (rate > request.max_interest_rate) {
      return refuse({ guardCode: 'rate_above_max', rate: String(rate), max: String(request.max_interest_rate) });
    }
  }
  if (!limits.allowedRiskLevels.includes(level)) {
    const allowed = limits.allowedRiskLevels.join(', ') || 'none';
    return refuse({ guardCode: 'risk_level_not_allowed', level: String(level), name: RISK_LEVEL_NAMES[level] ?? 'unknown', allowed });
  }

  // Marketplace 4.2 rule 4 and 4.3: funding needs a balance that EXCEEDS the total. With automate_fund
  // the service funds at acceptance; without it the lender funds by hand later, and an offer the
  // lender cannot fund is a broken promise, so by default it must fit too (reserveManualOffers).
  if (input.automateFund || limits.reserveManualOffers) {
    const shortfall = balanceShortfall({
      balanceCents: snapshot.balanceCents,
      reservedCents: snapshot.reservedCents,
      reserveCents: limits.minCashReserveCents,
      totalCents: total,
    });
    if (shortfall !== undefined) return refuse({ guardCode: 'insufficient_balance', at: 'offer', ...shortfall });
  }

  // Exposure is money out: never less than nothing, whatever a snapshot built from the service's
  // figures says (a negative loan balance once lifted the cap: docs/risk-guard.md, "Exposure").
  const exposureCents = Math.max(0, snapshot.exposureCents);
  const exposureAfter = exposureCents + total;
  // Caps given as shares are of the capital this snapshot shows (money-caps.ts).
  const caps = capsNow(limits, { ...snapshot, exposureCents });
  if (caps.maxOpenExposureCents !== undefined && exposureAfter > caps.maxOpenExposureCents) {
    return refuse({
      guardCode: 'max_open_exposure',
      exposure: usd(exposureCents),
      total: usd(total),
      max: usd(caps.maxOpenExposureCents),
    });
  }
  if (caps.maxPerBorrowerCents !== undefined) {
    const borrower = Math.max(0, snapshot.exposureByBorrowerCents(request.borrower.id));
    if (borrower + total > caps.maxPerBorrowerCents) {
      return refuse({
        guardCode: 'max_per_borrower',
        borrower: String(request.borrower.id),
        exposure: usd(borrower),
        total: usd(total),
        max: usd(caps.maxPerBorrowerCents),
      });
    }
  }
  const maxShare = limits.maxShareByRiskLevel?.[level];
  if (maxShare !== undefined) {
    // Shares are of the exposure budget, so the first offers of a level are not refused for
    // being 100% of a still-small book; without a budget, of the exposure after this offer.
    const base = Math.max(caps.maxOpenExposureCents ?? 0, exposureAfter);
    const levelAfter = Math.max(0, snapshot.exposureByRiskLevelCents[level] ?? 0) + total;
    if (levelAfter > maxShare * base) {
      return refuse({
        guardCode: 'max_share_by_risk_level',
        level: String(level),
        exposure: usd(levelAfter - total),
        total: usd(total),
        share: percent(levelAfter / base),
        base: usd(base),
        max: percent(maxShare),
      });
    }
  }
  if (limits.maxOffersPerDay !== undefined && snapshot.offersToday >= limits.maxOffersPerDay) {
    return refuse({ guardCode: 'max_offers_per_day', today: String(snapshot.offersToday), max: String(limits.maxOffersPerDay) });
  }
  if (caps.maxAmountPerDayCents !== undefined && snapshot.amountTodayCents + total > caps.maxAmountPerDayCents) {
    return refuse({
      guardCode: 'max_amount_per_day',
      today: usd(snapshot.amountTodayCents),
      total: usd(total),
      max: usd(caps.maxAmountPerDayCents),
    });
  }
  return { allowed: true };
}

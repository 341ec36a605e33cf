// Every reason form the engine, the guard and the pipeline produce, read back in plain words.
// Guard, funding, filter and score reasons are made by the real code (so a changed wording there
// fails here); pricing, data, plugin and placement reasons are written out as their templates in
// src/engine and src/daemon make them.
import { describe, expect, it } from 'vitest';
import { reasonText } from '../../src/domain/decision-reason.js';
import {
  checkFunding,
  checkOffer,
  UNCAPPED_RISK_LIMITS,
  type GuardRefusalCode,
  type GuardSnapshot,
  type RiskLimits,
} from '../../src/risk/index.js';
import { storedReason } from '../../src/store/reason-texts-to-values.js';
import { reasonWords, skipReasonWords } from '../../src/log/human-reasons.js';
import { dollars, percent } from '../../src/log/plain-figures.js';
import { compileText } from '../engine/compile-text.js';
import { loanRequest as engineRequest } from '../engine/fixtures.js';
import { snapshot } from '../risk/guard-snapshot.js';
import { checkArmShare } from '../../src/risk/arm-share-rule.js';
import { loanRequest, type LoanRequestOverrides } from '../store/fixtures.js';

/** A stored reason text in plain words (its value read back as the store and the log reader do). */
const humanReason = (text: string): string => reasonWords(storedReason(text));
/** Why a request was skipped, from its stored reason texts. */
const skipReasonText = (texts: readonly string[]): string => skipReasonWords(texts.map(storedReason));

/** The guard's reason for an offer of `rate` on a request of 536.00 (or as overridden). */
function guardReason(
  options: {
    snapshot?: Partial<GuardSnapshot>;
    limits?: Partial<RiskLimits>;
    request?: LoanRequestOverrides;
    rate?: number;
    total?: string;
  } = {},
): string {
  const request = {
    ...loanRequest({ totalAmount: '536.00', ...options.request }),
    ...(options.total === undefined ? {} : { total_amount: options.total }),
  };
  const result = checkOffer({ request, rate: options.rate ?? 0.3, automateFund: true }, snapshot(options.snapshot), {
    ...UNCAPPED_RISK_LIMITS,
    ...options.limits,
  });
  if (result.allowed) throw new Error('the guard allowed it');
  return reasonText(result.reason);
}

// A Record over every refusal code: a new code fails to compile until it is read here.
const GUARD_CASES: Record<GuardRefusalCode, Array<[string, string]>> = {
  kill_switch: [
    [guardReason({ limits: { killSwitch: true } }), 'the kill switch is on (risk.kill_switch)'],
    [
      guardReason({ snapshot: { killSwitchOn: true }, limits: { killSwitchFile: 'data/STOP' } }),
      'the kill switch is on (file data/STOP exists)',
    ],
  ],
  paused: [
    [
      guardReason({ snapshot: { pauseReason: 'paused by the operator; until resume_offers or lendbot resume' } }),
      'offers are paused: paused by the operator; until resume_offers or lendbot resume',
    ],
  ],
  invalid_total: [[guardReason({ total: '0.00' }), "the request's total 0.00 is not a positive amount"]],
  rate_out_of_bounds: [[guardReason({ rate: 2.5 }), "the rate 250 % is outside the marketplace's 3 % to 200 %"]],
  rate_above_max: [[guardReason({ rate: 0.3, request: { maxInterestRate: 0.25 } }), "the rate 30 % is above the borrower's maximum 25 %"]],
  risk_level_not_allowed: [
    [guardReason({ request: { riskLevel: 3 } }), 'risk level friends is not allowed (allowed: low, medium, high)'],
    [guardReason({ request: { riskLevel: 3 }, limits: { allowedRiskLevels: [] } }), 'risk level friends is not allowed (allowed: none)'],
  ],
  insufficient_balance: [
    // The example: engine jargon in, plain words out.
    [
      guardReason({ snapshot: { balanceCents: 119_800, reservedCents: 89_850 } }),
      'not enough free cash: $299.50 free, the offer needs $536.00',
    ],
    [
      guardReason({ snapshot: { balanceCents: 153_600, reservedCents: 50_000 }, limits: { minCashReserveCents: 50_000 } }),
      'not enough free cash: exactly $536.00 free, and an offer needs more than its total',
    ],
    // Reservations beyond the balance: no "-$290.84 free" (issue 27), the figures instead.
    [
      guardReason({ snapshot: { balanceCents: 100_000, reservedCents: 129_084 } }),
      'free cash fully committed: of the $1,000.00 balance, $1,290.84 is reserved by open offers; the offer needs $536.00',
    ],
    [
      guardReason({ snapshot: { balanceCents: 100_000, reservedCents: 80_000 }, limits: { minCashReserveCents: 20_000 } }),
      'free cash fully committed: of the $1,000.00 balance, $800.00 is reserved by open offers and $200.00 kept as the cash reserve; the offer needs $536.00',
    ],
  ],
  max_open_exposure: [
    [
      guardReason({ snapshot: { exposureCents: 980_000 }, limits: { maxOpenExposureCents: 1_000_000 } }),
      'open loans would reach $10,336.00, over the limit $10,000.00',
    ],
  ],
  max_per_borrower: [
    [
      guardReason({ snapshot: { exposureByBorrowerCents: () => 60_000 }, limits: { maxPerBorrowerCents: 100_000 } }),
      'borrower 501 would owe $1,136.00, over the per-borrower limit $1,000.00',
    ],
  ],
  max_share_by_risk_level: [
    [
      guardReason({
        snapshot: { exposureByRiskLevelCents: { 1: 300_000 } },
        limits: { maxOpenExposureCents: 1_000_000, maxShareByRiskLevel: { 1: 0.3 } },
      }),
      'risk level medium would be 35.4 % of the book, over its limit 30.0 %',
    ],
  ],
  max_offers_per_day: [
    [guardReason({ snapshot: { offersToday: 20 }, limits: { maxOffersPerDay: 20 } }), 'already 20 offers today, the daily limit'],
  ],
  max_amount_per_day: [
    [
      guardReason({ snapshot: { amountTodayCents: 240_000 }, limits: { maxAmountPerDayCents: 250_000 } }),
      'offers today would reach $2,936.00, over the daily limit $2,500.00',
    ],
  ],
  arm_share: [[armShareReason(), 'split arm offer-all would commit $5,536.00, over its 50 % share of the capital $10,000.00']],
};

/** The arm-share rule's reason for an offer of 536.00 by an arm that committed 5,000.00 of a 10,000.00 capital at 50 %. */
function armShareReason(): string {
  const result = checkArmShare({ strategies: ['offer-all', 'b'], shares: [0.5, 0.5] }, 0, 53_600, {
    committedCents: 500_000,
    balanceCents: 600_000,
    lentCents: 400_000,
  });
  if (result.allowed) throw new Error('the arm rule allowed it');
  return reasonText(result.reason);
}

function fundingReason(totalCents: number, balanceCents: number, reservedByOthersCents: number): string {
  const result = checkFunding({ totalCents, balanceCents, reservedByOthersCents }, { minCashReserveCents: 0 });
  if (result.allowed) throw new Error('funding allowed');
  return reasonText(result.reason);
}

/** The strategy's reasons for the engine fixture's request (credit score 650-700, 1050.00 total). */
function strategyReasons(body: string): string[] {
  return compileText(body).evaluate(engineRequest(), {}).reasons.map(reasonText);
}

const SCORE = `
score:
  logistic:
    intercept: 0
    terms:
      - { feature: credit_score_mid, weight: 0, missing: 0 }
  min_probability: 0.6
pricing:
  target_return: 0.08
`;

describe('human reasons', () => {
  it.each(Object.entries(GUARD_CASES).flatMap(([code, cases]) => cases.map(([reason, human]) => [code, reason, human])))(
    'guard %s: %s',
    (_code, reason, human) => {
      expect(humanReason(reason)).toBe(human);
    },
  );

  it('reads the guard at funding time', () => {
    expect(humanReason(fundingReason(0, 100_000, 0))).toBe('nothing to fund: the total is 0 cents');
    expect(humanReason(fundingReason(53_600, 119_800, 89_850))).toBe('not enough free cash to fund: $299.50 free, the loan needs $536.00');
    expect(humanReason(fundingReason(53_600, 53_600, 0))).toBe(
      'not enough free cash to fund: exactly $536.00 free, and funding needs more than the total',
    );
    expect(humanReason(fundingReason(53_600, 50_000, 70_000))).toBe(
      'free cash fully committed: of the $500.00 balance, $700.00 is reserved by open offers; the loan needs $536.00',
    );
  });

  it('reads every filter form, as the strategy makes them', () => {
    const filters = (lines: string) => strategyReasons(`data: { banking_data: never }\nfilters:\n${lines}\n${SCORE}`);
    expect(filters('  - { feature: credit_score_low, min: 700 }').map(humanReason)).toEqual([
      "credit score is under the strategy's minimum 700",
    ]);
    expect(filters('  - { feature: hard_inquiries, max: 1 }').map(humanReason)).toEqual([
      "hard inquiries is over the strategy's maximum 1",
    ]);
    expect(filters('  - { feature: max_interest_rate, max: 0.25 }').map(humanReason)).toEqual([
      "borrower's maximum rate is over the strategy's maximum 25 %",
    ]);
    expect(filters('  - { feature: risk_level, in: [0, 2] }').map(humanReason)).toEqual(['risk level is not one of low, high']);
    expect(filters('  - { feature: risk_level_name, not_in: [medium, high] }').map(humanReason)).toEqual([
      'risk level name is one of the excluded medium, high',
    ]);
    expect(filters('  - { feature: negative_balance_count, max: 0, missing: fail }').map(humanReason)).toEqual([
      'no negative balance count known, and the strategy requires it',
    ]);
  });

  it('reads the score and the data a strategy asks for, as the strategy makes them', () => {
    const reasons = strategyReasons(`data: { banking_data: never }\n${SCORE}`);
    expect(reasons).toEqual(['score probability 0.50 < min_probability 0.60']);
    expect(reasons.map(humanReason)).toEqual(["chance of full repayment 50 % is under the strategy's minimum 60 %"]);
    const needs = compileText(`data: { banking_data: always }\n${SCORE}`).evaluate(engineRequest(), {}).reasons;
    expect(needs.map(reasonWords)).toEqual(['banking data needed (policy always)']);
  });

  // Written as the templates in src/engine and src/daemon make them.
  it.each([
    ['score probability 0.8412', 'chance of full repayment 84.12 %'],
    ['data budget 11.50 + 1.00 > 12.00 for acme', "this month's data budget is used up: $11.50 of $12.00 spent, acme costs $1.00"],
    [
      'data budget 0.00 + 25.00 > 20.00 for acme (monthly subscription)',
      "this month's data budget is used up: $0.00 of $20.00 spent, acme's subscription costs $25.00",
    ],
    ['data still missing after buying; skipped', 'the data it needs is still missing after buying it'],
    ['data banking_data not found', 'no banking data to be had for this borrower'],
    ['data borrower_history not found', 'no borrower history to be had for this borrower'],
    ['data acme unavailable: 404 not found', 'the acme score is unavailable (404 not found)'],
    [
      'data banking_data unreadable after 4 tries: MALFORMED_RESPONSE',
      "decided without the banking data: the marketplace's answer could not be read 4 times (MALFORMED_RESPONSE)",
    ],
    ['data provider_a acme unavailable', 'the acme score is unavailable'],
    ['data provider_b acme needed: probability 0.55 in [0.4, 0.7]', 'asked acme: chance of repayment 55 % is between 40 % and 70 %'],
    [
      'data provider_a acme not bought: probability 0.9 outside [0.4, 0.7]',
      'acme not asked: chance of repayment 90 % is outside 40 % to 70 %',
    ],
    ['data borrower_history needed (free filters passed)', 'borrower history needed (free filters passed)'],
    ['price ceiling 0.02 < minimum rate 0.03', "the strategy's ceiling 2 % is below the lowest rate offered, 3 %"],
    ['price break-even 0.31 > max_interest_rate 0.25', "it would take 31 % to break even, above the borrower's maximum rate 25 %"],
    [
      'price expected_profit <= 0 USD at every rate in [0.12, 0.25]; break-even 0.1108',
      'no rate from 12 % to 25 % is expected to earn (break-even 11.08 %)',
    ],
    [
      'price required_rate 0.41 > ceiling_share_of_max 0.36',
      "the rate it needs, 41 %, is above the strategy's share of the borrower's maximum 36 %",
    ],
    ['price payment_to_income unknown (annual_income missing)', "the borrower's income is unknown, so the payment cannot be weighed"],
    ['price payment_to_income 0.45 > 0.35', "the payment would take 45 % of monthly income, over the strategy's 35 %"],
    ['price max_rate offered 0.6 (max_interest_rate)', "offered 60 %, the borrower's maximum rate"],
    [
      'price max_rate offered 0.54 (ceiling_share_of_max), required_rate 0.21',
      "offered 54 %, the strategy's share of the borrower's maximum (needs 21 %)",
    ],
    [
      'price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108',
      'offered 22.8 %: 42 % chance of acceptance, expected profit $25.70 (break-even 11.08 %)',
    ],
    ['price required_rate 0.2112, offered 0.228', 'offered 22.8 % (needs 21.12 %)'],
    [
      'price cash_hurdle +0.0213 to 0.1013: free 1200.00 USD less this loan 500.00 USD against 3100.00 USD expected demand in 14 days',
      "target return raised by 2.13 % to 10.13 %: $1,200.00 free less this loan's $500.00 against $3,100.00 expected in 14 days",
    ],
    [
      'price expected_profit 0.228: P(accept) 0.42 × profit 61.20 USD = 25.70 USD; break-even 0.1108; market learned v3 (12 fates)',
      'offered 22.8 %: 42 % chance of acceptance, expected profit $25.70 (break-even 11.08 %)',
    ],
    ['plugin asked for data without naming any', 'the plugin strategy asked for data without naming any'],
    ['plugin rate 0.9 outside [0.03, 0.6]', "the plugin strategy's rate 90 % is outside 3 % to 60 %"],
    ['plugin action "maybe" is not offer, skip or needs_data', 'the plugin strategy answered "maybe", not offer, skip or needs_data'],
    ['service refused: invalid_request: Offer rate too high', 'the marketplace refused the offer (invalid_request: Offer rate too high)'],
    ['offer outcome unknown: timeout after 10000 ms', 'offer sent, outcome unknown until the next poll (timeout after 10000 ms)'],
    ['offer already recorded (placed); not sent again', 'an offer was already made (placed), not sent again'],
    [
      'crypto-backed requests are not allowed by risk.allowed_risk_levels',
      'crypto-backed requests are not allowed (risk.allowed_risk_levels)',
    ],
    [
      'balanced: filter loan_amount > 5000; cautious: filter crypto_backed not in [false]',
      "balanced: loan amount is over the strategy's maximum 5000; cautious: crypto backed is not one of false",
    ],
  ])('%s', (reason, human) => {
    expect(humanReason(reason)).toBe(human);
  });

  it('shows a reason of a form it does not know as it is', () => {
    expect(humanReason('my plugin: borrower looks shaky')).toBe('my plugin: borrower looks shaky');
    expect(humanReason('')).toBe('');
  });

  it('says which reason decided a skip', () => {
    const guard = 'guard balance 1198.00 - reserved 898.50 - reserve 0.00 < total 536.00';
    expect(skipReasonText(['score probability 0.81', 'price required_rate 0.2, offered 0.228', guard])).toBe(
      'not enough free cash: $299.50 free, the offer needs $536.00',
    );
    expect(skipReasonText(['filter credit_score_low < 600', 'filter hard_inquiries > 3', 'filter loan_terms > 24'])).toBe(
      "credit score is under the strategy's minimum 600 (and 2 more filters)",
    );
    expect(skipReasonText(['data provider_a acme unavailable', 'filter acme_score < 600'])).toBe(
      "acme score is under the strategy's minimum 600",
    );
    expect(
      skipReasonText([
        'data banking_data needed (free filters passed)',
        'data banking_data not found',
        'data still missing after buying; skipped',
      ]),
    ).toBe('no banking data to be had for this borrower');
    expect(skipReasonText([])).toBe('no reason recorded');
  });

  it('writes money and rates as people read them', () => {
    expect(dollars('1198.00')).toBe('$1,198.00');
    expect(dollars(-5)).toBe('-$5.00');
    expect(dollars('n/a')).toBe('n/a');
    expect(percent(0.228)).toBe('22.8 %');
    expect(percent('0.2283')).toBe('22.83 %');
    expect(percent(0.03)).toBe('3 %');
  });
});

/**
 * The engine's and the guard's reasons (src/domain/decision-reason.ts) said in short plain words
 * for a person: `reasonWords` renders a typed reason ("not enough free cash: $299.50 free, the
 * offer needs $536.00") the way `reasonText` renders its machine text ("guard balance 1198.00 -
 * reserved 898.50 - reserve 0.00 < total 536.00"). Decisions keep their reasons as values
 * (stored beside the machine text since schema 14); a JSON log line's text and a row written
 * before schema 14 are typed again, once, where they are read (terminal-lines.ts, the store's row
 * reader). A reason lendbot does not make itself (a plugin's own) is shown as it is.
 */
import type { DecisionReason, GuardReason } from '../domain/decision-reason.js';
import { dollars, percent, riskLevelName } from './plain-figures.js';

/** A feature or setting name in words: `credit_score_low` is "credit score low". */
function words(name: string): string {
  return FEATURE_WORDS[name] ?? name.replaceAll('_', ' ');
}

/** Names whose plain spelling reads badly; the rest only lose their underscores. */
const FEATURE_WORDS: Record<string, string> = {
  svc_score: 'marketplace score',
  credit_score_low: 'credit score',
  credit_score_mid: 'credit score (mid-range)',
  credit_score_high: 'credit score (top of range)',
  max_interest_rate: "borrower's maximum rate",
  risk_level: 'risk level',
  banking_data: 'banking data',
  borrower_history: 'borrower history',
};

/** A filter bound as the feature's unit shows it: rates as percentages, the rest as written. */
function bound(feature: string, value: string): string {
  const isRate = feature === 'rate' || feature.endsWith('_rate');
  return isRate && Number.isFinite(Number(value)) ? percent(value) : value;
}

/** "a, b" from the engine's list text "[a, b]"; risk levels by name ("low, medium"). */
function listItems(feature: string, text: string): string {
  const items = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return RISK_LEVEL_FEATURES.has(feature) ? items.split(', ').map(riskLevelName).join(', ') : items;
}

/** Features whose values are risk levels (0 to 4). */
const RISK_LEVEL_FEATURES = new Set(['risk_level', 'borrower_risk_level']);

/** Which rate cap a price reason names. */
function capWords(cap: string): string {
  switch (cap) {
    case 'max_interest_rate':
      return "the borrower's maximum rate";
    case 'ceiling':
      return "the strategy's ceiling";
    case 'ceiling_share_of_max':
      return "the strategy's share of the borrower's maximum";
    default:
      return words(cap);
  }
}

/** Cents of the engine's money text, so sums of figures are exact. */
function cents(amount: string): number {
  return Math.round(Number(amount) * 100);
}

/** The sum of two of the engine's money texts, as dollars. */
function sum(a: string, b: string): string {
  return dollars((cents(a) + cents(b)) / 100);
}

/**
 * A balance-rule refusal in words: the free cash when some is left; when none is (reservations
 * and the reserve take the whole balance, or more), "fully committed" with the figures, never a
 * negative amount of free cash.
 */
function shortOfCash(what: 'offer' | 'fund', balance: string, reserved: string, reserve: string, total: string): string {
  const free = cents(balance) - cents(reserved) - cents(reserve);
  const needs = what === 'offer' ? `the offer needs ${dollars(total)}` : `the loan needs ${dollars(total)}`;
  if (free > 0) return `not enough free cash${what === 'fund' ? ' to fund' : ''}: ${dollars(free / 100)} free, ${needs}`;
  const kept = cents(reserve) > 0 ? ` and ${dollars(reserve)} kept as the cash reserve` : '';
  return `free cash fully committed: of the ${dollars(balance)} balance, ${dollars(reserved)} is reserved by open offers${kept}; ${needs}`;
}

/** A guard refusal in plain words. */
function guardWords(reason: GuardReason): string {
  switch (reason.guardCode) {
    case 'kill_switch':
      return reason.file === undefined ? 'the kill switch is on (risk.kill_switch)' : `the kill switch is on (file ${reason.file} exists)`;
    case 'paused':
      return `offers are paused: ${reason.why}`;
    case 'invalid_total':
      return reason.at === 'funding'
        ? `nothing to fund: the total is ${reason.totalCents} cents`
        : `the request's total ${reason.total} is not a positive amount`;
    case 'rate_out_of_bounds':
      return `the rate ${percent(reason.rate)} is outside the marketplace's ${percent(reason.min)} to ${percent(reason.max)}`;
    case 'rate_above_max':
      return `the rate ${percent(reason.rate)} is above the borrower's maximum ${percent(reason.max)}`;
    case 'risk_level_not_allowed': {
      const allowed = reason.allowed === 'none' ? 'none' : reason.allowed.split(', ').map(riskLevelName).join(', ');
      return `risk level ${reason.name} is not allowed (allowed: ${allowed})`;
    }
    case 'insufficient_balance':
      if (!reason.equal)
        return shortOfCash(reason.at === 'funding' ? 'fund' : 'offer', reason.balance, reason.reserved, reason.reserve, reason.total);
      return reason.at === 'funding'
        ? `not enough free cash to fund: exactly ${dollars(reason.total)} free, and funding needs more than the total`
        : `not enough free cash: exactly ${dollars(reason.total)} free, and an offer needs more than its total`;
    case 'max_open_exposure':
      return `open loans would reach ${sum(reason.exposure, reason.total)}, over the limit ${dollars(reason.max)}`;
    case 'max_per_borrower':
      return `borrower ${reason.borrower} would owe ${sum(reason.exposure, reason.total)}, over the per-borrower limit ${dollars(reason.max)}`;
    case 'max_share_by_risk_level':
      return `risk level ${riskLevelName(reason.level)} would be ${reason.share} % of the book, over its limit ${reason.max} %`;
    case 'max_offers_per_day':
      return `already ${reason.max} offers today, the daily limit`;
    case 'max_amount_per_day':
      return `offers today would reach ${sum(reason.today, reason.total)}, over the daily limit ${dollars(reason.max)}`;
    case 'arm_share':
      return `split arm ${reason.arm} would commit ${sum(reason.committed, reason.total)}, over its ${reason.share} % share of the capital ${dollars(reason.capital)}`;
  }
}

/** A filter's, the score's or buying data's reason in plain words. */
function engineWords(reason: Extract<DecisionReason, { code: `filter_${string}` | `score${string}` | `data_${string}` }>): string {
  switch (reason.code) {
    case 'filter_failed':
      if (reason.test === 'missing') return `no ${words(reason.feature)} known, and the strategy requires it`;
      if (reason.test === '<') return `${words(reason.feature)} is under the strategy's minimum ${bound(reason.feature, reason.bound)}`;
      if (reason.test === '>') return `${words(reason.feature)} is over the strategy's maximum ${bound(reason.feature, reason.bound)}`;
      if (reason.test === 'not in') return `${words(reason.feature)} is not one of ${listItems(reason.feature, reason.bound)}`;
      return `${words(reason.feature)} is one of the excluded ${listItems(reason.feature, reason.bound)}`;
    case 'score':
      return `chance of full repayment ${percent(reason.probability)}`;
    case 'score_below_min':
      return `chance of full repayment ${percent(reason.probability)} is under the strategy's minimum ${percent(reason.min)}`;
    case 'score_history_anchor':
      return `the rates of the borrower's ${reason.loans} completed loans imply ${percent(reason.implied)} default after this lender's costs, weighed ${percent(reason.weight)} against the learned default level`;
    case 'data_budget':
      return `this month's data budget is used up: ${dollars(reason.spent)} of ${dollars(reason.budget)} spent, ${reason.what}${reason.subscription ? "'s subscription" : ''} costs ${dollars(reason.cost)}`;
    case 'data_still_missing':
      return 'the data it needs is still missing after buying it';
    case 'data_not_found':
      return `no ${words(reason.what)} to be had for this borrower`;
    case 'data_unreadable':
      return `decided without the ${words(reason.what)}: the marketplace's answer could not be read ${reason.tries} times (${reason.errorCode})`;
    case 'data_provider_unavailable':
      return `the ${reason.provider} score is unavailable`;
    case 'data_unavailable':
      return `the ${reason.what} score is unavailable (${reason.detail})`;
    case 'data_provider_needed':
      return `asked ${reason.provider}: chance of repayment ${percent(reason.probability)} is between ${percent(reason.min)} and ${percent(reason.max)}`;
    case 'data_provider_not_bought':
      return `${reason.provider} not asked: chance of repayment ${percent(reason.probability)} is outside ${percent(reason.min)} to ${percent(reason.max)}`;
    case 'data_needed':
      return `${words(reason.what)} needed (${reason.why})`;
  }
}

/** A price reason in plain words. */
function priceWords(reason: Extract<DecisionReason, { code: `price_${string}` }>): string {
  switch (reason.code) {
    case 'price_cap_below_minimum':
      return `${capWords(reason.cap)} ${percent(reason.rate)} is below the lowest rate offered, ${percent(reason.minimum)}`;
    case 'price_break_even_above_cap':
      return `it would take ${percent(reason.breakEven)} to break even, above ${capWords(reason.cap)} ${percent(reason.rate)}`;
    case 'price_no_profit':
      return `no rate from ${percent(reason.low)} to ${percent(reason.cap)} is expected to earn (break-even ${percent(reason.breakEven)})`;
    case 'price_required_above_cap':
      return `the rate it needs, ${percent(reason.required)}, is above ${capWords(reason.cap)} ${percent(reason.rate)}`;
    case 'price_income_unknown':
      return "the borrower's income is unknown, so the payment cannot be weighed";
    case 'price_payment_to_income':
      return `the payment would take ${percent(reason.share)} of monthly income, over the strategy's ${percent(reason.max)}`;
    case 'price_max_rate':
      return `offered ${percent(reason.rate)}, ${capWords(reason.cap)}${reason.required === undefined ? '' : ` (needs ${percent(reason.required)})`}`;
    case 'price_expected_profit':
      return `offered ${percent(reason.rate)}: ${percent(reason.accept)} chance of acceptance, expected profit ${dollars(reason.value)} (break-even ${percent(reason.breakEven)})`;
    case 'price_required_rate':
      return `offered ${percent(reason.rate)} (needs ${percent(reason.required)})`;
    case 'price_level_uncertain': {
      const learned = `the default level is still being learned (${reason.loans} loans followed for ${reason.loanMonths} loan-months: ${percent(reason.default)} default predicted, ± ${reason.sd} in log-odds)`;
      return reason.mode === 'cost_plus_floor'
        ? `${learned}: priced no lower than ${percent(reason.floor)}, the break-even if ${percent(reason.pessimistic)} default (the pessimistic ${percent(reason.quantile)} quantile); expected profit alone gave ${percent(reason.ep)}`
        : `${learned}: ${percent(reason.weight)} of the way from cost-plus ${percent(reason.costPlus)} to the expected-profit rate ${percent(reason.ep)}`;
    }
    case 'price_cash_hurdle': {
      const moved = reason.shift.startsWith('-') ? 'lowered' : 'raised';
      return `target return ${moved} by ${percent(Math.abs(Number(reason.shift)))} to ${percent(reason.target)}: ${dollars(reason.free)} free less this loan's ${dollars(reason.loan)} against ${dollars(reason.demand)} expected in ${reason.days} days`;
    }
  }
}

/** One reason in plain words (the machine text's twin, src/domain/decision-reason.ts reasonText). */
export function reasonWords(reason: DecisionReason): string {
  switch (reason.code) {
    case 'guard':
      return guardWords(reason);
    case 'plugin_no_needs':
      return 'the plugin strategy asked for data without naming any';
    case 'plugin_rate_outside':
      return `the plugin strategy's rate ${percent(reason.rate)} is outside ${percent(reason.min)} to ${percent(reason.max)}`;
    case 'plugin_bad_action':
      return `the plugin strategy answered ${reason.action}, not offer, skip or needs_data`;
    case 'service_refused':
      return `the marketplace refused the offer (${reason.text})`;
    case 'offer_outcome_unknown':
      return `offer sent, outcome unknown until the next poll (${reason.text})`;
    case 'offer_already_recorded':
      return `an offer was already made (${reason.state}), not sent again`;
    case 'agent_offered':
      return `${reason.agent.replace(/^agent:/, 'agent ')} offered ${percent(reason.rate)} on ${dollars(reason.amount)} (confirmed by ${reason.confirmedVia})`;
    case 'crypto_not_allowed':
      return 'crypto-backed requests are not allowed (risk.allowed_risk_levels)';
    case 'prefiltered':
      return reason.refusals.map(({ strategy, reason: refusal }) => `${strategy}: ${reasonWords(refusal)}`).join('; ');
    case 'other':
      return reason.text;
    case 'price_cap_below_minimum':
    case 'price_break_even_above_cap':
    case 'price_no_profit':
    case 'price_required_above_cap':
    case 'price_income_unknown':
    case 'price_payment_to_income':
    case 'price_max_rate':
    case 'price_expected_profit':
    case 'price_required_rate':
    case 'price_cash_hurdle':
    case 'price_level_uncertain':
      return priceWords(reason);
    default:
      return engineWords(reason);
  }
}

/**
 * Every reason of a decision as one sentence for a person ("Chance of full repayment 78.0 %;
 * offered 22.8 %: 35.0 % chance of acceptance, expected profit $12.34 (break-even 10.0 %).").
 * An offer is explained by all its reasons in order; `skipReasonWords` picks a skip's one.
 */
export function reasonsSentence(reasons: readonly DecisionReason[]): string {
  if (reasons.length === 0) return 'No reason recorded.';
  const text = reasons.map(reasonWords).join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
}

/**
 * Why a request was skipped, in plain words: the reason that decided it. The strategy's failed
 * filters all count (the first is said, the rest counted); otherwise the last reason decided,
 * as the engine appends in order (score, price, then buying's, the guard's, the service's).
 */
export function skipReasonWords(reasons: readonly DecisionReason[]): string {
  const filters = reasons.filter((reason) => reason.code === 'filter_failed');
  const [firstFilter] = filters;
  if (firstFilter !== undefined) {
    const more = filters.length - 1;
    return `${reasonWords(firstFilter)}${more > 0 ? ` (and ${more} more filter${more === 1 ? '' : 's'})` : ''}`;
  }
  const last = reasons.at(-1);
  if (last === undefined) return 'no reason recorded';
  // "Still missing after buying" is the conclusion; the data reason before it says what was missing.
  const before = reasons.at(-2);
  const missingBefore = before !== undefined && (before.code === 'data_not_found' || before.code === 'data_unavailable');
  if (last.code === 'data_still_missing' && missingBefore) return reasonWords(before);
  return reasonWords(last);
}

/**
 * A decision's reason as a Prometheus label of bounded cardinality, from the typed reason: its
 * code (and, for the guard, its rule) says which words, so no number ever reaches a label. The
 * values are the ones the labels had when they were read off the reason's text (its leading
 * words up to the first number, operator or colon, at most three), so dashboards and alerts keep
 * matching; test/ops/reason-label.test.ts checks every reason kind against that reading.
 */
import type { DecisionReason, GuardReason } from '../domain/decision-reason.js';

/** The label of the decisive reason; `none` when there is none. */
export function reasonLabel(reason: DecisionReason | undefined): string {
  if (reason === undefined) return 'none';
  switch (reason.code) {
    case 'filter_failed':
      return named('filter', reason.feature, reason.test);
    case 'score':
    case 'score_below_min':
      return 'score probability';
    case 'score_history_anchor':
      return 'score history anchor';
    case 'data_budget':
      return 'data budget';
    case 'data_still_missing':
      return 'data still missing';
    case 'data_not_found':
      return named('data', reason.what, 'not');
    case 'data_unreadable':
      return named('data', reason.what, 'unreadable');
    case 'data_unavailable':
      return named('data', reason.what, 'unavailable:');
    case 'data_needed':
      return named('data', reason.what, 'needed');
    case 'data_provider_unavailable':
    case 'data_provider_needed':
    case 'data_provider_not_bought':
      return named('data', reason.slot, reason.provider);
    case 'price_cap_below_minimum':
      return named('price', reason.cap, reason.rate);
    case 'price_break_even_above_cap':
      return 'price break-even';
    case 'price_no_profit':
    case 'price_expected_profit':
      return 'price expected_profit';
    case 'price_required_above_cap':
    case 'price_required_rate':
      return 'price required_rate';
    case 'price_income_unknown':
      return 'price payment_to_income unknown';
    case 'price_payment_to_income':
      return 'price payment_to_income';
    case 'price_max_rate':
      return 'price max_rate offered';
    case 'price_cash_hurdle':
      return 'price cash_hurdle';
    case 'price_level_uncertain':
      return 'price level uncertain';
    case 'plugin_no_needs':
      return 'plugin asked for';
    case 'plugin_rate_outside':
      return 'plugin rate';
    case 'plugin_bad_action':
      return named('plugin', 'action', reason.action);
    case 'guard':
      return guardLabel(reason);
    case 'service_refused':
      return 'service refused';
    case 'offer_outcome_unknown':
      return 'offer outcome unknown';
    case 'offer_already_recorded':
      return 'offer already recorded';
    case 'crypto_not_allowed':
      return 'crypto-backed requests are';
    case 'agent_offered':
      return named(reason.agent, 'offered');
    case 'prefiltered':
      // The first strategy's name (its refusals follow its colon).
      return reason.refusals[0] === undefined ? 'none' : named(`${reason.refusals[0].strategy}:`);
    case 'other':
      return reason.text.trim() === '' ? 'none' : named(reason.text);
  }
}

function guardLabel(reason: GuardReason): string {
  switch (reason.guardCode) {
    case 'kill_switch':
      return 'guard kill switch';
    case 'paused':
      return 'guard paused';
    case 'invalid_total':
      return reason.at === 'offer' ? 'guard total_amount' : 'guard funding total';
    case 'rate_out_of_bounds':
    case 'rate_above_max':
      return 'guard rate';
    case 'risk_level_not_allowed':
    case 'max_share_by_risk_level':
      return 'guard risk level';
    case 'insufficient_balance':
      return reason.at === 'funding' ? 'guard funding balance' : 'guard balance';
    case 'max_open_exposure':
      return 'guard exposure';
    case 'max_per_borrower':
      return 'guard borrower';
    case 'max_offers_per_day':
      return 'guard offers today';
    case 'max_amount_per_day':
      return 'guard amount today';
    case 'arm_share':
      return named('guard', 'arm', reason.arm);
  }
}

/**
 * A label with a name in it (a feature, a data source, a strategy, an agent, a plugin's text):
 * the words up to the first with a digit or without a letter, the first ending in a colon, or
 * the third, as the labels read off the text were. The names are the user's own, few and fixed.
 */
function named(...parts: string[]): string {
  const words: string[] = [];
  for (const word of parts.join(' ').trim().split(/\s+/)) {
    if (/\d/.test(word) || /^[^A-Za-z_]+$/.test(word)) break;
    const bare = word.replace(/[:;,]+$/, '');
    if (bare !== '') words.push(bare);
    if (bare !== word || words.length === 3) break;
  }
  return words.length === 0 ? 'other' : words.join(' ');
}

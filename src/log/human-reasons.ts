/**
 * The engine's and the guard's machine reasons ("guard balance 1198.00 - reserved 898.50 -
 * reserve 0.00 < total 536.00") said in short plain words for a terminal ("not enough free cash:
 * $299.50 free, the offer needs $536.00"). Stored decisions and JSON logs keep the machine text;
 * this is only how a person reads it. A reason of a form not known here (a plugin's own, a new
 * one) is shown as it is, never dropped.
 *
 * The forms come from: compile-filters.ts and event-prefilter.ts (filter), yaml-evaluation.ts
 * (score, data), decide-step.ts (data budget, data missing), compile-pricing.ts (price),
 * load-plugin.ts (plugin), check-offer.ts, balance-rule.ts and check-funding.ts (guard), and the
 * pipeline's placement outcomes (service refused, offer outcome unknown, offer already recorded).
 * test/log/human-reasons.test.ts reads back each form: the guard's, the filters' and the score's
 * as that code makes them, the rest as their templates write them.
 */
// The figures as people read them live in plain-figures.ts (shared with chat notifications);
// re-exported here, where the terminal's readers look for them.
import { dollars, percent, riskLevelName } from './plain-figures.js';
export { dollars, percent, riskLevelName } from './plain-figures.js';

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
  return /(^|_)(interest_)?rate$/.test(feature) && Number.isFinite(Number(value)) ? percent(value) : value;
}

/** "a, b" from the engine's list text "[a, b]"; risk levels by name ("low, medium"). */
function listItems(feature: string, text: string): string {
  const items = text.replace(/^\[/, '').replace(/\]$/, '');
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

/** A reason's form and how to say it; the first form that matches wins. */
interface ReasonForm {
  pattern: RegExp;
  say: (...parts: string[]) => string;
}

// Order matters only where forms overlap: the funding forms before the offer's balance form.
const FORMS: readonly ReasonForm[] = [
  // Filters (compile-filters.ts).
  { pattern: /^filter (\w+) missing$/, say: (f) => `no ${words(f)} known, and the strategy requires it` },
  { pattern: /^filter (\w+) < (\S+)$/, say: (f, n) => `${words(f)} is under the strategy's minimum ${bound(f, n)}` },
  { pattern: /^filter (\w+) > (\S+)$/, say: (f, n) => `${words(f)} is over the strategy's maximum ${bound(f, n)}` },
  { pattern: /^filter (\w+) not in (\[.*\])$/, say: (f, list) => `${words(f)} is not one of ${listItems(f, list)}` },
  { pattern: /^filter (\w+) in (\[.*\])$/, say: (f, list) => `${words(f)} is one of the excluded ${listItems(f, list)}` },
  // Webhook prefilter (event-prefilter.ts).
  {
    pattern: /^crypto-backed requests are not allowed by risk\.allowed_risk_levels$/,
    say: () => 'crypto-backed requests are not allowed (risk.allowed_risk_levels)',
  },

  // The score (yaml-evaluation.ts).
  {
    pattern: /^score probability (\S+) < min_probability (\S+)$/,
    say: (p, min) => `chance of full repayment ${percent(p)} is under the strategy's minimum ${percent(min)}`,
  },
  { pattern: /^score probability (\S+)$/, say: (p) => `chance of full repayment ${percent(p)}` },

  // Data (yaml-evaluation.ts, decide-step.ts).
  {
    pattern: /^data budget (\S+) \+ (\S+) > (\S+) for (.+?)( \(monthly subscription\))?$/,
    say: (spent, cost, budget, what, subscription) =>
      `this month's data budget is used up: ${dollars(spent)} of ${dollars(budget)} spent, ${what}${subscription ? "'s subscription" : ''} costs ${dollars(cost)}`,
  },
  { pattern: /^data still missing after buying; skipped$/, say: () => 'the data it needs is still missing after buying it' },
  { pattern: /^data (\w+) not found$/, say: (what) => `no ${words(what)} to be had for this borrower` },
  // The pipeline's last try of a request whose data answers could not be read (src/daemon/pipeline.ts).
  {
    pattern: /^data (\S+) unreadable after (\d+) tries: (\S+)$/,
    say: (what, tries, code) => `decided without the ${words(what)}: the marketplace's answer could not be read ${tries} times (${code})`,
  },
  { pattern: /^data (provider_[ab]) (\S+) unavailable$/, say: (_slot, name) => `the ${name} score is unavailable` },
  { pattern: /^data (\S+) unavailable: (.+)$/, say: (name, detail) => `the ${name} score is unavailable (${detail})` },
  {
    pattern: /^data (provider_[ab]) (\S+) needed: probability (\S+) in \[(\S+), (\S+)\]$/,
    say: (_slot, name, p, min, max) => `asked ${name}: chance of repayment ${percent(p)} is between ${percent(min)} and ${percent(max)}`,
  },
  {
    pattern: /^data (provider_[ab]) (\S+) not bought: probability (\S+) outside \[(\S+), (\S+)\]$/,
    say: (_slot, name, p, min, max) => `${name} not asked: chance of repayment ${percent(p)} is outside ${percent(min)} to ${percent(max)}`,
  },
  { pattern: /^data (\w+) needed \((.+)\)$/, say: (what, why) => `${words(what)} needed (${why})` },

  // Pricing (compile-pricing.ts).
  {
    pattern: /^price (\w+) (\S+) < minimum rate (\S+)$/,
    say: (cap, rate, min) => `${capWords(cap)} ${percent(rate)} is below the lowest rate offered, ${percent(min)}`,
  },
  {
    pattern: /^price break-even (\S+) > (\w+) (\S+)$/,
    say: (even, cap, rate) => `it would take ${percent(even)} to break even, above ${capWords(cap)} ${percent(rate)}`,
  },
  {
    pattern: /^price expected_profit <= 0 USD at every rate in \[(\S+), (\S+)\]; break-even (\S+)$/,
    say: (low, cap, even) => `no rate from ${percent(low)} to ${percent(cap)} is expected to earn (break-even ${percent(even)})`,
  },
  {
    pattern: /^price required_rate (\S+) > (\w+) (\S+)$/,
    say: (need, cap, rate) => `the rate it needs, ${percent(need)}, is above ${capWords(cap)} ${percent(rate)}`,
  },
  { pattern: /^price payment_to_income unknown \(annual_income missing\)$/, say: () => "the borrower's income is unknown, so the payment cannot be weighed" },
  {
    pattern: /^price payment_to_income (\S+) > (\S+)$/,
    say: (share, max) => `the payment would take ${percent(share)} of monthly income, over the strategy's ${percent(max)}`,
  },
  {
    pattern: /^price max_rate offered (\S+) \((\w+)\)(?:, required_rate (\S+))?$/,
    say: (rate, cap, need) => `offered ${percent(rate)}, ${capWords(cap)}${need ? ` (needs ${percent(need)})` : ''}`,
  },
  {
    pattern: /^price expected_profit (\S+): P\(accept\) (\S+) × profit (\S+) USD = (\S+) USD; break-even (\S+)$/,
    say: (rate, accept, _profit, value, even) =>
      `offered ${percent(rate)}: ${percent(accept)} chance of acceptance, expected profit ${dollars(value)} (break-even ${percent(even)})`,
  },
  { pattern: /^price required_rate (\S+), offered (\S+)$/, say: (need, rate) => `offered ${percent(rate)} (needs ${percent(need)})` },

  // A plugin strategy's answer refused (load-plugin.ts).
  { pattern: /^plugin asked for data without naming any$/, say: () => 'the plugin strategy asked for data without naming any' },
  {
    pattern: /^plugin rate (\S+) outside \[(\S+), (\S+)\]$/,
    say: (rate, min, max) => `the plugin strategy's rate ${percent(rate)} is outside ${percent(min)} to ${percent(max)}`,
  },
  { pattern: /^plugin action (.+) is not offer, skip or needs_data$/, say: (action) => `the plugin strategy answered ${action}, not offer, skip or needs_data` },

  // The guard at funding time (check-funding.ts, balance-rule.ts).
  { pattern: /^guard funding total (\S+) cents is not a positive amount$/, say: (cents) => `nothing to fund: the total is ${cents} cents` },
  {
    pattern: /^guard funding balance (\S+) - reserved (\S+) - reserve (\S+) < total (\S+)$/,
    say: (b, r, s, total) => shortOfCash('fund', b, r, s, total),
  },
  {
    pattern: /^guard funding balance (\S+) - reserved (\S+) - reserve (\S+) = total (\S+), must exceed$/,
    say: (_b, _r, _s, total) => `not enough free cash to fund: exactly ${dollars(total)} free, and funding needs more than the total`,
  },

  // The guard at offer time (check-offer.ts, balance-rule.ts).
  { pattern: /^guard kill switch on \(config\)$/, say: () => 'the kill switch is on (risk.kill_switch)' },
  { pattern: /^guard kill switch on \(file (.+)\)$/, say: (file) => `the kill switch is on (file ${file} exists)` },
  { pattern: /^guard paused: (.+)$/, say: (why) => `offers are paused: ${why}` },
  { pattern: /^guard total_amount (\S+) is not a positive amount$/, say: (total) => `the request's total ${total} is not a positive amount` },
  {
    pattern: /^guard rate (\S+) outside (\S+) to (\S+)$/,
    say: (rate, min, max) => `the rate ${percent(rate)} is outside the marketplace's ${percent(min)} to ${percent(max)}`,
  },
  {
    pattern: /^guard rate (\S+) > max_interest_rate (\S+)$/,
    say: (rate, max) => `the rate ${percent(rate)} is above the borrower's maximum ${percent(max)}`,
  },
  {
    pattern: /^guard risk level (\d+) \((\w+)\) not allowed \(allowed (.*)\)$/,
    say: (_level, name, allowed) => `risk level ${name} is not allowed (allowed: ${allowed === 'none' ? 'none' : allowed.split(', ').map(riskLevelName).join(', ')})`,
  },
  {
    pattern: /^guard balance (\S+) - reserved (\S+) - reserve (\S+) < total (\S+)$/,
    say: (b, r, s, total) => shortOfCash('offer', b, r, s, total),
  },
  {
    pattern: /^guard balance (\S+) - reserved (\S+) - reserve (\S+) = total (\S+), must exceed$/,
    say: (_b, _r, _s, total) => `not enough free cash: exactly ${dollars(total)} free, and an offer needs more than its total`,
  },
  {
    pattern: /^guard exposure (\S+) \+ total (\S+) > max (\S+)$/,
    say: (now, total, max) => `open loans would reach ${sum(now, total)}, over the limit ${dollars(max)}`,
  },
  {
    pattern: /^guard borrower (\d+) exposure (\S+) \+ total (\S+) > max (\S+)$/,
    say: (id, now, total, max) => `borrower ${id} would owe ${sum(now, total)}, over the per-borrower limit ${dollars(max)}`,
  },
  {
    pattern: /^guard risk level (\d+) exposure (\S+) \+ total (\S+) = (\S+)% of (\S+) > max (\S+)%$/,
    say: (level, _now, _total, share, _base, max) => `risk level ${riskLevelName(level)} would be ${share} % of the book, over its limit ${max} %`,
  },
  { pattern: /^guard offers today (\d+) >= max (\d+)$/, say: (_today, max) => `already ${max} offers today, the daily limit` },
  {
    pattern: /^guard amount today (\S+) \+ total (\S+) > max (\S+)$/,
    say: (today, total, max) => `offers today would reach ${sum(today, total)}, over the daily limit ${dollars(max)}`,
  },
  {
    pattern: /^guard arm (\S+) committed (\S+) \+ total (\S+) > share (\d+)% of capital (\S+)$/,
    say: (arm, committed, total, share, capital) => `split arm ${arm} would commit ${sum(committed, total)}, over its ${share} % share of the capital ${dollars(capital)}`,
  },

  // What became of the offer sent (the pipeline's placement outcomes).
  { pattern: /^service refused: (.+)$/, say: (text) => `the marketplace refused the offer (${text})` },
  { pattern: /^offer outcome unknown: (.+)$/, say: (text) => `offer sent, outcome unknown until the next poll (${text})` },
  { pattern: /^offer already recorded \((\w+)\); not sent again$/, say: (state) => `an offer was already made (${state}), not sent again` },
];

const STILL_MISSING = 'data still missing after buying; skipped';

/** One machine reason in plain words; the reason itself when its form is not known. */
export function humanReason(reason: string): string {
  // The webhook prefilter says which strategy refused: "balanced: filter loan_amount > 5000; ...".
  if (/^[^:;]+: filter /.test(reason)) {
    return reason
      .split('; ')
      .map((part) => {
        const colon = part.indexOf(': ');
        return colon < 0 ? humanReason(part) : `${part.slice(0, colon)}: ${humanReason(part.slice(colon + 2))}`;
      })
      .join('; ');
  }
  for (const form of FORMS) {
    const match = form.pattern.exec(reason);
    // An optional part that did not match is '' (falsy), never undefined.
    if (match) return form.say(...match.slice(1).map((part) => part ?? ''));
  }
  return reason;
}

/**
 * Why a request was skipped, in plain words: the reason that decided it. The strategy's failed
 * filters all count (the first is said, the rest counted); otherwise the last reason decided,
 * as the engine appends in order (score, price, then buying's, the guard's, the service's).
 */
export function skipReasonText(reasons: readonly string[]): string {
  const filters = reasons.filter((reason) => reason.startsWith('filter '));
  const [firstFilter] = filters;
  if (firstFilter !== undefined) {
    const more = filters.length - 1;
    return `${humanReason(firstFilter)}${more > 0 ? ` (and ${more} more filter${more === 1 ? '' : 's'})` : ''}`;
  }
  const last = reasons.at(-1);
  if (last === undefined) return 'no reason recorded';
  // "Still missing after buying" is the conclusion; the data reason before it says what was missing.
  const before = reasons.at(-2);
  if (last === STILL_MISSING && before !== undefined && /^data \S+ (not found|unavailable)/.test(before)) return humanReason(before);
  return humanReason(last);
}

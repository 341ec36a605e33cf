/**
 * Why a request was (not) offered on, as a value: a code and its figures. Each reason is rendered
 * twice: `reasonText` is the machine text stored in the decisions table and JSON logs (exactly
 * what the writers produced before reasons were values, so old databases read the same), and
 * `reasonWords` (src/log/human-reasons.ts) is the same reason in plain words for a person.
 *
 * Figures are kept as the writer formatted them ("1198.00", "0.2275"): the machine text shows
 * them so. Readers take reasons only as values (the texts of rows written before values were
 * read back once, by the migration in src/store/reason-texts-to-values.ts). A reason lendbot does not make itself (a plugin strategy's, the backtest's
 * oracle, a form added later) is `other` and keeps its text.
 */
import { guardReasonText, type GuardReason } from './decision-guard-reason.js';

export { guardReason, type BalanceFigures, type GuardReason, type GuardRule } from './decision-guard-reason.js';

/** A strategy filter that refused: the feature was missing, out of bounds, or (not) in a list. */
export type FilterReason =
  | { code: 'filter_failed'; feature: string; test: 'missing' }
  /** `bound` is the filter's limit, or its list as the engine writes it ("[0, 1]"). */
  | { code: 'filter_failed'; feature: string; test: '<' | '>' | 'in' | 'not in'; bound: string };

/**
 * The score: the probability of full repayment, and the strategy's minimum when it is under; and,
 * with a learned calibration's history anchor, what the rates of the borrower's completed loans
 * implied (the default after the lender's costs, from `loans` past loans) and the anchor's weight
 * against the learned level.
 */
type ScoreReason =
  | { code: 'score'; probability: string }
  | { code: 'score_below_min'; probability: string; min: string }
  | { code: 'score_history_anchor'; loans: string; implied: string; weight: string };

/** Buying data: what was bought, refused by the budget, or not had. */
type DataReason =
  | { code: 'data_budget'; spent: string; cost: string; budget: string; what: string; subscription: boolean }
  | { code: 'data_still_missing' }
  | { code: 'data_not_found'; what: string }
  | { code: 'data_unreadable'; what: string; tries: string; errorCode: string }
  | { code: 'data_provider_unavailable'; slot: string; provider: string }
  /** `detail` is the service's own words (untrusted). */
  | { code: 'data_unavailable'; what: string; detail: string }
  | { code: 'data_provider_needed'; slot: string; provider: string; probability: string; min: string; max: string }
  | { code: 'data_provider_not_bought'; slot: string; provider: string; probability: string; min: string; max: string }
  | { code: 'data_needed'; what: string; why: string };

/** Pricing: the rate offered and how, or why no rate would do. `cap` names the rate cap (max_interest_rate, ceiling, ...). */
type PriceReason =
  | { code: 'price_cap_below_minimum'; cap: string; rate: string; minimum: string }
  | { code: 'price_break_even_above_cap'; breakEven: string; cap: string; rate: string }
  | { code: 'price_no_profit'; low: string; cap: string; breakEven: string }
  | { code: 'price_required_above_cap'; required: string; cap: string; rate: string }
  | { code: 'price_income_unknown' }
  | { code: 'price_payment_to_income'; share: string; max: string }
  | { code: 'price_max_rate'; rate: string; cap: string; required?: string }
  /** `learned` is the learned market's note ("; market learned v3 (12 fates)"), when one priced it. */
  | {
      code: 'price_expected_profit';
      rate: string;
      accept: string;
      profit: string;
      value: string;
      breakEven: string;
      learned?: string;
      curse?: string;
    }
  | { code: 'price_required_rate'; required: string; rate: string }
  | LevelUncertainReason
  /** The cash hurdle moved the target by `shift` (signed, "+0.0123"); money in dollars, `days` the window. */
  | { code: 'price_cash_hurdle'; shift: string; target: string; free: string; loan: string; demand: string; days: string };

/**
 * The learned default level's uncertainty priced in (`pricing.level_uncertainty`): which learned
 * calibration (its version and the loans, loan-months it rests on), the predicted default and its
 * sd in log-odds, the expected-profit rate (`ep`), and how the uncertainty moved it: a floor at
 * the pessimistic quantile's break-even, or a blend weighted by the evidence towards cost-plus.
 */
export type LevelUncertainReason = {
  code: 'price_level_uncertain';
  version: string;
  loans: string;
  loanMonths: string;
  default: string;
  sd: string;
  ep: string;
} & (
  { mode: 'cost_plus_floor'; quantile: string; pessimistic: string; floor: string } | { mode: 'blend'; weight: string; costPlus: string }
);

/** The machine text of a level-uncertainty reason. */
function levelUncertainText(reason: LevelUncertainReason): string {
  const head = `price level uncertain v${reason.version} (${reason.loans} loans, ${reason.loanMonths} loan-months): default ${reason.default}, sd ${reason.sd}`;
  return reason.mode === 'cost_plus_floor'
    ? `${head}; floor ${reason.floor} at q${reason.quantile} default ${reason.pessimistic}, expected_profit ${reason.ep}`
    : `${head}; blend ${reason.weight} of expected_profit ${reason.ep} over cost-plus ${reason.costPlus}`;
}

/** A plugin strategy's answer refused. */
type PluginReason =
  | { code: 'plugin_no_needs' }
  | { code: 'plugin_rate_outside'; rate: string; min: string; max: string }
  /** `action` as JSON ("\"buy\""). */
  | { code: 'plugin_bad_action'; action: string };

/** What became of the offer sent; `text` is the service's own words (untrusted). */
export type PlacementReason =
  | { code: 'service_refused'; text: string }
  | { code: 'offer_outcome_unknown'; text: string }
  | { code: 'offer_already_recorded'; state: string };

/** What became of an offer sent, as the placer reports it (src/daemon/offer-placer.ts PlaceOutcome). */
export type PlacedOutcome = { kind: 'placed' } | { kind: 'refused' | 'unknown'; text: string } | { kind: 'exists'; state: string };

/** The reason an offer's placement adds; none when it was placed. */
export function placementReason(outcome: PlacedOutcome): PlacementReason | undefined {
  switch (outcome.kind) {
    case 'refused':
      return { code: 'service_refused', text: outcome.text };
    case 'unknown':
      return { code: 'offer_outcome_unknown', text: outcome.text };
    case 'exists':
      return { code: 'offer_already_recorded', state: outcome.state };
    case 'placed':
      return undefined;
  }
}

/** An agent's offer, confirmed by a person or within its allowance: `amount` is the total in dollars ("520.00"). */
type AgentReason = { code: 'agent_offered'; agent: string; rate: string; amount: string; confirmedVia: string };

/** The webhook prefilter: dropped before fetching. `refusals` is each strategy's refusal, by name. */
type PrefilterReason =
  { code: 'crypto_not_allowed' } | { code: 'prefiltered'; refusals: Array<{ strategy: string; reason: DecisionReason }> };

export type DecisionReason =
  | FilterReason
  | ScoreReason
  | DataReason
  | PriceReason
  | PluginReason
  | GuardReason
  | PlacementReason
  | PrefilterReason
  | AgentReason
  /** A reason lendbot does not make itself (a plugin's, the oracle's, a newer form): its text as it is. */
  | { code: 'other'; text: string };

export type ReasonCode = DecisionReason['code'];

/** The stored machine text of a reason, byte for byte as the writers made it before reasons were values. */
export function reasonText(reason: DecisionReason): string {
  switch (reason.code) {
    case 'filter_failed':
      return reason.test === 'missing' ? `filter ${reason.feature} missing` : `filter ${reason.feature} ${reason.test} ${reason.bound}`;
    case 'score':
      return `score probability ${reason.probability}`;
    case 'score_below_min':
      return `score probability ${reason.probability} < min_probability ${reason.min}`;
    case 'score_history_anchor':
      return `score history anchor ${reason.loans} loans: implied default ${reason.implied}, weight ${reason.weight}`;
    case 'data_budget':
      return `data budget ${reason.spent} + ${reason.cost} > ${reason.budget} for ${reason.what}${reason.subscription ? ' (monthly subscription)' : ''}`;
    case 'data_still_missing':
      return 'data still missing after buying; skipped';
    case 'data_not_found':
      return `data ${reason.what} not found`;
    case 'data_unreadable':
      return `data ${reason.what} unreadable after ${reason.tries} tries: ${reason.errorCode}`;
    case 'data_provider_unavailable':
      return `data ${reason.slot} ${reason.provider} unavailable`;
    case 'data_unavailable':
      return `data ${reason.what} unavailable: ${reason.detail}`;
    case 'data_provider_needed':
      return `data ${reason.slot} ${reason.provider} needed: probability ${reason.probability} in [${reason.min}, ${reason.max}]`;
    case 'data_provider_not_bought':
      return `data ${reason.slot} ${reason.provider} not bought: probability ${reason.probability} outside [${reason.min}, ${reason.max}]`;
    case 'data_needed':
      return `data ${reason.what} needed (${reason.why})`;
    default:
      return laterReasonText(reason);
  }
}

/** The pricing, plugin, guard, placement and prefilter texts (split from reasonText to keep each switch short). */
function laterReasonText(reason: Exclude<DecisionReason, FilterReason | ScoreReason | DataReason>): string {
  switch (reason.code) {
    case 'price_cap_below_minimum':
      return `price ${reason.cap} ${reason.rate} < minimum rate ${reason.minimum}`;
    case 'price_break_even_above_cap':
      return `price break-even ${reason.breakEven} > ${reason.cap} ${reason.rate}`;
    case 'price_no_profit':
      return `price expected_profit <= 0 USD at every rate in [${reason.low}, ${reason.cap}]; break-even ${reason.breakEven}`;
    case 'price_required_above_cap':
      return `price required_rate ${reason.required} > ${reason.cap} ${reason.rate}`;
    case 'price_income_unknown':
      return 'price payment_to_income unknown (annual_income missing)';
    case 'price_payment_to_income':
      return `price payment_to_income ${reason.share} > ${reason.max}`;
    case 'price_max_rate':
      return `price max_rate offered ${reason.rate} (${reason.cap})${reason.required === undefined ? '' : `, required_rate ${reason.required}`}`;
    case 'price_expected_profit': {
      // Joined rather than a template literal: a template's pieces stay linked (a V8 rope, a few
      // hundred bytes) for as long as the remembered price is kept, which in a replay is all of it.
      const { rate, accept, profit, value, breakEven, learned, curse } = reason;
      return [
        'price expected_profit ',
        rate,
        ': P(accept) ',
        accept,
        ' × profit ',
        profit,
        ' USD = ',
        value,
        ' USD; break-even ',
        breakEven,
        learned ?? '',
        curse ?? '',
      ].join('');
    }
    case 'price_required_rate':
      return `price required_rate ${reason.required}, offered ${reason.rate}`;
    case 'price_level_uncertain':
      return levelUncertainText(reason);
    case 'price_cash_hurdle': {
      const { shift, target, free, loan, demand, days } = reason;
      // Joined, as the expected-profit text: a strategy following cash keeps one per remembered price.
      return [
        'price cash_hurdle ',
        shift,
        ' to ',
        target,
        ': free ',
        free,
        ' USD less this loan ',
        loan,
        ' USD against ',
        demand,
        ' USD expected demand in ',
        days,
        ' days',
      ].join('');
    }
    case 'plugin_no_needs':
      return 'plugin asked for data without naming any';
    case 'plugin_rate_outside':
      return `plugin rate ${reason.rate} outside [${reason.min}, ${reason.max}]`;
    case 'plugin_bad_action':
      return `plugin action ${reason.action} is not offer, skip or needs_data`;
    case 'guard':
      return guardReasonText(reason);
    case 'service_refused':
      return `service refused: ${reason.text}`;
    case 'offer_outcome_unknown':
      return `offer outcome unknown: ${reason.text}`;
    case 'offer_already_recorded':
      return `offer already recorded (${reason.state}); not sent again`;
    case 'crypto_not_allowed':
      return 'crypto-backed requests are not allowed by risk.allowed_risk_levels';
    case 'agent_offered':
      return `${reason.agent} offered ${reason.rate} on $${reason.amount} (confirmed by ${reason.confirmedVia})`;
    case 'prefiltered':
      return reason.refusals.map(({ strategy, reason: refusal }) => `${strategy}: ${reasonText(refusal)}`).join('; ');
    case 'other':
      return reason.text;
  }
}

/** The guard's refusal among reasons, if the guard refused. */
export function guardReasonOf(reasons: readonly DecisionReason[]): GuardReason | undefined {
  for (const reason of reasons) if (reason.code === 'guard') return reason;
  return undefined;
}

/** A reason lendbot does not make itself (a plugin's, the backtest oracle's), kept as its text. */
export function otherReason(text: string): DecisionReason {
  return { code: 'other', text };
}

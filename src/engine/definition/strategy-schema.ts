/**
 * The strategy file (YAML), as a zod schema. The JSON Schema editors use
 * (schema/strategy.schema.json) is generated from it, so descriptions here are what a user sees
 * on hover. Numbers that tuning may change can be written as a param reference, "$name".
 */
import { z } from 'zod';
import { didYouMean } from '../../config/index.js';
import { FEATURE_NAMES } from '../features/feature-catalogue.js';

const PARAM_NAME = /^[a-z][a-z0-9_]*$/;
export const PARAM_REF = /^\$([a-z][a-z0-9_]*)$/;

/** A number, or "$name" for the value of a param. */
const NUMBER_OR_PARAM = 'expected a number or a param reference such as "$min_credit_score"';
const numberOrParam = z.union([z.number(), z.string().regex(PARAM_REF, NUMBER_OR_PARAM)], { error: NUMBER_OR_PARAM });
export type NumberOrParam = z.infer<typeof numberOrParam>;

/** What a bounded number is, and its bounds (an open end is left out). */
interface Bounds {
  what: string;
  min?: number;
  /** The minimum itself is not allowed (odds, ...). */
  minExclusive?: boolean;
  max?: number;
}

const PROBABILITY: Bounds = { what: 'a probability', min: 0, max: 1 };
const SHARE: Bounds = { what: 'a share', min: 0, max: 1 };
/** The rates the service accepts in an offer (docs/marketplace.md 4.2: offered_interest 0.03 to 2.0). */
const API_RATE: Bounds = { what: 'a rate the service accepts', min: 0.03, max: 2 };
const NOT_NEGATIVE: Bounds = { what: 'never negative', min: 0 };

function boundsText(bounds: Bounds): string {
  if (bounds.max === undefined) return `${bounds.what}: ${bounds.minExclusive ? 'above' : 'at least'} ${bounds.min}`;
  return `${bounds.what}: from ${bounds.min} to ${bounds.max}`;
}

/**
 * A number within its natural bounds, or "$name" for a param (whose range strategy-rules.ts
 * checks against the same bounds, read back from the number schema). The bounds reach the
 * JSON Schema as minimum / maximum, so editors flag `min_probability: 1.5` too.
 */
function numberOrParamWithin(bounds: Bounds) {
  const error = (issue: { input?: unknown }) => `${String(issue.input)} is out of bounds (${boundsText(bounds)})`;
  let number = z.number();
  if (bounds.min !== undefined) number = bounds.minExclusive ? number.gt(bounds.min, { error }) : number.min(bounds.min, { error });
  if (bounds.max !== undefined) number = number.max(bounds.max, { error });
  return z.union([number, z.string().regex(PARAM_REF, NUMBER_OR_PARAM)], { error: NUMBER_OR_PARAM });
}

const featureName = z.enum(FEATURE_NAMES, {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `unknown feature "${issue.input}"${didYouMean(issue.input, FEATURE_NAMES)} (lendbot strategy features lists them)`
      : 'expected a feature name such as "credit_score_low"',
});

const comparable = z.union([z.number(), z.string(), z.boolean()]);

export const paramSpecSchema = z
  .strictObject({
    value: z.number().describe('the value used unless tuning overrides it'),
    min: z.number().describe('lowest value tuning may try'),
    max: z.number().describe('highest value tuning may try'),
    step: z.number().positive().optional().describe('grid step for tuning (linear scale)'),
    scale: z.enum(['linear', 'log']).default('linear').describe('log: tuning moves by factors (min must be > 0)'),
    description: z.string().optional(),
  })
  .describe('a tunable number, e.g. { value: 620, min: 560, max: 700, step: 10 }');

const filterSchema = z
  .strictObject({
    feature: featureName,
    min: numberOrParam.optional().describe('fail when the feature is below this'),
    max: numberOrParam.optional().describe('fail when the feature is above this'),
    in: z.array(comparable).min(1).optional().describe('fail unless the feature is one of these'),
    not_in: z.array(comparable).min(1).optional().describe('fail when the feature is one of these'),
    required: z.literal(true).optional().describe('fail when the feature is absent'),
    missing: z.enum(['fail', 'pass']).default('fail').describe('what an absent feature does to this filter'),
    description: z.string().optional(),
  })
  .describe('a hard rule: a request that fails it is skipped');

const probabilityBand = z
  .strictObject({ min: numberOrParamWithin(PROBABILITY), max: numberOrParamWithin(PROBABILITY) })
  .describe('buy only when the probability estimated without this provider is within [min, max]');

const dataSchema = z
  .strictObject({
    monthly_budget: numberOrParamWithin(NOT_NEGATIVE).default(0).describe('USD a month for paid data; the caller enforces it'),
    banking_data: z
      .enum(['always', 'after_filters', 'never'])
      .default('after_filters')
      .describe('fetch banking data for every request, only for those passing the free filters, or never'),
    borrower_history: z
      .enum(['always', 'after_filters', 'never'])
      .default('never')
      .describe(
        "fetch the borrower's completed loans (free, docs/marketplace.md 4.9; the history_* features) for every request, only for those passing the other free filters, or never",
      ),
    provider_a: z
      .strictObject({
        provider: z.string().min(1).describe("the provider's name as the service operator gives it"),
        monthly_price: z.number().min(0).default(200).describe('flat USD a month (docs/marketplace.md 4.5)'),
        when_probability: probabilityBand,
      })
      .optional(),
    provider_b: z
      .strictObject({
        provider: z.string().min(1).describe("the provider's name as the service operator gives it"),
        price_per_request: z.number().min(0).default(1.5).describe('USD per request (docs/marketplace.md 4.5)'),
        when_probability: probabilityBand,
      })
      .optional(),
  })
  .describe('what to buy about a request, and when');

const scorecardTermSchema = z
  .strictObject({
    feature: featureName,
    bins: z
      .array(z.strictObject({ below: numberOrParam.optional(), points: numberOrParam }))
      .min(1)
      .optional()
      .describe('points of the first bin whose `below` exceeds the value; the last bin has no `below`'),
    levels: z.record(z.string(), numberOrParam).optional().describe('points per value, e.g. { excellent: 30, poor: -40 }'),
    per_unit: numberOrParam.optional().describe('points per unit of (value - center)'),
    center: numberOrParam.default(0),
    missing: numberOrParam.default(0).describe('points when the feature is absent'),
    description: z.string().optional(),
  })
  .describe('one scorecard line: bins, levels or per_unit');

const scorecardSchema = z.strictObject({
  base_points: numberOrParam.default(600).describe('points at which the odds of repayment are base_odds'),
  base_odds: numberOrParamWithin({ what: 'odds', min: 0, minExclusive: true })
    .default(20)
    .describe('odds of repayment (repaid : defaulted) at base_points'),
  points_to_double_odds: numberOrParam.default(40).describe('points that double the odds'),
  terms: z.array(scorecardTermSchema).min(1),
});

const logisticTermSchema = z.strictObject({
  feature: featureName,
  weight: numberOrParam.describe('log-odds per unit of (value - center)'),
  center: numberOrParam.default(0),
  clamp: z.tuple([numberOrParam, numberOrParam]).optional().describe('[low, high]: the (transformed) value is clipped to this range'),
  transform: z.enum(['none', 'log1p']).default('none').describe('log1p: use ln(1 + value), for amounts'),
  missing: numberOrParam.default(0).describe('log-odds contribution when the feature is absent'),
  description: z.string().optional(),
});

const logisticSchema = z.strictObject({
  intercept: numberOrParam.describe('log-odds of repayment when every term contributes 0'),
  terms: z.array(logisticTermSchema).min(1),
});

/** A probability a calibration maps to: strictly inside (0, 1), so its log-odds are finite. */
const calibratedProbability = z
  .number()
  .gt(0, { error: (issue) => `${String(issue.input)} is out of bounds (a calibrated probability: above 0 and below 1)` })
  .lt(1, { error: (issue) => `${String(issue.input)} is out of bounds (a calibrated probability: above 0 and below 1)` });

const plattSchema = z
  .strictObject({
    method: z.literal('platt'),
    a: numberOrParamWithin({ what: 'a slope', min: 0, minExclusive: true }).describe(
      "slope on the score's log-odds of repayment (1: unchanged)",
    ),
    b: numberOrParam.describe('added to the log-odds of repayment (0: unchanged)'),
    description: z.string().optional().describe('what it was fitted on (lendbot train calibration writes it)'),
  })
  .describe('log-odds of repayment become a x (log-odds) + b');

const isotonicSchema = z
  .strictObject({
    method: z.literal('isotonic'),
    points: z
      .array(z.tuple([z.number().min(0).max(1), calibratedProbability]))
      .min(2)
      .describe('[score probability, calibrated probability] pairs, both rising; straight lines between them, flat beyond the ends'),
    description: z.string().optional().describe('what it was fitted on (lendbot train calibration writes it)'),
  })
  .describe('a rising, piecewise linear map of the probability');

/** A fitted map a learned calibration may start from. */
const seedCalibrationSchema = z
  .discriminatedUnion('method', [plattSchema, isotonicSchema], {
    error: 'expected { method: platt, a: 1.1, b: -0.3 } or { method: isotonic, points: [[0.5, 0.6], [0.9, 0.85]] }',
  })
  .describe('the fitted map applied first; the learned level and slope correct what it gives');

/** A standard deviation in log-odds: above 0, at most `max` (a prior's, or the market's doubt). */
function standardDeviationSchema(max: number, fallback: number, description: string) {
  return z
    .number()
    .gt(0, { error: (issue) => `${String(issue.input)} is out of bounds (a standard deviation: above 0)` })
    .max(max, { error: (issue) => `${String(issue.input)} is out of bounds (a standard deviation: at most ${max})` })
    .default(fallback)
    .describe(description);
}

/** `history_anchor` (src/engine/market/history-anchor.ts; docs/market-model.md, "The market's own prices as a cold-start anchor"). */
const historyAnchorSchema = z
  .strictObject({
    sd: standardDeviationSchema(
      5,
      1,
      "how far the market's past prices, read after this lender's costs, may sit from this lender's view of default, in log-odds (it does not shrink with more past loans)",
    ),
  })
  .describe(
    "blend the default the rates of the borrower's completed loans imply (after this lender's costs) into the learned level, weighed by how much each knows; needs data.borrower_history",
  );

/** `method: learned` (src/engine/market/calibration-learner.ts; docs/market-model.md, "Learning the default level"). */
const learnedCalibrationSchema = z
  .strictObject({
    method: z.literal('learned'),
    level_sd: standardDeviationSchema(
      5,
      1,
      'how far the default level may be off before any loan is seen, in log-odds of default (1: the odds of default may be e = 2.7 times higher or lower at one standard deviation)',
    ),
    slope_sd: standardDeviationSchema(
      2,
      0.3,
      "how far the score's spread between good and bad borrowers may be off (the slope's prior sd around 1)",
    ),
    level_mean: z
      .number()
      .min(-5, { error: (issue) => `${String(issue.input)} is out of bounds (log-odds: from -5 to 5)` })
      .max(5, { error: (issue) => `${String(issue.input)} is out of bounds (log-odds: from -5 to 5)` })
      .default(0)
      .describe("the prior's centre for the level, added to the score's log-odds of default (0: the score's own level)"),
    seed: seedCalibrationSchema.optional(),
    history_anchor: historyAnchorSchema.optional(),
    description: z.string().optional(),
  })
  .describe(
    "learn the default probability's level and slope from this strategy's own funded loans (payments as early evidence), starting from the score (or `seed`) with the prior's uncertainty",
  );

const calibrationSchema = z
  .discriminatedUnion('method', [plattSchema, isotonicSchema, learnedCalibrationSchema], {
    error:
      'expected { method: platt, a: 1.1, b: -0.3 }, { method: isotonic, points: [[0.5, 0.6], [0.9, 0.85]] } or { method: learned, level_sd: 1, slope_sd: 0.3 }',
  })
  .describe(
    "maps the score's repayment probability to a calibrated one before filters and pricing (fit it with lendbot train calibration; docs/training.md)",
  );

const scoreSchema = z
  .strictObject({
    scorecard: scorecardSchema.optional(),
    logistic: logisticSchema.optional(),
    model: z
      .string()
      .min(1)
      .optional()
      .describe('a model file written by `lendbot train` (JSON), relative to this strategy file; see docs/training.md'),
    calibration: calibrationSchema.optional(),
    min_probability: numberOrParamWithin(PROBABILITY)
      .default(0)
      .describe('skip below this estimated repayment probability (after calibration)'),
  })
  .describe('estimated repayment probability; scorecard, logistic and model log-odds add up, then calibration maps the probability');

/** The price of scarce cash (src/engine/pricing/cash-hurdle.ts; docs/strategies.md, "cash_hurdle"). */
const cashHurdleSchema = z
  .strictObject({
    enabled: z.boolean().default(false).describe('move the hurdle with free cash against recent demand (off: target_return as written)'),
    max_raise: numberOrParamWithin(SHARE).default(0.05).describe('most the hurdle rises when there is no free cash for what keeps coming'),
    max_cut: numberOrParamWithin(SHARE).default(0.03).describe('most the hurdle falls when cash sits idle (never below zero)'),
    window_days: numberOrParamWithin({ what: 'days', min: 1, max: 90 })
      .default(14)
      .describe('days of recent offers whose expected take-up is the demand for cash'),
  })
  .describe('raise target_return when free cash binds, lower it when cash sits idle, within the bounds');

const takeUpSchema = z
  .strictObject({
    midpoint: numberOrParam
      .optional()
      .describe("position of the rate between 0.03 (0) and the request's max_interest_rate (1) where half of borrowers walk away"),
    steepness: numberOrParamWithin(NOT_NEGATIVE)
      .optional()
      .describe('how sharply take-up falls around the midpoint (0: the rate does not matter)'),
    midpoint_per_default: numberOrParam
      .optional()
      .describe(
        'midpoint added per unit of default probability (0: the same for every borrower; below 0: better borrowers walk away later)',
      ),
    steepness_per_default: numberOrParam
      .optional()
      .describe(
        'steepness added per unit of default probability (0: the same for every borrower; below 0: better borrowers are more rate-sensitive); never below 0 in total',
      ),
  })
  .describe(
    'the chance a borrower takes an offer at all: 1 / (1 + e^(steepness * (position - midpoint))), midpoint and steepness moving with the default probability by the *_per_default numbers',
  );

const competitionSchema = z
  .strictObject({
    share: numberOrParamWithin(SHARE).optional().describe('share of requests on which some other lender offers (0 to 1)'),
    intercept: numberOrParamWithin(API_RATE).optional().describe('expected best competing rate at a zero default probability'),
    per_default: numberOrParam.optional().describe('expected best competing rate added per unit of default probability'),
    spread: numberOrParamWithin(NOT_NEGATIVE).optional().describe('standard deviation of the best competing rate'),
    width: numberOrParamWithin(NOT_NEGATIVE)
      .optional()
      .describe('how soft the comparison with a competing rate is (0: the lower rate always wins)'),
  })
  .describe('who else offers, and at what rate (normal around intercept + per_default * (1 - probability))');

const marketSchema = z
  .strictObject({
    file: z
      .string()
      .min(1)
      .optional()
      .describe(
        'a market file written by `lendbot train market` (JSON), relative to this strategy file; numbers set here override it (docs/training.md)',
      ),
    take_up: takeUpSchema.optional(),
    competition: competitionSchema.optional(),
  })
  .describe(
    'how borrowers answer a rate (docs/market-model.md); unset numbers come from the market file, else a trained model, else cautious defaults',
  );

/** `pricing.learning`: prices that learn the market's answer while live (docs/market-model.md, "Learning while live"). */
const learningSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("learn take-up from the fates of this strategy's own offers (false: price with the configured market only)"),
    prior_sd: standardDeviationSchema(
      10,
      1,
      'how far the configured take-up may be wrong, in log-odds per term of the correction (larger: learns faster, trusts the prior less)',
    ),
    explore_share: numberOrParamWithin(SHARE)
      .default(0.05)
      .describe('exploring rates on purpose may cost at most this share of the expected profit offered so far (0: never explore)'),
  })
  .describe('expected_profit only: correct the market response by what the fates of offers show (accepted, rejected, expired, lost)');

/** `pricing.winners_curse`: repayment as it is among the loans we win (src/engine/market/repay-curse.ts; docs/market-model.md). */
const winnersCurseSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("price with the repayment chance of the loans this strategy wins at each rate (false: the score's chance as it is)"),
    prior_sd: standardDeviationSchema(
      10,
      0.5,
      "how far the loans won may repay unlike their score, in log-odds per term (larger: funded loans' fates move it faster)",
    ),
    w: z
      .array(z.number())
      .length(3)
      .optional()
      .describe("the correction to start from, over [1, position, position x score log-odds] (default: the market file's, else 0)"),
  })
  .describe(
    "expected_profit only: learn from funded loans' fates how much worse the loans won at a rate repay than scored (the winner's curse)",
  );

/** `pricing.level_uncertainty`: robust prices while the learned default level is uncertain (src/engine/pricing/level-uncertainty.ts). */
const levelUncertaintySchema = z
  .strictObject({
    mode: z
      .enum(['cost_plus_floor', 'blend'])
      .default('cost_plus_floor')
      .describe(
        "cost_plus_floor: the expected-profit rate, never below the break-even at the pessimistic default quantile; blend: cost-plus (plus margin) at cold start, expected profit taking over as the learner's evidence grows",
      ),
    quantile: numberOrParamWithin({ what: 'a quantile', min: 0.5, max: 0.999 })
      .default(0.8)
      .describe('cost_plus_floor: the quantile of the posterior default probability the floor breaks even at'),
    margin: numberOrParamWithin({ what: 'a rate margin', min: 0, max: 1 })
      .default(0.01)
      .describe('blend: added to the cost-plus rate at the posterior mean default'),
    evidence_half: numberOrParamWithin({ what: 'loan-months', min: 0, minExclusive: true })
      .default(600)
      .describe("blend: loan-months of the strategy's own funded loans at which expected profit has half the weight"),
  })
  .describe(
    'expected_profit with score.calibration method learned only: carry the uncertainty of the learned default level into the price, and say so in the reasons',
  );

const pricingSchema = z
  .strictObject({
    mode: z
      .enum(['cost_plus', 'expected_profit', 'max_rate'])
      .default('cost_plus')
      .describe(
        'cost_plus: the lowest rate reaching target_return, plus margin; expected_profit: the rate in [break-even, cap] maximising P(accept) x expected profit; max_rate: the cap',
      ),
    target_return: numberOrParam.describe(
      'expected annual return to reach, e.g. 0.08; in expected_profit mode the hurdle return on the capital tied up',
    ),
    recovery: numberOrParamWithin(SHARE).default(0.2).describe('share of the total due still collected from a defaulting borrower'),
    servicing_cost: numberOrParamWithin(SHARE).default(0).describe('share of collected payments lost to servicing and collection'),
    funded_amount: z
      .enum(['total_amount', 'loan_amount'])
      .default('total_amount')
      .describe('what the lender pays out; the borrower always repays total_amount with interest'),
    margin: numberOrParam.default(0).describe('added to the required rate (cost_plus only)'),
    ceiling: numberOrParamWithin(API_RATE).optional().describe('never offer above this rate'),
    ceiling_share_of_max: numberOrParamWithin(SHARE).optional().describe('never offer above this share of max_interest_rate'),
    max_payment_to_income: numberOrParamWithin(SHARE)
      .optional()
      .describe('skip when the monthly payment at the offered rate exceeds this share of stated monthly income'),
    market: marketSchema.optional(),
    learning: learningSchema.optional(),
    winners_curse: winnersCurseSchema.optional(),
    level_uncertainty: levelUncertaintySchema.optional(),
    cash_hurdle: cashHurdleSchema.optional(),
  })
  .describe('the offered rate, within the caps: cost plus a margin, the expected-profit optimum, or the cap itself');

export const strategyFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'expected a lowercase name such as "balanced"'),
    description: z.string().min(1),
    version: z.string({ error: 'expected a version text such as "1.2.0" (quote it in YAML)' }).min(1),
    priority: z.number().int().optional().describe('lower runs first when several strategies are active'),
    automate_fund: z.boolean().default(true).describe('ask the service to fund the loan once the offer is accepted'),
    shadow: z
      .boolean()
      .default(false)
      .describe(
        'a challenger: decides on the live requests with the data the live strategies bought and records what it would have offered, never sending (lendbot shadow report)',
      ),
    plugin: z.string().min(1).optional().describe('a JavaScript/TypeScript module implementing the strategy instead'),
    params: z.record(z.string().regex(PARAM_NAME, 'param names are lowercase words joined by _'), paramSpecSchema).default({}),
    filters: z.array(filterSchema).default([]),
    data: dataSchema.default({ monthly_budget: 0, banking_data: 'after_filters', borrower_history: 'never' }),
    score: scoreSchema.optional(),
    pricing: pricingSchema.optional(),
  })
  .describe('a lendbot strategy: filters, data to buy, score and pricing of loan requests');

/** A validated strategy file. */
export type StrategyDefinition = z.infer<typeof strategyFileSchema>;
export type FilterDefinition = z.infer<typeof filterSchema>;
export type ScoreDefinition = z.infer<typeof scoreSchema>;
export type CalibrationDefinition = z.infer<typeof calibrationSchema>;
/** A fitted calibration (platt or isotonic): what `lendbot train calibration` writes, and a learned one's seed. */
export type FittedCalibrationDefinition = z.infer<typeof seedCalibrationSchema>;
export type LevelUncertaintyDefinition = z.infer<typeof levelUncertaintySchema>;
export type PricingDefinition = z.infer<typeof pricingSchema>;
export type DataDefinition = z.infer<typeof dataSchema>;
export type ParamSpec = z.infer<typeof paramSpecSchema>;

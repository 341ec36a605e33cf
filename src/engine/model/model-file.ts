/**
 * The model file `lendbot train` writes and a strategy's `score.model` reads (docs/training.md):
 * JSON, versioned, a logistic regression of full repayment over catalogue features. Each feature
 * says how its value is encoded, so scoring repeats training's arithmetic exactly
 * (model-encoding.ts holds that arithmetic, used by both).
 */
import { z } from 'zod';

export const MODEL_FORMAT = 'lendbot-model';
export const MODEL_VERSION = 1;

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

/**
 * A number (or yes/no, read as 1/0) feature: transformed, standardised with the training mean
 * and sd, clipped, times `weight`; an absent value adds `missing_weight` instead.
 */
const standardisedFeatureSchema = z.strictObject({
  name: z.string().min(1),
  encoding: z.literal('standardised'),
  transform: z.enum(['none', 'log1p']).default('none').describe('log1p: ln(1 + max(0, value)) before standardising'),
  mean: finite,
  sd: finite.refine((value) => value >= 0, 'sd cannot be negative'),
  weight: finite.describe('log-odds of repayment per training standard deviation'),
  missing_weight: finite.default(0).describe('log-odds added when the feature is absent'),
});

/** A text feature: one weight per level seen in training; other levels add 0, an absent value `missing_weight`. */
const levelsFeatureSchema = z.strictObject({
  name: z.string().min(1),
  encoding: z.literal('levels'),
  levels: z.record(z.string(), finite),
  missing_weight: finite.default(0),
});

const modelFeatureSchema = z.discriminatedUnion('encoding', [standardisedFeatureSchema, levelsFeatureSchema]);

const splitFactsSchema = z.looseObject({
  lines: z.number().int().min(0),
  default_rate: z.number().min(0).max(1),
  auc: z.number().nullable(),
  brier: z.number(),
});

/** What the model was trained on and how it did; informative, never read by scoring. */
const trainingFactsSchema = z.looseObject({
  data_file: z.string(),
  trained_at: z.string(),
  lines: z.number().int().min(0),
  labelled: z.number().int().min(0),
  period: z.looseObject({ from: z.string(), to: z.string() }),
  l2: z.number().min(0),
  train_share: z.number(),
  /** 'all': the written weights were refit on every labelled line after evaluation. */
  refit: z.enum(['all', 'train']),
  train: splitFactsSchema,
  test: splitFactsSchema,
});

/**
 * Where the take-up curve was fitted from: the investor's own offers (accepted against rejected or
 * expired, at our rate), every offer's fate (ours, and competitors' offers taken or walked away
 * from), or (files from before all_offers) competitors' rates alone. Files written before the
 * field existed lack it (they were fitted from competing rates).
 */
const TAKE_UP_SOURCES = ['own_offers', 'all_offers', 'competing_rates'] as const;

/** The market response fitted from the same recording, in the terms of src/engine/market-response.ts. */
const marketSectionSchema = z.looseObject({
  competition: z
    .looseObject({
      share: z.number().min(0).max(1).optional(),
      intercept: finite.optional(),
      per_default: finite.optional(),
      spread: z.number().min(0).optional(),
      lines: z.number().int().min(0).optional(),
    })
    .optional(),
  take_up: z
    .looseObject({
      midpoint: finite,
      steepness: finite,
      midpoint_per_default: finite.optional(),
      steepness_per_default: finite.optional(),
      lines: z.number().int().min(0).optional(),
      source: z.enum(TAKE_UP_SOURCES).optional(),
    })
    .optional(),
});

export const modelFileSchema = z.looseObject({
  format: z.literal(MODEL_FORMAT, { error: `expected format "${MODEL_FORMAT}" (a file written by lendbot train)` }),
  version: z.literal(MODEL_VERSION, { error: `expected version ${MODEL_VERSION}; retrain with this lendbot` }),
  kind: z.literal('logistic'),
  /** What the model predicts: the probability the loan is repaid in full. */
  target: z.literal('repaid'),
  intercept: finite,
  features: z.array(modelFeatureSchema),
  training: trainingFactsSchema.optional(),
  market: marketSectionSchema.optional(),
});

export type ModelFile = z.infer<typeof modelFileSchema>;
export type ModelFeature = z.infer<typeof modelFeatureSchema>;
export type StandardisedFeature = z.infer<typeof standardisedFeatureSchema>;
export type MarketSection = z.infer<typeof marketSectionSchema>;

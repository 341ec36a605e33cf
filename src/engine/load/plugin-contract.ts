/**
 * What a strategy plugin module must export (as a default object or as named exports), checked
 * when it is loaded so a wrong module fails with a message naming each wrong export.
 */
import { z } from 'zod';
import type { LoanRequest } from '../../domain/index.js';
import type { ProviderPolicy } from '../compiled-strategy.js';
import type { Contribution, Decision } from '../decision.js';
import { paramSpecSchema } from '../definition/strategy-schema.js';
import type { DataNeed, Enrichment } from '../enrichment.js';
import type { FeatureValue } from '../features/feature-definition.js';

/** A plugin's answer; the loader adds the strategy identity, params and defaults. */
export interface PluginDecision {
  action: Decision['action'];
  rate?: number;
  probability?: number;
  expectedReturn?: number;
  needs?: DataNeed[];
  reasons: string[];
  contributions?: Contribution[];
  features?: Record<string, FeatureValue>;
}

/** The interface a plugin module implements. */
export interface StrategyPlugin {
  name: string;
  version: string;
  description?: string;
  paramSpecs?: Record<string, z.input<typeof paramSpecSchema>>;
  dataPolicy?: {
    monthlyBudgetCents?: number;
    bankingData?: 'always' | 'after_filters' | 'never';
    providers?: ProviderPolicy[];
  };
  automateFund?: boolean;
  priority?: number;
  evaluate(request: LoanRequest, enrichment: Enrichment, params: Readonly<Record<string, number>>): PluginDecision;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';

export const pluginExportsSchema = z.looseObject({
  name: z.string({ error: 'must be a string naming the strategy' }).min(1),
  version: z.string({ error: 'must be a version string such as "1.0.0"' }).min(1),
  description: z.string().optional(),
  evaluate: z.custom<StrategyPlugin['evaluate']>(isFunction, {
    error: (issue) => `must be a function (request, enrichment, params) => decision (got ${describe(issue.input)})`,
  }),
  paramSpecs: z.record(z.string(), paramSpecSchema).optional(),
  dataPolicy: z
    .strictObject({
      monthlyBudgetCents: z.number().int().min(0).default(0),
      bankingData: z.enum(['always', 'after_filters', 'never']).default('never'),
      providers: z
        .array(
          z.strictObject({
            slot: z.enum(['provider_a', 'provider_b']),
            provider: z.string().min(1),
            pricing: z.enum(['flat', 'per_request']),
            costCents: z.number().int().min(0),
            whenProbability: z.strictObject({ min: z.number(), max: z.number() }),
          }),
        )
        .default([]),
    })
    .optional(),
  automateFund: z.boolean().optional(),
  priority: z.number().int().optional(),
});

function describe(value: unknown): string {
  if (value === undefined) return 'nothing: the export is missing';
  if (value === null) return 'null';
  return typeof value;
}

/** The data section compiled to a DataPolicy (prices in cents, bands resolved), flat providers first. */
import { dollarsToCents } from '../../domain/index.js';
import type { DataPolicy, ProviderPolicy } from '../compiled-strategy.js';
import { resolveNumber } from '../definition/param-values.js';
import type { DataDefinition } from '../definition/strategy-schema.js';

export function compileDataPolicy(data: DataDefinition, params: Record<string, number>): DataPolicy {
  const providers: ProviderPolicy[] = [];
  if (data.provider_a) {
    providers.push({
      slot: 'provider_a',
      provider: data.provider_a.provider,
      pricing: 'flat',
      costCents: dollarsToCents(data.provider_a.monthly_price),
      whenProbability: {
        min: resolveNumber(data.provider_a.when_probability.min, params),
        max: resolveNumber(data.provider_a.when_probability.max, params),
      },
    });
  }
  if (data.provider_b) {
    providers.push({
      slot: 'provider_b',
      provider: data.provider_b.provider,
      pricing: 'per_request',
      costCents: dollarsToCents(data.provider_b.price_per_request),
      whenProbability: {
        min: resolveNumber(data.provider_b.when_probability.min, params),
        max: resolveNumber(data.provider_b.when_probability.max, params),
      },
    });
  }
  return {
    monthlyBudgetCents: dollarsToCents(resolveNumber(data.monthly_budget, params)),
    bankingData: data.banking_data,
    borrowerHistory: data.borrower_history,
    providers,
  };
}

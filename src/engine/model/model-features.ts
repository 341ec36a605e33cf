/**
 * Feature values for training, computed by the same code a strategy runs (featureSource, then
 * the catalogue's definitions through a FeatureTable), so a model learns from exactly the values
 * it will be scored on.
 */
import type { LoanRequest } from '../../domain/index.js';
import { FeatureTable } from '../compile/feature-table.js';
import type { Enrichment } from '../enrichment.js';
import type { FeatureValue } from '../features/feature-definition.js';
import { featureSource } from '../features/feature-source.js';

/** Computes a fixed list of features for many requests. */
export class FeatureComputer {
  private readonly table = new FeatureTable();

  constructor(readonly names: readonly string[]) {
    for (const name of names) this.table.slot(name);
  }

  /** The values, in the order of `names` (null = absent). */
  values(request: LoanRequest, enrichment: Enrichment): FeatureValue[] {
    return this.table.compute(featureSource(request, enrichment));
  }
}

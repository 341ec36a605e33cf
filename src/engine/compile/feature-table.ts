/**
 * The features one strategy reads, in fixed slots, so compiled rules index an array instead of
 * looking names up on every call.
 */
import type { FeatureDefinition, FeatureGroup, FeatureValue } from '../features/feature-definition.js';
import { featureByName } from '../features/feature-catalogue.js';
import { featureSource, providersOf, type FeatureSource } from '../features/feature-source.js';
import type { LoanRequest } from '../../service/index.js';
import type { Enrichment } from '../enrichment.js';

/** One request's features, computed from one set of data objects. */
interface Computed {
  bankingData: Enrichment['bankingData'];
  history: Enrichment['borrowerHistory'];
  providerA: FeatureSource['providerA'];
  providerB: FeatureSource['providerB'];
  source: FeatureSource;
  values: FeatureValue[];
  record?: Record<string, FeatureValue>;
}

export class FeatureTable {
  private readonly definitions: FeatureDefinition[] = [];
  private readonly slots = new Map<string, number>();
  /**
   * Features are a pure function of the request and the data objects bought about it, and a
   * backtest or a tune evaluates the same request objects again and again (every trial, every
   * draw, every data round): they are computed once per request and set of data objects. Keyed
   * by object identity (requests and data are never mutated once read), held weakly.
   */
  private readonly computed = new WeakMap<LoanRequest, Computed[]>();

  /** The slot of a feature, adding it on first use. */
  slot(name: string): number {
    const existing = this.slots.get(name);
    if (existing !== undefined) return existing;
    this.definitions.push(featureByName(name));
    this.slots.set(name, this.definitions.length - 1);
    return this.definitions.length - 1;
  }

  group(slot: number): FeatureGroup {
    const definition = this.definitions[slot];
    if (!definition) throw new RangeError(`no feature in slot ${slot}`);
    return definition.group;
  }

  get names(): string[] {
    return this.definitions.map((definition) => definition.name);
  }

  /** Every slot's value for one request. */
  compute(source: FeatureSource): FeatureValue[] {
    const values: FeatureValue[] = new Array<FeatureValue>(this.definitions.length);
    for (let index = 0; index < this.definitions.length; index += 1) {
      values[index] = (this.definitions[index] as FeatureDefinition).compute(source);
    }
    return values;
  }

  /**
   * The feature source and every slot's value for `request` with `enrichment`, computed once per
   * request and data objects (see `computed`). The arrays returned are shared: read them only.
   */
  valuesFor(request: LoanRequest, enrichment: Enrichment): Computed {
    const { providerA, providerB } = providersOf(enrichment);
    const { bankingData, borrowerHistory: history } = enrichment;
    let list = this.computed.get(request);
    const found = list?.find((c) => c.bankingData === bankingData && c.history === history && c.providerA === providerA && c.providerB === providerB);
    if (found) return found;
    const source = featureSource(request, enrichment);
    const entry: Computed = { bankingData, history, providerA, providerB, source, values: this.compute(source) };
    if (!list) this.computed.set(request, (list = []));
    list.push(entry);
    return entry;
  }

  /** valuesFor's record of the values, built once. */
  recordOf(computed: Computed): Record<string, FeatureValue> {
    computed.record ??= this.record(computed.values);
    return computed.record;
  }

  /** The values as a record, for the decision's explanation. */
  record(values: readonly FeatureValue[]): Record<string, FeatureValue> {
    const record: Record<string, FeatureValue> = {};
    this.definitions.forEach((definition, index) => {
      record[definition.name] = values[index] ?? null;
    });
    return record;
  }
}

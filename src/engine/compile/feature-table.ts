/**
 * The features one strategy reads, in fixed slots, so compiled rules index an array instead of
 * looking names up on every call.
 */
import type { FeatureDefinition, FeatureGroup, FeatureValue } from '../features/feature-definition.js';
import { featureByName } from '../features/feature-catalogue.js';
import { featureSource, featureSourceAgain, providersOf, type FeatureSource } from '../features/feature-source.js';
import type { LoanRequest } from '../../domain/index.js';
import type { Enrichment } from '../enrichment.js';

/**
 * One request's features, computed from one set of data objects. A request evaluated with
 * other data objects (a tune's rounds before and after buying) gets another, linked by `next`:
 * no list per request, since almost every request has one.
 */
export interface ComputedFeatures {
  readonly bankingData: Enrichment['bankingData'];
  readonly history: Enrichment['borrowerHistory'];
  readonly providerA: FeatureSource['providerA'];
  readonly providerB: FeatureSource['providerB'];
  readonly source: FeatureSource;
  readonly values: FeatureValue[];
  next: ComputedFeatures | undefined;
}

const NO_PROVIDERS = { providerA: undefined, providerB: undefined };

/**
 * Groups whose features read the request alone (its fields, its borrower, its parsed amounts),
 * never the data bought about it: the same for every set of data objects of one request.
 */
const REQUEST_ONLY_GROUPS: ReadonlySet<FeatureGroup> = new Set<FeatureGroup>(['request', 'borrower', 'affordability']);

export class FeatureTable {
  private readonly definitions: FeatureDefinition[] = [];
  /** Per slot: whether its feature reads the request alone (REQUEST_ONLY_GROUPS). */
  private readonly requestOnly: boolean[] = [];
  private template: Record<string, FeatureValue> | undefined;
  private templateSize = 0;
  private readonly slots = new Map<string, number>();
  /**
   * Features are a pure function of the request and the data objects bought about it: a request's
   * data rounds, evaluated one after another, compute them once per set of data objects, kept
   * here for the request asked about last (object identity: requests and data are never mutated
   * once read). Nothing is kept across requests: a backtest builds each request's line anew for
   * each replay (src/backtest/compact/), so a memo per request object would never be hit again,
   * and one held in a WeakMap kept every line alive until a full collection (issue 39: 40 % more
   * CPU and 70 % more peak memory on a default backtest of 20,000 requests).
   */
  private lastRequest: LoanRequest | undefined;
  private lastEntry: ComputedFeatures | undefined;

  /** The slot of a feature, adding it on first use. */
  slot(name: string): number {
    const existing = this.slots.get(name);
    if (existing !== undefined) return existing;
    const definition = featureByName(name);
    this.definitions.push(definition);
    this.requestOnly.push(REQUEST_ONLY_GROUPS.has(definition.group));
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
   * Every slot's value for another set of data objects of a request already computed (`known`):
   * the request-only slots are copied from it (the credit score text and the amounts are parsed
   * once per request, not once per round), the others computed.
   */
  private computeAgain(source: FeatureSource, known: readonly FeatureValue[]): FeatureValue[] {
    const values: FeatureValue[] = new Array<FeatureValue>(this.definitions.length);
    for (let index = 0; index < this.definitions.length; index += 1) {
      values[index] =
        this.requestOnly[index] === true && index < known.length
          ? (known[index] ?? null)
          : (this.definitions[index] as FeatureDefinition).compute(source);
    }
    return values;
  }

  /**
   * The feature source and every slot's value for `request` with `enrichment`, computed once per
   * request and data objects (see `lastRequest`). What is returned is shared: read it only.
   */
  valuesFor(request: LoanRequest, enrichment: Enrichment): ComputedFeatures {
    const providers = enrichment.providerResults === undefined ? NO_PROVIDERS : providersOf(enrichment);
    const { providerA, providerB } = providers;
    const { bankingData, borrowerHistory: history } = enrichment;
    // A request's rounds are evaluated one after another: its entries are the last request's.
    const first = request === this.lastRequest ? this.lastEntry : undefined;
    for (let known = first; known !== undefined; known = known.next) {
      if (known.bankingData === bankingData && known.history === history && known.providerA === providerA && known.providerB === providerB)
        return known;
    }
    let source: FeatureSource;
    let values: FeatureValue[];
    if (first === undefined) {
      source = featureSource(request, enrichment);
      values = this.compute(source);
    } else {
      source = featureSourceAgain(first.source, enrichment, providers);
      values = this.computeAgain(source, first.values);
    }
    const entry: ComputedFeatures = { bankingData, history, providerA, providerB, source, values, next: undefined };
    if (first === undefined) {
      this.lastRequest = request;
      this.lastEntry = entry;
    } else {
      // Linked behind the first entry (a request's first round, without data).
      entry.next = first.next;
      first.next = entry;
    }
    return entry;
  }

  /**
   * The values as a record, for the decision's explanation. Built for each decision rather than
   * kept with the values: a replay never reads it, and a record kept per request cost more in
   * garbage collection than building one costs.
   */
  record(values: readonly FeatureValue[]): Record<string, FeatureValue> {
    // A copy of a record with every name already in slot order: V8 clones its shape in one step,
    // where adding the names one by one built the shape again for every decision.
    const record: Record<string, FeatureValue> = { ...this.recordTemplate() };
    for (let index = 0; index < this.definitions.length; index += 1) {
      record[(this.definitions[index] as FeatureDefinition).name] = values[index] ?? null;
    }
    return record;
  }

  /** A record of every name, in slot order (all null); remade when a slot is added. */
  private recordTemplate(): Record<string, FeatureValue> {
    if (this.template !== undefined && this.templateSize === this.definitions.length) return this.template;
    const template: Record<string, FeatureValue> = {};
    for (const definition of this.definitions) template[definition.name] = null;
    this.template = template;
    this.templateSize = this.definitions.length;
    return template;
  }
}

/**
 * The features one strategy reads, in fixed slots, so compiled rules index an array instead of
 * looking names up on every call.
 */
import type { FeatureDefinition, FeatureGroup, FeatureValue } from '../features/feature-definition.js';
import { featureByName } from '../features/feature-catalogue.js';
import type { FeatureSource } from '../features/feature-source.js';

export class FeatureTable {
  private readonly definitions: FeatureDefinition[] = [];
  private readonly slots = new Map<string, number>();

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

  /** The values as a record, for the decision's explanation. */
  record(values: readonly FeatureValue[]): Record<string, FeatureValue> {
    const record: Record<string, FeatureValue> = {};
    this.definitions.forEach((definition, index) => {
      record[definition.name] = values[index] ?? null;
    });
    return record;
  }
}

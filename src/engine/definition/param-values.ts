/** Resolving "$name" references against a strategy's param values. */
import { PARAM_REF, type NumberOrParam } from './strategy-schema.js';

/** The param a reference names, or undefined for a plain number. */
export function referencedParam(value: unknown): string | undefined {
  return typeof value === 'string' ? PARAM_REF.exec(value)?.[1] : undefined;
}

/** The number a NumberOrParam stands for; throws on a reference to an unknown param (a bug once rules have run). */
export function resolveNumber(value: NumberOrParam, params: Readonly<Record<string, number>>): number {
  if (typeof value === 'number') return value;
  const name = referencedParam(value);
  const resolved = name === undefined ? undefined : params[name];
  if (resolved === undefined) throw new RangeError(`unknown param reference ${value}`);
  return resolved;
}

/** Every param reference in a value, with its path, for the cross-field rules. */
export function findParamReferences(value: unknown, path: PropertyKey[] = []): Array<{ name: string; path: PropertyKey[] }> {
  const name = referencedParam(value);
  if (name !== undefined) return [{ name, path }];
  if (Array.isArray(value)) return value.flatMap((item, index) => findParamReferences(item, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => findParamReferences(item, [...path, key]));
  }
  return [];
}

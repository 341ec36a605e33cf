/**
 * The bounds the strategy schema puts on a number field (a probability in [0, 1], a rate the
 * service accepts, ...), found by following a path through the zod schema. A field written as a
 * "$param" reference is checked by the rules against these same bounds, so a param cannot carry
 * a value (or a tuning range) the field itself would refuse.
 */
import { z } from 'zod';

export interface NumberBounds {
  /** The lowest value allowed, or null; `minExclusive`: the minimum itself is not. */
  min: number | null;
  minExclusive: boolean;
  max: number | null;
}

type AnySchema = z.core.$ZodType;

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'nonoptional', 'catch']);

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  while (WRAPPERS.has(current._zod.def.type)) current = (current._zod.def as unknown as { innerType: AnySchema }).innerType;
  return current;
}

function child(schema: AnySchema, segment: PropertyKey): AnySchema | undefined {
  const def = unwrap(schema)._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'object':
      return (def.shape as Record<string, AnySchema>)[String(segment)];
    case 'array':
      return def.element as AnySchema;
    case 'record':
      return def.valueType as AnySchema;
    case 'tuple':
      return (def.items as AnySchema[])[Number(segment)];
    default:
      return undefined;
  }
}

/** The bounds of the number at `path`, or undefined when the field there is unbounded or no number. */
export function numberBoundsAt(schema: AnySchema, path: readonly PropertyKey[]): NumberBounds | undefined {
  let current: AnySchema | undefined = schema;
  for (const segment of path) {
    current = current === undefined ? undefined : child(current, segment);
  }
  if (current === undefined) return undefined;
  const leaf = unwrap(current);
  const options = leaf._zod.def.type === 'union' ? (leaf._zod.def as unknown as { options: AnySchema[] }).options : [leaf];
  const number = options.find((option) => option instanceof z.ZodNumber);
  if (number === undefined) return undefined;
  const bounds: NumberBounds = { min: null, minExclusive: false, max: null };
  for (const check of number._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; value?: unknown; inclusive?: boolean };
    if (typeof def.value !== 'number') continue;
    if (def.check === 'greater_than') Object.assign(bounds, { min: def.value, minExclusive: def.inclusive !== true });
    if (def.check === 'less_than') bounds.max = def.value;
  }
  return bounds.min === null && bounds.max === null ? undefined : bounds;
}

/** Whether `value` lies within `bounds`. */
export function withinBounds(value: number, bounds: NumberBounds): boolean {
  if (bounds.min !== null && (bounds.minExclusive ? value <= bounds.min : value < bounds.min)) return false;
  return bounds.max === null || value <= bounds.max;
}

/** The bounds as people write them: [0, 1], (0, ...), [0.03, 2]. */
export function boundsInterval(bounds: NumberBounds): string {
  const low = bounds.min === null ? '(-inf' : `${bounds.minExclusive ? '(' : '['}${bounds.min}`;
  const high = bounds.max === null ? 'inf)' : `${bounds.max}]`;
  return `${low}, ${high}`;
}

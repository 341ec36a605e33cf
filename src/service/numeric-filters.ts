/**
 * The two filter syntaxes of marketplace 4.1 whose text the client has to write.
 *
 * - Numeric Filter (`completed_loans`): a comma list of numbers and ranges `a-b`, e.g. `1,2,3-10`.
 * - NumericRange (`credit_score`, `loan_amount`, `loan_terms`): the spec does not show its text.
 *   We support three encodings, chosen with LENDBOT_NUMERIC_RANGE_FORMAT (docs/service-client.md):
 *   `min-max-params` (default: `credit_score_min=600&credit_score_max=700`, django-filter's
 *   RangeWidget, which the service's field names suggest), `comma` (`credit_score=600,700`) and
 *   `dash` (`credit_score=600-700`, like the completed-loans syntax).
 */
import type { NumericRange } from '../domain/index.js';
import { InvalidArgumentError } from './errors.js';

export type NumericRangeFormat = 'min-max-params' | 'comma' | 'dash';
export const NUMERIC_RANGE_FORMATS: readonly NumericRangeFormat[] = ['min-max-params', 'comma', 'dash'];

const NUMBER = '\\d+(?:\\.\\d+)?';
const NUMERIC_FILTER_PART = new RegExp(`^(${NUMBER})(?:-(${NUMBER}))?$`);

/** One part of a completed-loans filter: a single number or an inclusive range. */
export type NumericFilterPart = { value: number } | { from: number; to: number };

/**
 * Parses and validates a Numeric Filter text (`1,2,3`, `1-3`, `1,2,3-10`). Throws an
 * InvalidArgumentError that quotes the bad part.
 */
export function parseNumericFilter(text: string, name = 'completed_loans'): NumericFilterPart[] {
  const trimmed = text.replace(/\s+/g, '');
  if (trimmed === '') throw new InvalidArgumentError(`${name}: empty filter; use e.g. 1,2,3 or 1-3 or 1,2,3-10`);
  return trimmed.split(',').map((part) => {
    const match = NUMERIC_FILTER_PART.exec(part);
    if (!match) {
      throw new InvalidArgumentError(`${name}: "${part}" is not a number or a range a-b (use e.g. 1,2,3 or 1-3 or 1,2,3-10)`);
    }
    const from = Number(match[1]);
    if (match[2] === undefined) return { value: from };
    const to = Number(match[2]);
    if (to < from) throw new InvalidArgumentError(`${name}: range "${part}" ends before it starts`);
    return { from, to };
  });
}

/** Whether `value` satisfies a parsed Numeric Filter. */
export function matchesNumericFilter(parts: readonly NumericFilterPart[], value: number): boolean {
  return parts.some((part) => ('value' in part ? part.value === value : value >= part.from && value <= part.to));
}

/** Parses a range written as `a-b`, `a-`, `-b` or `a,b` (for command-line flags). */
export function parseNumericRangeText(text: string, name: string): NumericRange {
  const match = new RegExp(`^(${NUMBER})?\\s*[-,]\\s*(${NUMBER})?$`).exec(text.trim());
  const single = new RegExp(`^(${NUMBER})$`).exec(text.trim());
  if (single) return { min: Number(single[1]), max: Number(single[1]) };
  if (!match || (match[1] === undefined && match[2] === undefined)) {
    throw new InvalidArgumentError(`${name}: "${text}" is not a range; use MIN-MAX, MIN- or -MAX (e.g. 600-700)`);
  }
  const range: NumericRange = {};
  if (match[1] !== undefined) range.min = Number(match[1]);
  if (match[2] !== undefined) range.max = Number(match[2]);
  checkRange(range, name);
  return range;
}

function checkRange(range: NumericRange, name: string): void {
  for (const bound of [range.min, range.max]) {
    if (bound !== undefined && !Number.isFinite(bound)) throw new InvalidArgumentError(`${name}: bounds must be numbers`);
  }
  if (range.min !== undefined && range.max !== undefined && range.max < range.min) {
    throw new InvalidArgumentError(`${name}: max ${range.max} is below min ${range.min}`);
  }
}

/** Writes a NumericRange filter as query parameters in the chosen format. */
export function encodeNumericRange(name: string, range: NumericRange, format: NumericRangeFormat): Array<[string, string]> {
  checkRange(range, name);
  const min = range.min === undefined ? '' : String(range.min);
  const max = range.max === undefined ? '' : String(range.max);
  if (min === '' && max === '') return [];
  switch (format) {
    case 'min-max-params': {
      const params: Array<[string, string]> = [];
      if (min !== '') params.push([`${name}_min`, min]);
      if (max !== '') params.push([`${name}_max`, max]);
      return params;
    }
    case 'comma':
      return [[name, `${min},${max}`]];
    case 'dash':
      return [[name, `${min}-${max}`]];
  }
}

/**
 * Reads a NumericRange back from query parameters, accepting every supported format (the
 * sandbox uses this so it answers whichever format a client is configured with).
 */
export function decodeNumericRange(name: string, query: URLSearchParams): NumericRange | undefined {
  const range: NumericRange = {};
  const min = query.get(`${name}_min`);
  const max = query.get(`${name}_max`);
  if (min !== null && min !== '') range.min = Number(min);
  if (max !== null && max !== '') range.max = Number(max);
  const joined = query.get(name);
  if (joined !== null && joined !== '') Object.assign(range, parseNumericRangeText(joined, name));
  if (range.min === undefined && range.max === undefined) return undefined;
  if (Number.isNaN(range.min) || Number.isNaN(range.max)) throw new InvalidArgumentError(`${name}: bounds must be numbers`);
  return range;
}

/**
 * The query filters of marketplace 4.1 and their encoding. Bad values are refused before anything is
 * sent, with a message that says what a good value looks like.
 */
import type { ListRestriction, NumericRange } from '../domain/index.js';
import { InvalidArgumentError } from './errors.js';
import { encodeNumericRange, parseNumericFilter, type NumericRangeFormat } from './numeric-filters.js';

export interface LoanRequestFilters {
  /** Risk level 0-4 (`svc_color`). */
  svcColor?: number | undefined;
  creditScore?: NumericRange | undefined;
  loanAmount?: NumericRange | undefined;
  loanTerms?: NumericRange | undefined;
  /** Numeric Filter text: `1,2,3`, `1-3` or `1,2,3-10`. */
  completedLoans?: string | undefined;
  invitedBorrowers?: boolean | undefined;
  previousBorrowers?: boolean | undefined;
  /** Two-letter codes or full names, any case. */
  state?: readonly string[] | undefined;
  zipCode?: readonly string[] | undefined;
  nearbyZipcodes?: boolean | undefined;
}

const STATE = /^[A-Za-z][A-Za-z .'-]*[A-Za-z.]$/;
const ZIP = /^\d{5}(?:-\d{4})?$/;

/** Query parameters for the filters, in a stable order. */
export function encodeLoanRequestFilters(filters: LoanRequestFilters, rangeFormat: NumericRangeFormat): Array<[string, string]> {
  const query: Array<[string, string]> = [];
  if (filters.svcColor !== undefined) {
    if (!Number.isInteger(filters.svcColor) || filters.svcColor < 0 || filters.svcColor > 4) {
      throw new InvalidArgumentError(`svc_color must be an integer from 0 to 4 (got ${filters.svcColor})`);
    }
    query.push(['svc_color', String(filters.svcColor)]);
  }
  if (filters.creditScore) query.push(...encodeNumericRange('credit_score', filters.creditScore, rangeFormat));
  if (filters.loanAmount) query.push(...encodeNumericRange('loan_amount', filters.loanAmount, rangeFormat));
  if (filters.loanTerms) query.push(...encodeNumericRange('loan_terms', filters.loanTerms, rangeFormat));
  if (filters.completedLoans !== undefined) {
    parseNumericFilter(filters.completedLoans, 'completed_loans');
    query.push(['completed_loans', filters.completedLoans.replace(/\s+/g, '')]);
  }
  if (filters.invitedBorrowers !== undefined) query.push(['invited_borrowers', String(filters.invitedBorrowers)]);
  if (filters.previousBorrowers !== undefined) query.push(['previous_borrowers', String(filters.previousBorrowers)]);
  if (filters.state && filters.state.length > 0) {
    const states = filters.state.map((state) => state.trim());
    const bad = states.find((state) => !STATE.test(state));
    if (bad !== undefined) throw new InvalidArgumentError(`state: "${bad}" is not a state code or name (e.g. CA or California)`);
    query.push(['state', states.join(',')]);
  }
  if (filters.zipCode && filters.zipCode.length > 0) {
    const zips = filters.zipCode.map((zip) => zip.trim());
    const bad = zips.find((zip) => !ZIP.test(zip));
    if (bad !== undefined) throw new InvalidArgumentError(`zip_code: "${bad}" is not a zip code (e.g. 94103)`);
    query.push(['zip_code', zips.join(',')]);
  }
  if (filters.nearbyZipcodes !== undefined) query.push(['nearby_zipcodes', String(filters.nearbyZipcodes)]);
  return query;
}

/**
 * The list filters that fetch every request ANY of `restrictions` could accept: the union, never
 * the intersection. A strategy without a restriction on a field (or an undefined entry: a plugin,
 * whose rules are unknown) means nothing is sent for that field. `svc_color` takes one level only,
 * so it is sent only when the union is a single level. Amount bounds are widened to whole dollars
 * and a dollar more, so a service that compares in dollars or excludes its bounds cannot cut a
 * request at a bound (the strategies' own filters still decide).
 */
export function unionListFilters(restrictions: ReadonlyArray<ListRestriction | undefined>): LoanRequestFilters {
  if (restrictions.length === 0) return {};
  const filters: LoanRequestFilters = {};
  const levels = new Set<number>();
  let levelsRestricted = true;
  let min: number | undefined = Number.POSITIVE_INFINITY;
  let max: number | undefined = Number.NEGATIVE_INFINITY;
  for (const restriction of restrictions) {
    if (restriction?.riskLevels === undefined) levelsRestricted = false;
    else for (const level of restriction.riskLevels) levels.add(level);
    const amount = restriction?.loanAmount;
    min = min === undefined || amount?.min === undefined ? undefined : Math.min(min, amount.min);
    max = max === undefined || amount?.max === undefined ? undefined : Math.max(max, amount.max);
  }
  const only = levels.size === 1 ? [...levels][0] : undefined;
  if (levelsRestricted && only !== undefined && Number.isInteger(only) && only >= 0 && only <= 4) filters.svcColor = only;
  const range: NumericRange = {};
  // A dollar of margin each way: the spec does not show whether the service's bounds are
  // inclusive or compared in whole dollars. Amounts are positive: a lower bound of 0 excludes nothing.
  if (min !== undefined && Math.floor(min) - 1 > 0) range.min = Math.floor(min) - 1;
  if (max !== undefined) range.max = Math.ceil(Math.max(0, max)) + 1;
  if (range.min !== undefined || range.max !== undefined) filters.loanAmount = range;
  return filters;
}

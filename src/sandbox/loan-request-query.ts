/**
 * The filters of marketplace 4.1, read from a query string into one predicate over loan requests. Range
 * filters accept every encoding the client can write (numeric-filters.ts); a bad value is a
 * refusal with a text that says what a good one looks like, never an empty list.
 */
import type { NumericRange } from '../domain/index.js';
import { decodeNumericRange, InvalidArgumentError, matchesNumericFilter, parseNumericFilter } from '../service/index.js';
import type { InvestorAccount, LoanRequestRecord } from './market-types.js';
import { stateCode, zipsAreNearby } from './us-states.js';

export type RequestPredicate = (request: LoanRequestRecord) => boolean;

/** Parses the filters; throws InvalidArgumentError naming the bad parameter. */
export function parseLoanRequestQuery(query: URLSearchParams, account: InvestorAccount): RequestPredicate {
  const checks: RequestPredicate[] = [];
  const color = query.get('svc_color');
  if (color !== null && color !== '') {
    if (!/^[0-4]$/.test(color.trim())) throw new InvalidArgumentError(`svc_color must be an integer from 0 to 4 (got "${color}")`);
    checks.push((r) => r.borrower.svcColor === Number(color));
  }
  const ranges: Array<[string, (r: LoanRequestRecord) => number]> = [
    ['credit_score', (r) => r.borrower.creditScore],
    ['loan_amount', (r) => r.loanAmountCents / 100],
    ['loan_terms', (r) => r.loanTerms],
  ];
  for (const [name, value] of ranges) {
    const range = decodeNumericRange(name, query);
    if (range) checks.push((r) => inRange(range, value(r)));
  }
  const completed = query.get('completed_loans');
  if (completed !== null) {
    const parts = parseNumericFilter(completed, 'completed_loans');
    checks.push((r) => matchesNumericFilter(parts, r.borrower.completedLoans));
  }
  const invited = booleanParam(query, 'invited_borrowers');
  if (invited !== undefined) checks.push((r) => r.borrower.invited === invited);
  const previous = booleanParam(query, 'previous_borrowers');
  if (previous !== undefined) checks.push((r) => r.borrower.completedLoans > 0 === previous);
  const states = listParam(query, 'state').map((text) => {
    const code = stateCode(text);
    if (!code) throw new InvalidArgumentError(`state: "${text}" is not a US state code or name (e.g. CA or California)`);
    return code;
  });
  if (states.length > 0) checks.push((r) => states.includes(r.borrower.state));
  const zips = listParam(query, 'zip_code');
  for (const zip of zips) {
    if (!/^\d{5}(?:-\d{4})?$/.test(zip)) throw new InvalidArgumentError(`zip_code: "${zip}" is not a zip code (e.g. 94103)`);
  }
  if (zips.length > 0) checks.push((r) => zips.some((zip) => zip.slice(0, 5) === r.borrower.zipCode));
  if (booleanParam(query, 'nearby_zipcodes') === true) {
    checks.push((r) => account.zipCodes.some((zip) => zipsAreNearby(zip, r.borrower.zipCode)));
  }
  return (request) => checks.every((check) => check(request));
}

function inRange(range: NumericRange, value: number): boolean {
  return (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
}

function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** true/false (any case), 1/0; absent or empty is no filter. */
function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name)?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new InvalidArgumentError(`${name} must be true or false (got "${query.get(name) ?? ''}")`);
}

import { describe, expect, it } from 'vitest';
import {
  decodeNumericRange,
  encodeLoanRequestFilters,
  encodeNumericRange,
  InvalidArgumentError,
  matchesNumericFilter,
  parseNumericFilter,
  parseNumericRangeText,
} from '../../src/service/index.js';

describe('completed_loans numeric filter', () => {
  it('accepts a list, a range and both mixed', () => {
    expect(parseNumericFilter('1,2,3')).toEqual([{ value: 1 }, { value: 2 }, { value: 3 }]);
    expect(parseNumericFilter('1-3')).toEqual([{ from: 1, to: 3 }]);
    expect(parseNumericFilter('1,2,3-10')).toEqual([{ value: 1 }, { value: 2 }, { from: 3, to: 10 }]);
    expect(parseNumericFilter(' 4 , 6-7 ')).toEqual([{ value: 4 }, { from: 6, to: 7 }]);
  });

  it('matches values the way the service filters', () => {
    const parts = parseNumericFilter('0,2,5-7');
    expect([0, 1, 2, 4, 5, 6, 7, 8].map((n) => matchesNumericFilter(parts, n))).toEqual([
      true,
      false,
      true,
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it('refuses bad parts with a message that quotes them', () => {
    expect(() => parseNumericFilter('1,,2')).toThrow(
      'completed_loans: "" is not a number or a range a-b (use e.g. 1,2,3 or 1-3 or 1,2,3-10)',
    );
    expect(() => parseNumericFilter('a-3')).toThrow('completed_loans: "a-3" is not a number or a range a-b');
    expect(() => parseNumericFilter('5-2')).toThrow('completed_loans: range "5-2" ends before it starts');
    expect(() => parseNumericFilter('')).toThrow(InvalidArgumentError);
  });
});

describe('NumericRange encodings', () => {
  it('writes each supported format', () => {
    const range = { min: 600, max: 700 };
    expect(encodeNumericRange('credit_score', range, 'min-max-params')).toEqual([
      ['credit_score_min', '600'],
      ['credit_score_max', '700'],
    ]);
    expect(encodeNumericRange('credit_score', range, 'comma')).toEqual([['credit_score', '600,700']]);
    expect(encodeNumericRange('credit_score', range, 'dash')).toEqual([['credit_score', '600-700']]);
    expect(encodeNumericRange('loan_amount', { min: 500 }, 'dash')).toEqual([['loan_amount', '500-']]);
    expect(encodeNumericRange('loan_amount', {}, 'comma')).toEqual([]);
  });

  it('reads back every format it writes', () => {
    for (const format of ['min-max-params', 'comma', 'dash'] as const) {
      for (const range of [{ min: 600, max: 700 }, { min: 3 }, { max: 12 }]) {
        const query = new URLSearchParams(encodeNumericRange('x', range, format));
        expect(decodeNumericRange('x', query), `${format} ${JSON.stringify(range)}`).toEqual(range);
      }
    }
    expect(decodeNumericRange('x', new URLSearchParams())).toBeUndefined();
  });

  it('parses command-line ranges', () => {
    expect(parseNumericRangeText('600-700', 'r')).toEqual({ min: 600, max: 700 });
    expect(parseNumericRangeText('600-', 'r')).toEqual({ min: 600 });
    expect(parseNumericRangeText('-700', 'r')).toEqual({ max: 700 });
    expect(parseNumericRangeText('12', 'r')).toEqual({ min: 12, max: 12 });
    expect(() => parseNumericRangeText('700-600', 'r')).toThrow('r: max 600 is below min 700');
    expect(() => parseNumericRangeText('lots', 'r')).toThrow('r: "lots" is not a range; use MIN-MAX, MIN- or -MAX (e.g. 600-700)');
  });
});

describe('loan request filters', () => {
  it('encodes every filter of spec 4.1 in a stable order', () => {
    const query = encodeLoanRequestFilters(
      {
        svcColor: 2,
        creditScore: { min: 600, max: 700 },
        loanAmount: { min: 100, max: 2000 },
        loanTerms: { max: 12 },
        completedLoans: '1,2,3-10',
        invitedBorrowers: true,
        previousBorrowers: false,
        state: ['CA', 'new york'],
        zipCode: ['94103', '10001-1234'],
        nearbyZipcodes: true,
      },
      'min-max-params',
    );
    expect(new URLSearchParams(query).toString()).toBe(
      'svc_color=2&credit_score_min=600&credit_score_max=700&loan_amount_min=100&loan_amount_max=2000' +
        '&loan_terms_max=12&completed_loans=1%2C2%2C3-10&invited_borrowers=true&previous_borrowers=false' +
        '&state=CA%2Cnew+york&zip_code=94103%2C10001-1234&nearby_zipcodes=true',
    );
  });

  it('refuses bad values before anything is sent', () => {
    expect(() => encodeLoanRequestFilters({ svcColor: 5 }, 'comma')).toThrow('svc_color must be an integer from 0 to 4 (got 5)');
    expect(() => encodeLoanRequestFilters({ zipCode: ['9410'] }, 'comma')).toThrow('zip_code: "9410" is not a zip code (e.g. 94103)');
    expect(() => encodeLoanRequestFilters({ state: ['C4'] }, 'comma')).toThrow('state: "C4" is not a state code or name');
    expect(() => encodeLoanRequestFilters({ completedLoans: '1;2' }, 'comma')).toThrow(InvalidArgumentError);
  });
});

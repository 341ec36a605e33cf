/**
 * What a strategy's filters say about the loan requests it could accept, in the words the
 * marketplace's list filters use (marketplace 4.1). The engine derives it from a strategy; the client
 * turns the union of all strategies' into query filters (src/service/loan-request-filters.ts).
 */

/** A numeric range of a list filter; either bound may be absent. */
export interface NumericRange {
  min?: number | undefined;
  max?: number | undefined;
}

/**
 * What one strategy could accept, as far as the list's filters can say: the risk levels and the
 * loan amount range its filters allow. An absent field is no restriction.
 */
export interface ListRestriction {
  /** Risk levels (0-4) a request may have. */
  riskLevels?: readonly number[] | undefined;
  /** USD; either bound may be absent. */
  loanAmount?: NumericRange | undefined;
}

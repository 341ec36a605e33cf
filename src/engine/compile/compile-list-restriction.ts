/**
 * What a strategy's free filters say about the list filters of marketplace 4.1: the risk levels and the
 * loan amount range a request must have for the strategy to take it. The poll asks the service
 * only for the union of these over the active strategies (unionListFilters), so this may be wider
 * than the filters (it ignores what it cannot express) but never narrower: a request the strategy
 * could accept must still be listed.
 */
import type { ListRestriction } from '../../domain/index.js';
import { resolveNumber } from '../definition/param-values.js';
import type { FilterDefinition } from '../definition/strategy-schema.js';

const ALL_LEVELS = [0, 1, 2, 3, 4] as const;
// risk_level is borrower_card_color, borrower_risk_level the borrower's svc_color: "same values as
// svc_color" (marketplace 2.2), so both stand for the list's svc_color filter.
const LEVEL_FEATURES = new Set(['risk_level', 'borrower_risk_level']);

function levelPasses(filter: FilterDefinition, level: number, params: Readonly<Record<string, number>>): boolean {
  if (filter.min !== undefined && level < resolveNumber(filter.min, params)) return false;
  if (filter.max !== undefined && level > resolveNumber(filter.max, params)) return false;
  if (filter.in && !filter.in.includes(level)) return false;
  if (filter.not_in?.includes(level)) return false;
  return true;
}

/** A filter that refuses every crypto-backed request; those are risk level 4 or carry crypto fields. */
function refusesCrypto(filter: FilterDefinition): boolean {
  if (filter.feature !== 'crypto_backed') return false;
  return (filter.in !== undefined && !filter.in.includes(true)) || filter.not_in?.includes(true) === true;
}

export function compileListRestriction(filters: readonly FilterDefinition[], params: Readonly<Record<string, number>>): ListRestriction {
  let levels: number[] = [...ALL_LEVELS];
  let min: number | undefined;
  let max: number | undefined;
  for (const filter of filters) {
    if (LEVEL_FEATURES.has(filter.feature)) levels = levels.filter((level) => levelPasses(filter, level, params));
    // A risk level 4 request is crypto-backed, so a filter refusing crypto refuses level 4.
    if (refusesCrypto(filter)) levels = levels.filter((level) => level !== 4);
    if (filter.feature === 'loan_amount') {
      if (filter.min !== undefined) min = Math.max(min ?? Number.NEGATIVE_INFINITY, resolveNumber(filter.min, params));
      if (filter.max !== undefined) max = Math.min(max ?? Number.POSITIVE_INFINITY, resolveNumber(filter.max, params));
    }
  }
  const restriction: ListRestriction = {};
  if (levels.length < ALL_LEVELS.length) restriction.riskLevels = levels;
  if (min !== undefined || max !== undefined) restriction.loanAmount = { min, max };
  return restriction;
}

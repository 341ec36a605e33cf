/**
 * A hand-made recording with reservation rates (docs/backtesting.md, "Recorded acceptance"): eight
 * borrowers whose verdicts against a flat offer at 0.20 can be worked out by hand.
 */
import type { MarketAssumptions } from '../../src/backtest/market-model.js';
import type { Outcome } from '../../src/recording/index.js';
import { recordingLine } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML } from './strategy-fixtures.js';

const HOUR_MS = 3_600_000;
const at = (hour: number): string => new Date(Date.parse('2026-01-01T00:00:00Z') + hour * HOUR_MS).toISOString();

/** 1000.00 over 12 months, maximum 0.36. */
export function handLine(id: number, outcome: Outcome) {
  return recordingLine({
    id,
    seenAt: at(id),
    request: {
      borrower: { id: 70_000 + id },
      loan_amount: '1000.00',
      total_amount: '1000.00',
      total_fees: '0.00',
      fee_legislative: '0.00',
      fee_svc: '0.00',
      max_interest_rate: 0.36,
    },
    outcome,
  });
}

/**
 * Eight borrowers against a flat offer at 0.20:
 *  1 accepts up to 0.25, nobody else offered           -> won (below)
 *  2 accepts up to exactly 0.20                        -> won (at the reservation rate)
 *  3 accepts up to 0.19                                -> declined (above)
 *  4 accepts up to 0.30, took a competitor at 0.22     -> won (cheaper than the competitor)
 *  5 accepts up to 0.30, took a competitor at 0.20     -> outbid (a tie goes to the competitor)
 *  6 accepts up to 0.30, took a competitor at 0.18     -> outbid (and that loan defaulted)
 *  7 accepts nothing (0), refused a competitor at 0.25 -> declined
 *  8 accepts up to 0.21, refused a competitor at 0.25  -> won; would have defaulted repaying 40 %
 */
export const HAND_LINES = [
  handLine(1, { status: 'completed', best_competing_rate: null, reservation_rate: 0.25, repaid_fraction: 1 }),
  handLine(2, { status: 'completed', best_competing_rate: null, reservation_rate: 0.2, repaid_fraction: 1 }),
  handLine(3, {
    status: 'unfunded',
    best_competing_rate: null,
    reservation_rate: 0.19,
    if_funded: { status: 'completed', repaid_fraction: 1 },
  }),
  handLine(4, { status: 'completed', funded_rate: 0.22, best_competing_rate: 0.22, reservation_rate: 0.3, repaid_fraction: 1 }),
  handLine(5, { status: 'completed', funded_rate: 0.2, best_competing_rate: 0.2, reservation_rate: 0.3, repaid_fraction: 1 }),
  handLine(6, { status: 'default', funded_rate: 0.18, best_competing_rate: 0.18, reservation_rate: 0.3, repaid_fraction: 0.5 }),
  handLine(7, {
    status: 'unfunded',
    best_competing_rate: 0.25,
    reservation_rate: 0,
    if_funded: { status: 'completed', repaid_fraction: 1 },
  }),
  handLine(8, {
    status: 'unfunded',
    best_competing_rate: 0.25,
    reservation_rate: 0.21,
    if_funded: { status: 'default', repaid_fraction: 0.4 },
  }),
];
export const HAND_VERDICTS = ['won', 'won', 'declined', 'won', 'outbid', 'outbid', 'declined', 'won'];
/** A flat 0.20 on every request (the flat fixture with its ceiling at 0.20). */
export const FLAT_20_YAML = FLAT_STRATEGY_YAML.replace('ceiling: 0.12', 'ceiling: 0.2');
/** No prepayment, so a completed loan pays its whole schedule. */
export const NO_PREPAYMENT: Partial<MarketAssumptions> = { prepayment: { share: 0, atTermFraction: 0.5 } };

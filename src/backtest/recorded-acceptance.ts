/**
 * Recorded acceptance (docs/backtesting.md, "Recorded acceptance"): given the highest rate a
 * borrower would accept (`outcome.reservation_rate`, or one a borrower world makes up) and the
 * competing offer the recording names, the borrower's choice is decided with no curve and no
 * draw, so anyone holding the recording can compute every verdict by hand:
 *
 * - the borrower takes the cheapest offer at or below the reservation rate, or none;
 * - between our offer and a competitor's at the same rate, the competitor's (the cautious side);
 * - so our offer at r wins iff r <= reservation and (no competitor, or r < the competing rate);
 * - a lost offer is `outbid` when a competitor offered at or below r, else `declined`.
 *
 * Rates are compared as the numbers written, with no tolerance.
 */
import { beatsHard, type RecordedCompetition } from '../engine/index.js';
import type { LineWithoutData } from '../recording/index.js';

export type BorrowerChoice = 'won' | 'outbid' | 'declined';

/** The borrower's choice of our offer at `rate`, given the highest rate they accept and the competition. */
export function borrowerChoice(rate: number, reservation: number, competition: RecordedCompetition): BorrowerChoice {
  const outbid = competition.kind !== 'none' && !beatsHard(rate, competition.rate);
  if (outbid) return 'outbid';
  return rate <= reservation ? 'won' : 'declined';
}

/** Something that makes up a reservation rate for a line that records none (a borrower world). */
export interface ReservationSource {
  /** The highest rate the borrower of `line` would accept: a seeded draw for `seed`. */
  reservation(line: LineWithoutData, seed: number): number;
  /**
   * true: the made-up rate replaces a recorded one too (the report's band: what the strategy would
   * earn if every borrower answered by this world's rule); absent: recorded lines keep their own.
   */
  replacesRecorded?: boolean | undefined;
}

/** The reservation rate that judges an offer on `line`: the world's when it replaces recorded ones, else the line's own, else the world's. */
export function judgingReservation(line: LineWithoutData, seed: number, world: ReservationSource | undefined): number | undefined {
  if (world?.replacesRecorded === true) return world.reservation(line, seed);
  return line.outcome?.reservation_rate ?? world?.reservation(line, seed);
}

/** Whether the line's own reservation_rate judged an offer on it (it has one and `world` does not replace it). */
export function judgedByRecordedAcceptance(line: LineWithoutData, world: ReservationSource | undefined): boolean {
  return hasRecordedAcceptance(line) && world?.replacesRecorded !== true;
}

/** Whether acceptance on this line is recorded (it has `outcome.reservation_rate`). */
export function hasRecordedAcceptance(line: LineWithoutData): boolean {
  return line.outcome?.reservation_rate !== undefined;
}

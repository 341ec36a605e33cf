/**
 * What the quality-tied borrower world (borrower-worlds.ts) groups a request by: its risk level and
 * credit score range, and its realised fate. A compact recording keeps them in columns while it
 * reads, so the world's group default rates need no pass over the lines.
 */
import type { LineWithoutData } from '../recording/index.js';
import { realisedDefault } from './realised-fate.js';

export interface WorldFacts {
  /** Its risk level, and its risk level and credit score range: `${level}|${credit_score ?? '-'}`. */
  level: string;
  group: string;
  /** realisedDefault of its line. */
  defaulted: boolean | undefined;
}

/** The world facts of a line. */
export function worldFactsOf(line: LineWithoutData): WorldFacts {
  const request = line.loan_request;
  return {
    level: String(request.borrower_card_color),
    group: worldGroupOf(line),
    defaulted: realisedDefault(line),
  };
}

/** The group of a line (WorldFacts.group). */
export function worldGroupOf(line: LineWithoutData): string {
  const request = line.loan_request;
  return `${String(request.borrower_card_color)}|${request.borrower.credit_score ?? '-'}`;
}

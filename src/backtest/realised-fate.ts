/**
 * What the recording says became of a borrower once funded, for the figures that compare default
 * rates (the adverse-selection section, the quality-tied borrower world): a loan in `default` or
 * `collection` defaulted, a `completed` one did not; an `unfunded` request answers through its
 * `if_funded`. Anything else (`current`, no outcome, unfunded without `if_funded`) is unknown and
 * left out of every default rate.
 */
import type { RecordingLine } from '../recording/index.js';

/**
 * The repayment label of a line: completed is 1, default and collection are 0; a request nobody
 * funded counts by what `outcome.if_funded` says would have happened, when the recording knows.
 */
export function labelOf(line: Pick<RecordingLine, 'outcome'>): 0 | 1 | null {
  const outcome = line.outcome;
  if (!outcome) return null;
  const status = outcome.status === 'unfunded' ? outcome.if_funded?.status : outcome.status;
  if (status === 'completed') return 1;
  if (status === 'default' || status === 'collection') return 0;
  return null;
}

/** true: defaulted; false: repaid in full; undefined: the recording does not say (training's label, read as a default). */
export function realisedDefault(line: Pick<RecordingLine, 'outcome'>): boolean | undefined {
  const label = labelOf(line);
  return label === null ? undefined : label === 0;
}

/** Requests whose fate the recording knows, and how many of them defaulted. */
export interface DefaultCount {
  n: number;
  defaults: number;
}

/** Realised defaults of the recording's lines, counted per key (lines of unknown fate are left out). */
export function defaultCounts(lines: Iterable<RecordingLine>, keyOf: (line: RecordingLine) => string): Map<string, DefaultCount> {
  const counts = new Map<string, DefaultCount>();
  for (const line of lines) {
    const defaulted = realisedDefault(line);
    if (defaulted === undefined) continue;
    const key = keyOf(line);
    const count = counts.get(key) ?? { n: 0, defaults: 0 };
    count.n += 1;
    if (defaulted) count.defaults += 1;
    counts.set(key, count);
  }
  return counts;
}

/**
 * The decision as stored and the decisions row that holds it: shared by the repository and
 * the page query (decision-page.ts), which would otherwise import each other.
 */
import { otherReason, type DecisionReason } from '../domain/decision-reason.js';
import { parseJsonColumn } from './sql-values.js';

export type DecisionAction = 'offer' | 'skip';

/**
 * Which learned calibration gave a decision's probability: the learner's version (one per refit),
 * the loans, defaults and loan-months it rested on, and the score's default probability before it.
 */
export interface DecisionCalibration {
  version: number;
  loans: number;
  defaults: number;
  loanMonths: number;
  scoreDefault: number;
}

/** A decision as stored: one row per loan request seen. */
export interface StoredDecision {
  id: number;
  loanRequestId: number;
  strategy: string | null;
  contentHash: string | null;
  params: unknown;
  features: unknown;
  probability: number | null;
  rate: number | null;
  action: DecisionAction;
  /** The reasons' machine texts (reasonText), as stored. */
  reasons: string[];
  /** The same reasons as values (read back from the text for rows written before migration 14). */
  reasonValues: DecisionReason[];
  dryRun: boolean;
  decidedAt: string;
  timings: Record<string, number>;
  guardCode: string | null;
  placement: string | null;
  /** Who decided: null for the strategies, `agent:NAME` for an agent through the connector. */
  source: string | null;
  /** The strategies' decision an agent's replaced, when there was one (kept whole, as it was stored). */
  previous: unknown;
  /** That replaced decision's reasons as values (null when there is none; decisionFromRow reads them). */
  previousReasonValues: DecisionReason[] | null;
  /** Which learned calibration gave the probability (migration 15); absent when none did. */
  calibration?: DecisionCalibration;
}

/** A decisions row as SQLite returns it (the repository and decision-page.ts both read it). */
export interface DecisionRow {
  id: number;
  loan_request_id: number;
  strategy: string | null;
  content_hash: string | null;
  params_json: string;
  features_json: string;
  probability: number | null;
  rate: number | null;
  action: DecisionAction;
  reasons_json: string;
  /** The reasons as values; NULL on rows written before migration 14. */
  reason_values_json: string | null;
  dry_run: 0 | 1;
  decided_at: string;
  timings_json: string;
  guard_code: string | null;
  placement: string | null;
  source: string | null;
  previous_json: string | null;
  /** Which learned calibration gave the probability; NULL when none did (and on rows before migration 15). */
  calibration_json?: string | null;
}

/** The decision a row holds, its JSON columns parsed. */
export function decisionFromRow(row: DecisionRow): StoredDecision {
  const reasons = parseJsonColumn<string[]>(row.reasons_json);
  const previous: unknown = row.previous_json === null ? null : parseJsonColumn(row.previous_json);
  return {
    id: row.id,
    loanRequestId: row.loan_request_id,
    strategy: row.strategy,
    contentHash: row.content_hash,
    params: parseJsonColumn(row.params_json),
    features: parseJsonColumn(row.features_json),
    probability: row.probability,
    rate: row.rate,
    action: row.action,
    reasons,
    reasonValues: reasonValuesOf(row.reason_values_json, reasons),
    dryRun: row.dry_run === 1,
    decidedAt: row.decided_at,
    timings: parseJsonColumn<Record<string, number>>(row.timings_json),
    guardCode: row.guard_code,
    placement: row.placement,
    source: row.source,
    previous,
    previousReasonValues: previousReasonValues(previous),
    ...(row.calibration_json === null || row.calibration_json === undefined
      ? {}
      : { calibration: parseJsonColumn<DecisionCalibration>(row.calibration_json) }),
  };
}

/**
 * The reasons of the strategies' decision an agent's replaced, as values. That decision is kept
 * whole as JSON (a StoredDecision as it was written), with its `reasonValues` (written by the
 * migration "reason texts to values" where it was stored without them).
 */
function previousReasonValues(previous: unknown): DecisionReason[] | null {
  if (previous === null || typeof previous !== 'object' || !('reasons' in previous) || !Array.isArray(previous.reasons)) return null;
  if ('reasonValues' in previous && Array.isArray(previous.reasonValues)) return previous.reasonValues as DecisionReason[];
  return previous.reasons.map((text) => otherReason(String(text)));
}

/**
 * The reasons as values, from their own column: every row has it since the migration "reason
 * texts to values". Should one not, its texts are shown as they are, never parsed.
 */
export function reasonValuesOf(valuesJson: string | null, texts: readonly string[]): DecisionReason[] {
  return valuesJson === null ? texts.map(otherReason) : parseJsonColumn<DecisionReason[]>(valuesJson);
}

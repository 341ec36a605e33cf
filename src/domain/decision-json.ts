/**
 * The one serialised shape of a decision, for every surface it leaves lendbot by: `lendbot
 * decisions --json`, `GET /api/decisions`, the agent connector's tools (list_decisions,
 * explain_decision) and `lendbot backtest --json --decisions`. snake_case, as the CLI's JSON,
 * the agent tools, the backtest output and the marketplace's own API all write, and integer
 * cents (docs/decision-shape.md). A surface may add its own fields beside these (the CLI its
 * outcome, the API its plain-words `why`, the backtest its market fate), never rename them.
 */

/** What a surface knows of one decision (a stored decision row has it all, under these names). */
export interface DecisionFacts {
  loanRequestId: number;
  decidedAt: string;
  action: string;
  rate: number | null;
  probability: number | null;
  /** The strategy that decided; null when none got to (a pre-filter) or an agent did. */
  strategy: string | null;
  /** Who decided: null for the strategies, "agent:NAME" for an agent. */
  source: string | null;
  /** The reasons' stored texts (reasonText). */
  reasons: readonly string[];
  guardCode: string | null;
  placement: string | null;
  dryRun: boolean;
}

/** A decision as it leaves lendbot (docs/decision-shape.md). */
export interface DecisionJson {
  loan_request_id: number;
  /** ISO time of the decision (a backtest: when the request was seen). */
  decided_at: string;
  action: string;
  /** The rate offered, or priced when the guard refused; null when no rate was reached. */
  rate: number | null;
  /** Estimated probability of full repayment; null when the strategy did not score. */
  probability: number | null;
  strategy: string | null;
  /** `strategies`, or `agent:NAME` for an agent's offer. */
  source: string;
  /** The machine reasons ("filter credit_score_low < 600"), in the order they were given. */
  reasons: string[];
  /** The guard's refusal code (max_open_exposure, insufficient_balance, ...); null when it did not refuse. */
  guard_code: string | null;
  /** What became of the offer sent: placed, refused, unknown, exists; null when none was sent. */
  placement: string | null;
  /** True when nothing was sent (a dry run, a backtest). */
  dry_run: boolean;
}

/** Who decided, as the shape names it. */
const STRATEGIES_SOURCE = 'strategies';

/** The one decision shape of a decision's facts. */
export function decisionJson(facts: DecisionFacts): DecisionJson {
  return {
    loan_request_id: facts.loanRequestId,
    decided_at: facts.decidedAt,
    action: facts.action,
    rate: facts.rate,
    probability: facts.probability,
    strategy: facts.strategy,
    source: facts.source ?? STRATEGIES_SOURCE,
    reasons: [...facts.reasons],
    guard_code: facts.guardCode,
    placement: facts.placement,
    dry_run: facts.dryRun,
  };
}

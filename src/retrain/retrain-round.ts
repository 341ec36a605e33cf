/**
 * One retraining round of one strategy (docs/training.md, "Retraining while live"): the store's
 * own recording in memory, a candidate (the calibration refitted, or the model for a strategy
 * that scores with one) fitted and judged held out across borrower worlds (fit-candidate.ts), then either refused, promoted (no shadow period configured) or left
 * waiting while it decides in shadow. Every outcome is recorded with its evidence.
 */
import type { Clock } from '../clock/clock.js';
import type { SplitSettings } from '../risk/risk-limits.js';
import { prepareRecording, type PreparedRecording } from '../backtest/index.js';
import type { CompiledStrategy } from '../engine/index.js';
import { recordingLinesFromStore } from '../recording/index.js';
import type { RetrainDecision, RetrainRepository, Store } from '../store/index.js';
import { fitCandidate, type CandidateOutcome } from './fit-candidate.js';
import type { RetrainSettings } from './retrain-config.js';

export interface RoundDeps {
  store: Store;
  repo: RetrainRepository;
  clock: Clock;
  settings: RetrainSettings;
  /** risk.offer_expiry_hours in ms: how the export reads an offer nobody answered. */
  offerExpiryMs: number;
  /** risk.split: a live split of the strategy against its candidate is read as evidence (split-evidence.ts). */
  split?: SplitSettings | undefined;
}

/** A strategy as it runs now, with the YAML it runs from. */
export interface RunningStrategy {
  strategy: CompiledStrategy;
  text: string;
  /** The content hash of its strategy file: a promoted version runs only while the file is unchanged. */
  fileHash: string;
}

/** What a round found and would record. */
export interface RoundPlan {
  strategy: string;
  startedAtMs: number;
  outcome: CandidateOutcome;
  decision: RetrainDecision;
  reason: string;
  shadowUntilMs?: number;
  nextAtMs: number;
}

/**
 * The store's own history as a recording, in memory (recording/export-from-store.ts): it holds
 * every request the store has seen, so it is as large as the store's requests table.
 */
export function storeRecording(store: Store, clock: Clock, offerExpiryMs: number): PreparedRecording {
  const invalid: Array<{ loanRequestId: number; message: string }> = [];
  return prepareRecording(recordingLinesFromStore(store, invalid, { clock, offerExpiryMs }));
}

/** Fits and judges a candidate for `running`; records nothing (`recordRound` does). */
export async function planRound(deps: RoundDeps, running: RunningStrategy): Promise<RoundPlan> {
  const nowMs = deps.clock.now();
  const recording = storeRecording(deps.store, deps.clock, deps.offerExpiryMs);
  const outcome = await fitCandidate(recording, running.strategy, running.text, deps.settings);
  const base = { strategy: running.strategy.name, startedAtMs: nowMs, outcome };
  if (outcome.kind === 'refused') return { ...base, decision: 'refused', reason: outcome.reason, nextAtMs: nowMs + deps.settings.everyMs };
  if (deps.settings.shadowMs === 0) {
    return {
      ...base,
      decision: 'promoted',
      reason: `${outcome.reason}; no shadow period configured`,
      nextAtMs: nowMs + deps.settings.everyMs,
    };
  }
  const shadowUntilMs = nowMs + deps.settings.shadowMs;
  return {
    ...base,
    decision: 'waiting',
    reason: `${outcome.reason}; decides in shadow until ${new Date(shadowUntilMs).toISOString()}`,
    shadowUntilMs,
    nextAtMs: shadowUntilMs,
  };
}

/** Records a plan; a promotion also puts its version in force. Returns the round's id. */
export function recordRound(deps: Pick<RoundDeps, 'repo'>, plan: RoundPlan, running: RunningStrategy): number {
  const { outcome } = plan;
  return deps.repo.transaction(() => {
    const id = deps.repo.addRound({
      strategy: plan.strategy,
      startedAtMs: plan.startedAtMs,
      decision: plan.decision,
      reason: plan.reason,
      resolvedLoans: outcome.resolvedLoans,
      ...(outcome.calibration === undefined ? {} : { candidate: { calibration: outcome.calibration, base: running.strategy.contentHash } }),
      ...(outcome.kind === 'holds' ? { candidateText: outcome.text } : {}),
      ...(outcome.kind === 'holds' && outcome.model !== undefined ? { candidateModel: outcome.model } : {}),
      ...(outcome.fit === undefined ? {} : { fit: outcome.fit }),
      ...(outcome.heldOut === undefined ? {} : { heldOut: outcome.heldOut }),
      ...(plan.shadowUntilMs === undefined ? {} : { shadowUntilMs: plan.shadowUntilMs }),
      nextAtMs: plan.nextAtMs,
    });
    if (plan.decision === 'promoted' && outcome.kind === 'holds')
      promote(
        deps.repo,
        plan.strategy,
        id,
        { text: outcome.text, model: outcome.model ?? null, fileHash: running.fileHash },
        plan.startedAtMs,
      );
    return id;
  });
}

/** Puts a candidate (its text, and its model for a strategy with one) in force; the version it replaces is kept (its parent, for rollback). */
export function promote(
  repo: RetrainRepository,
  strategy: string,
  roundId: number,
  candidate: { text: string; model: string | null; fileHash: string | null },
  atMs: number,
): number {
  const current = repo.inForce().find((version) => version.strategy === strategy);
  return repo.addVersion({ strategy, kind: 'promoted', roundId, ...candidate, parentId: current?.id ?? null, restoredId: null }, atMs);
}

/**
 * What features attach to the pipeline with, so it names none of them (fastify's hooks, probot's
 * `app.on`; Pipeline.provide and Pipeline.onDecided): a context provider adds what a strategy's
 * decision reads (the cash position, the learned take-up) to the decide context; a decision
 * listener acts on a request once it is decided and recorded (the shadows, the market's fates,
 * the protections' count of refusals, the metrics). Both run inside the pipeline's serial queue,
 * in the order they were registered, so the next request sees what they did.
 */
import type { DecisionReason } from '../domain/decision-reason.js';
import type { LoanRequest, PlaceOutcome } from '../domain/index.js';
import type { CompiledStrategy, DecideContext, DecideOutcome } from '../engine/index.js';
import type { GuardRefusalCode } from '../risk/index.js';
import type { DecisionAction, RequestSource } from '../store/index.js';

/** Why a request was not decided now, and when it may be tried again. */
interface Deferral {
  /** The failure is the request's own (counted toward its tries), not an outage of the service. */
  own: boolean;
  retryAtMs: number;
  /** The failure; undefined when the request was still waiting from an earlier one. */
  error?: unknown;
}

export interface PipelineResult {
  loanRequestId: number;
  /**
   * 'already' when the request had been decided before; 'deferred' when it could not be decided
   * now (its data failed, or it still waits after such a failure): no decision row, tried later;
   * 'stopped' when the daemon is stopping and the request had not begun (decided after the restart).
   */
  action: DecisionAction | 'already' | 'deferred' | 'stopped';
  deferred?: Deferral | undefined;
  rate?: number | undefined;
  reasons: DecisionReason[];
  /** Why the guard refused, as a code; the reasons say it in words. */
  guard?: GuardRefusalCode | undefined;
  /** What became of the offer sent; undefined when none was sent. */
  placement?: PlaceOutcome['kind'] | undefined;
}

/** What the decide context takes from features: all but the request's own strategies, time and ledger. */
export type ProvidedContext = Partial<Omit<DecideContext, 'strategies' | 'nowMs' | 'ledger'>>;

/** Adds to the decide context of one request, before its decision. */
export type ContextProvider = (turn: {
  request: LoanRequest;
  /** The strategies deciding it live. */
  strategies: readonly CompiledStrategy[];
  nowMs: number;
}) => ProvidedContext | Promise<ProvidedContext>;

/** The request just decided, as a feature listening after the decision needs it. */
export interface DecidedTurn {
  outcome: DecideOutcome;
  /** What became of the offer sent; undefined when none was sent. */
  placement: PlaceOutcome | undefined;
  /** The strategies that decided it beside the live ones, recorded apart (src/challengers/shadow-decide.ts). */
  shadows: readonly CompiledStrategy[];
  /** What the providers added to the decide context (the learners that priced it). */
  provided: ProvidedContext;
  /** When its decision row was written. */
  decidedAtMs: number;
}

/** Hears every request the pipeline decided (not those decided before): metrics, shadows, fates. */
export type DecisionListener = (request: LoanRequest, source: RequestSource, result: PipelineResult, turn: DecidedTurn) => void;

/**
 * A strategy's repayment probability for every resolved request of a recording, without running
 * the market: each request goes through the decide step alone (the recording is the data source,
 * nothing is spent yet this month, the guard allows everything), as `lendbot strategy explain`
 * takes it. Every request whose decision carries a probability counts (offers, and skips at the
 * provider filters, min_probability or pricing), not only the loans the strategy would have won;
 * a request a filter refuses before the score is not scored.
 *
 * Resolved and default, as `lendbot train` labels lines (src/backtest/train/training-data.ts):
 * `completed` is repaid; `default` and `collection` (a missed instalment: the sandbox moves every
 * such loan to default) are defaults; an `unfunded` request counts by `outcome.if_funded` when
 * the recording has it (a simulator knows how the borrower would have repaid); `current`, and
 * `unfunded` without `if_funded`, are not resolved.
 */
import { decideSync, type CompiledStrategy, type DecideContext, type SpendLedger } from '../../engine/index.js';
import { columnSourceOf } from '../../engine/compile/compile-strategy.js';
import { resolveNumber } from '../../engine/definition/param-values.js';
import type { GuardResult } from '../../risk/index.js';
import { readForReplay, type PreparedRecording, type ReplayEntry, type ReplayRead } from '../prepared-recording.js';
import { ReplayDataSource } from '../recording-data.js';
import { labelOf } from '../realised-fate.js';
import { NumberColumn, smallIntColumn } from '../compact/number-column.js';
import type { Prediction } from './calibration-stats.js';

/** One resolved request the strategy scored. */
export interface ScoredRequest {
  loanRequestId: number;
  /** The repayment probability the strategy decided with (after its calibration, if any). */
  probability: number;
  /** The score's probability before the strategy's calibration (the same without one). */
  rawProbability: number;
  /** 1 when the request defaulted (default or collection), 0 when repaid. */
  defaulted: 0 | 1;
}

export interface StrategyProbabilities {
  strategy: string;
  /** Requests in the recording. */
  requests: number;
  /** Of them, resolved (repaid or defaulted). */
  resolved: number;
  /** Resolved requests the strategy scored, in replay order. */
  scored: ScoredRequest[];
  /** The strategy's min_probability (0 when it has none: a plugin, or no cut). */
  minProbability: number;
}

/** Nothing spent this month, nothing kept: each request is decided as if it were the month's first. */
const NOTHING_SPENT: SpendLedger = { spentSince: () => 0, subscribedSince: () => false, record: () => undefined };
const ALLOW: GuardResult = { allowed: true };
const allowAll = (): GuardResult => ALLOW;

/** The probability before calibration: the calibration line's value, when the strategy has one. */
function rawOf(contributions: readonly { model: string; value: unknown }[], probability: number): number {
  const last = contributions.at(-1);
  return last?.model === 'calibration' && typeof last.value === 'number' ? last.value : probability;
}

/** The min_probability a YAML strategy compiled with (0 for plugins). */
function minProbabilityOf(strategy: CompiledStrategy): number {
  const cut = columnSourceOf(strategy)?.definition.score?.min_probability;
  return cut === undefined ? 0 : resolveNumber(cut, strategy.params);
}

/** Every resolved request of `recording` that `strategy` scores, with its probability and label. */
export function strategyProbabilities(recording: PreparedRecording, strategy: CompiledStrategy): StrategyProbabilities {
  const pass = new StrategyProbabilityPass(strategy);
  // Each line read once (a compact recording builds it anew at each read of `entry.line`), its
  // recorded data only if the decision buys it.
  for (const entry of recording.entries) pass.add(entry, readForReplay(entry));
  return pass.result(recording.entries.length);
}

/**
 * strategyProbabilities a request at a time, for a replay that reads the recording anyway: the
 * backtest command hands each request to it as its first draw reads it (run-backtest.ts, onRead),
 * so the calibration section costs no pass of its own over the lines. Every request must be
 * added, in replay order.
 */
export class StrategyProbabilityPass {
  private readonly source = new ReplayDataSource();
  private readonly context: DecideContext;
  // The scored requests in columns, not a ScoredRequest each: the backtest command's pass rides
  // on the first draw of 1,000,000 requests, where 700,000 small objects (about 50 MB)
  // grew beside the replay's own garbage; the objects are built only when result() is asked for.
  private readonly loanRequestId = new NumberColumn();
  private readonly probability = new NumberColumn();
  private readonly rawProbability = new NumberColumn();
  private readonly defaulted = smallIntColumn();
  private resolved = 0;

  constructor(private readonly strategy: CompiledStrategy) {
    // The probability alone: a YAML strategy searches no price (DecideContext.probabilityOnly).
    this.context = { strategies: [strategy], nowMs: 0, ledger: NOTHING_SPENT, probabilityOnly: true };
  }

  add(entry: ReplayEntry, { line, data }: ReplayRead): void {
    const label = labelOf(line);
    if (label === null) return;
    this.resolved += 1;
    this.source.line = data;
    this.context.nowMs = entry.seenMs;
    const { decision } = decideSync(line.loan_request, this.context, this.source, allowAll);
    const probability = decision.probability;
    if (probability === undefined || !Number.isFinite(probability)) return;
    this.loanRequestId.push(line.loan_request.id);
    this.probability.push(probability);
    this.rawProbability.push(rawOf(decision.contributions, probability));
    this.defaulted.push(label === 1 ? 0 : 1);
  }

  /** What the requests added came to; `requests`: how many there were. */
  result(requests: number): StrategyProbabilities {
    const scored: ScoredRequest[] = [];
    for (let i = 0; i < this.probability.length; i += 1)
      scored.push({
        loanRequestId: this.loanRequestId.get(i),
        probability: this.probability.get(i),
        rawProbability: this.rawProbability.get(i),
        defaulted: this.defaulted.get(i) as 0 | 1,
      });
    return { ...this.counts(requests), scored };
  }

  /** result() without its scored requests: their number instead. */
  counts(requests: number): Omit<StrategyProbabilities, 'scored'> & { scored: number } {
    const { strategy, resolved } = this;
    return { strategy: strategy.name, requests, resolved, scored: this.probability.length, minProbability: minProbabilityOf(strategy) };
  }

  /**
   * predictionsOf(result(n).scored) read straight from the columns, without a ScoredRequest each
   * (the backtest command's calibration section, calibrationOfPass).
   */
  predictions(): Prediction[] {
    const predictions: Prediction[] = new Array<Prediction>(this.probability.length);
    for (let i = 0; i < predictions.length; i += 1)
      predictions[i] = { predicted: 1 - this.probability.get(i), defaulted: this.defaulted.get(i) as 0 | 1 };
    return predictions;
  }
}

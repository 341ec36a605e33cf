/**
 * Training trials over columns (trial-columns.ts, price-book.ts, column-replay.ts): per tune
 * context and window, the training period's columns are built once, on the first trial that
 * needs them, and each trial is then a pass over them. A strategy the columns cannot represent
 * (a plugin, paid provider data, params inside the score) gets no runner, and its trials are
 * full backtests (trial-evaluator.ts).
 *
 * This module keeps a bounded memo of each tune context's runners (MEMO_RUNNERS, one per window,
 * for the rung being replayed, held weakly by the context: they go when the tune does).
 */
import { mergeParams } from '../../engine/compiled-strategy.js';
import { columnSourceOf } from '../../engine/compile/compile-strategy.js';
import { findParamReferences } from '../../engine/definition/param-values.js';
import { DEFAULT_MARKET, type MarketAssumptions } from '../market-model.js';
import type { ExposureKey } from '../sim-ledger.js';
import { MAX_COLUMN_INSTALMENTS, replayOverColumns, type ColumnFigures } from './column-replay.js';
import type { ParamValues } from './param-space.js';
import { PriceBook, pricingKey } from './price-book.js';
import { buildTrialColumns, columnsUnsupported, trialThresholds, type TrialColumns } from './trial-columns.js';
import { trialPeriod } from './rung-periods.js';
import type { TrialContext, TrialTask } from './trial-context.js';
import { TypedEventHeap } from './typed-event-heap.js';

export class ColumnTrialRunner {
  private readonly book: PriceBook;
  private readonly heap = new TypedEventHeap();
  private readonly keys: ExposureKey[];
  private readonly market: MarketAssumptions;

  constructor(
    private readonly context: TrialContext,
    private readonly columns: TrialColumns,
  ) {
    this.market = { ...DEFAULT_MARKET, ...context.backtest.market };
    this.book = new PriceBook(columns, this.market);
    this.keys = columns.recording.entries.map(({ line }) => ({
      borrowerId: line.loan_request.borrower.id,
      riskLevel: line.loan_request.borrower_card_color,
    }));
  }

  /** The training figures of one param set (as given to withParams). */
  run(trialParams: ParamValues): ColumnFigures {
    const { strategy, backtest } = this.context;
    const params = mergeParams(strategy.params, strategy.paramSpecs, trialParams);
    return replayOverColumns(
      this.columns,
      this.book.forParams(params),
      trialThresholds(this.columns, params),
      {
        startingBalanceCents: backtest.startingBalanceCents,
        limits: backtest.limits,
        market: this.market,
        automateFund: strategy.automateFund,
        keys: this.keys,
      },
      this.heap,
    );
  }
}

/** Per tune context (weakly: kept as long as the context), per window and rung: its runner, or null. */
const MEMO_RUNNERS = new WeakMap<TrialContext, Map<string, ColumnTrialRunner | null>>();

/**
 * The column runner of a window's training period (or of a halving rung's part of it), or null
 * when its trials need full backtests. A tune replays one rung at a time, so a window's runner
 * for another rung is let go when this one is made.
 */
export function columnRunner(context: TrialContext, window: number, rung?: number): ColumnTrialRunner | null {
  let byPeriod = MEMO_RUNNERS.get(context);
  if (!byPeriod) MEMO_RUNNERS.set(context, (byPeriod = new Map()));
  const key = `${window} ${rung ?? 'all'}`;
  let runner = byPeriod.get(key);
  if (runner === undefined) {
    for (const other of byPeriod.keys()) if (other.startsWith(`${window} `)) byPeriod.delete(other);
    runner = makeRunner(context, window, rung);
    byPeriod.set(key, runner);
  }
  return runner;
}

function makeRunner(context: TrialContext, window: number, rung: number | undefined): ColumnTrialRunner | null {
  // Before the scan below: it builds every request of the period (seconds for a long one, in each thread, at each rung).
  if (columnsUnsupported(context.strategy) !== undefined) return null;
  const recording = trialPeriod(context, { trial: 0, window, part: 'train', ...(rung === undefined ? {} : { rung }) });
  if (recording.entries.length === 0) return null;
  if (recording.entries.some((entry) => entry.line.loan_request.loan_terms > MAX_COLUMN_INSTALMENTS)) return null;
  const columns = buildTrialColumns(context.strategy, recording);
  return typeof columns === 'string' ? null : new ColumnTrialRunner(context, columns);
}

/** Whether `task` is a training trial of a strategy the columns can represent (else it is a full backtest). */
export function overColumns(context: TrialContext, task: TrialTask): boolean {
  return task.part === 'train' && columnsUnsupported(context.strategy) === undefined;
}

/**
 * Tasks that share this key share their prices: the worker pool hands each group to one worker.
 * Trials that are full backtests (held out, or a strategy without columns) share no prices: each
 * gets a key of its own (trial-evaluator.ts's groupTasks bundles them by period instead).
 */
export function trialGroupKey(context: TrialContext, task: TrialTask): string {
  const source = columnSourceOf(context.strategy);
  if (!source || !overColumns(context, task))
    return `${task.part} ${task.window} #${task.trial}${task.world === undefined ? '' : ` world ${task.world}`}`;
  const params = mergeParams(context.strategy.params, context.strategy.paramSpecs, context.trials[task.trial] ?? {});
  const refs = findParamReferences(source.definition.pricing).map((ref) => ref.name);
  return `train ${task.window} ${task.rung ?? 'all'} ${pricingKey(refs, params)}`;
}

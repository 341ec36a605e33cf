/**
 * Training trials over columns (trial-columns.ts, price-book.ts, column-replay.ts): per tune
 * context and window, the training period's columns are built once, on the first trial that
 * needs them, and each trial is then a pass over them. A strategy the columns cannot represent
 * (a plugin, paid provider data, params inside the score) gets no runner, and its trials are
 * full backtests (trial-evaluator.ts).
 *
 * This module keeps a bounded memo of each tune context's runners (MEMO_RUNNERS, one per window,
 * held weakly by the context: they go when the tune does).
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

/** Per tune context (weakly: kept as long as the context), per window: its runner, or null. */
const MEMO_RUNNERS = new WeakMap<TrialContext, Map<number, ColumnTrialRunner | null>>();

/** The column runner of a window's training period, or null when its trials need full backtests. */
export function columnRunner(context: TrialContext, window: number): ColumnTrialRunner | null {
  let byWindow = MEMO_RUNNERS.get(context);
  if (!byWindow) MEMO_RUNNERS.set(context, (byWindow = new Map()));
  let runner = byWindow.get(window);
  if (runner === undefined) {
    runner = makeRunner(context, window);
    byWindow.set(window, runner);
  }
  return runner;
}

function makeRunner(context: TrialContext, window: number): ColumnTrialRunner | null {
  const recording = context.windows[window]?.train;
  if (!recording || recording.entries.length === 0) return null;
  if (recording.entries.some((entry) => entry.line.loan_request.loan_terms > MAX_COLUMN_INSTALMENTS)) return null;
  const columns = buildTrialColumns(context.strategy, recording);
  return typeof columns === 'string' ? null : new ColumnTrialRunner(context, columns);
}

/**
 * Tasks that share this key share their prices: the worker pool hands each group to one worker.
 * Trials that are full backtests (held out, or a strategy without columns) share nothing.
 */
export function trialGroupKey(context: TrialContext, task: TrialTask): string {
  const source = columnSourceOf(context.strategy);
  if (task.part === 'test' || !source || columnsUnsupported(context.strategy) !== undefined)
    return `${task.part} ${task.window} #${task.trial}`;
  const params = mergeParams(context.strategy.params, context.strategy.paramSpecs, context.trials[task.trial] ?? {});
  const refs = findParamReferences(source.definition.pricing).map((ref) => ref.name);
  return `train ${task.window} ${pricingKey(refs, params)}`;
}

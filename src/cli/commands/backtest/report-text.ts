/**
 * The backtest report for a terminal, in the spirit of freqtrade's backtest tables: one table per
 * segment dimension, a summary, the guard's refusals, and what is needed to reproduce the run.
 */
import type { BacktestResult } from '../../../backtest/index.js';
import { pct, summaryLines, usd } from '../../../backtest/index.js';
import { SEGMENT_DIMENSIONS, type SegmentRow } from '../../../backtest/index.js';
import { formatTable } from '../strategy/text-table.js';

const TITLES: Record<(typeof SEGMENT_DIMENSIONS)[number], string> = {
  risk_level: 'By risk level',
  score_band: 'By score band (provider B)',
  term: 'By term (months)',
  strategy: 'By strategy',
};

function segmentTable(rows: readonly SegmentRow[]): string {
  const header = ['', 'requests', 'offers', 'accepted', 'avg rate', 'deployed', 'interest', 'losses', 'default', 'net', 'ann. return'];
  const cells = rows.map((row) => [
    row.key,
    String(row.requests),
    String(row.offers),
    pct(row.acceptance),
    row.averageRate === null ? '-' : row.averageRate.toFixed(4),
    usd(row.deployedCents),
    usd(row.interestCents),
    usd(row.lossCents),
    pct(row.defaultRate),
    usd(row.netCents),
    pct(row.annualizedReturn),
  ]);
  return formatTable(header, cells, '  ');
}

function header(result: BacktestResult, source: string): string {
  const lines = [`Backtest of ${source}: ${result.period.requests} requests seen ${result.period.from ?? '-'} to ${result.period.to ?? '-'}, cash flows to ${result.period.end ?? '-'}`];
  for (const strategy of result.strategies) {
    const params = Object.entries(strategy.params).map(([name, value]) => `${name}=${value}`).join(' ');
    lines.push(`Strategy ${strategy.name} ${strategy.version} (${strategy.file}, content ${strategy.contentHash})${params ? `, params ${params}` : ''}`);
  }
  const { market, startingBalanceCents } = result.settings;
  lines.push(
    `Starting balance ${usd(startingBalanceCents)}; unknown competition: ${market.unknownCompetition}; decision after ${market.decisionDelayMs / 3_600_000}h; ${market.settle ? 'offers settle' : 'offers never settle (dry run)'}`,
  );
  return lines.join('\n') + '\n';
}

/** One run's full report. */
export function formatBacktest(result: BacktestResult, source: string): string {
  const parts = [header(result, source)];
  for (const dimension of SEGMENT_DIMENSIONS) parts.push(`\n${TITLES[dimension]}\n${segmentTable(result.segments[dimension])}`);
  parts.push(`\nSummary\n${formatTable(['', ''], summaryLines(result.summary), '  ').split('\n').slice(1).join('\n')}`);
  return parts.join('');
}

/** Several runs' summaries side by side, one column per strategy. */
export function formatSideBySide(results: readonly BacktestResult[]): string {
  const names = results.map((r) => r.strategies.map((s) => s.name).join('+'));
  const columns = results.map((r) => summaryLines(r.summary));
  const rows = (columns[0] ?? []).map(([label], index) => [label, ...columns.map((c) => c[index]?.[1] ?? '')]);
  return `\nSide by side\n${formatTable(['', ...names], rows, '  ')}`;
}

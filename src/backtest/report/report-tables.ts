/**
 * The HTML report's tables, written on the server so they read without scripts and print: the
 * strategies side by side (the terminal's rows), results per segment, and the list of loans.
 */
import type { BacktestLoan, BacktestResult } from '../backtest-result.js';
import type { DrawsSummary } from '../draws.js';
import type { SegmentRow } from '../segment-stats.js';
import { dollars, pct, riskLevelLabel, runName, sideBySideRows } from './summary-lines.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const row = (cells: readonly string[], head = false): string =>
  `<tr>${cells.map((c, i) => (head || i === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`;

export function table(className: string, header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const body = rows.map((cells) => row(cells.map(escapeHtml))).join('');
  return `<table class="${className}"><thead>${row(header.map(escapeHtml), true)}</thead><tbody>${body}</tbody></table>`;
}

/** One column per run: the same rows and figures as the terminal report's "Side by side". */
export function comparisonTable(results: readonly BacktestResult[], draws: readonly DrawsSummary[]): string {
  return table('comparison', ['', ...results.map(runName)], sideBySideRows(results, draws, dollars));
}

/** A segment's rows: what was asked, offered, funded and lost, and what it returned; `keyLabel` names a row's key. */
export function segmentTable(keyTitle: string, rows: readonly SegmentRow[], keyLabel: (key: string) => string = (key) => key): string {
  const header = [
    keyTitle,
    'requests',
    'offers',
    'funded',
    'defaults',
    'default rate',
    'avg offered rate',
    'lent',
    'interest',
    'losses',
    'recoveries',
    'net',
    'ann. return',
  ];
  return table(
    'segment',
    header,
    rows.map((r) => [
      keyLabel(r.key),
      r.requests.toLocaleString('en-US'),
      r.offers.toLocaleString('en-US'),
      r.funded.toLocaleString('en-US'),
      r.defaults.toLocaleString('en-US'),
      pct(r.defaultRate),
      r.averageRate === null ? '-' : pct(r.averageRate),
      dollars(r.deployedCents),
      dollars(r.interestCents),
      dollars(r.lossCents),
      dollars(r.recoveryCents),
      dollars(r.netCents),
      pct(r.annualizedReturn),
    ]),
  );
}

/** Every funded loan of every run and its outcome; `data-outcome` lets a reader's stylesheet or a test pick rows. */
export function loansTable(loans: ReadonlyArray<{ run: string; loan: BacktestLoan }>): string {
  const header = ['request id', 'strategy', 'funded', 'risk level', 'amount', 'rate', 'outcome', 'profit'];
  const body = loans
    .map(
      ({ run, loan }) =>
        `<tr data-outcome="${loan.outcome}"><td>${loan.loanRequestId}</td><td>${escapeHtml(loan.strategy === run ? run : `${run}: ${loan.strategy}`)}</td><td>${loan.fundedAt.slice(0, 10)}</td>` +
        `<td>${escapeHtml(riskLevelLabel(loan.riskLevel))}</td><td>${dollars(loan.amountCents)}</td><td>${pct(loan.rate)}</td><td>${loan.outcome}</td><td>${dollars(loan.profitCents)}</td></tr>`,
    )
    .join('');
  return `<table class="loans"><thead>${row(header, true)}</thead><tbody>${body}</tbody></table>`;
}

/**
 * Idle cash against refusals for cash, in every report (terminal and HTML share these figures):
 * the two ways cash goes wrong. Much idle cash and no refusals: the hurdle could fall (more
 * offers); refusals with little idle cash: cash binds and the hurdle could rise (pricing's
 * `cash_hurdle`, docs/strategies.md). The figures come from the replay's summary.
 */
import type { BacktestResult, BacktestSummary } from '../backtest-result.js';
import { escapeHtml, table } from './report-tables.js';
import { dollars, pct, runName } from './summary-lines.js';

/** The idle-cash and refusals-for-cash figures of one run. */
export interface CashFigures {
  /**
   * Share of the money idle over the run: lent to no one and held by no offer (time-weighted).
   * The verdict's and the side-by-side table's figure: 1 − utilization also counted the cash
   * open offers hold, so this table once said 71.7 % where the verdict said 70.2 %.
   */
  idleShare: number;
  averageIdleCents: number;
  /** Offers the guard refused because the free balance could not cover them. */
  refusedForCash: number;
  /** Offers accepted that the balance could not fund. */
  unfundable: number;
  offers: number;
}

export function cashFigures(summary: BacktestSummary): CashFigures {
  return {
    idleShare: summary.idleShare,
    averageIdleCents: summary.averageIdleCents,
    refusedForCash: summary.guardRefusals.insufficient_balance ?? 0,
    unfundable: summary.fundingFailures,
    offers: summary.offers,
  };
}

/** The terminal report's line. */
export function cashSection(summary: BacktestSummary): string {
  const c = cashFigures(summary);
  return (
    `\nCash: ${pct(c.idleShare)} of the money idle, held by no offer, on average (cash on average ${dollars(c.averageIdleCents)}); ` +
    `refused for cash: ${c.refusedForCash} offers by the guard, ${c.unfundable} accepted but unfundable (of ${c.offers} offers made)\n`
  );
}

const CASH_HEADER = [
  'run',
  'money idle (no offer holds it)',
  'average cash',
  'offers refused for cash',
  'accepted but unfundable',
  'offers made',
];

/** The HTML report's section: one row per run. */
export function cashHtml(results: readonly BacktestResult[]): string {
  if (results.length === 0) return '';
  const rows = results.map((result) => {
    const c = cashFigures(result.summary);
    return [
      runName(result),
      pct(c.idleShare),
      dollars(c.averageIdleCents),
      String(c.refusedForCash),
      String(c.unfundable),
      String(c.offers),
    ];
  });
  const note =
    'Much idle cash and no refusals: the hurdle could fall; refusals for cash with little idle: cash binds and the hurdle could rise (pricing.cash_hurdle).';
  return `<h2>Idle cash and refusals for cash</h2><div class="scroll">${table('cash', CASH_HEADER, rows)}</div><p>${escapeHtml(note)}</p>`;
}

/**
 * The text of `lendbot shadow report`: each challenger against the live decisions on the same
 * requests. What a real borrower did is said apart from what the market response models.
 */
import { formatCents } from '../../../domain/index.js';
import type { ShadowComparisonRow } from '../../../store/shadow-decisions-repository.js';

const percent = (rate: number | null): string => (rate === null ? '-' : `${(rate * 100).toFixed(1)} %`);

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** One block a challenger; an empty report says how to get one. */
export function shadowReportText(rows: readonly ShadowComparisonRow[], since: string | undefined): string {
  if (rows.length === 0) {
    return 'no shadow decisions recorded: mark a strategy `shadow: true`, list it in the config\'s strategies and run the daemon (docs/strategies.md, "Shadow and split")\n';
  }
  const lines = [`challengers in shadow${since === undefined ? '' : ` since ${since}`}, against the live decisions on the same requests:`];
  for (const row of rows) {
    lines.push(
      '',
      `${row.strategy}`,
      `  requests seen        ${row.seen}`,
      `  would offer          ${row.wouldOffer} at ${percent(row.meanRate)} mean   (live: ${row.liveOffers} offers at ${percent(row.liveMeanRate)} mean)`,
      `  both offered         ${row.overlap}`,
      `  real                 the live offer was accepted on ${plural(row.liveFunded, 'request', 'requests')} the challenger offered on; its rate was at or below the borrower's on ${row.liveFundedAtOrBelow}`,
      `  modelled             ${row.modelledAccepted.toFixed(1)} expected acceptances of its other ${plural(row.modelledOffers, 'would-be offer', 'would-be offers')} (market response, not an outcome)`,
      `  would have needed    data the live decision had not bought on ${plural(row.neededData, 'request', 'requests')} (decided without it)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The same figures as JSON (snake_case, like every --json of lendbot). */
export function shadowReportJson(rows: readonly ShadowComparisonRow[]): unknown {
  return rows.map((row) => ({
    strategy: row.strategy,
    seen: row.seen,
    would_offer: row.wouldOffer,
    mean_rate: row.meanRate,
    live_offers: row.liveOffers,
    live_mean_rate: row.liveMeanRate,
    overlap: row.overlap,
    real: { live_accepted: row.liveFunded, at_or_below_live_rate: row.liveFundedAtOrBelow },
    modelled: { expected_acceptances: row.modelledAccepted, offers: row.modelledOffers },
    needed_data: row.neededData,
  }));
}

/** One arm of a live split, as the report shows it. */
export interface ArmFigures {
  strategy: string;
  share: number;
  resolvedLoans: number;
  /** Paid back minus lent over its resolved loans. */
  pnlCents: number;
}

/** The live split's section: each arm's resolved loans and P&L, and the sequential test's verdict. */
export function splitReportText(arms: readonly ArmFigures[], verdictLine: string): string {
  const lines = ['', 'live split (risk.split): P&L of resolved loans by arm, real outcomes'];
  for (const arm of arms) {
    lines.push(
      `  ${arm.strategy.padEnd(20)} share ${(arm.share * 100).toFixed(0)} %   ${plural(arm.resolvedLoans, 'resolved loan', 'resolved loans')}   P&L ${formatCents(arm.pnlCents)}`,
    );
  }
  lines.push(`  sequential test (mSPRT, alpha 5 %): ${verdictLine}`);
  return `${lines.join('\n')}\n`;
}

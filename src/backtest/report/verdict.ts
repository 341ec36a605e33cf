/**
 * The one-line verdict at the top of every report: what the best run earned a year on its
 * capital, how wide the band across borrower worlds is, and what that is measured against (cash
 * left idle earns 0 %; the other strategies of the same report, such as the naive baseline), then
 * how much of the money sat idle and whether the sample is large enough to judge. A run the
 * recording cannot judge (unjudgeable.ts) is named so and compared with nothing.
 */
import type { BacktestResult } from '../backtest-result.js';
import type { DrawsSummary } from '../draws.js';
import type { WorldsBand } from '../worlds-band.js';
import { MIN_FUNDED_LOANS, pct, runName } from './summary-lines.js';
import { idleHeadline } from './idle-headline.js';
import { cannotBeJudged, cannotBeJudgedClause, JUDGEABLE_RECORDING_HINT } from './unjudgeable.js';

interface RunFigures {
  name: string;
  /** The mean over the draws, else the run's own figure. */
  net: number;
  result: BacktestResult;
  band: WorldsBand | null;
}

const unjudgeableText = (runs: readonly RunFigures[]): string =>
  cannotBeJudgedClause(runs.map((run) => ({ name: run.name, summary: run.result.summary })));

/** "in 3 of 4 borrower worlds": the worlds whose mean over the draws is above 0. */
function worldsAbove(band: WorldsBand): string {
  const above = band.worlds.filter((w) => w.draws.netAnnualizedReturn.mean > 0).length;
  return `in ${above} of ${band.worlds.length} borrower worlds`;
}

/** ", ahead in 3 of 4 borrower worlds" when both runs have the band: world by world, by the mean over the draws. */
function worldsAhead(best: RunFigures, other: RunFigures): string {
  const mine = best.band?.worlds ?? [];
  const theirs = new Map((other.band?.worlds ?? []).map((w) => [w.world, w.draws.netAnnualizedReturn.mean]));
  const shared = mine.filter((w) => theirs.has(w.world));
  if (shared.length === 0) return '';
  const ahead = shared.filter((w) => w.draws.netAnnualizedReturn.mean > (theirs.get(w.world) ?? Number.POSITIVE_INFINITY)).length;
  return `; ahead in ${ahead} of ${shared.length} borrower worlds`;
}

/** The verdict line, without a final period; null when there is no run. */
export function verdictLine(
  results: readonly BacktestResult[],
  draws: ReadonlyArray<DrawsSummary | undefined> = [],
  worlds: ReadonlyArray<WorldsBand | null | undefined> = [],
): string | null {
  const runs: RunFigures[] = results.map((result, i) => {
    const d = draws[i];
    return {
      name: runName(result),
      net: d && d.draws.length > 1 ? d.netAnnualizedReturn.mean : result.summary.netAnnualizedReturn,
      result,
      band: worlds[i] ?? null,
    };
  });
  if (runs.length === 0) return null;
  const unjudgeable = runs.filter((run) => cannotBeJudged(run.result.summary));
  const judged = runs.filter((run) => !unjudgeable.includes(run));
  const best = judged.reduce<RunFigures | undefined>((top, run) => (top === undefined || run.net > top.net ? run : top), undefined);
  if (!best) return `${unjudgeableText(unjudgeable)} (${JUDGEABLE_RECORDING_HINT})`;
  const d = draws[runs.indexOf(best)];
  const over = d && d.draws.length > 1 ? ` (mean of ${d.draws.length} draws)` : '';
  const band = best.band
    ? `, ${pct(best.band.low.netAnnualizedReturn)} to ${pct(best.band.high.netAnnualizedReturn)} across borrower worlds`
    : '';
  const parts = [`${best.name} earned ${pct(best.net)} a year net on its capital${over}${band}`];
  const againstCash = best.band ? worldsAbove(best.band) : '';
  parts.push(`${best.net > 0 ? 'beating' : 'not beating'} uninvested cash (0%)${againstCash ? ` on average and ${againstCash}` : ''}`);
  const others = judged.filter((run) => run !== best);
  const list = (runs: readonly RunFigures[]): string => runs.map((o) => `${o.name} (${pct(o.net)}${worldsAhead(best, o)})`).join(', ');
  const behind = others.filter((o) => o.net < best.net);
  const level = others.filter((o) => o.net === best.net);
  if (behind.length > 0) parts.push(`ahead of ${list(behind)}`);
  if (level.length > 0) parts.push(`level with ${list(level)}`);
  const summary = best.result.summary;
  const few =
    summary.funded < MIN_FUNDED_LOANS
      ? `; only ${summary.funded === 1 ? '1 loan' : `${summary.funded} loans`} funded: too few to judge`
      : '';
  const because = idleHeadline(summary, best.result.settings.market.settle).because;
  const idle = `${pct(summary.idleShareWhileRequests)} of its money sat idle while requests arrived (${pct(summary.idleShare)} to the last repayment)${because === null ? '' : `: ${because}`}`;
  const notJudged = unjudgeable.length > 0 ? `; ${unjudgeableText(unjudgeable)}` : '';
  return `${parts.join(', ')}; ${idle}${few}${notJudged}`;
}

/** `lendbot train model`'s report as text: counts, metrics, calibration, weights, market response (train market prints the last alone). */
import { wonRepayProbability } from '../../../engine/market/repay-curse.js';
import { LR_CRITICAL, THIN_LINES, type PartEvidence, type SplitFacts, type TrainReport } from '../../../backtest/train/index.js';
import { takeUpAt } from '../../../engine/index.js';
import { formatTable } from '../strategy/text-table.js';
import { calibrationStatsText } from '../backtest/calibration-text.js';
import { percentOneDecimal as pct } from '../../../log/plain-figures.js';

/** The largest weights the text report lists. */
const WEIGHTS_SHOWN = 25;

const day = (iso: string): string => iso.slice(0, 10);
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
const figure = (value: number | null | undefined, digits = 3): string =>
  value === null || value === undefined ? '-' : value.toFixed(digits);

function splitLine(label: string, split: SplitFacts): string[] {
  return [
    label,
    String(split.lines),
    `${day(split.from)} to ${day(split.to)}`,
    pct(split.defaultRate),
    figure(split.auc),
    figure(split.brier, 4),
  ];
}

/** Plain words for a part's verdict. */
function verdictText(verdict: PartEvidence['verdict']): string {
  if (verdict === 'none') return 'not fitted: strategies keep the cautious default';
  if (verdict === 'thin') return `thin evidence (fewer than ${THIN_LINES}): treat as a rough guide`;
  return 'fitted';
}

/** The winner's curse line: how our own funded loans repaid against their score, by the rate (market file only). */
function curseLine(curse: TrainReport['curse']): string {
  const { lines, repaid, defaulted, verdict } = curse.evidence;
  if (verdict === 'none')
    return `  winner's curse: not fitted (${lines} of our own funded loans of known fate; needs both repaid and defaulted ones)`;
  const at = (u: number): string => wonRepayProbability(0.9, 0.03 + u * 0.47, 0.5, curse.w).toFixed(2);
  return `  winner's curse on our own funded loans (${repaid} repaid, ${defaulted} not; ${verdictText(verdict)}): a borrower scored 0.90 repays ${at(0.2)} / ${at(0.5)} / ${at(0.9)} when won low / half-way / near the maximum`;
}

/** The market response's lines under `heading` (train model saves it twice, train market once). */
export function marketLines(
  report: TrainReport,
  heading = 'Market response (saved in the model file as `market`, and in the market file)',
): string {
  const { section, notes, takeUpLines, evidence } = report.market;
  const out: string[] = [heading];
  const c = section.competition;
  if (c?.share !== undefined)
    out.push(`  competing offer on ${pct(c.share)} of ${c.lines ?? 0} requests (${verdictText(evidence.competitionShare.verdict)})`);
  if (c?.intercept !== undefined && c.per_default !== undefined && c.spread !== undefined) {
    out.push(
      `  best competing rate = ${c.intercept.toFixed(4)} + ${c.per_default.toFixed(4)} x default probability (residual sd ${c.spread.toFixed(4)}; ${evidence.competitionRate.lines} competing rates, ${verdictText(evidence.competitionRate.verdict)})`,
    );
  }
  const takeUp = section.take_up;
  if (takeUp) {
    const curve = `midpoint ${takeUp.midpoint.toFixed(3)}, steepness ${takeUp.steepness.toFixed(3)}`;
    out.push(
      takeUp.source === 'own_offers'
        ? `  take-up from our own offers: ${curve} (${takeUpLines.took} accepted or taken, ${takeUpLines.walked} rejected, expired or lost; not accepted includes outbid)`
        : `  take-up from every offer's fate: ${curve} (${takeUpLines.took} offers taken, ${takeUpLines.walked} walked away from)`,
    );
    if (takeUp.midpoint_per_default !== undefined && takeUp.steepness_per_default !== undefined) {
      out.push(
        `  by borrower: midpoint ${signed(takeUp.midpoint_per_default)} and steepness ${signed(takeUp.steepness_per_default)} per unit of default probability (likelihood ratio ${evidence.takeUp.borrowerEvidence.toFixed(1)} > ${LR_CRITICAL})`,
      );
      for (const pd of [0.02, 0.1, 0.3]) {
        const at = takeUpAt(
          {
            midpoint: takeUp.midpoint,
            steepness: takeUp.steepness,
            midpointPerDefault: takeUp.midpoint_per_default,
            steepnessPerDefault: takeUp.steepness_per_default,
          },
          pd,
        );
        out.push(`    default probability ${pct(pd)}: midpoint ${at.midpoint.toFixed(3)}, steepness ${at.steepness.toFixed(3)}`);
      }
    } else {
      out.push(
        `  the same for every borrower (likelihood ratio of a borrower-dependent curve ${evidence.takeUp.borrowerEvidence.toFixed(1)}, needs ${LR_CRITICAL})`,
      );
    }
  }
  const t = evidence.takeUp;
  out.push(
    `  take-up evidence: ${t.lines} fates (${t.ownOffers} of our own offers, ${t.competingOffers} of competitors' offers, ${t.historyRates} past loan rates of ${t.historyRatesSeen} in the recording); ${verdictText(t.verdict)}`,
  );
  out.push(curseLine(report.curse));
  for (const note of notes) out.push(`  ${note}`);
  return `${out.join('\n')}\n`;
}

/** The report; `written` null when nothing was (the held-out check across worlds refused it). */
export function formatTrainReport(report: TrainReport, written: { file: string; sha256: string } | null): string {
  const repaid = report.labelled - report.train.defaulted - report.test.defaulted;
  const left = Object.entries(report.unlabelled)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  const parts: string[] = [];
  parts.push(
    `Data ${report.model.training?.data_file ?? ''}: ${report.lines} requests, ${report.labelled} labelled (${repaid} repaid, ${report.train.defaulted + report.test.defaulted} defaulted)${left ? `; left out: ${left}` : ''}\n\n`,
  );
  const share = Math.round((report.model.training?.train_share ?? 0) * 100);
  const penalty =
    report.l2.chosen === 'auto'
      ? `L2 penalty ${report.l2.value}, chosen on the last quarter of the fitting part (log-loss ${report.l2.candidates.map((c) => `${c.l2}: ${c.logLoss.toFixed(4)}`).join(', ')})\n\n`
      : `L2 penalty ${report.l2.value}\n\n`;
  parts.push(penalty);
  parts.push(
    `Split by time (first ${share} % of labelled lines fit, the rest judge)\n` +
      formatTable(
        ['part', 'lines', 'seen', 'default rate', 'AUC', 'Brier'],
        [splitLine('fit', report.train), splitLine('held out', report.test)],
        '  ',
      ) +
      '\n',
  );
  parts.push(`Calibration (held out, by decile of predicted default, safest first)\n${calibrationStatsText(report.calibration)}\n`);
  const shown = report.weights.slice(0, WEIGHTS_SHOWN);
  const more = report.weights.length - shown.length;
  parts.push(
    `Weights of the written model (log-odds of repayment per sd, refit on all ${report.labelled} labelled lines; intercept ${signed(report.model.intercept)})\n` +
      formatTable(
        ['term', 'weight'],
        shown.map((item) => [item.term, signed(item.weight)]),
        '  ',
      ) +
      (more > 0 ? `  ... ${more} smaller (--json or the model file lists every one)\n` : ''),
  );
  if (report.dropped.length > 0) parts.push(`  left out: ${report.dropped.map((item) => `${item.name} (${item.why})`).join(', ')}\n`);
  parts.push(`\n${marketLines(report)}\n`);
  if (written !== null)
    parts.push(`Wrote ${written.file} (${report.model.features.length} features, sha256 ${written.sha256.slice(0, 16)})\n`);
  return parts.join('');
}

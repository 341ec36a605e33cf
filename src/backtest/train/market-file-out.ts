/**
 * The market file `lendbot train` writes beside the model (src/engine/market-file.ts reads it):
 * the fitted market response with the evidence each part rests on and the period it covers.
 */
import { MARKET_FORMAT, MARKET_VERSION, type MarketFileInput } from '../../engine/market-file.js';
import type { TrainReport } from './train-model.js';
import type { PartEvidence } from './market-fit.js';

/** A plain sentence for a part's verdict, kept in the file for whoever reads it. */
function note(part: string, evidence: PartEvidence): string {
  if (evidence.verdict === 'none') return `${part} not fitted: a strategy using this file keeps the cautious default for it`;
  if (evidence.verdict === 'thin') return `${part} rests on ${evidence.lines} observations: thin, treat as a rough guide`;
  return `${part} rests on ${evidence.lines} observations`;
}

/** The market file of a training run; `dataFile` and `fittedAt` say where and when it came from. */
export function marketFileOf(report: TrainReport, dataFile: string, fittedAt: Date): MarketFileInput {
  const { section, evidence } = report.market;
  const period = report.model.training?.period ?? { from: '', to: '' };
  const file: MarketFileInput = {
    format: MARKET_FORMAT,
    version: MARKET_VERSION,
    fitted: { data_file: dataFile, fitted_at: fittedAt.toISOString(), period },
  };
  const c = section.competition;
  if (c !== undefined) {
    file.competition = {
      ...(c.share === undefined ? {} : { share: c.share }),
      ...(c.intercept === undefined ? {} : { intercept: c.intercept }),
      ...(c.per_default === undefined ? {} : { per_default: c.per_default }),
      ...(c.spread === undefined ? {} : { spread: c.spread }),
    };
  }
  const t = section.take_up;
  if (t !== undefined) {
    file.take_up = {
      midpoint: t.midpoint,
      steepness: t.steepness,
      midpoint_per_default: t.midpoint_per_default ?? 0,
      steepness_per_default: t.steepness_per_default ?? 0,
    };
  }
  const takeUp = evidence.takeUp;
  file.evidence = {
    competition_share: {
      ...evidence.competitionShare,
      note: note('the share of requests with a competing offer', evidence.competitionShare),
    },
    competition_rate: { ...evidence.competitionRate, note: note('the competing rate level', evidence.competitionRate) },
    take_up: {
      lines: takeUp.lines,
      verdict: takeUp.verdict,
      note: note('the take-up curve', takeUp),
      took: takeUp.took,
      walked: takeUp.walked,
      own_offers: takeUp.ownOffers,
      competing_offers: takeUp.competingOffers,
      history_rates: takeUp.historyRates,
      borrower_dependent: takeUp.borrowerDependent,
      likelihood_ratio: takeUp.borrowerEvidence,
      ...(t?.source === undefined ? {} : { source: t.source }),
    },
  };
  // The winner's curse, only when our own funded loans of both fates were seen.
  const curse = report.curse;
  if (curse.evidence.verdict !== 'none') file.winners_curse = { w: curse.w, sd: curse.sd };
  file.evidence.winners_curse = {
    lines: curse.evidence.lines,
    verdict: curse.evidence.verdict,
    note:
      curse.evidence.verdict === 'none'
        ? "the winner's curse not fitted: no own funded loans of both fates; a strategy using this file starts it at 0"
        : note("the winner's curse (own funded loans)", curse.evidence),
    repaid: curse.evidence.repaid,
    defaulted: curse.evidence.defaulted,
  };
  return file;
}

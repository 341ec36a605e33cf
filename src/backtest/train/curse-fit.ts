/**
 * The winner's curse fitted by `lendbot train` (src/engine/market/repay-curse.ts; docs/training.md):
 * from the investor's OWN funded loans whose fate the recording knows (an `offer` accepted, a
 * completed, defaulted or collection outcome), how much worse they repaid than the trained model
 * scored, by the offered rate's position. Other lenders' loans are not used: whether a loan we
 * won repays unlike its score is exactly what they cannot show. Written into the market file,
 * where a strategy's `pricing.winners_curse` starts from it.
 */
import { positionOf } from '../../engine/market/logistic-correction.js';
import { CURSE_SIZE, fitCurse, type CurseObservation } from '../../engine/market/repay-curse.js';
import type { PartEvidence } from './market-fit.js';
import type { TrainingLine } from './training-data.js';
import { logit } from '../../math/index.js';

/** The prior the fit starts from: the strategy setting's default (schema: winners_curse.prior_sd). */
const CURSE_FIT_PRIOR_SD = 0.5;
/** Below this many loans of either fate the fit is called thin. */
const THIN_LOANS = 100;

export interface CurseFit {
  /** w over [1, u, u·logit p]; all 0 when no loan was seen. */
  w: number[];
  /** Each term's posterior standard deviation. */
  sd: number[];
  evidence: PartEvidence & { repaid: number; defaulted: number };
}

/** Own funded loans of known fate, in recording order, as the curse's observations. */
function ownLoans(
  lines: readonly TrainingLine[],
  repaidProbability: (line: TrainingLine) => number,
): Array<{ observation: CurseObservation; repaid: boolean }> {
  const loans: Array<{ observation: CurseObservation; repaid: boolean }> = [];
  for (const entry of lines) {
    const { offer, outcome, loan_request: request } = entry.line;
    if (offer?.status !== 'accepted' || entry.label === null) continue;
    // Accepted, but funded by someone else at another rate: not our loan.
    if (outcome?.funded_rate !== undefined && Math.abs(outcome.funded_rate - offer.rate) > 1e-9) continue;
    loans.push({
      observation: { position: positionOf(offer.rate, request.max_interest_rate), scoreLogit: logit(repaidProbability(entry)) },
      repaid: entry.label === 1,
    });
  }
  return loans;
}

export function fitOwnCurse(lines: readonly TrainingLine[], repaidProbability: (line: TrainingLine) => number): CurseFit {
  const loans = ownLoans(lines, repaidProbability);
  const repaid = loans.filter((loan) => loan.repaid).length;
  const defaulted = loans.length - repaid;
  const state = fitCurse({ priorSd: CURSE_FIT_PRIOR_SD, priorMean: [0, 0, 0] }, loans);
  const fitted = repaid > 0 && defaulted > 0;
  const round = (value: number): number => Number(value.toFixed(4));
  return {
    w: fitted ? state.posterior.mean.map(round) : [0, 0, 0],
    sd: Array.from({ length: CURSE_SIZE }, (_, i) => round(Math.sqrt(state.posterior.cov[i * CURSE_SIZE + i] ?? 0))),
    evidence: {
      lines: loans.length,
      verdict: !fitted ? 'none' : Math.min(repaid, defaulted) < THIN_LOANS ? 'thin' : 'fitted',
      repaid,
      defaulted,
    },
  };
}

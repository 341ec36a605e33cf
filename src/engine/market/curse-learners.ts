/**
 * The winner's-curse corrections (repay-curse.ts) of every strategy with `pricing.winners_curse`,
 * by strategy name, held by the run's MarketLearning: the decide step prices with them, and the
 * backtest feeds each funded loan's fate once the replay has reached it (never before).
 */
import type { Decision } from '../decision.js';
import {
  curseObservationAt,
  curseUpdated,
  initialCurseState,
  type CurseObservation,
  type CurseSettings,
  type CurseState,
} from './repay-curse.js';

/** What a funded loan priced with the curse will teach it once its fate is known. */
export interface CurseOffer {
  strategy: string;
  observation: CurseObservation;
}

export class CurseLearners {
  private readonly learners = new Map<string, { settings: CurseSettings; state: CurseState }>();

  /** The strategy's curse, from its prior on first use, or afresh when the prior it was learned over changed. */
  stateFor(strategy: string, settings: CurseSettings): CurseState {
    const held = this.learners.get(strategy);
    if (held !== undefined && samePrior(held.settings, settings)) return held.state;
    const state = initialCurseState(settings);
    this.learners.set(strategy, { settings, state });
    return state;
  }

  /** The strategy's curse, if it has priced anything yet. */
  existing(strategy: string): CurseState | undefined {
    return this.learners.get(strategy)?.state;
  }

  /** Learns one funded loan's fate; false when the strategy has no curse here. */
  observe(strategy: string, observation: CurseObservation, repaid: boolean): boolean {
    const held = this.learners.get(strategy);
    if (held === undefined) return false;
    held.state = curseUpdated(held.state, observation, repaid);
    return true;
  }
}

function samePrior(a: CurseSettings, b: CurseSettings): boolean {
  return a.priorSd === b.priorSd && a.priorMean.length === b.priorMean.length && a.priorMean.every((value, i) => value === b.priorMean[i]);
}

/** What an offer priced with the curse teaches it if funded; undefined for any other decision. */
export function curseOfferOf(decision: Decision): CurseOffer | undefined {
  const curve = decision.priceCurve;
  if (decision.action !== 'offer' || decision.rate === undefined || curve?.curse === undefined) return undefined;
  return {
    strategy: decision.strategy.name,
    observation: curseObservationAt(decision.rate, curve.maxInterestRate, curve.economics.probability),
  };
}

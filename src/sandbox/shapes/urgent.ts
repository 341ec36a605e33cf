/**
 * A market of borrowers who need the money now: nearly every one accepts a rate near the
 * request's maximum, whatever its quality, so the rate hardly matters to acceptance. The classic
 * shape's borrowers, a little safer; about one other lender a request, at a flat price whatever
 * the risk, so who else offers says nothing about quality either. A lender who prices blind
 * makes loans that default about as often as the requests it offered on.
 */
import { CLASSIC_SHAPE } from './classic.js';
import type { MarketShape } from './market-shape.js';

export const URGENT_SHAPE: MarketShape = {
  name: 'urgent',
  description: 'borrowers need the money: nearly all accept near the maximum, whatever their quality; flat prices',
  mainDriver: CLASSIC_SHAPE.mainDriver,
  // The classic borrowers' weights, a little safer: a market of urgent needs, not of bad credit.
  repayment: { ...CLASSIC_SHAPE.repayment, intercept: 2.2 },
  population: CLASSIC_SHAPE.population,
  competitors: {
    lendersByColor: [1.1, 1.1, 1.1, 1.1, 1.1],
    estimateErrorSd: 1.5,
    readsHiddenRisk: 0,
    base: 0.22,
    perDefault: 0,
    noiseSd: 0.06,
    cancelShare: 0.05,
  },
  borrowers: { kind: 'needs-the-money', reach: 0.3 },
};

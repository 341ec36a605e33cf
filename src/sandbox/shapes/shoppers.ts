/**
 * A market where acceptance depends on quality: the classic shape's borrowers, but a good
 * borrower knows its worth and accepts little above a fair price for its true risk, while a poor
 * one accepts nearly anything up to the maximum. Many lenders contest it (offers on about 84 % of
 * requests) and their prices follow the true risk, hidden part included, so the contested
 * requests are the good ones. A lender who prices without knowing that wins the poor borrowers:
 * its funded loans default more often than the requests it offered on (adverse selection).
 */
import { CLASSIC_SHAPE } from './classic.js';
import type { MarketShape } from './market-shape.js';

export const SHOPPERS_SHAPE: MarketShape = {
  name: 'shoppers',
  description: 'good borrowers accept little above a fair price, poor ones anything; many lenders read true risk',
  mainDriver: CLASSIC_SHAPE.mainDriver,
  repayment: CLASSIC_SHAPE.repayment,
  population: CLASSIC_SHAPE.population,
  competitors: {
    lendersByColor: [3.6, 3, 2.2, 1.8, 2.2],
    estimateErrorSd: 0.35,
    readsHiddenRisk: 0.8,
    base: 0.06,
    perDefault: 1.1,
    noiseSd: 0.015,
    cancelShare: 0.03,
  },
  borrowers: { kind: 'shops-by-quality', fairBase: 0.05, fairPerDefault: 1.1, margin: 0.03, shopsBelow: 0.1, desperateFrom: 0.4 },
};

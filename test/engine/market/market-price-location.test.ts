// Learning where the market's price sits (market-price-location.ts): a lost offer at r is read as
// "the winning price was below r", so repeated losses at one rate move the learned acceptance
// curve's location below r (a lower rate becomes the one that wins), not only its height.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_RESPONSE } from '../../../src/engine/market-response.js';
import { observationAt } from '../../../src/engine/market/learned-accept.js';
import { MarketLearner } from '../../../src/engine/market/market-learner.js';
import { learnedMarketPrice } from '../../../src/engine/market/market-price-location.js';

const market = DEFAULT_MARKET_RESPONSE;
const maxRate = 0.6;
const pd = 0.1;
const rate = 0.15;
const riskLevel = 1;

function learnerAfterLosses(location: boolean, losses: number): MarketLearner {
  const learner = new MarketLearner({ priorSd: 1, exploreShare: 0, market, location });
  for (let n = 0; n < losses; n += 1) learner.observe(observationAt(rate, maxRate, pd, market, riskLevel), false);
  return learner;
}

describe('learning where the market price sits', () => {
  it('moves the market price below the rate whose offers keep losing', () => {
    const prior = learnedMarketPrice(market, pd, riskLevel, learnerAfterLosses(true, 0).snapshot().posterior.mean);
    expect(prior).toBeGreaterThan(rate); // the configured competition centres at 0.08 + 1 × pd = 0.18
    const learned = learnerAfterLosses(true, 200);
    expect(learnedMarketPrice(market, pd, riskLevel, learned.snapshot().posterior.mean)).toBeLessThan(rate);
    // The other risk levels' prices stay where they were: nothing was offered there.
    expect(learnedMarketPrice(market, pd, 0, learned.snapshot().posterior.mean)).toBe(prior);
  });

  it('learns a fate stored without its rate (before this learner) on the take-up terms only', () => {
    const learner = learnerAfterLosses(true, 0);
    const { rate: _r, maxRate: _m, riskLevel: _l, ...old } = observationAt(rate, maxRate, pd, market, riskLevel);
    learner.observe(old, false);
    const mean = learner.snapshot().posterior.mean;
    expect(mean.slice(4).every((value) => value === 0)).toBe(true);
    expect(mean[0]).toBeLessThan(0);
  });
});

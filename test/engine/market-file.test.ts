import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { loadStrategyFile, takeUpProbability } from '../../src/engine/index.js';
import { parseMarketText, type MarketFileInput } from '../../src/engine/market-file.js';
import { loanRequest } from './fixtures.js';
import { MODEL } from './model-fixtures.js';

const MARKET: MarketFileInput = {
  format: 'lendbot-market',
  version: 1,
  fitted: { data_file: 'market.jsonl', fitted_at: '2027-01-01T00:00:00.000Z', period: { from: '2026-01-01', to: '2026-12-31' } },
  competition: { share: 0, intercept: 0.12, per_default: 0.5, spread: 0.05 },
  take_up: { midpoint: 0.3, steepness: 12, midpoint_per_default: 2, steepness_per_default: -30 },
  evidence: { take_up: { lines: 900, verdict: 'fitted', took: 600, walked: 300 } },
};

const HEAD =
  'name: fitted\ndescription: prices with a fitted market\nversion: "1"\ndata: { banking_data: never }\nscore:\n  logistic: { intercept: 3.4, terms: [{ feature: loan_terms, weight: 0 }] }\n';

describe('a strategy with pricing.market.file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-market-file-'));
    await mkdir(join(dir, 'markets'));
    await writeFile(join(dir, 'markets', 'fit.json'), JSON.stringify(MARKET, null, 2));
    await writeFile(join(dir, 'model.json'), JSON.stringify(MODEL));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const load = async (name: string, pricing: string, score = '') => {
    const file = join(dir, name);
    await writeFile(file, `${HEAD}${score}pricing:\n  mode: expected_profit\n  target_return: 0.05\n${pricing}`);
    return loadStrategyFile(file);
  };
  const accept = (strategy: Awaited<ReturnType<typeof load>>): { rate: number; accept: number } => {
    const decision = strategy.evaluate(loanRequest({ max_interest_rate: 0.36 }), {});
    if (decision.action !== 'offer' || decision.modelled === undefined)
      throw new Error(`expected an offer: ${decision.reasons.join('; ')}`);
    return { rate: decision.rate ?? Number.NaN, accept: decision.modelled.acceptProbability };
  };

  it('reads the file relative to the strategy and prices with its borrower-dependent take-up', async () => {
    const strategy = await load('with-file.yaml', '  market: { file: markets/fit.json }\n');
    expect(strategy.marketSource).toBe('file');
    const probability = 1 / (1 + Math.exp(-3.4));
    const { rate, accept: p } = accept(strategy);
    // No competition (share 0): P(accept) is the file's take-up for this borrower.
    expect(p).toBeCloseTo(
      takeUpProbability(rate, 0.36, { midpoint: 0.3, steepness: 12, midpointPerDefault: 2, steepnessPerDefault: -30 }, 1 - probability),
      9,
    );
  });

  it('lets numbers written in the strategy override the file’s, and says where each response comes from', async () => {
    const overridden = await load(
      'override.yaml',
      '  market:\n    file: markets/fit.json\n    take_up: { midpoint_per_default: 0, steepness_per_default: 0 }\n',
    );
    // Take-up comes from the strategy's own numbers, competition still from the file.
    expect(overridden.marketSource).toBe('file competition, explicit take-up');
    const { rate, accept: p } = accept(overridden);
    expect(p).toBeCloseTo(takeUpProbability(rate, 0.36, { midpoint: 0.3, steepness: 12 }), 9);
    expect((await load('default.yaml', '')).marketSource).toBe('default');
    const file = join(dir, 'scored-by-model.yaml');
    await writeFile(
      file,
      'name: m\ndescription: m\nversion: "1"\ndata: { banking_data: never }\nscore: { model: model.json }\npricing:\n  mode: expected_profit\n  target_return: 0.05\n',
    );
    expect((await loadStrategyFile(file)).marketSource).toBe('model');
    // A model that carries only a competition fit prices take-up with the unfitted default curve: said so.
    const { take_up: _ignored, ...competitionOnly } = MODEL.market;
    await writeFile(join(dir, 'competition-model.json'), JSON.stringify({ ...MODEL, market: competitionOnly }));
    await writeFile(
      file,
      'name: m\ndescription: m\nversion: "1"\ndata: { banking_data: never }\nscore: { model: competition-model.json }\npricing:\n  mode: expected_profit\n  target_return: 0.05\n',
    );
    expect((await loadStrategyFile(file)).marketSource).toBe('model competition, default take-up');
    // The file's bytes join the content hash: a refit changes every decision's hash.
    const other = join(dir, 'markets', 'other.json');
    await writeFile(other, JSON.stringify({ ...MARKET, take_up: { midpoint: 0.5, steepness: 6 } }));
    const again = await load('with-other.yaml', '  market: { file: markets/fit.json }\n');
    const refit = await load('with-other.yaml', '  market: { file: markets/other.json }\n');
    expect(again.contentHash).not.toBe(refit.contentHash);
  });

  it('refuses a missing or invalid file with the strategy’s file and line, then the file’s own problems', async () => {
    let error: unknown;
    try {
      await load('missing.yaml', '  market:\n    file: markets/nope.json\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message).toMatch(
      /missing\.yaml:11:5 pricing\.market\.file: cannot use market file .*markets\/nope\.json\n.*nope\.json:1:1 file not found$/,
    );
    expect(() => parseMarketText(JSON.stringify({ ...MARKET, take_up: { midpoint: 0.3, steepness: -1 } }, null, 2), 'bad.json')).toThrow(
      /bad\.json:\d+:\d+ take_up\.steepness/,
    );
    expect(() => parseMarketText(JSON.stringify({ ...MARKET, format: 'lendbot-model' }), 'm.json')).toThrow(
      /format: expected format "lendbot-market"/,
    );
  });
});

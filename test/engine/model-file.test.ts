import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { featureLogOdds, parseModelText, Z_CLIP, type ModelFeature } from '../../src/engine/model/index.js';
import { MODEL } from './model-fixtures.js';

const text = (model: unknown): string => JSON.stringify(model, null, 2);

describe('model file', () => {
  it('loads, hashes its bytes and hands the market response over in the engine’s terms', () => {
    const loaded = parseModelText(text(MODEL), 'models/m.json');
    expect(loaded.definition.features).toHaveLength(4);
    expect(loaded.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(parseModelText(`${text(MODEL)}\n`, 'm.json').sha256).not.toBe(loaded.sha256);
    expect(loaded.market).toEqual({
      competition: { share: 0.5, intercept: 0.1, perDefault: 0.9, spread: 0.05 },
      takeUp: { midpoint: 0.6, steepness: 5 },
    });
  });

  it('refuses a feature the catalogue lacks, naming the feature, the file and the line', () => {
    const bad = {
      ...MODEL,
      features: [...MODEL.features, { name: 'credit_scroe_low', encoding: 'standardised', mean: 0, sd: 1, weight: 1 }],
    };
    let error: unknown;
    try {
      parseModelText(text(bad), 'models/bad.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message).toMatch(
      /^models\/bad\.json: 1 problem\nmodels\/bad\.json:45:15 features\[4\]\.name: unknown feature "credit_scroe_low" \(not in this lendbot's feature catalogue.*\); did you mean "credit_score_low"\?$/,
    );
  });

  it('refuses an encoding that does not fit the feature’s kind, and a file that is not a model', () => {
    const wrongKind = { ...MODEL, features: [{ name: 'risk_level_name', encoding: 'standardised', mean: 0, sd: 1, weight: 1 }] };
    expect(() => parseModelText(text(wrongKind), 'm.json')).toThrow(/features\[0\]\.name: feature "risk_level_name" is text/);
    expect(() => parseModelText(text({ ...MODEL, format: 'other' }), 'm.json')).toThrow(/format: expected format "lendbot-model"/);
    expect(() => parseModelText(text({ ...MODEL, version: 2 }), 'm.json')).toThrow(/version: expected version 1/);
  });
});

describe('featureLogOdds', () => {
  const [credit, income, level] = MODEL.features as [ModelFeature, ModelFeature, ModelFeature];
  it('standardises, transforms and clips a number; an absent value gets missing_weight', () => {
    expect(featureLogOdds(credit, 650).logOdds).toBeCloseTo(0.8, 12);
    expect(featureLogOdds(credit, 100_000).logOdds).toBeCloseTo(0.8 * Z_CLIP, 12);
    expect(featureLogOdds(credit, null)).toEqual({ logOdds: -0.3, missing: true });
    expect(featureLogOdds(income, 54_000).logOdds).toBeCloseTo((0.4 * (Math.log1p(54_000) - 10.5)) / 0.5, 12);
  });
  it('gives a level its weight and an unseen level nothing', () => {
    expect(featureLogOdds(level, 'high')).toEqual({ logOdds: -0.5, missing: false });
    expect(featureLogOdds(level, 'friends')).toEqual({ logOdds: 0, missing: false });
  });
});

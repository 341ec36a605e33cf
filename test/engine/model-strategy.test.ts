import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { loanRequest } from './fixtures.js';
import { MODEL } from './model-fixtures.js';

const HEAD = 'name: trained\ndescription: scores with a trained model\nversion: "1"\ndata: { banking_data: never }\n';
const PRICING = 'pricing:\n  target_return: 0.05\n';

describe('a strategy with score.model', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-model-strategy-'));
    await writeFile(join(dir, 'model.json'), JSON.stringify(MODEL));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, body: string): Promise<string> => {
    const file = join(dir, name);
    await writeFile(file, `${HEAD}${body}${PRICING}`);
    return file;
  };

  it('reads the model relative to the strategy file and shows its terms in the decision', async () => {
    const file = await write(
      'with-logistic.yaml',
      'score:\n  model: model.json\n  logistic: { intercept: 0.25, terms: [{ feature: loan_terms, weight: 0 }] }\n',
    );
    const strategy = await loadStrategyFile(file);
    const decision = strategy.evaluate(loanRequest(), {});
    // credit_score_low 650 -> z 1 -> 0.8; income ln(1 + 54000) -> z (10.8967 - 10.5) / 0.5 -> x 0.4;
    // risk level medium: not a level of the model -> 0; provider A absent -> -0.1; intercept 1.2.
    const income = (0.4 * (Math.log1p(54_000) - 10.5)) / 0.5;
    expect(decision.contributions.map((line) => [line.feature, Number(line.logOdds.toFixed(6))])).toEqual([
      ['logistic.intercept', 0.25],
      ['loan_terms', 0],
      ['model.intercept', 1.2],
      ['credit_score_low', 0.8],
      ['annual_income', Number(income.toFixed(6))],
      ['risk_level_name', 0],
      ['provider_a_score', -0.1],
    ]);
    expect(decision.contributions.at(-1)?.missing).toBe(true);
    expect(decision.probability).toBeCloseTo(1 / (1 + Math.exp(-(0.25 + 1.2 + 0.8 + income - 0.1))), 12);
    expect(strategy.features).toEqual(expect.arrayContaining(['credit_score_low', 'annual_income', 'risk_level_name', 'provider_a_score']));
  });

  it('puts the model file in the content hash: retraining changes every decision’s hash', async () => {
    const file = await write(
      'hash.yaml',
      'score:\n  model: hashed.json\n  logistic: { intercept: 0, terms: [{ feature: loan_terms, weight: 0 }] }\n',
    );
    await writeFile(join(dir, 'hashed.json'), JSON.stringify(MODEL));
    const before = await loadStrategyFile(file);
    expect(await loadStrategyFile(file).then((s) => s.contentHash)).toBe(before.contentHash);
    await writeFile(join(dir, 'hashed.json'), JSON.stringify({ ...MODEL, intercept: 1.3 }));
    const after = await loadStrategyFile(file);
    expect(after.contentHash).not.toBe(before.contentHash);
    expect(after.evaluate(loanRequest(), {}).strategy.contentHash).toBe(after.contentHash);
  });

  it('is refused, at score.model, when the model file is missing or names an unknown feature', async () => {
    const missing = await write(
      'missing.yaml',
      'score:\n  model: nowhere.json\n  logistic: { intercept: 0, terms: [{ feature: loan_terms, weight: 0 }] }\n',
    );
    await expect(loadStrategyFile(missing)).rejects.toThrow(
      new RegExp(`${missing}:6:3 score.model: cannot use model file .*nowhere\\.json\\n.*nowhere\\.json:1:1 file not found`),
    );
    await writeFile(
      join(dir, 'unknown.json'),
      JSON.stringify({ ...MODEL, features: [{ name: 'no_such_feature', encoding: 'standardised', mean: 0, sd: 1, weight: 1 }] }),
    );
    const unknown = await write(
      'unknown.yaml',
      'score:\n  model: unknown.json\n  logistic: { intercept: 0, terms: [{ feature: loan_terms, weight: 0 }] }\n',
    );
    await expect(loadStrategyFile(unknown)).rejects.toBeInstanceOf(ConfigFileError);
    await expect(loadStrategyFile(unknown)).rejects.toThrow(/unknown\.json:\d+:\d+ features\[0\]\.name: unknown feature "no_such_feature"/);
  });

  // Needs the cross-field rule in src/engine/definition/strategy-rules.ts to accept `model` as
  // a score on its own (see the training helper's report).
  it('may be the whole score', async () => {
    const file = await write('model-only.yaml', 'score:\n  model: model.json\n  min_probability: 0.5\n');
    const decision = (await loadStrategyFile(file)).evaluate(loanRequest(), {});
    expect(decision.contributions[0]?.feature).toBe('model.intercept');
    expect(decision.action).not.toBe('needs_data');
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { evaluate, loadStrategyFile } from '../../src/engine/index.js';
import { bankingData, loanRequest } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-strategy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function problemsOf(text: string): Promise<string[]> {
  const file = join(dir, 'broken.yaml');
  await writeFile(file, text);
  try {
    await loadStrategyFile(file);
  } catch (error) {
    if (error instanceof ConfigFileError)
      return error.message
        .split('\n')
        .slice(1)
        .map((line) => line.replace(`${file}:`, ''));
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('strategy files', () => {
  it('load the examples', async () => {
    for (const name of ['balanced', 'conservative', 'cashflow']) {
      const strategy = await loadStrategyFile(new URL(`../../strategies/${name}.yaml`, import.meta.url).pathname);
      expect(strategy.name).toBe(name);
      // A good low-risk file with no past loans (balanced reads them); cashflow decides without its
      // provider B score (at the scorecard's own level, where a learned level starts, this request
      // is in its band). conservative's 0.93 cut skips a 700-740 file.
      const decision = evaluate(
        loanRequest({ borrower_card_color: 0, borrower: { credit_score: '740-780' } }),
        { bankingData: bankingData(), borrowerHistory: [], unavailable: { providers: ['provider_b'] } },
        strategy,
      );
      expect(decision.action).toBe('offer');
      expect(decision.rate).toBeLessThanOrEqual(0.6);
    }
  });

  it('cashflow asks for its provider B score at the cold start, where the learned level starts', async () => {
    // The band reads the learned probability, which starts at the scorecard's own level (0.967
    // here): 2.1.0's band, 0.72-0.9, was set on its sandbox fit and at this level offers unscored.
    const strategy = await loadStrategyFile(new URL('../../strategies/cashflow.yaml', import.meta.url).pathname);
    const decision = evaluate(
      loanRequest({ borrower_card_color: 0, borrower: { credit_score: '740-780' } }),
      { bankingData: bankingData(), borrowerHistory: [] },
      strategy,
    );
    expect(decision.action).toBe('needs_data');
    expect(decision.needs).toEqual([{ kind: 'provider', provider: 'provider_b', pricing: 'per_request', costCents: 150 }]);
    expect(decision.calibration).toBeDefined();
  });

  it('report every schema problem with its line and column', async () => {
    const problems = await problemsOf(`name: Bad Name
description: broken on purpose
version: 1.0
filtres: []
filters:
  - feature: credit_scor_low
    min: 600
  - feature: loan_amount
    min: "600"
score:
  logistic:
    intercept: 1
    terms: [{ feature: loan_terms, weight: 0 }]
pricing:
  target_return: 0.08
`);
    expect(problems).toEqual([
      '1:7 name: expected a lowercase name such as "balanced"',
      '3:10 version: expected a version text such as "1.2.0" (quote it in YAML)',
      '4:1 filtres: unknown key "filtres"; did you mean "filters"?',
      '6:14 filters[0].feature: unknown feature "credit_scor_low"; did you mean "credit_score_low"? (lendbot strategy features lists them)',
      '9:10 filters[1].min: expected a number or a param reference such as "$min_credit_score"',
    ]);
  });

  it('report cross-field problems at their lines', async () => {
    const problems = await problemsOf(`name: rules
description: broken rules
version: "1"
params:
  min_score: { value: 900, min: 500, max: 800 }
filters:
  - feature: credit_score_low
    min: $min_scor
  - feature: risk_level_name
    in: [1]
  - feature: loan_terms
score:
  scorecard:
    terms:
      - feature: credit_score_mid
        bins: [{ points: 1 }, { below: 600, points: 2 }]
`);
    expect(problems).toEqual([
      '1:1 missing "pricing" (or name a "plugin" module)',
      '5:23 params.min_score.value: value 900 is outside [500, 800]',
      '8:10 filters[0].min: unknown param "$min_scor"; did you mean "$min_score"?',
      '10:10 filters[1].in[0]: risk_level_name is a string; 1 is a number',
      '11:5 filters[2]: a filter needs one of min, max, in, not_in, required',
      '16:16 score.scorecard.terms[0].bins[0]: only the last bin may leave out "below"',
    ]);
  });

  it('report YAML syntax errors with their position', async () => {
    const problems = await problemsOf('name: x\nname: y\nfilters: [\n');
    expect(problems).toEqual([
      '2:1 YAML Map keys must be unique',
      '4:1 YAML Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('report a missing file', async () => {
    await expect(loadStrategyFile(join(dir, 'nope.yaml'))).rejects.toThrow(`${join(dir, 'nope.yaml')}:1:1 file not found`);
  });
});

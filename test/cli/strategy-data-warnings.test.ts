/**
 * `lendbot strategy check` warns (exit 0) when a filter or score term reads data the strategy
 * never asks for, naming the feature and the setting to add; it says nothing when the data is asked for.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const HISTORY_FILTER = fileURLToPath(new URL('../daemon/fixtures/history-filter.yaml', import.meta.url));

const STRATEGY = `name: blind
description: reads data it never asks for
version: "1"
filters:
  - feature: loan_terms
    max: 12
  - feature: history_loans
    min: 1
  - feature: bank_balance
    min: 10
    missing: pass
data:
  banking_data: never
score:
  logistic:
    intercept: 3
    terms:
      - { feature: provider_b_score, weight: 0.01, missing: -0.2 }
pricing:
  target_return: 0.05
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-data-warnings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('strategy check: data the strategy never asks for', () => {
  it('warns once per filter or term, naming the feature and the setting to add, and still passes', async () => {
    const file = join(dir, 'blind.yaml');
    await writeFile(file, STRATEGY);
    const result = await runCli(['strategy', 'check', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok .*blind\.yaml: blind 1 /);
    expect(result.stderr).toBe(
      [
        `warning: ${file}: filters[1]: filter history_loans reads borrower history, which this strategy never asks for, so it skips every request; add data: { borrower_history: after_filters }`,
        `warning: ${file}: filters[2]: filter bank_balance reads banking data, which this strategy never asks for, so it never tests anything; add data: { banking_data: after_filters }`,
        `warning: ${file}: score.logistic.terms[0]: score term provider_b_score reads provider b scores, which this strategy never asks for, so it always gives its missing value; add data.provider_b (provider, when_probability)`,
        '',
      ].join('\n'),
    );
  });

  it('says nothing when the strategy asks for the history it reads', async () => {
    const result = await runCli(['strategy', 'check', HISTORY_FILTER]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

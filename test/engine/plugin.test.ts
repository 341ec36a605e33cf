import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/index.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-plugin-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

const GOOD = `
export const name = 'flat-rate';
export const version = '2.0.0';
export const paramSpecs = { rate: { value: 0.25, min: 0.03, max: 1 } };
export function evaluate(request, enrichment, params) {
  if (request.loan_terms > 24) return { action: 'skip', reasons: ['plugin terms too long'] };
  return { action: 'offer', rate: params.rate, probability: 0.9, reasons: ['plugin flat rate'] };
}
`;

describe('strategy plugins', () => {
  it('load a module with named exports and wrap its decisions', async () => {
    const strategy = await loadStrategyFile(await write('good.mjs', GOOD));
    expect(strategy).toMatchObject({ name: 'flat-rate', version: '2.0.0', kind: 'plugin', params: { rate: 0.25 } });
    const decision = strategy.evaluate(loanRequest(), {});
    expect(decision).toMatchObject({
      action: 'offer',
      rate: 0.25,
      automateFund: true,
      reasons: [{ code: 'other', text: 'plugin flat rate' }],
    });
    expect(decision.strategy.contentHash).toBe(strategy.contentHash);
    expect(strategy.withParams({ rate: 0.3 }).evaluate(loanRequest(), {}).rate).toBe(0.3);
  });

  it('turn an offer outside [0.03, max_interest_rate] into a skip', async () => {
    const strategy = await loadStrategyFile(await write('greedy.mjs', GOOD));
    const decision = strategy.withParams({ rate: 0.9 }).evaluate(loanRequest({ max_interest_rate: 0.6 }), {});
    expect(decision.action).toBe('skip');
    expect(decision.rate).toBeUndefined();
    expect(decision.reasons.map(reasonText)).toEqual(['plugin flat rate', 'plugin rate 0.9 outside [0.03, 0.60]']);
  });

  it('list every wrong export', async () => {
    const file = await write('bad.mjs', "export const name = 42;\nexport const evaluate = 'no';\n");
    const error = await loadStrategyFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message.split('\n')).toEqual([
      `${file}: 3 problems`,
      `${file}:1:1 export name: must be a string naming the strategy`,
      `${file}:1:1 export version: must be a version string such as "1.0.0"`,
      `${file}:1:1 export evaluate: must be a function (request, enrichment, params) => decision (got string)`,
    ]);
  });

  it('say when the module cannot be loaded', async () => {
    const file = await write('broken.mjs', 'export const = ;\n');
    await expect(loadStrategyFile(file)).rejects.toThrow(`${file}:1:1 cannot load strategy plugin:`);
  });

  it('can be named by a YAML file, whose name, params and data policy apply', async () => {
    await write(
      'impl.mjs',
      `export default { name: 'impl', version: '0', evaluate: (r, e, p) => ({ action: 'offer', rate: p.rate, reasons: [] }) };\n`,
    );
    const file = await write(
      'wrapper.yaml',
      `name: wrapped\ndescription: a plugin with YAML settings\nversion: "3"\npriority: 4\nautomate_fund: false\nplugin: ./impl.mjs\nparams:\n  rate: { value: 0.2, min: 0.1, max: 0.5 }\ndata: { monthly_budget: 30, banking_data: always }\n`,
    );
    const strategy = await loadStrategyFile(file);
    expect(strategy).toMatchObject({ name: 'wrapped', version: '3', priority: 4, automateFund: false, params: { rate: 0.2 } });
    expect(strategy.dataPolicy).toEqual({ monthlyBudgetCents: 3000, bankingData: 'always', borrowerHistory: 'never', providers: [] });
    expect(strategy.evaluate(loanRequest(), {})).toMatchObject({ action: 'offer', rate: 0.2, automateFund: false });
  });

  it('is a challenger when its YAML says shadow: true, in every params variant', async () => {
    await write(
      'shadow-impl.mjs',
      `export default { name: 'impl', version: '0', evaluate: (r, e, p) => ({ action: 'offer', rate: p.rate, reasons: [] }) };\n`,
    );
    const file = await write(
      'shadow-wrapper.yaml',
      `name: wrapped-shadow\ndescription: a plugin in shadow\nversion: "1"\nshadow: true\nplugin: ./shadow-impl.mjs\nparams:\n  rate: { value: 0.2, min: 0.1, max: 0.5 }\n`,
    );
    const strategy = await loadStrategyFile(file);
    expect(strategy.shadow).toBe(true);
    expect(strategy.withParams({ rate: 0.3 })).toMatchObject({ shadow: true, params: { rate: 0.3 } });
  });
});

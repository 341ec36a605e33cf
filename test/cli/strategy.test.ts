import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPriceCurve } from '../../src/cli/commands/strategy/explain-format.js';
import { compilePricing } from '../../src/engine/compile/compile-pricing.js';
import { featureSource } from '../../src/engine/features/feature-source.js';
import { FEATURES, parseStrategyText } from '../../src/engine/index.js';
import { bankingData, loanRequest } from '../engine/fixtures.js';
import { runCli } from './run-cli.js';

const strategies = (name: string): string => fileURLToPath(new URL(`../../strategies/${name}.yaml`, import.meta.url));

let dir: string;
let recording: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-strategy-cli-'));
  recording = join(dir, 'day.jsonl');
  const line = (request: object, extra: object = {}): string =>
    JSON.stringify({ v: 1, seen_at: '2026-11-20T14:03:07Z', loan_request: request, ...extra });
  await writeFile(
    recording,
    [
      line(loanRequest({ id: 7 }), { data_aggs: bankingData() }),
      '{"broken": true}',
      line(loanRequest({ id: 8, borrower: { credit_score: '560-599' } })),
    ].join('\n') + '\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// balanced 2.1.0 (a fitted calibration, an 8 % hurdle, no learning): explain's figures below are its.
const FITTED_BALANCED = new URL('../fixtures/balanced-fitted.yaml', import.meta.url).pathname;

describe('lendbot strategy', () => {
  it('check passes the examples and lists every problem of a broken file', async () => {
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'name: broken\ndescription: x\nversion: "1"\nfilters:\n  - feature: credit_scor\n    min: 1\n');
    const result = await runCli(['strategy', 'check', strategies('balanced'), strategies('cashflow'), broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^ok .*balanced\.yaml: balanced 3\.1\.0 \(yaml, 4 params, hash [0-9a-f]{16}\)\n {3}default level learned from its own loans: .*\nok .*cashflow\.yaml: cashflow 3\.1\.0 \(yaml, 4 params, hash [0-9a-f]{16}\)\n {3}default level learned from its own loans: /,
    );
    expect(result.stderr).toBe(
      [
        // Cross-field rules (such as "missing score") run once the schema passes.
        `${broken}: 1 problem`,
        `${broken}:5:14 filters[0].feature: unknown feature "credit_scor"; did you mean "credit_score_low"? (lendbot strategy features lists them)`,
        'lendbot: 1 of 3 strategy files have problems',
        '',
      ].join('\n'),
    );
  });

  it('features lists the catalogue as JSON', async () => {
    const result = await runCli(['strategy', 'features', '--json']);
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as Array<{ name: string }>;
    expect(listed.map((feature) => feature.name)).toEqual(FEATURES.map((feature) => feature.name));
  });

  it('explain shows features, score, price and reasons for a recorded request', async () => {
    // The cost_plus line: balanced itself prices with expected_profit (the next test).
    const costPlus = join(dir, 'cost-plus.yaml');
    await writeFile(costPlus, (await readFile(FITTED_BALANCED, 'utf8')).replace('mode: expected_profit', 'mode: cost_plus'));
    const result = await runCli(['strategy', 'explain', costPlus, '--recording', recording, '--id', '7']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: ${recording}:2: $.v: Invalid input: expected 1 (and 2 more)\n`);
    expect(result.stdout).toContain('request   7: 1000.00 USD over 12 months, max rate 0.60, risk medium');
    expect(result.stdout).toMatch(/scorecard +credit_score_mid +675 +10\.00 +0\.1733/);
    // balanced's calibration (strategies/balanced.yaml) maps the scorecard's 0.8772... as the last line.
    expect(result.stdout).toMatch(
      /\n {2}calibration +calibration\.isotonic +-0\.48 +-0\.4781\n {2}total log-odds 1\.9660 -> probability 0\.8772\n/,
    );
    expect(result.stdout).toMatch(/decision {2}OFFER at 0\.\d+, required 0\.\d+, expected annual return 0\.\d+, automate_fund true/);
    expect(result.stdout).toContain('  - score probability 0.8772');
  });

  it('explain says when the guard refuses before buying: no data bought, no price searched', async () => {
    const result = await runCli(['strategy', 'explain', strategies('balanced'), '--recording', recording, '--id', '7', '--balance', '10']);
    expect(result.code).toBe(0);
    // Both are asked for in one round after the free filters (balanced has no filter on the
    // history), and neither is bought: the guard refuses first.
    expect(result.stdout).toContain(
      'asked for borrower history, banking data (data borrower_history needed (free filters passed); data banking_data needed (free filters passed))',
    );
    expect(result.stdout).toContain(
      'decision  SKIP: the guard refuses any offer of this amount, so no data was bought and no price searched',
    );
    expect(result.stdout).toMatch(/ {2}- guard balance 10\.00 - reserved 0\.00 - reserve 0\.00 < total \d+\.\d\d/);
    expect(result.stdout).not.toMatch(/price (expected_profit|break-even|required_rate)/);
  });

  it('explain --json gives the decision and the passes that asked for data', async () => {
    const result = await runCli(['strategy', 'explain', strategies('cashflow'), '--recording', recording, '--id', '8', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as {
      decision: { action: string; reasons: string[] };
      needs_passes: Array<{ needs: unknown[] }>;
    };
    // cashflow 3.1.0 reads the history without filtering on it: both in one pass.
    expect(output.needs_passes.map((pass) => pass.needs)).toEqual([[{ kind: 'borrower_history' }, { kind: 'banking_data' }]]);
    expect(output.decision.action).toBe('skip');
    expect(output.decision.reasons).toEqual(['filter negative_balance_count missing', 'filter bank_spending_to_income missing']);
  });

  it('explain draws the expected-profit curve from break-even to the cap, the chosen rate marked', async () => {
    // balanced prices with mode expected_profit.
    const result = await runCli(['strategy', 'explain', FITTED_BALANCED, '--recording', recording, '--id', '7']);
    expect(result.code).toBe(0);
    const offered = /decision {2}OFFER at (0\.\d+), break-even (0\.\d+)/.exec(result.stdout);
    expect(offered).not.toBeNull();
    const [, rate, breakEven] = offered ?? [];
    expect(result.stdout).toContain(
      `price curve (expected_profit: P(accept) × profit above the 0.08 hurdle; break-even ${breakEven}, cap ceiling_share_of_max 0.57)`,
    );
    const rows = result.stdout.split('\n').filter((line) => /^ {2}0\.\d+ +\d\.\d\d +-?\d+\.\d\d +-?\d+\.\d\d/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((line) => line.endsWith('<- chosen')).map((line) => line.trim().split(/ +/)[0])).toEqual([rate]);
    expect(result.stdout).toMatch(
      /\n {2}why: higher rates lose more borrowers than they earn \(at 0\.\d+ P\(accept\) 0\.\d\d × \d+\.\d\d = \d+\.\d\d USD\); lower rates win fewer/,
    );
    expect(result.stdout).toMatch(
      / {2}- price expected_profit 0\.\d+: P\(accept\) 0\.\d\d × profit \d+\.\d\d USD = \d+\.\d\d USD; break-even 0\.\d+\n/,
    );
  });

  it('check and explain name a learned default level, and explain says when its uncertainty moved the price', async () => {
    const learned = fileURLToPath(new URL('../../strategies/examples/balanced-learned.yaml', import.meta.url));
    const checked = await runCli(['strategy', 'check', learned]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(
      "   default level learned from its own loans: centred on the score's own level (level sd 1, slope sd 0.3; the price reads the mean default over that spread); priced no lower than the break-even at the 0.8 quantile (cost_plus_floor)\n",
    );
    // With the history anchor, check says it blends the borrower's past-loan rates in.
    const anchored = join(dir, 'learned-anchor.yaml');
    await writeFile(
      anchored,
      (await readFile(learned, 'utf8'))
        .replace(/( +)slope_sd: 0\.3[^\n]*\n/, '$&$1history_anchor: { sd: 1.5 }\n')
        .replace(/banking_data: (\w+)\n/, 'banking_data: $1\n  borrower_history: after_filters\n'),
    );
    const anchoredCheck = await runCli(['strategy', 'check', anchored]);
    expect(anchoredCheck.stdout).toContain(
      "the price reads the mean default over that spread); blended with what the borrower's past-loan rates imply after its costs (history_anchor sd 1.5); priced",
    );
    // At the 0.82 quantile (the example's 0.8 break-even is below the price at the mean default for this request).
    const pessimistic = join(dir, 'learned-q82.yaml');
    await writeFile(pessimistic, (await readFile(learned, 'utf8')).replace('quantile: 0.8', 'quantile: 0.82'));
    const result = await runCli(['strategy', 'explain', pessimistic, '--recording', recording, '--id', '7']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  probability from the calibration learned v0 (0 loans, 0 defaults, 0 loan-months)\n');
    // The prior's mean default at the score, above the score's own: the learned line lowers the log-odds of repayment.
    expect(result.stdout).toMatch(/\n {2}calibration +calibration\.learned +-0\.\d\d +-0\.\d{4}\n/);
    expect(result.stdout).toMatch(
      /\n {2}- price level uncertain v0 \(0 loans, 0 loan-months\): default 0\.\d+, sd \d\.\d\d; floor (0\.\d+) at q0\.82 default 0\.\d+, expected_profit 0\.\d+\n/,
    );
    const [, floor] = /floor (0\.\d+) at q0\.82/.exec(result.stdout) ?? [];
    const [, offered] = /decision {2}OFFER at (0\.\d+)/.exec(result.stdout) ?? [];
    // At a cold start the floor binds, and the why line says the learned level moved the rate.
    expect(offered).toBe(floor);
    expect(result.stdout).toMatch(/\n {2}why: the default level is still being learned \(0 loans followed for 0 loan-months: /);
  });

  it('explain says when the cap binds the expected-profit price', () => {
    const pricing = parseStrategyText(
      [
        'name: capped',
        'description: x',
        'version: "1"',
        'score: { logistic: { intercept: 3, terms: [{ feature: loan_terms, weight: 0 }] } }',
        'pricing:',
        '  mode: expected_profit',
        '  target_return: 0',
        '  market: { take_up: { steepness: 0 }, competition: { share: 0 } }',
      ].join('\n'),
      'capped.yaml',
    ).pricing;
    if (!pricing) throw new Error('no pricing');
    const price = compilePricing(pricing, {})(featureSource(loanRequest({ max_interest_rate: 0.4 }), {}), 0.95);
    if (!price.ok || !price.curve) throw new Error(price.reasons.join('; '));
    expect(price.rate).toBe(0.4);
    const lines = formatPriceCurve(price.curve, price.rate);
    expect(lines[0]).toMatch(/^price curve \(expected_profit: P\(accept\) × profit; break-even 0\.\d+, cap max_interest_rate 0\.40\)$/);
    expect(lines[1]?.split('\n').at(-1)).toMatch(/^ {2}0\.40 +0\.50 +\d+\.\d\d +\d+\.\d\d +<- chosen$/);
    expect(lines[2]).toMatch(
      /^ {2}why: the cap binds: up to max_interest_rate 0\.40 each rise earns more than the borrowers it loses; lower rates win fewer/,
    );
  });

  it('explain says when the id is not in the recording', async () => {
    const result = await runCli(['strategy', 'explain', strategies('balanced'), '--recording', recording, '--id', '99']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').slice(-2)).toEqual([`lendbot: loan request 99 is not in ${recording}`, '']);
  });
});

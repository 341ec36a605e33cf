import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLine, syntheticRecording, writeRecording } from '../backtest/recording-fixtures.js';
import { FLAT_STRATEGY_YAML } from '../backtest/strategy-fixtures.js';
import { runCli } from './run-cli.js';

describe('lendbot backtest', () => {
  let dir: string;
  let data: string;
  let strategy: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-cli-'));
    data = join(dir, 'rec.jsonl');
    strategy = join(dir, 'flat.yaml');
    await writeFile(strategy, FLAT_STRATEGY_YAML);
    await writeFile(join(dir, 'strict.yaml'), FLAT_STRATEGY_YAML.replace('name: flat', 'name: strict').replace('value: 560', 'value: 700'));
    await writeRecording(data, [...syntheticRecording(60, 3, () => 1).slice(0, 30), 'this is not json', ...syntheticRecording(60, 3, () => 1).slice(30)]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the tables, warns about the bad line by number, and writes JSON and HTML', async () => {
    const json = join(dir, 'out.json');
    const html = join(dir, 'out.html');
    const result = await runCli(['backtest', '--data', data, '--strategy', strategy, '--balance', '50000', '--json', json, '--html', html, '--decisions']);
    expect(result.stderr).toContain(`warning: ${data}:31: not JSON`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/By risk level\n/);
    expect(result.stdout).toMatch(/By score band/);
    expect(result.stdout).toMatch(/ {2}requests +60\n/);
    const written = JSON.parse(await readFile(json, 'utf8')) as { runs: Array<{ decisions: unknown[]; strategies: Array<{ contentHash: string }> }> };
    expect(written.runs[0]?.decisions).toHaveLength(60);
    expect(written.runs[0]?.decisions[0]).toMatchObject({ loan_request_id: 10_000, action: expect.stringMatching(/offer|skip/) as unknown });
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<canvas id="chart-equity"');
    expect(page).toMatch(/Net annualized return on capital \(idle cash included\): <strong>-?[\d.]+%<\/strong>, \d+ loans funded \(seed 1\); mean over 5 draws/);
    expect(page).toMatch(/<div class="warning" role="alert"><strong>Warning<\/strong><p>flat: fewer than 100 funded loans \(\d+\): the figures are noise-level\.<\/p>/);
  });

  it('compares several strategies side by side', async () => {
    const result = await runCli(['backtest', '--data', data, '--strategy', `${strategy},${join(dir, 'strict.yaml')}`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Side by side\n +flat +strict\n/);
  });

  it('applies the risk limits of a config file', async () => {
    const config = join(dir, 'lendbot.yaml');
    await writeFile(config, 'risk:\n  max_offers_per_day: 2\n  max_open_exposure: null\n  max_per_borrower: null\n  max_amount_per_day: null\n');
    const lines = [1, 2, 3].map((id) => recordingLine({ id, seenAt: `2026-01-01T0${id}:00:00Z`, outcome: { status: 'completed', best_competing_rate: null, repaid_fraction: 1 } }));
    const small = join(dir, 'small.jsonl');
    await writeRecording(small, lines);
    const result = await runCli(['backtest', '--data', small, '--strategy', strategy, '--config', config]);
    expect(result.stdout).toMatch(/guard refusals +max_offers_per_day 1/);
  });

  it('fits the balance to the recording when none is given, warns about a small sample, and reports the draws and the sensitivity', async () => {
    const json = join(dir, 'draws.json');
    const result = await runCli(['backtest', '--data', data, '--strategy', strategy, '--draws', '3', '--seed', '4', '--json', json]);
    expect(result.code).toBe(0);
    // Every request is 500.00: 100 x 500.00 = 50,000.00.
    expect(result.stdout).toContain('Starting balance 50000.00 USD (default: 100 × the average request total_amount, 500.00, rounded up to 1,000 USD)');
    expect(result.stdout).toMatch(/Net annualized return on capital \(idle cash included\): -?[\d.]+%, \d+ loans funded \(seed 4\); mean over 3 draws -?[\d.]+% \(range -?[\d.]+% to -?[\d.]+%, smallest to largest draw\)/);
    expect(result.stdout).toMatch(/warning: fewer than 100 funded loans \(\d+\): the figures are noise-level/);
    expect(result.stdout).toMatch(/Sensitivity: net annualized return \(mean over the same 3 draws\)/);
    expect(result.stdout).toMatch(/steepness ×2 \(more rate-sensitive\) +0\.70 +12 /);
    expect(result.stdout).toMatch(/midpoint −0\.15 \(walk away sooner\) +0\.55 +6 /);
    const written = JSON.parse(await readFile(json, 'utf8')) as {
      runs: Array<{ summary: { netAnnualizedReturn: number; recoveryCents: number }; settings: { market: { seed: number } } }>;
      draws: Array<{ seeds: number[]; netAnnualizedReturn: { mean: number; min: number; max: number } }>;
      sensitivity: Array<Array<{ label: string }>>;
      balance: { cents: number; default: boolean };
    };
    expect(written.runs[0]?.settings.market.seed).toBe(4);
    expect(written.draws[0]?.seeds).toEqual([4, 5, 6]);
    expect(written.draws[0]?.netAnnualizedReturn.min).toBeLessThanOrEqual(written.runs[0]?.summary.netAnnualizedReturn ?? NaN);
    expect(written.sensitivity[0]).toHaveLength(4);
    expect(written.balance).toMatchObject({ cents: 5_000_000, default: true });
  });

  it('takes the market response from options and from a --market file, and refuses a bad file', async () => {
    const run = async (...extra: string[]) => {
      const json = join(dir, 'm.json');
      const result = await runCli(['backtest', '--data', data, '--strategy', strategy, '--balance', '50000', '--draws', '1', '--no-sensitivity', '--json', json, ...extra]);
      expect(result.stderr).not.toMatch(/error/);
      const parsed = JSON.parse(await readFile(json, 'utf8')) as { runs: Array<{ summary: { funded: number }; settings: { market: { response: { takeUp: unknown }; prepayment: unknown } } }> };
      return { stdout: result.stdout, run: parsed.runs[0] };
    };
    const flag = await run('--takeup-midpoint', '0.1', '--takeup-steepness', '12');
    expect(flag.run?.settings.market.response.takeUp).toEqual({ midpoint: 0.1, steepness: 12 });
    expect(flag.stdout).not.toContain('Sensitivity');
    const file = join(dir, 'market.yaml');
    await writeFile(file, 'takeUp: { midpoint: 0.1, steepness: 12 }\nprepayment: { share: 0.5 }\n');
    const fromFile = await run('--market', file);
    expect(fromFile.run?.settings.market).toMatchObject({ response: { takeUp: { midpoint: 0.1, steepness: 12 } }, prepayment: { share: 0.5, atTermFraction: 0.5 } });
    // At 0.12 of a 0.3 maximum (position 0.33) borrowers who walk away past 0.1 mostly refuse.
    const usual = await run();
    expect(fromFile.run?.summary.funded).toBeLessThan((usual.run?.summary.funded ?? 0) / 2);
    await writeFile(file, 'takeUp: { midpiont: 0.1 }\n');
    const bad = await runCli(['backtest', '--data', data, '--strategy', strategy, '--market', file]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('takeUp');
  });

  it('a dry run draws nothing: one run, no sensitivity, nothing funded', async () => {
    const result = await runCli(['backtest', '--data', data, '--strategy', strategy, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('offers never settle (dry run)');
    expect(result.stdout).not.toContain('Sensitivity');
    expect(result.stdout).toMatch(/ {2}loans funded +0\n/);
  });

  it('fails with one line when the recording is missing or both sources are given', async () => {
    const missing = await runCli(['backtest', '--data', join(dir, 'nope.jsonl'), '--strategy', strategy]);
    expect(missing).toMatchObject({ code: 1, stderr: `lendbot: recording not found: ${join(dir, 'nope.jsonl')}\n` });
    const both = await runCli(['backtest', '--data', data, '--db', join(dir, 'x.db'), '--strategy', strategy]);
    expect(both.stderr).toBe('lendbot: give the recording as --data FILE or the database as --db PATH (one of them)\n');
  });
});

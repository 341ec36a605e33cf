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
    expect(await readFile(html, 'utf8')).toContain('data-chart="net-return"');
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

  it('fails with one line when the recording is missing or both sources are given', async () => {
    const missing = await runCli(['backtest', '--data', join(dir, 'nope.jsonl'), '--strategy', strategy]);
    expect(missing).toMatchObject({ code: 1, stderr: `lendbot: recording not found: ${join(dir, 'nope.jsonl')}\n` });
    const both = await runCli(['backtest', '--data', data, '--db', join(dir, 'x.db'), '--strategy', strategy]);
    expect(both.stderr).toBe('lendbot: give the recording as --data FILE or the database as --db PATH (one of them)\n');
  });
});

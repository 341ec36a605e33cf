import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticRecording, writeRecording } from '../backtest/recording-fixtures.js';
import { FLAT_STRATEGY_YAML } from '../backtest/strategy-fixtures.js';
import { runCli } from './run-cli.js';
import { heapGrowthLimit } from '../../src/cli/heap-growth.js';
import { TUNE_HEAP_GROWING_PERCENT } from '../../src/cli/commands/tune/tune-heap.js';

describe('lendbot tune', () => {
  let dir: string;
  let data: string;
  let strategy: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-tune-cli-'));
    data = join(dir, 'rec.jsonl');
    strategy = join(dir, 'flat.yaml');
    await writeFile(strategy, FLAT_STRATEGY_YAML);
    // Planted: credit score ranges starting below 620 repay 30%; the best floor is 610 or 620.
    await writeRecording(
      data,
      syntheticRecording(400, 5, (low) => (low < 620 ? 0.3 : 1)),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const args = (...more: string[]): string[] => [
    'tune',
    '--data',
    data,
    '--strategy',
    strategy,
    '--trials',
    '20',
    '--seed',
    '3',
    '--balance',
    '300000',
    // A small recording for speed: below 100 loans funded held out (the rule has its own test).
    '--accept-small-sample',
    ...more,
  ];

  it('finds the planted floor, shows the held-out comparison, and writes only the param value', async () => {
    const out = join(dir, 'flat.tuned.yaml');
    const json = join(dir, 'report.json');
    expect(heapGrowthLimit()).toBeUndefined();
    const result = await runCli(args('--out', out, '--json', json));
    // Set before the recording is read and any worker starts (test/cli/heap-growth.test.ts: the workers follow it).
    expect(heapGrowthLimit()).toBe(TUNE_HEAP_GROWING_PERCENT);
    expect(result.stderr).toBe(`wrote ${out}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Window 1: train 280 requests/);
    expect(result.stdout).toMatch(/ {2}current +0 +/);
    expect(result.stdout).toMatch(
      /held out [-\d.]+%, 95% interval [-\d.]+% to [-\d.]+% \(paired over 120 held-out requests, blocks of \d+, 2000 resamples; funded \d+ vs \d+\)/,
    );
    expect(result.stdout).toMatch(
      /^improved: .*; writing the tuned values \(fewer than 100 funded loans: mostly luck, written as --accept-small-sample asked\)$/m,
    );
    const report = JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown> & { heldOut: Record<string, number> };
    expect(report).not.toHaveProperty('heldOutT');
    expect(report.heldOut).toMatchObject({ requests: 120, confidence: 0.95, resamples: 2000 });
    expect(report.heldOut.low).toBeGreaterThan(0);
    expect(report.heldOutGain).toBe(report.heldOut.gain);
    const written = await readFile(out, 'utf8');
    expect(written).toMatch(/min_credit_score: \{ value: 6[12]0, min: 540/);
    expect(written.replace(/value: 6[12]0/, 'value: 560')).toBe(FLAT_STRATEGY_YAML);
  });

  it('refuses to write values from fewer than 100 held-out loans, and says where its balance comes from', async () => {
    const out = join(dir, 'flat.small.yaml');
    const plain = ['tune', '--data', data, '--strategy', strategy, '--trials', '20', '--seed', '3', '--out', out];
    const result = await runCli(plain);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^too few loans to judge: .*below 100 funded loans a backtest's figures are mostly luck; keeping the current values/m,
    );
    expect(result.stderr).toBe(`wrote ${out} (current values kept)\n`);
    expect(await readFile(out, 'utf8')).toBe(FLAT_STRATEGY_YAML);
    expect(result.stdout).toMatch(
      /starting balance \$[\d,.]+ \(the backtest's default, 100 × the average request total_amount, \$[\d,.]+, rounded up to 1,000 USD; --balance sets it\)\n/,
    );
    const given = await runCli(args());
    expect(given.stdout).toContain('starting balance $300,000.00 (given by --balance)\n');
  });

  it('gives the same report with two worker threads as in one thread', async () => {
    const [one, two] = await Promise.all([
      runCli(args('--workers', '1', '--walk-forward', '2')),
      runCli(args('--workers', '2', '--walk-forward', '2')),
    ]);
    // Only the line that says nothing was written (no --out) when the values improved.
    expect(two.stderr).toMatch(/^(nothing written: [^\n]*\n)?$/);
    expect(two.stderr).toBe(one.stderr);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });

  it('takes --halving and --no-halving; a recording this small is too short to halve, and the report is the same', async () => {
    const [plain, halving, none] = await Promise.all([runCli(args()), runCli(args('--halving')), runCli(args('--no-halving'))]);
    expect(halving.code).toBe(0);
    expect(halving.stdout).toBe(plain.stdout);
    expect(none.stdout).toBe(plain.stdout);
    expect(plain.stdout).not.toContain('Successive halving');
  });

  it('refuses --split with --walk-forward', async () => {
    const result = await runCli(args('--split', '0.6', '--walk-forward', '2'));
    expect(result).toMatchObject({ code: 1, stderr: 'lendbot: give --split or --walk-forward, not both\n' });
  });

  it('says nothing was written when the tuned values improved and no --out was given', async () => {
    const result = await runCli(args());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/improved: .*writing the tuned values/);
    expect(result.stderr).toBe('nothing written: --out FILE writes the strategy with the tuned values\n');
  });
});

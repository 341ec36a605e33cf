import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { realisedDefault } from '../../src/backtest/realised-fate.js';
import { buildProgram } from '../../src/cli/program.js';
import { parseRecordingLine, type RecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording, runHeadlessMarket, type ExportOptions } from '../../src/sandbox/index.js';
import { marketShape, shiftedShape, type ScoreLinkName } from '../../src/sandbox/shapes/index.js';
import { tempDirForFile } from '../temp-dir.js';

const dir = tempDirForFile('lendbot-world-shift-');

async function exported(name: string, options: ExportOptions): Promise<{ text: string; lines: RecordingLine[] }> {
  const file = join(dir, `${name}.jsonl`);
  await exportSandboxRecording(file, options);
  const text = readFileSync(file, 'utf8');
  const lines = text
    .trimEnd()
    .split('\n')
    .map((row) => {
      const result = parseRecordingLine(row);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    });
  return { text, lines };
}

/** Realised default share over the requests whose fate the recording knows. */
function defaultShare(lines: readonly RecordingLine[]): number {
  const known = lines.map(realisedDefault).filter((fate) => fate !== undefined);
  return known.filter(Boolean).length / known.length;
}

const odds = (p: number): number => p / (1 - p);

/** Mean hidden default probability of a headless market's requests, by credit score band and ('all') over them all. */
function hiddenDefaultByBand(options: Parameters<typeof runHeadlessMarket>[0]): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const request of runHeadlessMarket(options).requests.values()) {
    const all = sums.get('all') ?? { sum: 0, n: 0 };
    all.sum += 1 - request.truth.repayProbability;
    all.n += 1;
    sums.set('all', all);
    const score = request.borrower.creditScore;
    const band = score < 600 ? 'below 600' : score < 650 ? '600-649' : score < 700 ? '650-699' : score < 750 ? '700-749' : '750 up';
    const entry = sums.get(band) ?? { sum: 0, n: 0 };
    entry.sum += 1 - request.truth.repayProbability;
    entry.n += 1;
    sums.set(band, entry);
  }
  return new Map([...sums].map(([band, { sum, n }]) => [band, sum / n]));
}

describe('shifted worlds in sandbox export', () => {
  it('writes the same bytes as before when no shift is asked for, or a scale of 1', async () => {
    const plain = await exported('plain', { seed: 4, requests: 200, shape: 'shoppers' });
    const unit = await exported('unit', { seed: 4, requests: 200, shape: 'shoppers', defaultScale: 1, scoreLink: undefined });
    expect(unit.text).toBe(plain.text);
  });

  it('--default-scale multiplies each borrower odds of default, and the realised default share moves with it', async () => {
    const options = { seed: 3, requests: 1500, shape: 'classic' };
    const base = runHeadlessMarket(options);
    const safer = runHeadlessMarket({ ...options, defaultScale: 0.4 });
    let compared = 0;
    for (const [id, request] of base.requests) {
      const shifted = safer.requests.get(id);
      const p = 1 - request.truth.repayProbability;
      const q = 1 - (shifted?.truth.repayProbability ?? Number.NaN);
      // Same borrower, same noise; away from the clamp at 0.005 and 0.99 the odds are exactly 0.4 times.
      if (p > 0.02 && p < 0.98) {
        expect(odds(q) / odds(p)).toBeCloseTo(0.4, 6);
        compared += 1;
      }
      expect(shifted?.borrower).toEqual(request.borrower);
    }
    expect(compared).toBeGreaterThan(1000);

    const share = defaultShare((await exported('base', options)).lines);
    const low = defaultShare((await exported('x0.4', { ...options, defaultScale: 0.4 })).lines);
    const high = defaultShare((await exported('x1.5', { ...options, defaultScale: 1.5 })).lines);
    // Borrowers differ, so the population's odds move a little less than each borrower's.
    expect(odds(low) / odds(share)).toBeGreaterThan(0.4);
    expect(odds(low) / odds(share)).toBeLessThan(0.7);
    expect(odds(high) / odds(share)).toBeGreaterThan(1.2);
    expect(odds(high) / odds(share)).toBeLessThan(1.6);
  });

  it('--score-link changes which borrowers default, not how many', () => {
    const options = { seed: 5, requests: 2500, shape: 'classic' };
    const base = hiddenDefaultByBand(options);
    const bankLed = hiddenDefaultByBand({ ...options, scoreLink: 'bank-led' });
    const peaked = hiddenDefaultByBand({ ...options, scoreLink: 'peaked-middle' });
    const at = (bands: Map<string, number>, band: string): number => bands.get(band) ?? Number.NaN;
    // The shape's own link: the higher the score, the safer.
    expect(at(base, '750 up')).toBeLessThan(at(base, '700-749'));
    // bank-led: the score still sorts borrowers, but less steeply from the bottom band to the top.
    const spread = (bands: Map<string, number>): number => at(bands, 'below 600') - at(bands, '750 up');
    expect(spread(bankLed)).toBeLessThan(spread(base) - 0.02);
    // peaked-middle: the top scores default more than the bands below them, down to 650.
    expect(at(peaked, '750 up')).toBeGreaterThan(at(peaked, '700-749') + 0.05);
    expect(at(peaked, '750 up')).toBeGreaterThan(at(peaked, '650-699'));
    expect(at(peaked, '750 up')).toBeGreaterThan(2 * at(base, '750 up'));
    // And the population's level stays within about two points.
    expect(Math.abs(at(bankLed, 'all') - at(base, 'all'))).toBeLessThan(0.02);
    expect(Math.abs(at(peaked, 'all') - at(base, 'all'))).toBeLessThan(0.02);
  });

  it('the command takes --default-scale and --score-link, says which world it wrote, and refuses bad values', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const io = { stdout, stderr: new PassThrough(), env: {} };
    const file = join(dir, 'cli.jsonl');
    const args = ['node', 'lendbot', 'sandbox', 'export', '--seed', '2', '--requests', '40', '--out', file];
    await buildProgram(io).parseAsync([...args, '--default-scale', '0.7', '--score-link', 'bank-led']);
    expect(out).toMatch(/\nmarket shape classic \(default odds x0\.7, score link bank-led\), seed 2: \d+ borrowers walked away/);
    const quiet = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    await expect(buildProgram(quiet).parseAsync([...args, '--default-scale', '0'])).rejects.toMatchObject({
      message: '--default-scale must be a number above 0 (got "0")',
      exitCode: 2,
    });
    await expect(buildProgram(quiet).parseAsync([...args, '--score-link', 'steep'])).rejects.toMatchObject({
      message: '--score-link must be one of bank-led, peaked-middle (got "steep")',
      exitCode: 2,
    });
  });
});

describe('an unknown score link', () => {
  it('is a RangeError naming the known links, not a crash reading undefined', () => {
    expect(() => shiftedShape(marketShape('classic'), { scoreLink: 'none' as ScoreLinkName })).toThrow(
      /unknown score link "none" \(known: bank-led, peaked-middle\)/,
    );
  });
});

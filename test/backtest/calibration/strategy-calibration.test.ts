/**
 * The strategy's probability on every resolved request it scores (not only its offers), labelled
 * as lendbot train labels lines, and the calibration section of every backtest report: terminal,
 * --json and --html.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareRecording } from '../../../src/backtest/index.js';
import { strategyCalibration, strategyProbabilities } from '../../../src/backtest/calibration/index.js';
import type { RecordingLine } from '../../../src/recording/index.js';
import { compileText } from '../../engine/compile-text.js';
import { recordingLine, writeRecording } from '../recording-fixtures.js';
import { runCli } from '../../cli/run-cli.js';

/** Probability of repayment: logistic(-4 + 0.0075 × credit_score_mid); skips below 0.75, never lends below a 560 score. */
const STRATEGY = (calibration = ''): string => `
filters:
  - feature: credit_score_low
    min: 560
score:
  logistic:
    intercept: -4
    terms:
      - { feature: credit_score_mid, weight: 0.0075 }
${calibration}
  min_probability: 0.75
pricing:
  target_return: 0.05
  ceiling: 0.3
`;

const at = (hour: number): string => new Date(Date.parse('2026-01-01T00:00:00Z') + hour * 3_600_000).toISOString().replace('.000Z', 'Z');
const line = (id: number, low: number, outcome: RecordingLine['outcome']): RecordingLine =>
  recordingLine({
    id,
    seenAt: at(id),
    request: { borrower: { id: 500 + id, credit_score: `${low}-${low + 50}` } },
    ...(outcome ? { outcome } : {}),
  });

const LINES = [
  line(1, 700, { status: 'completed', best_competing_rate: null }), // mid 725: p 0.83, offered
  line(2, 600, { status: 'default', best_competing_rate: null }), // mid 625: p 0.66, skipped at min_probability: still scored
  line(3, 540, { status: 'default', best_competing_rate: null }), // a filter refuses it: not scored
  line(4, 700, { status: 'current' }), // not resolved
  line(5, 700, { status: 'unfunded' }), // not resolved: nobody knows how it would have repaid
  line(6, 660, { status: 'unfunded', if_funded: { status: 'default', repaid_fraction: 0.3 } }), // resolved by if_funded: a default
  line(7, 760, { status: 'collection', best_competing_rate: null }), // a default
  line(8, 760, { status: 'unfunded', if_funded: { status: 'completed', repaid_fraction: 1 } }), // resolved: repaid
];

describe("a strategy's calibration", () => {
  it('scores every resolved request that reaches the score, offered or not, and labels them as train does', () => {
    const found = strategyProbabilities(prepareRecording(LINES), compileText(STRATEGY()));
    expect(found.requests).toBe(8);
    expect(found.resolved).toBe(6);
    expect(found.minProbability).toBe(0.75);
    expect(found.scored.map((item) => [item.loanRequestId, item.defaulted])).toEqual([
      [1, 0],
      [2, 1],
      [6, 1],
      [7, 1],
      [8, 0],
    ]);
    const second = found.scored[1];
    expect(second?.probability).toBeCloseTo(1 / (1 + Math.exp(-(-4 + 0.0075 * 625))), 12);
  });

  it("reads the probability before the strategy's calibration from its calibration line", () => {
    const found = strategyProbabilities(prepareRecording(LINES), compileText(STRATEGY('  calibration: { method: platt, a: 1, b: -1 }')));
    const first = found.scored[0];
    const raw = 1 / (1 + Math.exp(-(-4 + 0.0075 * 725)));
    expect(first?.rawProbability).toBeCloseTo(raw, 12);
    expect(first?.probability).toBeCloseTo(1 / (1 + Math.exp(-(Math.log(raw / (1 - raw)) - 1))), 12);
  });

  it('gives deciles, Brier, the min_probability bands and findings', () => {
    const calibration = strategyCalibration(prepareRecording(LINES), compileText(STRATEGY()));
    expect(calibration).toMatchObject({ strategy: 'inline', requests: 8, resolved: 6, scored: 5, minProbability: 0.75 });
    expect(calibration.overall.realised).toBe(0.6);
    expect(calibration.findings.map((finding) => finding.kind)).toEqual(['overall', 'decile', 'overall', 'brier', 'cut']);
  });

  describe('in the backtest report', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'lendbot-calibration-'));
      await writeRecording(join(dir, 'rec.jsonl'), LINES);
      await writeFile(join(dir, 'mine.yaml'), `name: mine\ndescription: test\nversion: "1"\n${STRATEGY()}`);
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('prints the section, and writes it in --json and --html', async () => {
      const json = join(dir, 'out.json');
      const html = join(dir, 'out.html');
      const result = await runCli([
        'backtest',
        '--data',
        join(dir, 'rec.jsonl'),
        '--strategy',
        join(dir, 'mine.yaml'),
        '--balance',
        '5000',
        '--draws',
        '1',
        '--json',
        json,
        '--html',
        html,
      ]);
      expect(result.code).toBe(0);
      // Under the headline, one line for a strategy whose probability is off overall.
      expect(result.stdout).toMatch(
        /\nwarning: mine's probability is miscalibrated: it predicts \d+\.\d % where 60\.0 % happened \(95 % interval 23\.1-88\.2 %, n=5\): understates default by \d+\.\d points \(see "Calibration" below\)\n/,
      );
      expect(result.stdout).toContain(
        '\nCalibration of mine: predicted against realised default on the 5 resolved requests it scores (of 6 resolved, 8 requests), by decile of predicted default, safest first\n',
      );
      expect(result.stdout).toMatch(/\n {2}decile +n +predicted range +predicted +realised +95 % interval\n/);
      expect(result.stdout).toMatch(
        /\n {2}off: overall: predicts \d+\.\d % where 60\.0 % happened \(95 % interval 23\.1-88\.2 %, n=5\): understates default by \d+\.\d points\n/,
      );
      expect(result.stdout).toContain(
        '  just below min_probability 0.75 (scored 0.70-0.75): no request; just above (0.75-0.80): 100.0 % (95 % interval 20.7-100.0 %, n=1, predicted 24.3 %)\n',
      );
      expect(result.stdout).toContain(
        '  off: Brier score 0.3649 against 0.2400 for a constant guess at the base rate 60.0 % (n=5): no better than the constant guess\n',
      );
      const report = JSON.parse(await readFile(json, 'utf8')) as {
        runs: Array<{ calibration: Array<{ strategy: string; scored: number; deciles: unknown[] }> }>;
      };
      expect(report.runs[0]?.calibration[0]).toMatchObject({ strategy: 'mine', scored: 5 });
      expect(report.runs[0]?.calibration[0]?.deciles).toHaveLength(5);
      const page = await readFile(html, 'utf8');
      expect(page).toContain('<h2>Calibration: predicted against realised default</h2>');
      expect(page).toMatch(/<li class="off"><strong>Off:<\/strong> overall: predicts \d+\.\d % where 60\.0 % happened/);
    });
  });
});

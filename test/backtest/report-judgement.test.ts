/**
 * What a report says it can and cannot judge: a run whose offers the recording could not judge is
 * named so in the verdict and compared with nothing; the sensitivity section says when the take-up
 * curve it varies judged no offer (or which share it judged); the headline says what it is and
 * what each borrower world changes.
 */
import { describe, expect, it } from 'vitest';
import {
  backtestHtml,
  headlineExplained,
  prepareRecording,
  runBacktest,
  runDraws,
  runWorlds,
  sensitivityNote,
  verdictLine,
  type BacktestResult,
} from '../../src/backtest/index.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { CERTAIN_MARKET, syntheticRecording } from './recording-fixtures.js';
import { flatStrategy, FLAT_STRATEGY_YAML } from './strategy-fixtures.js';

const lines = syntheticRecording(120, 5, (low, random) => (random() < 0.2 ? 0.3 : 1));
/** Acceptance recorded on every line (even: the borrower takes up to 0.25; odd: up to 0.10, so our 0.12 is declined). */
const recorded = (line: RecordingLine, i: number): RecordingLine => ({
  ...line,
  outcome: { status: 'completed', ...line.outcome, reservation_rate: i % 2 === 0 ? 0.25 : 0.1 },
});
const withoutOutcome = (line: RecordingLine): RecordingLine => {
  const { outcome: _unknown, ...seen } = line;
  return seen;
};
const settings = { startingBalanceCents: 10_000_000, market: { prepayment: { share: 0, atTermFraction: 0.5 } } };
const flat = flatStrategy();
const strict = flatStrategy(FLAT_STRATEGY_YAML.replace('name: flat', 'name: strict'), 'strict.yaml');
const run = (recording: readonly RecordingLine[], strategy = flat): BacktestResult => runBacktest(recording, [strategy], settings);

describe('a run the recording cannot judge', () => {
  it('is named so in the verdict and compared with nothing, beside a run that can be judged', () => {
    const judged = run(lines);
    const blind = run(lines.map(withoutOutcome), strict);
    expect(blind.summary.offers).toBeGreaterThan(0);
    expect(blind.summary.unjudgedOffers).toBe(blind.summary.offers);
    const verdict = verdictLine([judged, blind]) ?? '';
    expect(verdict).toMatch(/^flat earned -?[\d.]+% a year net on its capital, (not )?beating uninvested cash \(0%\);/);
    expect(verdict).not.toContain('ahead of strict');
    expect(verdict).not.toContain('level with');
    expect(verdict).toMatch(
      new RegExp(
        `; strict cannot be judged: all ${blind.summary.offers} of its offers were on requests the recording has no outcome for, so nothing says whether a borrower would have taken one or how the loan would have repaid$`,
      ),
    );
  });

  it('alone: the verdict says so and what to backtest instead', () => {
    const blind = run(lines.map(withoutOutcome));
    expect(verdictLine([blind])).toBe(
      `flat cannot be judged: all ${blind.summary.offers} of its offers were on requests the recording has no outcome for, so nothing says whether a borrower would have taken one or how the loan would have repaid (a daemon's own export knows only the outcomes of its own loans, a dry run's none: backtest a recording with outcomes, such as one from lendbot sandbox export)`,
    );
  });
});

describe('the sensitivity section', () => {
  it('has nothing to vary where every answered offer was judged by the recorded rate, and says so instead of repeating one figure', () => {
    const result = run(lines.map(recorded));
    expect(result.offerStats[0]?.recordedAcceptance).toBeGreaterThan(0);
    expect(sensitivityNote(result)).toEqual({
      replacesTable: true,
      text: 'Sensitivity: none to show: every offer the recording could judge was judged by the highest rate its borrower recorded (reservation_rate), not by the take-up curve, so varying the curve would repeat the headline; the band across borrower worlds shows what borrowers who answer differently would do',
    });
    const draws = runDraws(prepareRecording(lines.map(recorded)), [flat], settings, [1]).draws;
    const page = backtestHtml([result], 'rec.jsonl', [draws], [], { sensitivity: [[]] });
    expect(page).toContain('<h2>Sensitivity</h2>');
    expect(page).toContain(
      '<p class="sensitivity-note">Sensitivity: none to show: every offer the recording could judge was judged by the highest rate its borrower recorded',
    );
    expect(page).not.toContain('<table class="sensitivity">');
  });

  it('says which share of the offers the curve judged when the recording records some answers', () => {
    const mixed = lines.map((line, i) => (i < 60 ? recorded(line, i) : line));
    const result = run(mixed);
    const stats = result.offerStats[0];
    const answered = (stats?.won ?? 0) + (stats?.outbid ?? 0) + (stats?.declined ?? 0);
    const byCurve = answered - (stats?.recordedAcceptance ?? 0);
    expect(byCurve).toBeGreaterThan(0);
    expect(byCurve).toBeLessThan(answered);
    expect(sensitivityNote(result)).toEqual({
      replacesTable: false,
      text: `The take-up curve judged ${byCurve} of the ${answered} answered offers (${((byCurve / answered) * 100).toFixed(1)}%, first draw); the others were judged by the highest rate their borrower recorded, the same in every row`,
    });
  });

  it('needs no note where the curve judged every offer', () => {
    expect(sensitivityNote(run(lines))).toBeNull();
  });
});

describe('the headline beside the band', () => {
  it('says what the headline is and what each world changes, for each kind of recording', () => {
    const explain = (recording: readonly RecordingLine[]): string =>
      headlineExplained(runWorlds(prepareRecording(recording), [flat], settings, [1]));
    expect(explain(lines.map(recorded))).toMatch(
      /^The headline \(-?[\d.]+%\) is the recording's truth: every request records the highest rate its borrower would accept \(reservation_rate\), and each offer is judged by it; each world replaces every borrower's answer with its own rule, whatever the recording says: what the strategy would earn where borrowers answer a rate differently$/,
    );
    expect(explain(lines)).toMatch(
      /^The headline \(-?[\d.]+%\) judges each offer by the assumed take-up curve, given what the recorded borrower did \(one who took a competitor's rate takes any cheaper offer\); each world replaces every borrower's answer with its own rule, whatever the recording says, so even the assumed world differs from the headline where the recording names a competing offer$/,
    );
    expect(explain(lines.map((line, i) => (i < 30 ? recorded(line, i) : line)))).toMatch(
      /^The headline \(-?[\d.]+%\) judges offers on the 25\.0% of requests that record the highest rate their borrower would accept by that rate, and the others by the assumed take-up curve/,
    );
  });

  it('counts one funded loan as "1 loan", not "1 loans"', () => {
    const one = runBacktest(
      syntheticRecording(1, 3, () => 1),
      [flatStrategy()],
      { startingBalanceCents: 100_000, market: CERTAIN_MARKET },
    );
    expect(one.summary.funded).toBe(1);
    expect(verdictLine([one])).toMatch(/; only 1 loan funded: too few to judge$/);
  });
});

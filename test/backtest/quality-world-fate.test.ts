/**
 * The quality-tied world must not read the recorded fate (docs/backtesting.md, "A band across
 * borrower worlds"): a strategy that refuses exactly the borrowers who later defaulted, which no
 * strategy can know before it lends, gains no more against a random refuser of the same size in
 * that world than in the others. When the world's quality was half the recorded fate, those
 * borrowers were the ones who took any rate, so refusing them looked far better there.
 */
import { describe, expect, it } from 'vitest';
import { borrowerWorlds, groupDefaultRates, latentQuality, type WorldName } from '../../src/backtest/borrower-worlds.js';
import { worldGroupOf } from '../../src/backtest/world-facts.js';
import { DEFAULT_MARKET } from '../../src/backtest/market-model.js';
import { prepareRecording, runBacktest } from '../../src/backtest/index.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { FLAT_20_YAML } from './hand-recording.js';
import { syntheticRecording } from './recording-fixtures.js';
import { flatStrategy } from './strategy-fixtures.js';

// A fifth of the borrowers default, whatever their credit score: only the recorded fate tells
// them apart. The defaulters carry 9 hard inquiries (a mark the worlds never read), a random set
// of the same size one derogatory mark, so one filter refuses each.
function markedRecording(): RecordingLine[] {
  const lines = syntheticRecording(1200, 5, (_low, random) => (random() < 0.2 ? 0.3 : 1));
  const defaulters = lines.filter((line) => line.outcome?.status === 'default').length;
  const pick = seededRandom(17);
  const randomIds = new Set<number>();
  while (randomIds.size < defaulters) randomIds.add(lines[Math.floor(pick() * lines.length)]!.loan_request.id);
  return lines.map((line) => ({
    ...line,
    loan_request: {
      ...line.loan_request,
      borrower: {
        ...line.loan_request.borrower,
        hard_inquiries: line.outcome?.status === 'default' ? 9 : 0,
        deregatory_mark: randomIds.has(line.loan_request.id) ? 1 : 0,
      },
    },
  }));
}

const refusing = (feature: string, name: string) =>
  flatStrategy(
    FLAT_20_YAML.replace('value: 560', 'value: 540')
      .replace('name: flat', `name: ${name}`)
      .replace('filters:\n', `filters:\n  - feature: ${feature}\n    max: 0\n`),
    `${name}.yaml`,
  );
const knowsFates = refusing('hard_inquiries', 'knows-fates');
const refusesAtRandom = refusing('derogatory_marks', 'random-refuser');

const recording = prepareRecording(markedRecording());
const worlds = borrowerWorlds(recording, DEFAULT_MARKET.response);
const options = { startingBalanceCents: 100_000_000, market: { prepayment: { share: 0, atTermFraction: 0.5 } } };
const SEEDS = [1, 2, 3];

/** Net profit per funded loan, in cents, over the seeds, of `strategy` in `world`: how good its loans are, whatever their number. */
function profitPerLoan(strategy: typeof knowsFates, world: WorldName): number {
  const found = worlds.find((w) => w.name === world);
  let net = 0;
  let funded = 0;
  for (const seed of SEEDS) {
    const { summary } = runBacktest(recording, [strategy], { ...options, market: { ...options.market, seed }, world: found });
    net += summary.netCents;
    funded += summary.funded;
  }
  return net / funded;
}

describe('the quality-tied world does not read the recorded fate', () => {
  it('gives a strategy that refuses exactly the later defaulters no more edge over a random refuser than the other worlds do', () => {
    const edge = Object.fromEntries(
      (['insensitive', 'linear', 'quality', 'assumed'] as const).map((w) => [
        w,
        profitPerLoan(knowsFates, w) - profitPerLoan(refusesAtRandom, w),
      ]),
    ) as Record<WorldName, number>;
    // Measured: the edge per funded loan is 80.46 (assumed), 81.10 (linear), 81.98 (insensitive)
    // and 83.47 USD in the quality world; reading the fate, the quality world gave 128.91.
    const others = [edge.insensitive, edge.linear, edge.assumed];
    expect(edge.quality).toBeLessThan(1.1 * Math.max(...others));
    expect(edge.quality).toBeGreaterThan(0.9 * Math.min(...others));
  });

  it('ties acceptance to nothing the recording hides: the random refuser’s loans default as often as its offers', () => {
    const quality = worlds.find((w) => w.name === 'quality');
    const stats = runBacktest(recording, [refusesAtRandom], { ...options, recordDecisions: true, world: quality }).offerStats[0];
    // Reading the fate, the funded loans defaulted 32.3 % against 21.1 % of the offers (ratio 1.53, 95 % 1.30 to 1.81).
    expect(stats?.fundedDefault.n).toBeGreaterThan(500);
    expect(stats?.adverseSelection.low).toBeLessThan(1);
    expect(stats?.adverseSelection.high).toBeGreaterThan(1);
  });

  it('draws each borrower’s latent quality around their group’s default rate, the same for the same seed', () => {
    const groups = groupDefaultRates(recording);
    const lines = recording.entries.map(({ line }) => line);
    const rateOf = (line: (typeof lines)[number]): number => groups.get(worldGroupOf(line)) ?? 0;
    const draw = (seed: number) => lines.map((line) => latentQuality(rateOf(line), seed, line.loan_request.id));
    expect(draw(1)).toEqual(draw(1));
    expect(draw(2)).not.toEqual(draw(1));
    // The logistic draw's median is zero: half the borrowers sit above their group's rate.
    const above = lines.filter((line, i) => (draw(1)[i] ?? 0) > rateOf(line)).length;
    expect(Math.abs(above / lines.length - 0.5)).toBeLessThan(0.05);
    // Around a group rate of 0.2, half the borrowers lie between 0.13 and 0.30 (logit ± 0.5 × ln 3).
    const sorted = lines.map((line) => latentQuality(0.2, 1, line.loan_request.id)).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 4)]).toBeCloseTo(0.126, 1);
    expect(sorted[Math.floor((3 * sorted.length) / 4)]).toBeCloseTo(0.302, 1);
    const quality = worlds.find((w) => w.name === 'quality');
    const line = recording.entries[0]!.line;
    expect(quality?.reservation(line, 4)).toBe(quality?.reservation(line, 4));
  });
});

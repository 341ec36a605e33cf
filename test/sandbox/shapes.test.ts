import { describe, expect, it } from 'vitest';
import { featureByName } from '../../src/engine/index.js';
import { featureSource } from '../../src/engine/features/feature-source.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { MARKET_SHAPES, marketShape, runHeadlessMarket } from '../../src/sandbox/index.js';
import { exportedLines } from './exported-lines.js';
import { tempDirForFile } from '../temp-dir.js';

const dir = tempDirForFile('lendbot-sandbox-shapes-');
const SHAPES = Object.values(MARKET_SHAPES);
const REQUESTS = 2000;

/** Whether the borrower defaulted, on the loan made or on the loan nobody made; undefined when unknown (canceled). */
function defaulted(line: RecordingLine): boolean | undefined {
  const outcome = line.outcome;
  const status = outcome?.status === 'unfunded' ? outcome.if_funded?.status : outcome?.status;
  return status === undefined ? undefined : status === 'default';
}

/**
 * How far default rates spread over a feature, as the engine computes it from the recording:
 * the default rate of the riskiest fifth minus that of the safest fifth, in the shape's direction.
 */
function spread(lines: RecordingLine[], feature: string, riskierWhen: 'higher' | 'lower'): number {
  const definition = featureByName(feature);
  if (!definition) throw new Error(`no feature ${feature}`);
  const rows: Array<{ value: number; bad: number }> = [];
  for (const line of lines) {
    const bad = defaulted(line);
    const value = definition.compute(featureSource(line.loan_request, line.data_aggs ? { bankingData: line.data_aggs } : {}));
    if (bad !== undefined && typeof value === 'number') rows.push({ value, bad: bad ? 1 : 0 });
  }
  rows.sort((a, b) => a.value - b.value);
  const fifth = Math.floor(rows.length / 5);
  const rate = (part: typeof rows): number => part.reduce((sum, row) => sum + row.bad, 0) / part.length;
  const low = rate(rows.slice(0, fifth));
  const high = rate(rows.slice(rows.length - fifth));
  return riskierWhen === 'higher' ? high - low : low - high;
}

describe('market shapes', () => {
  it('offers at least three shapes, the classic one first, and refuses an unknown name', () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(4);
    expect(SHAPES[0]?.name).toBe('classic');
    expect(new Set(SHAPES.map((shape) => shape.mainDriver.feature)).size).toBeGreaterThanOrEqual(3);
    expect(() => marketShape('prime')).toThrow(
      'unknown market shape "prime" (known: classic, credit, burden, volatility, shoppers, urgent)',
    );
  });

  it.each(SHAPES.map((shape) => [shape.name]))('%s: between 10 and 30 percent of borrowers default, and of funded loans', (name) => {
    const market = runHeadlessMarket({ seed: 31, requests: REQUESTS, shape: name });
    const requests = [...market.requests.values()];
    const loans = [...market.loanBook.loans.values()];
    const drawn = requests.filter((r) => r.truth.missedMonth !== null).length / requests.length;
    const funded = loans.filter((loan) => loan.status === 'default').length / loans.length;
    expect(requests).toHaveLength(REQUESTS);
    expect(loans.length).toBeGreaterThan(0.3 * REQUESTS);
    expect(drawn).toBeGreaterThan(0.1);
    expect(drawn).toBeLessThan(0.3);
    expect(funded).toBeGreaterThan(0.1);
    expect(funded).toBeLessThan(0.3);
  });

  it('makes each shape’s main driver separate defaults, more than in shapes driven by something else', async () => {
    const lines = new Map<string, RecordingLine[]>();
    for (const shape of SHAPES) lines.set(shape.name, await exportedLines(dir, shape.name, 32, REQUESTS));
    const candidates = [...new Set(SHAPES.map((shape) => shape.mainDriver.feature))];
    const directions = new Map(SHAPES.map((shape) => [shape.mainDriver.feature, shape.mainDriver.defaultsRiseWith]));
    for (const shape of SHAPES) {
      const own = lines.get(shape.name) ?? [];
      const { feature, defaultsRiseWith } = shape.mainDriver;
      const main = spread(own, feature, defaultsRiseWith);
      // The riskiest fifth defaults at least 30 points more often than the safest.
      expect(main, `${shape.name} ${feature}`).toBeGreaterThan(0.3);
      // No other candidate driver separates as well in this shape.
      for (const other of candidates.filter((name) => name !== feature)) {
        expect(spread(own, other, directions.get(other) ?? 'higher'), `${shape.name}: ${other} against ${feature}`).toBeLessThan(
          main - 0.05,
        );
      }
      // The same feature separates clearly less where another driver rules.
      for (const elsewhere of SHAPES.filter((s) => s.mainDriver.feature !== feature)) {
        const there = spread(lines.get(elsewhere.name) ?? [], feature, defaultsRiseWith);
        expect(there, `${feature} in ${elsewhere.name} against ${shape.name}`).toBeLessThan(main - 0.1);
      }
    }
  });
});

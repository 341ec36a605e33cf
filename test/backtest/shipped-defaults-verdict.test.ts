/** The verdict lines and the world grid of bench/shipped-defaults.ts. */
import { describe, expect, it } from 'vitest';
import type { CalibrationFigure, StrategyFigures, WorldFigures } from '../../bench/shipped-defaults-figures.js';
import type { MoonshotFigure } from '../../bench/reference-strategies.js';
import { reachesMoonshot, verdictLine } from '../../bench/shipped-defaults-verdict.js';
import { worldSpecs } from '../../bench/shipped-defaults-worlds.js';
import { columnSourceOf } from '../../src/engine/compile/compile-strategy.js';
import { loadStrategyFile } from '../../src/engine/index.js';

const calibration = (predicted: number, realised: number): CalibrationFigure => ({
  n: 1000,
  predicted,
  realised,
  brier: 0.15,
  constantBrier: 0.16,
});
const run = (net: number, funded = 50): { net: number; funded: number } => ({ net, funded });

function strategyFigures(
  net: number,
  grades?: Record<string, number>,
  moonshot: MoonshotFigure = { net: 0.1, funded: 40, hurdle: 0.2, level: 'learned' },
): StrategyFigures {
  return {
    strategy: 'balanced',
    all: run(net),
    heldOut: run(net),
    twin: { all: run(net + 0.004), heldOut: run(net + 0.004) },
    dataSpendCents: { all: 0, heldOut: 0 },
    fundedDefault: { defaults: 7, n: 100, rate: 0.07, low: 0.03, high: 0.14 },
    populationDefault: { defaults: 52, n: 1000, rate: 0.052, low: 0.04, high: 0.07 },
    idle: 0.5,
    held: 0.01,
    calibration: calibration(0.2, 0.19),
    secondHalf: calibration(0.2, 0.17),
    learnedLoans: undefined,
    grades,
    moonshot,
  };
}

function worldFigures(figure: StrategyFigures, yardstick?: WorldFigures['yardstick']): WorldFigures {
  const figures: WorldFigures = {
    strategies: [figure],
    naive: { all: run(-0.05), heldOut: run(-0.04) },
    oracle: { ...run(0.2), hurdle: 0.1 },
    trained: run(0.04),
  };
  if (yardstick !== undefined) figures.yardstick = yardstick;
  return figures;
}

describe('shipped defaults verdict', () => {
  it('passes a goal only when it holds in every world it applies to, and says in how many', () => {
    const [shoppersSafe, shoppersRisky, urgent] = worldSpecs({ worlds: ['shoppers', 'urgent'], seeds: [1], scales: [1, 1.5], links: [] });
    expect([shoppersSafe?.name, shoppersRisky?.name, urgent?.name]).toEqual(['shoppers-1', 'shoppers-1 default odds x1.5', 'urgent-1']);
    const line = verdictLine('balanced', [
      { world: shoppersSafe!, figures: worldFigures(strategyFigures(0.06)) },
      { world: shoppersRisky!, figures: worldFigures(strategyFigures(0.05)) },
      { world: urgent!, figures: worldFigures(strategyFigures(0.1)) },
    ]);
    expect(line).toContain('>= 5.5 % where better borrowers shop: FAIL (2 of 4)');
    expect(line).toContain('>= twin - 0.5 there: ok (4 of 4)');
    expect(line).toContain('beats naive: ok (3 of 3)');
    // Second half: 20 % predicted against 17 % realised, 3 points off, in every world.
    expect(line).toContain('calibrated within 2 points on the second half: FAIL (0 of 3)');
    expect(line).toContain('LendingClub funds A-C: n/a');
    // The moonshot earns 10 %: 6 % is 60 % of it, 5 % is not.
    expect(line).toContain('>= 60 % of moonshot: FAIL (2 of 3)');
  });

  it('asks for 60 % of the moonshot where it earns, at least its return where it does not, and skips worlds without one', () => {
    expect(reachesMoonshot(0.06, 0.1)).toBe(true);
    expect(reachesMoonshot(0.059, 0.1)).toBe(false);
    // 60 % of a loss would ask for less than the loss: the strategy must do at least as well.
    expect(reachesMoonshot(-0.03, -0.02)).toBe(false);
    expect(reachesMoonshot(-0.01, -0.02)).toBe(true);
    const [shoppers, lendingClub] = worldSpecs({ worlds: ['shoppers', 'lending-club'], seeds: [1], scales: [1], links: [] });
    const line = verdictLine('balanced', [
      { world: shoppers!, figures: worldFigures(strategyFigures(0.07)) },
      { world: lendingClub!, figures: worldFigures(strategyFigures(0.03, undefined, { none: 'no reservation rate recorded' })) },
    ]);
    expect(line).toContain('>= 60 % of moonshot: ok (1 of 1)');
  });

  it('judges the shoppers goal against the yardstick on the same world and period too, keeping the absolute 5.5 %', () => {
    const [shoppers, shoppersRisky, urgent] = worldSpecs({ worlds: ['shoppers', 'urgent'], seeds: [1], scales: [1, 1.5], links: [] });
    const proxy = '>= yardstick there (our proxy: the pre-recalibration default on the same world)';
    const line = verdictLine('balanced', [
      // 3 % over the whole recording and held out, against the yardstick's 2.5 % and 3.5 %.
      { world: shoppers!, figures: worldFigures(strategyFigures(0.03), { all: run(0.025, 120), heldOut: run(0.035, 40) }) },
      // A tie holds ("at least").
      { world: shoppersRisky!, figures: worldFigures(strategyFigures(-0.01), { all: run(-0.01), heldOut: run(-0.02) }) },
      // Not a shoppers world: the urgent yardstick's 20 % is not held against it.
      { world: urgent!, figures: worldFigures(strategyFigures(0.1), { all: run(0.2), heldOut: run(0.2) }) },
    ]);
    expect(line).toContain(`${proxy}: FAIL (3 of 4)`);
    expect(line).toContain('>= 5.5 % where better borrowers shop: FAIL (0 of 4)');
    // Without a yardstick (--yardstick ''), the line says n/a rather than passing.
    const without = verdictLine('balanced', [{ world: shoppers!, figures: worldFigures(strategyFigures(0.06)) }]);
    expect(without).toContain(`${proxy}: n/a`);
    expect(without).toContain('>= 5.5 % where better borrowers shop: ok (2 of 2)');
  });

  it("runs the pre-recalibration default as the yardstick: balanced 2.0.0's file, at the scorecard's own level, learning nothing", async () => {
    const yardstick = await loadStrategyFile('test/fixtures/balanced-2.0.0.yaml');
    expect([yardstick.name, yardstick.version]).toEqual(['balanced', '2.0.0']);
    expect(yardstick.params).toEqual({ min_credit_score: 600, max_burden: 0.35, min_probability: 0.7, target_return: 0.08 });
    const definition = columnSourceOf(yardstick)?.definition;
    expect(definition?.score?.calibration).toBeUndefined();
    expect(definition?.pricing?.learning).toBeUndefined();
    expect(definition?.pricing?.mode).toBe('expected_profit');
  });

  it('on LendingClub asks for loans on each of grades A, B and C, a funded default at most 1.5x the population and a positive net', () => {
    const [lendingClub] = worldSpecs({ worlds: ['lending-club'], seeds: [1, 2], scales: [1], links: ['bank-led'] });
    const judged = (grades: Record<string, number>) => [{ world: lendingClub!, figures: worldFigures(strategyFigures(0.03, grades)) }];
    const funds = verdictLine('balanced', judged({ A: 3, B: 5, C: 1, D: 0, E: 0, F: 0, G: 0 }));
    expect(funds).toContain('LendingClub funds A-C: ok (1 of 1)');
    expect(funds).toContain('LendingClub funded default <= 1.5x population: ok (1 of 1)');
    expect(funds).toContain('LendingClub net > 0: ok (1 of 1)');
    expect(verdictLine('balanced', judged({ A: 0, B: 5, C: 1, D: 0, E: 0, F: 0, G: 0 }))).toContain('LendingClub funds A-C: FAIL (0 of 1)');
  });
});

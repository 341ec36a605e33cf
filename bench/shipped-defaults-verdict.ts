/**
 * Issue 35's goals as checks on bench/shipped-defaults.ts's figures, one line per strategy: each
 * goal passes only when it holds in every world it applies to, and says in how many it held.
 *
 * - where better borrowers shop (the `shoppers` worlds): at least 5.5 % a year, and at least its
 *   cost-plus twin less 0.5 points, over the whole recording and held out; and, our proxy for
 *   the 5.5 % (the goal's "its level before the recalibration"), at least what the yardstick (the
 *   pre-recalibration default, `balanced` 2.0.0) earns on the same world and period. Our shoppers
 *   worlds are harsher than the evaluator's market: the file that earned 5.5-5.7 % there earns
 *   -2.8 to 4.5 % in them (docs/shipped-defaults.md), so the absolute line fails for every version and
 *   says nothing about which is better; both lines are kept;
 * - in every world: beats naive max-rate (whole recording); its Brier score better than a
 *   constant guess (whole recording); predicted default within 2 points of realised on the
 *   second half;
 * - LendingClub: funds loans on each of grades A, B and C, its funded loans default at most 1.5
 *   times the population's rate, and its net is positive;
 * - the moonshot: at least 60 % of the moonshot lender's return (the same strategy knowing every
 *   reservation rate and competing offer, not the outcomes) in every world that records
 *   reservation rates; where the moonshot earns nothing, at least its return.
 */
import type { WorldFigures } from './shipped-defaults-figures.js';
import { LENDING_CLUB, type WorldSpec } from './shipped-defaults-worlds.js';

export const SHOPPERS_FLOOR = 0.055;
export const TWIN_SLACK = 0.005;
export const CALIBRATION_POINTS = 0.02;
export const FUNDED_DEFAULT_RATIO = 1.5;
export const MOONSHOT_SHARE = 0.6;

export interface JudgedWorld {
  world: WorldSpec;
  figures: WorldFigures;
}

interface Check {
  goal: string;
  held: number;
  cells: number;
}

/** "ok" or "FAIL", with how many of the cells held; "n/a" when no world applies. */
function checkText({ goal, held, cells }: Check): string {
  if (cells === 0) return `${goal}: n/a`;
  return `${goal}: ${held === cells ? 'ok' : 'FAIL'} (${held} of ${cells})`;
}

/**
 * Whether `net` is at least MOONSHOT_SHARE of the moonshot's: a share of a loss or of nothing
 * means nothing, so where the moonshot earns nothing or loses, the strategy must do at least as well.
 */
export function reachesMoonshot(net: number, moonshot: number): boolean {
  return moonshot > 0 ? net >= MOONSHOT_SHARE * moonshot : net >= moonshot;
}

/** The checks of one strategy over every world, one line. */
export function verdictLine(strategy: string, worlds: readonly JudgedWorld[]): string {
  const mine = worlds.flatMap(({ world, figures }) => {
    const figure = figures.strategies.find((s) => s.strategy === strategy);
    return figure ? [{ world, figures, figure }] : [];
  });
  const count = (goal: string, cells: Array<boolean | undefined>): Check => {
    const known = cells.filter((cell) => cell !== undefined);
    return { goal, held: known.filter(Boolean).length, cells: known.length };
  };
  const shoppers = mine.filter(({ world }) => world.kind === 'shoppers');
  const both = (test: (period: 'all' | 'heldOut') => boolean): boolean[] => [test('all'), test('heldOut')];
  const lendingClub = mine.filter(({ world }) => world.kind === LENDING_CLUB);
  const checks: Check[] = [
    count(
      `>= ${SHOPPERS_FLOOR * 100} % where better borrowers shop`,
      shoppers.flatMap(({ figure }) => both((p) => figure[p].net >= SHOPPERS_FLOOR)),
    ),
    count(
      '>= twin - 0.5 there',
      shoppers.flatMap(({ figure }) => both((p) => figure[p].net >= figure.twin[p].net - TWIN_SLACK)),
    ),
    count(
      '>= yardstick there (our proxy: the pre-recalibration default on the same world)',
      shoppers.flatMap(({ figure, figures: { yardstick } }) =>
        yardstick === undefined ? [] : both((p) => figure[p].net >= yardstick[p].net),
      ),
    ),
    count(
      'beats naive',
      mine.map(({ figure, figures }) => figure.all.net > figures.naive.all.net),
    ),
    count(
      'Brier < constant',
      mine.map(({ figure }) => (figure.calibration.n === 0 ? undefined : figure.calibration.brier < figure.calibration.constantBrier)),
    ),
    count(
      `calibrated within ${CALIBRATION_POINTS * 100} points on the second half`,
      mine.map(({ figure }) =>
        figure.secondHalf.n === 0 ? undefined : Math.abs(figure.secondHalf.predicted - figure.secondHalf.realised) <= CALIBRATION_POINTS,
      ),
    ),
    count(
      `>= ${MOONSHOT_SHARE * 100} % of moonshot`,
      mine.map(({ figure }) => ('none' in figure.moonshot ? undefined : reachesMoonshot(figure.all.net, figure.moonshot.net))),
    ),
    count(
      'LendingClub funds A-C',
      lendingClub.map(({ figure }) => ['A', 'B', 'C'].every((grade) => (figure.grades?.[grade] ?? 0) > 0)),
    ),
    count(
      `LendingClub funded default <= ${FUNDED_DEFAULT_RATIO}x population`,
      lendingClub.map(({ figure }) => {
        const funded = figure.fundedDefault.rate;
        const population = figure.populationDefault.rate;
        return funded === null || population === null ? false : funded <= FUNDED_DEFAULT_RATIO * population;
      }),
    ),
    count(
      'LendingClub net > 0',
      lendingClub.map(({ figure }) => figure.all.net > 0),
    ),
  ];
  return `${strategy}: ${checks.map(checkText).join('; ')}`;
}
